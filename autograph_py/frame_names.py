"""The names a conversion's frames carry: the user's.

Contract: `as_the_users(conversion, original)` is the code object `conversion` (the
conversion of the function whose code is `original`) named as `original`, with every
code nested in it that conversion generated (a branch or loop body, a state accessor, a
lazy operand's thunk) named as the user's function it was generated in (`co_name`,
`co_qualname`), and every nested code of the user's (a `def`, a class body, a lambda, a
comprehension) qualified as it is in the original (`f.<locals>.g`, not
`f.<locals>.if_body.<locals>.g`). A frame running generated code then names the
function as written, as the original's frame does: `logging`'s `funcName`, tracebacks,
profilers, `sys._getframe().f_code`. Generated code is told from the user's by name: a
nested code whose name no code nested in `original` has (so a generated `lambda` keeps
`<lambda>` when the user's function has a lambda of its own).
"""

import inspect
import types

# A class body's code: its nested functions are qualified `Class.name`, not `<locals>`.
_FUNCTION_FLAGS = inspect.CO_OPTIMIZED | inspect.CO_NEWLOCALS


def _nested_names(code):
    names, stack = set(), [code]
    while stack:
        for const in stack.pop().co_consts:
            if isinstance(const, types.CodeType):
                names.add(const.co_name)
                stack.append(const)
    return names


def as_the_users(conversion, original):
    top = conversion.replace(co_name=original.co_name, co_qualname=original.co_qualname)
    return _renamed(top, _nested_names(original))


def _renamed(code, users):
    """`code` with its nested codes renamed (see the module doc)."""
    consts = list(code.co_consts)
    for i, const in enumerate(consts):
        if not isinstance(const, types.CodeType):
            continue
        if const.co_name in users:  # the user's own: qualified as in the original
            separator = ".<locals>." if code.co_flags & _FUNCTION_FLAGS else "."
            name, qualname = const.co_name, code.co_qualname + separator + const.co_name
        else:  # generated: named as the function it was generated in
            name, qualname = code.co_name, code.co_qualname
        consts[i] = _renamed(const.replace(co_name=name, co_qualname=qualname), users)
    return code.replace(co_consts=tuple(consts))
