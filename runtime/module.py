"""`Module` (TensorFlow's `tf.Module`): a named container of Variables and other Modules.

Contract:
- `name` is the one given (a Python identifier, else ValueError) or the class name in
  snake_case (`MLPBlock` -> `mlp_block`). `name_scope` is a context manager whose `name`
  is the module's scope: `name + "/"`, under the scope of the module whose `name_scope`
  was entered (on this thread) when this one was made (`mlp/dense/`). Entered while a
  graph is built, the ops made inside are named under that whole scope; eagerly, ops have
  no names and it only tells modules made inside where they belong.
- `variables`, `trainable_variables`, `non_trainable_variables` and `submodules` are
  tuples found by reflection, in TensorFlow's order: the instance's attributes sorted by
  name, each value flattened as `nest.flatten` does (lists, tuples, dicts in sorted key
  order, nested), then the same walk over each Module found, in the order found (a
  module's own attributes before its submodules'). Each object comes once (by identity),
  so shared Variables and cycles (`a.b = b; b.a = a`) are no trouble.
- Nothing is cached: a Variable set as an attribute later (on the first call of an
  `ag.function` method, the Keras build pattern) is found by the next read.
"""

import re
import threading

from autograph_py.runtime import nest
from autograph_py.runtime.graph import name_scope
from autograph_py.runtime.variables import Variable

_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_entered = threading.local()  # .scopes: the module scopes entered on this thread, innermost last


def camel_to_snake(name):
    return _CAMEL_TO_SNAKE.sub(r"_\1", name).lower()


def _entered_scopes():
    scopes = getattr(_entered, "scopes", None)
    if scopes is None:
        scopes = _entered.scopes = []
    return scopes


class ModuleNameScope:
    """What `Module.name_scope` gives: `with module.name_scope:` (re-entrant); `name` is
    the scope, ending in "/"."""

    def __init__(self, name):
        self.name = name
        self._graph_scopes = []

    def __enter__(self):
        graph_scope = name_scope(self.name)
        graph_scope.__enter__()
        self._graph_scopes.append(graph_scope)
        _entered_scopes().append(self.name)
        return self.name

    def __exit__(self, *exc_info):
        _entered_scopes().pop()
        return self._graph_scopes.pop().__exit__(*exc_info)

    def __repr__(self):
        return f"<ModuleNameScope {self.name!r}>"


class Module:
    """Base class of models and layers: Variables and Modules assigned to its attributes
    (directly or in lists, tuples and dicts) are found by `variables`,
    `trainable_variables` and `submodules`."""

    def __init__(self, name=None):
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not isinstance(name, str) or not _IDENTIFIER.match(name):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             "Python identifiers (e.g. a valid class name).")
        self._name = name
        scopes = _entered_scopes()
        self._scope_name = (scopes[-1] if scopes else "") + name + "/"

    @property
    def name(self):
        """The name given to the constructor, or the class name in snake_case."""
        # A subclass whose __init__ does not call super().__init__() still has one.
        return self.__dict__.get("_name") or camel_to_snake(type(self).__name__)

    @property
    def name_scope(self):
        return ModuleNameScope(self.__dict__.get("_scope_name") or self.name + "/")

    @property
    def variables(self):
        """The Variables of this module and its submodules (see the module docstring)."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(predicate=_is_trainable_variable))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(predicate=_is_non_trainable_variable))

    @property
    def submodules(self):
        """The Modules reachable from this one's attributes, recursively (not itself)."""
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(self, recursive=True, predicate=None):
        """The objects reachable from this module's attributes for which `predicate` is
        true (all when it is None), each once, in TensorFlow's order."""
        # `seen` holds what it saw, so no id is reused during the walk.
        return _walk(self, predicate or (lambda _: True), recursive, {id(self): self})


def _walk(module, predicate, recursive, seen):
    attributes = vars(module)
    submodules = []
    for key in sorted(attributes):
        value = attributes[key]
        try:
            leaves = nest.flatten(value)
        except Exception as e:
            raise ValueError(f"Error processing property {key!r} of {value!r}") from e
        for leaf in leaves:
            if id(leaf) in seen:
                continue
            seen[id(leaf)] = leaf
            if predicate(leaf):
                yield leaf
            if recursive and isinstance(leaf, Module):
                submodules.append(leaf)
    for submodule in submodules:
        yield from _walk(submodule, predicate, recursive, seen)


def _is_variable(obj):
    return isinstance(obj, Variable)


def _is_trainable_variable(obj):
    return isinstance(obj, Variable) and obj.trainable


def _is_non_trainable_variable(obj):
    return isinstance(obj, Variable) and not obj.trainable


def _is_module(obj):
    return isinstance(obj, Module)
