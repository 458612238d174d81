"""Sentinels for symbols that have no value yet, and the load that checks them.

Contract:
- `Undefined(name)` stands for the local `name` before it is bound. Converted code may
  pass it around (into `get_state`/`set_state`, through operators), but any other use
  (attribute access, arithmetic, comparison, `bool`, iteration, calling, indexing,
  `str`) raises `UndefinedSymbolError`, an `UnboundLocalError` naming the symbol.
- `ld(value)` returns `value`, or raises that error when it is an `Undefined`;
  `ld(value, free=True)`, a closure's load, raises `UndefinedFreeVariableError`, a
  `NameError` with Python's message for a free variable not bound yet.
- `ldu(load, name)` returns `load()`, or `Undefined(name)` when the dict item or
  attribute `name` it reads does not exist yet (`get_state` reads `d['k']`, `obj.x`
  this way: a staged statement may be what creates them).
- `UndefinedReturnValue()` is the initial value of a lowered `retval_`: a function
  that returns it after a staged branch never returned on that path.
"""


class UndefinedSymbolError(UnboundLocalError):
    """A symbol holding an `Undefined` was read. `symbol_name` says which one."""

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name
        super().__init__(f"local variable '{symbol_name}' is used before it is assigned")


class UndefinedFreeVariableError(NameError):
    """A closure read a variable of an enclosing function that holds an `Undefined`."""

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name
        super().__init__(f"cannot access free variable '{symbol_name}' where it is not "
                         "associated with a value in enclosing scope")


class Undefined:
    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name):
        object.__setattr__(self, "symbol_name", symbol_name)

    def __repr__(self):
        # Stays usable: debuggers and error messages print sentinels.
        return f"Undefined({self.symbol_name!r})"

    def __getattr__(self, attr):
        # Only reached for attributes the sentinel does not have, i.e. the user's.
        raise UndefinedSymbolError(self.symbol_name)

    def __setattr__(self, attr, value):
        raise UndefinedSymbolError(self.symbol_name)

    # Without an explicit __hash__, defining __eq__ below would make sentinels unhashable.
    __hash__ = object.__hash__


def _refuse(self, *args, **kwargs):
    raise UndefinedSymbolError(self.symbol_name)


# Every protocol an unbound name could be used through; the Python operators, too,
# so `x + 1` with an undefined `x` names `x` instead of saying "unsupported operand".
_FORBIDDEN = (
    "__bool__", "__len__", "__iter__", "__call__", "__getitem__", "__setitem__",
    "__delitem__", "__contains__", "__str__", "__format__", "__int__", "__float__",
    "__index__", "__complex__", "__neg__", "__pos__", "__abs__", "__invert__",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__enter__",
    "__array__")
_BINARY = ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow", "lshift",
           "rshift", "and", "or", "xor")
for _name in _FORBIDDEN + tuple(f"__{p}{op}__" for op in _BINARY for p in ("", "r", "i")):
    setattr(Undefined, _name, _refuse)


def ld(value, free=False):
    """A load of a symbol that may be undefined; `free` for a closure's load."""
    if isinstance(value, Undefined):
        error = UndefinedFreeVariableError if free else UndefinedSymbolError
        raise error(value.symbol_name)
    return value


def ldu(load, name):
    try:
        return load()
    except (KeyError, IndexError, AttributeError, NameError):
        return Undefined(name)


class UndefinedReturnValue:
    """The value of `retval_` on a path of the function that has not returned yet."""

    __slots__ = ()

    def __repr__(self):
        return "UndefinedReturnValue()"
