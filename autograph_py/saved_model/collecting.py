"""What `ag.saved_model.save(obj, ...)` writes: the objects reachable from `obj`, as
TensorFlow tracks them.

Contract: `collect(obj)` returns a `Collected`:
- `root`: how `obj` is reached, a child (below);
- `objects`: one record per object (`obj` itself, and each `ag.Module` reachable from it),
  `{"class", "module", "name", "children": {attribute: child}}`; an object is recorded
  once (shared and cyclic references point at its record);
- `functions`: `(path, Function)` for every `ag.function` reachable, once each (a method
  by its instance's own `Function`), `path` the first attribute path to it (`f`,
  `encoder.__call__`);
- `variables`: every Variable reachable, once each, in the order found.
A child is `{"object": i}`, `{"variable": i}`, `{"function": i}`, or a list, tuple or
dict (string keys) of children: `{"list": [...]}` ... Attributes are walked as
`ag.Module` walks them (sorted by name); `ag.function` methods of the class count as
attributes. A value that is none of these (a number, a plain object that is not a
Module), and a container holding one, is not saved, as TensorFlow tracks only trackable
objects. `obj` itself may be an `ag.function`: the root is then that function.
"""

from typing import NamedTuple

from autograph_py.runtime.module import Module
from autograph_py.runtime.variables import Variable
from autograph_py.tracing.function import BoundFunction, Function


class Collected(NamedTuple):
    root: dict
    objects: list
    functions: list
    variables: list


def as_function(value):
    """The `Function` behind an `ag.function` value (a method's: its instance's), else
    None."""
    if isinstance(value, BoundFunction):
        return value.__func__
    return value if isinstance(value, Function) else None


def collect(obj):
    walker = _Walker()
    root = walker.child(obj, "", force_object=True)
    return Collected(root, walker.objects, walker.functions, walker.variables)


class _Walker:
    def __init__(self):
        self.objects, self.functions, self.variables = [], [], []
        self.index = {}  # id -> ("object" | "function" | "variable", index)
        self.keep = []   # what `index` names, so no id is reused while walking

    def child(self, value, path, force_object=False):
        function = as_function(value)
        if function is not None:
            return self.indexed(function, "function", lambda: self.functions.append(
                (path or function.name, function)))
        if isinstance(value, Variable):
            return self.indexed(value, "variable", lambda: self.variables.append(value))
        if isinstance(value, Module) or force_object:
            return self.indexed(value, "object", lambda: self.add_object(value, path))
        if type(value) in (list, tuple):
            items = [self.child(v, f"{path}[{i}]") for i, v in enumerate(value)]
            return None if None in items else {type(value).__name__: items}
        if type(value) is dict and all(isinstance(k, str) for k in value):
            items = [[k, self.child(v, f"{path}[{k!r}]")] for k, v in value.items()]
            return None if any(c is None for _, c in items) else {"dict": items}
        return None

    def indexed(self, value, kind, add):
        found = self.index.get(id(value))
        if found is None:
            found = self.index[id(value)] = (kind, len(getattr(self, kind + "s")))
            self.keep.append(value)
            add()
        return {found[0]: found[1]}

    def add_object(self, obj, path):
        record = {"class": type(obj).__name__, "module": isinstance(obj, Module),
                  "name": obj.name if isinstance(obj, Module) else None, "children": {}}
        self.objects.append(record)  # before the children: a cycle finds it
        prefix = path + "." if path else ""
        for name, value in _attributes(obj):
            child = self.child(value, prefix + name)
            if child is not None:
                record["children"][name] = child


def _attributes(obj):
    """`(name, value)` of the instance's attributes, then of the class's `ag.function`
    methods (bound to it), each sorted by name."""
    own = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
    methods = {}
    for klass in type(obj).__mro__:
        for name, value in vars(klass).items():
            if isinstance(value, Function) and name not in own and name not in methods:
                methods[name] = getattr(obj, name)
    return sorted(own.items()) + sorted(methods.items())
