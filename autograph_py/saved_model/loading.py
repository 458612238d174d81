"""`load(export_dir)`: a saved model back as objects and functions that run without the
source that made them (TensorFlow's `tf.saved_model.load`).

Contract:
- Reads `saved_model.json`, refusing a directory of another format version (naming both
  versions), then `variables.npz` (`runtime/saved_model/variables_file.py`) and
  `graphs.json`, each graph checked by `runtime/saved_model/validation.py` before it is
  rebuilt. Nothing in the directory is ever run as code: JSON and `.npy` data only, ops
  looked up among those registered.
- Every Variable is created once, eagerly, with its saved name, value and trainability,
  and shared by every function that reads it; it can be read, assigned and differentiated
  as any Variable.
- Returns the root: for a saved object, a `LoadedModule`/`LoadedObject`
  (`loaded.py`) whose attributes are the saved Variables, functions, Modules and lists,
  tuples and dicts of them, and whose `signatures` maps each signature key to a
  `SignatureFunction`; for a saved function, a `LoadedFunction` with `signatures`,
  `variables` and `trainable_variables`.
- Whatever is wrong with the directory (a file missing, truncated, corrupt, crafted) is a
  `SavedModelError` (a ValueError) that names the file and what is wrong, never an
  error from deep inside.
"""

import inspect
import os

from autograph_py.runtime.module import Module
from autograph_py.runtime.saved_model import format as fmt
from autograph_py.runtime.saved_model.format import SavedModelError
from autograph_py.runtime.saved_model.validation import validate_graph
from autograph_py.runtime.saved_model.variables_file import read_variables
from autograph_py.runtime.tensor_spec import TensorSpec
from autograph_py.runtime.variables import Variable
from autograph_py.runtime.views.serialization import graph_from_dict
from autograph_py.saved_model import structures
from autograph_py.saved_model.loaded import (
    LoadedFunction,
    Overload,
    SignatureFunction,
    Slot,
    new_object,
)
from autograph_py.tracing.concrete_function import ConcreteFunction

_KINDS = {kind.name: kind for kind in (
    inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
    inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.KEYWORD_ONLY,
    inspect.Parameter.VAR_KEYWORD)}


def load(export_dir):
    export_dir = os.fspath(export_dir)
    if not os.path.isdir(export_dir):
        raise SavedModelError(f"no saved model at {export_dir!r}: not a directory")
    return _Loader(export_dir).load()


class _Loader:
    def __init__(self, export_dir):
        self.export_dir = export_dir

    def fail(self, where, message):
        raise SavedModelError(f"cannot load the saved model at {self.export_dir!r}: {where}: "
                              f"{message}")

    def get(self, data, key, kind, where):
        value = data.get(key) if isinstance(data, dict) else None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            self.fail(where, f"{key!r} is missing or not a {getattr(kind, '__name__', kind)} "
                      "(corrupt)")
        return value

    def load(self):
        manifest = fmt.read_json(self.export_dir, fmt.MANIFEST)
        self.check_version(manifest)
        variables = self.variables(manifest)
        concretes = self.concrete_functions(manifest, variables)
        functions = [self.function(entry, concretes) for entry in
                     self.get(manifest, "functions", list, fmt.MANIFEST)]
        signatures = {key: self.signature(key, entry, concretes) for key, entry in
                      self.get(manifest, "signatures", dict, fmt.MANIFEST).items()}
        root = _Objects(self, manifest, variables, functions).root()
        root.signatures = signatures
        if isinstance(root, LoadedFunction):
            root.variables = tuple(variables)
            root.trainable_variables = tuple(v for v in variables if v.trainable)
        return root

    def check_version(self, manifest):
        if not isinstance(manifest, dict) or manifest.get("format") != fmt.FORMAT:
            self.fail(fmt.MANIFEST, f"not an autograph_py saved model (format "
                      f"{manifest.get('format') if isinstance(manifest, dict) else None!r})")
        if manifest.get("version") != fmt.VERSION:
            self.fail(fmt.MANIFEST, f"written in saved-model format version "
                      f"{manifest.get('version')!r} (by {manifest.get('written_by')}); this "
                      f"autograph_py reads version {fmt.VERSION}")

    # --- variables ---------------------------------------------------------------------------

    def variables(self, manifest):
        entries = self.get(manifest, "variables", list, fmt.MANIFEST)
        expected = {}
        for i, entry in enumerate(entries):
            where = f"{fmt.MANIFEST}: variable #{i}"
            self.get(entry, "name", str, where)
            self.get(entry, "trainable", bool, where)
            shape = self.get(entry, "shape", list, where)
            expected[f"v{i}"] = (self.get(entry, "dtype", str, where), shape)
        try:
            arrays = read_variables(os.path.join(self.export_dir, fmt.VARIABLES), expected)
        except SavedModelError as e:
            self.fail(fmt.VARIABLES, str(e))
        names = set()
        variables = []
        for i, entry in enumerate(entries):
            if entry["name"] in names:
                self.fail(fmt.MANIFEST, f"two variables are named {entry['name']!r}")
            names.add(entry["name"])
            var = Variable(arrays[f"v{i}"], trainable=entry["trainable"], name=entry["name"])
            var.name = entry["name"]  # Variable() suffixes names in use: keep the saved one
            variables.append(var)
        return variables

    # --- graphs and traces -------------------------------------------------------------------

    def concrete_functions(self, manifest, variables):
        entries = self.get(manifest, "concrete_functions", list, fmt.MANIFEST)
        graphs = self.get(fmt.read_json(self.export_dir, fmt.GRAPHS), "graphs", list, fmt.GRAPHS)
        if len(graphs) != len(entries):
            self.fail(fmt.GRAPHS, f"holds {len(graphs)} graphs for {len(entries)} traces")
        by_name = {v.name: v for v in variables}
        return [self.concrete(i, entry, doc, by_name)
                for i, (entry, doc) in enumerate(zip(entries, graphs))]

    def concrete(self, index, entry, doc, variables):
        where = f"{fmt.GRAPHS}: graph #{index}"
        validate_graph(doc, variables, f"cannot load the saved model at {self.export_dir!r}: "
                       f"{where}")
        try:
            graph = graph_from_dict(doc, variables)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
            # Validated, so only ops refusing their attrs or declared outputs get here.
            self.fail(where, f"cannot be rebuilt ({type(e).__name__}: {e})")
        where = f"{fmt.MANIFEST}: trace #{index}"
        inputs = self.get(entry, "inputs", list, where)
        if len(inputs) != len(graph.inputs):
            self.fail(where, f"{len(inputs)} inputs for a graph of {len(graph.inputs)}")
        specs = []
        for spec, placeholder in zip(inputs, graph.inputs):
            name = self.get(spec, "name", str, where)
            dims = placeholder.shape.dims
            if spec.get("dtype") != placeholder.dtype.name or \
                    spec.get("shape") != (None if dims is None else list(dims)):
                self.fail(where, f"input {name!r} is declared {spec.get('dtype')}"
                          f"{spec.get('shape')} but the graph's is {placeholder.dtype.name}"
                          f"{placeholder.shape}")
            specs.append(TensorSpec(placeholder.shape, placeholder.dtype, name))

        def output(data):
            i = data.get("tensor") if isinstance(data, dict) else None
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(graph.outputs):
                self.fail(where, f"an output {data!r:.60} is not one of the graph's")
            return graph.outputs[i]

        def fail(message):
            self.fail(where, message)

        structured = structures.decode(entry.get("outputs"), output, fail)
        concrete = ConcreteFunction(graph, list(graph.inputs), list(graph.outputs),
                                    structured, specs)
        concrete.parameters = self.parameters(entry, specs, where)
        return concrete

    def parameters(self, entry, specs, where):
        def slot(data):
            i = data.get("tensor")
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(specs):
                self.fail(where, f"an argument {data!r:.60} is not one of the inputs")
            return Slot(i, specs[i])

        def fail(message):
            self.fail(where, message)

        parameters = []
        for data in self.get(entry, "parameters", list, where):
            name = self.get(data, "name", str, where)
            kind = _KINDS.get(data.get("kind"))
            if not name.isidentifier() or kind is None:
                self.fail(where, f"parameter {name!r:.40} of kind {data.get('kind')!r:.40} "
                          "is not a Python parameter")
            parameters.append((inspect.Parameter(name, kind),
                               structures.decode(data.get("value"), slot, fail)))
        return parameters

    def function(self, entry, concretes):
        where = f"{fmt.MANIFEST}: functions"
        name = self.get(entry, "name", str, where)
        overloads = []
        for i in self.get(entry, "concrete_functions", list, where):
            concrete = self.indexed(concretes, i, where)
            try:
                overloads.append(Overload(concrete, concrete.parameters))
            except ValueError as e:  # parameters in an order Python refuses
                self.fail(where, f"function {name!r}: {e}")
        return LoadedFunction(name, overloads)

    def signature(self, key, entry, concretes):
        where = f"{fmt.MANIFEST}: signature {key!r}"
        concrete = self.indexed(concretes, entry.get("concrete_function") if isinstance(
            entry, dict) else None, where)
        names = self.get(entry, "inputs", list, where)
        if len(names) != len(concrete.inputs) or not all(isinstance(n, str) for n in names):
            self.fail(where, "its inputs do not name the inputs of its trace")
        outputs = self.get(entry, "outputs", list, where)
        for pair in outputs:
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
                self.fail(where, f"output {pair!r:.40} is not a (name, index) pair")
            self.indexed(concrete.outputs, pair[1], where)
        return SignatureFunction(key, concrete, names, [tuple(p) for p in outputs])

    def indexed(self, items, i, where):
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(items):
            self.fail(where, f"refers to #{i!r:.20}, which does not exist")
        return items[i]


def _module_defines(name):
    """Whether `ag.Module` has `name` (a property such as `variables` no attribute may
    shadow)."""
    return any(name in vars(klass) for klass in Module.__mro__)


class _Objects:
    """The object tree of the manifest, rebuilt (records referred to by index, so shared
    and cyclic references come back as such)."""

    def __init__(self, loader, manifest, variables, functions):
        self.loader = loader
        self.records = loader.get(manifest, "objects", list, fmt.MANIFEST)
        self.variables = variables
        self.functions = functions
        self.made = {}
        self.root_data = manifest.get("root")

    def root(self):
        return self.child(self.root_data, 0)

    def child(self, data, depth):
        where = f"{fmt.MANIFEST}: objects"
        if depth > structures.MAX_DEPTH or not isinstance(data, dict) or len(data) != 1:
            self.loader.fail(where, f"{data!r:.60} is not an object, Variable or function")
        (kind, body), = data.items()
        if kind == "variable":
            return self.loader.indexed(self.variables, body, where)
        if kind == "function":
            return self.loader.indexed(self.functions, body, where)
        if kind == "object":
            return self.object(body, depth)
        if kind in ("list", "tuple") and isinstance(body, list):
            items = [self.child(v, depth + 1) for v in body]
            return items if kind == "list" else tuple(items)
        if kind == "dict" and isinstance(body, list) and all(
                isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in body):
            return {k: self.child(v, depth + 1) for k, v in body}
        self.loader.fail(where, f"unknown kind of child {kind!r:.40}")

    def object(self, index, depth):
        if index in self.made:
            return self.made[index]
        where = f"{fmt.MANIFEST}: object #{index!r:.20}"
        record = self.loader.indexed(self.records, index, where)
        children = self.loader.get(record, "children", dict, where)
        self.loader.get(record, "class", str, where)
        is_module = self.loader.get(record, "module", bool, where)
        if is_module:
            self.loader.get(record, "name", str, where)
        try:
            obj = self.made[index] = new_object(record)
        except ValueError as e:  # a module name that is no identifier
            self.loader.fail(where, str(e))
        for name, child in children.items():
            dunder = name.startswith("__") and name != "__call__"
            if not name.isidentifier() or dunder or (is_module and _module_defines(name)):
                self.loader.fail(where, f"attribute {name!r:.40} cannot be restored")
            setattr(obj, name, self.child(child, depth + 1))
        return obj
