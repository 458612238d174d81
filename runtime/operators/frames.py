"""The local namespace of converted code as the user's function would show it.

Contract: `user_locals(namespace, names)` is `namespace` (what `locals()` returned in
converted code) without what only conversion put there: it keeps the user's `names` (the
identifiers of the function as written; generated ones never are one, and neither is
the `ag__` alias every converted function sees as a free variable) that hold no
`Undefined` (not bound yet, where Python's `locals()` would not list them). Converted
code calls it for the user's `locals()` and `vars()`, and `local_names` for `dir()`:
the same names, sorted, as `dir()` gives them.
"""

from autograph_py.runtime.operators.undefined import Undefined, UndefinedReturnValue

_CONVERSION_ONLY = (Undefined, UndefinedReturnValue)


def user_locals(namespace, names):
    names = frozenset(names)
    return {name: value for name, value in namespace.items()
            if name in names and not isinstance(value, _CONVERSION_ONLY)}


def local_names(namespace, names):
    return sorted(user_locals(namespace, names))
