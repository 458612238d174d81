"""What `ag.saved_model.load` returns: functions and objects restored without the source.

Contract:
- `LoadedFunction(name, overloads)`: called like the saved `ag.function`, with the
  arguments of one of its traces: tensors (eager or symbolic), numpy values and Python
  numbers where the trace took a tensor (converted to its dtype when exact, as
  `ConcreteFunction` converts them), the very Python constants it was traced with
  elsewhere (a parameter the trace left at its default may be left out). The first trace
  the arguments fit runs; none fitting is a ValueError listing the traces. Eagerly the
  trace's ConcreteFunction runs (recorded as one `Call` op when a tape records, so
  gradients flow to its inputs and the Variables it reads); while a graph is built (an
  `ag.function` calling it) the trace's ops are copied into that graph
  (`runtime/saved_model/inlining.py`). `concrete_functions()` lists the traces.
- `SignatureFunction`: TensorFlow's signature convention: called with keyword arguments
  only, named after the inputs, it returns a dict of named output tensors;
  `structured_input_signature` is `((), {name: TensorSpec})`, `structured_outputs`
  `{name: TensorSpec}`.
- `new_object(record)`: a restored object: for a saved `ag.Module` a `LoadedModule`
  (an `ag.Module`: `variables`, `trainable_variables`, `submodules` by reflection, in
  the original order), else a `LoadedObject`. Its attributes are set by the loader. One
  whose class had an `ag.function` `__call__` is callable.
"""

import inspect

from autograph_py.runtime import context, nest
from autograph_py.runtime.module import Module
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.saved_model.inlining import inline
from autograph_py.runtime.tensor import SymbolicTensor, Tensor, is_symbolic, to_array
from autograph_py.runtime.tensor_spec import TensorSpec
from autograph_py.tracing.trace_key import spec_of


class Slot:
    """A tensor argument of a trace: its position among the trace's inputs, its spec."""

    def __init__(self, index, spec):
        self.index = index
        self.spec = spec

    def __repr__(self):
        return repr(self.spec)


class Overload:
    """One trace of a loaded function: its ConcreteFunction, and its parameters as
    `(inspect.Parameter, value)`, each value's tensors `Slot`s."""

    def __init__(self, concrete, parameters):
        self.concrete = concrete
        self.parameters = parameters
        self.signature = inspect.Signature([
            param.replace(default=value) if not _slots(value) and param.kind not in (
                param.VAR_POSITIONAL, param.VAR_KEYWORD) else param
            for param, value in parameters])

    def fit(self, args, kwargs):
        """The trace's input tensors made from the arguments, or a ValueError saying why
        they do not fit."""
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise ValueError(str(e)) from None
        bound.apply_defaults()
        inputs = [None] * len(self.concrete.inputs)
        for param, saved in self.parameters:
            value = bound.arguments[param.name]
            if isinstance(saved, Slot):  # a tensor: a list or number given converts
                inputs[saved.index] = fit_tensor(value, saved.spec, param.name)
                continue
            try:
                nest.assert_same_structure(saved, value, param.name)
            except ValueError as e:
                raise ValueError(f"argument {param.name!r} is not structured as traced ({e})") \
                    from None
            for expected, given in zip(nest.flatten(saved), nest.flatten(value)):
                if isinstance(expected, Slot):
                    inputs[expected.index] = fit_tensor(given, expected.spec, param.name)
                elif type(given) is not type(expected) or given != expected:
                    raise ValueError(f"argument {param.name!r} is {given!r:.40}; the trace "
                                     f"took {expected!r:.40}")
        return inputs

    def __repr__(self):
        return f"({', '.join(f'{p.name}={v!r}' for p, v in self.parameters)})"


def _slots(value):
    return [leaf for leaf in nest.flatten(value) if isinstance(leaf, Slot)]


def fit_tensor(value, spec, name):
    """`value` as an input of `spec`: a tensor that fits, or an array converted to it."""
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        got = spec_of(value)
        if not spec.is_compatible_with(got):
            raise ValueError(f"argument {name!r} must be compatible with {spec}, got {got}")
        return value
    try:
        array = to_array(value, spec.dtype)
    except (TypeError, ValueError) as e:
        raise ValueError(f"argument {name!r} expected {spec}, got {value!r:.40}: {e}") from None
    if not spec.shape.is_compatible_with(array.shape):
        raise ValueError(f"argument {name!r} must be compatible with {spec}, got shape "
                         f"{array.shape}")
    return array


def run_flat(concrete, inputs):
    """The outputs of `concrete` on `inputs`, flat: its graph's ops copied into the graph
    being built, else run now."""
    if context.state.graphs or any(is_symbolic(t) for t in inputs):
        tensors = [t if isinstance(t, Tensor) else convert_to_tensor(t, spec.dtype)
                   for t, spec in zip(inputs, concrete.input_specs)]
        return inline(concrete.graph, tensors)
    result = concrete(*inputs)
    slots = [isinstance(leaf, SymbolicTensor) for leaf in nest.flatten(concrete.structured_outputs)]
    return [leaf for leaf, slot in zip(nest.flatten(result), slots) if slot]


class LoadedFunction:
    def __init__(self, name, overloads):
        self.name = self.__name__ = name
        self._overloads = overloads

    def concrete_functions(self):
        return [o.concrete for o in self._overloads]

    def __call__(self, *args, **kwargs):
        if not self._overloads:
            raise ValueError(f"loaded function {self.name!r} was saved before it was ever "
                             "traced: it has nothing to run (call it, or give it an "
                             "input_signature, before saving)")
        reasons = []
        for overload in self._overloads:
            try:
                inputs = overload.fit(args, kwargs)
            except ValueError as e:
                reasons.append(f"  {self.name}{overload!r}: {e}")
                continue
            flat = run_flat(overload.concrete, inputs)
            return _pack(overload.concrete.structured_outputs, flat)
        raise ValueError(f"loaded function {self.name!r} has no trace that takes these "
                         "arguments; its traces:\n" + "\n".join(reasons))

    def __repr__(self):
        return f"<loaded ag.function {self.name}: {len(self._overloads)} trace(s)>"


def _pack(structured, flat):
    outputs = iter(flat)
    leaves = [next(outputs) if isinstance(leaf, SymbolicTensor) else leaf
              for leaf in nest.flatten(structured)]
    return nest.pack_sequence_as(structured, leaves)


class SignatureFunction:
    def __init__(self, key, concrete, input_names, outputs):
        self.name = key
        self._concrete = concrete
        self._input_names = input_names
        self._outputs = outputs  # (name, position among the trace's outputs)
        self.structured_input_signature = ((), {
            name: TensorSpec(spec.shape, spec.dtype, name)
            for name, spec in zip(input_names, concrete.input_specs)})
        self.structured_outputs = {name: TensorSpec(concrete.outputs[i].shape,
                                                    concrete.outputs[i].dtype, name)
                                   for name, i in outputs}

    def __call__(self, *args, **kwargs):
        if args:
            raise TypeError(f"signature {self.name!r} takes keyword arguments only, named "
                            f"after its inputs: {', '.join(self._input_names)}")
        missing = [n for n in self._input_names if n not in kwargs]
        unknown = sorted(set(kwargs) - set(self._input_names))
        if missing or unknown:
            raise TypeError(f"signature {self.name!r} takes {', '.join(self._input_names)}: "
                            f"missing {missing}, unexpected {unknown}")
        inputs = [fit_tensor(kwargs[n], spec, n)
                  for n, spec in zip(self._input_names, self._concrete.input_specs)]
        flat = run_flat(self._concrete, inputs)
        return {name: flat[i] for name, i in self._outputs}

    def __repr__(self):
        return f"<signature {self.name!r}: {self.structured_input_signature[1]}>"


class LoadedModule(Module):
    """An `ag.Module` restored from a saved model."""

    def __repr__(self):
        return f"<loaded ag.Module {self.name!r} (saved from class {self._saved_class})>"


class LoadedObject:
    """An object (not an `ag.Module`) restored from a saved model."""

    def __repr__(self):
        return f"<loaded object (saved from class {self._saved_class})>"


def _call(self, *args, **kwargs):
    return self.__dict__["__call__"](*args, **kwargs)


_CALLABLE = {base: type(base.__name__, (base,), {"__call__": _call})
             for base in (LoadedModule, LoadedObject)}


def new_object(record):
    base = LoadedModule if record["module"] else LoadedObject
    if "__call__" in record["children"]:
        base = _CALLABLE[base]
    obj = base.__new__(base)
    if record["module"]:
        Module.__init__(obj, record["name"])
    obj._saved_class = record["class"]
    return obj
