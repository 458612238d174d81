"""A serialized function graph from a saved model, checked before anything is built.

Contract: `validate_graph(doc, variable_names, where)` returns None for a document that
`graph_from_dict` can rebuild without surprises, else raises a `SavedModelError` whose
message starts with `where` (which function, which file) and names what is wrong:
- the graph format or version is not the one this runtime writes;
- a value has the wrong JSON type or a field is missing (a corrupt file);
- an op's type is not registered (the loader never imports anything to find it), or a
  `PrintV2` writes to a file (a loaded graph may print to stdout or stderr only);
- the ops form a cycle (named, `a -> b -> a`), or one uses a tensor defined after it or
  not at all;
- a declared shape or dtype is not one (unknown dtype, negative dim), or a tensor (an
  op's output, a constant) has more than `MAX_ELEMENTS` elements, or a constant's values
  do not fill the shape it declares: all checked before any array is made;
- branches and loops nest deeper than `MAX_GRAPH_DEPTH`, values deeper than
  `_MAX_VALUE_DEPTH`;
- a Variable is referred to that the saved model does not hold, or a graph creates one
  (saved function graphs read Variables, they never create them).
Declared output shapes and dtypes are compared with what the ops infer when the graph is
rebuilt (`graph_from_dict`), so a lie there is refused then.
"""

from autograph_py.runtime import registry
from autograph_py.runtime.dtypes import ALL
from autograph_py.runtime.saved_model.format import (
    MAX_ELEMENTS,
    MAX_GRAPH_DEPTH,
    SavedModelError,
    element_count,
)
from autograph_py.runtime.views import serialization

_DTYPES = frozenset(d.name for d in ALL)
_SCALARS = (bool, int, float, str)
_MAX_VALUE_DEPTH = 32
_PRINT_STREAMS = frozenset({"stdout", "stderr"})


def validate_graph(doc, variable_names, where):
    check = _Checker(set(variable_names), where)
    check.expect(isinstance(doc, dict), "is not a serialized graph (a JSON object)")
    check.expect(doc.get("format") == serialization.FORMAT,
                 f"is not a serialized graph (format {doc.get('format')!r})")
    check.expect(doc.get("version") == serialization.VERSION,
                 f"was written in graph format version {doc.get('version')!r}; this "
                 f"autograph_py reads version {serialization.VERSION}")
    check.expect(doc.get("variables") == [],
                 "holds Variable values of its own; a saved model keeps them in variables.npz")
    body = doc.get("graph")
    check.expect(isinstance(body, dict) and body.get("captures") == [],
                 "is not the graph of a function (it must take no captured tensors)")
    check.graph(body, 0, ())


class _Checker:
    def __init__(self, variable_names, where):
        self.variable_names = variable_names
        self.where = where

    def fail(self, message):
        raise SavedModelError(f"{self.where}: {message}")

    def expect(self, condition, message):
        if not condition:
            self.fail(message)

    def field(self, data, key, kind, what):
        value = data.get(key) if isinstance(data, dict) else None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            self.fail(f"{what} has no valid {key!r} (corrupt)")
        return value

    # --- graphs --------------------------------------------------------------------------

    def graph(self, body, depth, outer_tensors):
        if depth > MAX_GRAPH_DEPTH:
            self.fail(f"branches and loops nest more than {MAX_GRAPH_DEPTH} deep")
        ops = self.field(body, "ops", list, "a graph")
        self.expect(self.field(body, "variables", list, "a graph") == [],
                    "a graph creates Variables (a saved function only reads them)")
        self.field(body, "control_dependencies_chain", bool, "a graph")
        self.field(body, "lift_variables", bool, "a graph")
        names = set()
        for index, op in enumerate(ops):
            name = self.field(op, "name", str, f"op #{index}")
            self.expect(name not in names, f"op name {name!r} appears twice")
            names.add(name)
            self.field(op, "outputs", list, f"op {name!r}")
        self.acyclic(ops)
        defined, tensors = set(), set()  # an op's inputs are tensors of its own graph
        for op in ops:
            self.op(op, defined, tensors, depth)
            defined.add(op["name"])
            tensors.update(f"{op['name']}:{i}" for i in range(len(op["outputs"])))
        if "captures" in body:
            self.field(body, "name", str, "a function graph")
            for key in ("inputs", "outputs"):
                for t in self.field(body, key, list, "a function graph"):
                    self.expect(isinstance(t, str) and t in tensors,
                                f"a function graph's {key} name {t!r}, not a tensor of it")
            for pair in self.field(body, "captures", list, "a function graph"):
                self.expect(isinstance(pair, list) and len(pair) == 2 and
                            pair[0] in outer_tensors and pair[1] in tensors,
                            f"a capture {pair!r} names tensors that do not exist")

    def acyclic(self, ops):
        """Refuse a cycle, naming it, before anything checks definition order."""
        producers = {}
        for op in ops:
            names = self.field(op, "inputs", list, f"op {op['name']!r}") + \
                self.field(op, "control_inputs", list, f"op {op['name']!r}")
            self.expect(all(isinstance(n, str) for n in names),
                        f"op {op['name']!r} has an input that is not a tensor name")
            producers[op["name"]] = [n.rpartition(":")[0] if ":" in n else n for n in names]
        state = {}  # name -> 1 while on the path, 2 when done
        for root in producers:
            if state.get(root):
                continue
            path, stack = [root], [iter(producers[root])]
            state[root] = 1
            while stack:
                nxt = next(stack[-1], None)
                if nxt is None:
                    state[path.pop()] = 2
                    stack.pop()
                elif state.get(nxt) == 1:
                    cycle = path[path.index(nxt):] + [nxt]
                    self.fail("the graph has a cycle: " + " -> ".join(reversed(cycle)))
                elif nxt in producers and not state.get(nxt):
                    state[nxt] = 1
                    path.append(nxt)
                    stack.append(iter(producers[nxt]))

    def op(self, op, defined, tensors, depth):
        name = op["name"]
        kind = self.field(op, "type", str, f"op {name!r}")
        try:
            registry.get(serialization.READ_AS.get(kind, kind))
        except KeyError:
            self.fail(f"op {name!r} has unknown op type {kind!r}; a saved model may only "
                      "use the ops this autograph_py registers")
        for t in op["inputs"]:
            self.expect(t in tensors, f"op {name!r} uses {t!r}, which is not a tensor "
                        "defined before it")
        for c in op["control_inputs"]:
            self.expect(c in defined, f"op {name!r} waits for {c!r}, which is not an op "
                        "defined before it")
        for spec in op["outputs"]:
            self.spec(spec, f"output of op {name!r}")
        location = op.get("location")
        self.expect(location is None or (isinstance(location, list) and all(
            isinstance(v, (*_SCALARS, type(None))) for v in location)),
            f"op {name!r} has an invalid location")
        attrs = self.field(op, "attrs", dict, f"op {name!r}")
        for key, value in attrs.items():  # a body captures tensors defined before its op
            self.value(value, f"attr {key!r} of op {name!r}", depth, tensors, 0)
        if kind == "PrintV2":
            stream = attrs.get("stream")
            self.expect(stream in _PRINT_STREAMS,
                        f"op {name!r} (PrintV2) writes to {stream!r}; a loaded graph may "
                        "print to stdout or stderr only")

    # --- values --------------------------------------------------------------------------

    def spec(self, spec, what):
        self.expect(isinstance(spec, dict) and spec.get("dtype") in _DTYPES,
                    f"the {what} has an unknown dtype")
        self.dims(spec.get("shape"), what, allow_unknown=True)

    def dims(self, dims, what, allow_unknown):
        if dims is None and allow_unknown:
            return []
        self.expect(isinstance(dims, list) and len(dims) <= 64 and all(
            (d is None and allow_unknown) or
            (isinstance(d, int) and not isinstance(d, bool) and d >= 0) for d in dims),
            f"the {what} has an invalid shape {dims!r:.80}")
        count = element_count(d for d in dims if d is not None)
        self.expect(count <= MAX_ELEMENTS, f"the {what} declares {count} elements, more than "
                    f"{MAX_ELEMENTS} (the limit of a loaded tensor)")
        return dims

    def value(self, value, what, depth, tensors, nesting):
        self.expect(nesting <= _MAX_VALUE_DEPTH, f"{what} nests too deeply")
        if value is None or isinstance(value, _SCALARS):
            return
        if isinstance(value, list):
            for v in value:
                self.value(v, what, depth, tensors, nesting + 1)
            return
        self.expect(isinstance(value, dict), f"{what} is not a value")
        kind = value.get("kind")
        if kind == "ndarray":
            self.array(value, what)
        elif kind == "scalar":
            self.expect(value.get("dtype") in _DTYPES and
                        isinstance(value.get("value"), _SCALARS), f"{what} is not a scalar")
        elif kind == "dtype":
            self.expect(value.get("name") in _DTYPES, f"{what} names an unknown dtype")
        elif kind == "shape":
            self.dims(value.get("dims"), what, allow_unknown=True)
        elif kind in ("tuple", "slice"):
            items = self.field(value, "items", list, what)
            self.expect(kind == "tuple" or len(items) == 3, f"{what} is not a slice")
            self.value(items, what, depth, tensors, nesting + 1)
        elif kind == "dict":
            for v in self.field(value, "items", dict, what).values():
                self.value(v, what, depth, tensors, nesting + 1)
        elif kind == "graph":
            self.graph(self.field(value, "graph", dict, what), depth + 1, tensors)
        elif kind == "variable":
            self.expect(value.get("name") in self.variable_names,
                        f"{what} refers to Variable {value.get('name')!r}, which the saved "
                        "model does not hold")
        elif kind != "ellipsis":
            self.fail(f"{what} has unknown kind {kind!r}")

    def array(self, value, what):
        self.expect(value.get("dtype") in _DTYPES, f"{what} has an unknown dtype")
        shape = self.dims(value.get("shape"), f"constant {what}", allow_unknown=False)
        self.expect(_fills(value.get("value"), shape),
                    f"the values of {what} do not fill its declared shape {shape}")


def _fills(data, shape):
    """Whether nested lists `data` have exactly `shape` (scalars at the leaves)."""
    if not shape:
        return isinstance(data, (*_SCALARS, type(None)))
    if not isinstance(data, list) or len(data) != shape[0]:
        return False
    return all(_fills(item, shape[1:]) for item in data)
