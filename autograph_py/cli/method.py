"""Methods named through their class: `autograph graph -f Model.step`.

Contract of `resolve_method(owner, attribute, value, *, name, path, module, specs_count,
instance_expr) -> callable`:
- `owner.attribute` is `value`, found by `-f`. It is a method to trace on an instance
  when `owner` is a class and the attribute is a function Python binds to instances (a
  `def` in the class body, an `ag.function` one included; not a `staticmethod` or a
  `classmethod`, which trace as they are) whose first parameter is `self`, or whose
  signature fits the `--signature` only with one more argument in front (`this`). A class
  used as a namespace of plain functions (`Ops.add(x, y)`) keeps them traceable as such.
- With `--instance EXPR`, EXPR is evaluated in FILE's namespace (after the import) and
  must give an instance of `owner`; the method bound to it is returned. That code runs
  because the user typed it: the command never constructs an object unasked (its
  contract is to run FILE's top-level code, and a class's `__init__` is not part of it).
- Without it, `UsageError` at the method's `file:line`: `error:` it needs an instance, and
  how to give one: an instance FILE makes at its top level (`-f model.step`), or
  `--instance "Model()"` with the constructor's required parameters spelled out.
- `--instance` for anything else than such a method is a `UsageError`; an EXPR that does
  not parse is a `UsageError`, one that raises a `Problem` (at FILE's line when the
  traceback passes through FILE, else at the class's line).
"""

import inspect

from autograph_py.cli.locate import definition, describe, format_location, user_line
from autograph_py.cli.render import Problem
from autograph_py.cli.source import UsageError


def resolve_method(owner, attribute, value, *, name, path, module, specs_count,
                   instance_expr):
    """`name` is the -f text, `path` FILE, `module` its imported module, `specs_count` the
    number of --signature specs."""
    if not _is_unbound_method(owner, attribute, specs_count):
        if instance_expr is not None:
            raise UsageError(f"--instance {instance_expr!r}: {name} is not a method named "
                             "through its class; --instance gives the object for "
                             "-f Class.method")
        return value
    if instance_expr is None:
        raise UsageError(_needs_instance(owner, attribute, value, name, path, module))
    return getattr(_evaluate(instance_expr, owner, path, module), attribute)


def _is_unbound_method(owner, attribute, specs_count):
    if not isinstance(owner, type):
        return False
    try:
        raw = inspect.getattr_static(owner, attribute)
    except AttributeError:
        return False
    if isinstance(raw, (staticmethod, classmethod)):
        return False
    function = inspect.unwrap(raw)  # an ag.function keeps the def in __wrapped__
    if not inspect.isfunction(function):
        return False
    signature = inspect.signature(function)
    parameters = list(signature.parameters)
    if parameters and parameters[0] == "self":
        return True
    return not _binds(signature, specs_count) and _binds(signature, specs_count + 1)


def _binds(signature, count):
    try:
        signature.bind(*range(count))
    except TypeError:
        return False
    return True


def _needs_instance(owner, attribute, value, name, path, module):
    where = format_location(definition(value)) or path
    made = [variable for variable, obj in vars(module).items()
            if not variable.startswith("_") and issubclass(type(obj), owner)]
    named = f"name one the file makes (-f {made[0]}.{attribute}), or " if made else ""
    return (f"{where}: error: {name} is a method: tracing it needs an instance of "
            f"{owner.__qualname__}; {named}give one with --instance "
            f"\"{_constructor_call(owner, name, attribute)}\"")


def _constructor_call(owner, name, attribute):
    """`Model()` or `Model(units=...)`: the class as -f spells it, with its required
    parameters (read from the signature, nothing is called)."""
    spelled = name[:-len(attribute) - 1]
    try:
        parameters = inspect.signature(owner).parameters.values()
    except (TypeError, ValueError):
        return f"{spelled}(...)"
    required = [("..." if p.kind is p.POSITIONAL_ONLY else f"{p.name}=...")
                for p in parameters
                if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    return f"{spelled}({', '.join(required)})"


def _evaluate(expr, owner, path, module):
    try:
        code = compile(expr, "<--instance>", "eval")
    except SyntaxError as e:
        raise UsageError(f"--instance {expr!r}: column {e.offset}: {e.msg}") from None
    try:
        instance = eval(code, vars(module))  # the user's own expression: --instance asks for it
    except Exception as e:
        where = user_line(e, path) or format_location(definition(owner)) or path
        raise Problem(f"{where}: --instance {expr!r} raised {describe(e)}") from e
    if not isinstance(instance, owner):
        raise UsageError(f"--instance {expr!r} gave an object of type "
                         f"{type(instance).__qualname__}, not an instance of "
                         f"{owner.__qualname__}")
    return instance
