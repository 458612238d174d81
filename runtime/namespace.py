"""`Namespace`: a public namespace of functions (`ag.math`, `ag.linalg`, `ag.nest`, ...),
as TensorFlow's `tf.math` is a module of them.

Contract: `Namespace("autograph_py.math", abs=..., add=...)` holds exactly the names
given (no module it was built from leaks into it). Reading a name it lacks raises an
AttributeError that names the namespace, as a module's would, and the closest name it
holds (`ag.math.reduce_stdev` suggests `reduce_std`), where a SimpleNamespace spoke of
"'types.SimpleNamespace' object".
"""

import difflib as _difflib
from types import SimpleNamespace as _SimpleNamespace


class Namespace(_SimpleNamespace):
    def __init__(self, name="", **members):  # no name: copy and pickle rebuild it after
        super().__init__(__name__=name, **members)

    def __getattr__(self, attr):
        if attr.startswith("__"):  # protocols (copy, pickle) probing: the usual error
            raise AttributeError(attr)
        public = [key for key in vars(self) if not key.startswith("_")]
        close = _difflib.get_close_matches(attr, public, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise AttributeError(f"module {self.__name__!r} has no attribute {attr!r}{hint}")

    def __repr__(self):
        return f"<namespace {self.__name__!r}>"

    def __dir__(self):
        return sorted(key for key in vars(self) if not key.startswith("_"))
