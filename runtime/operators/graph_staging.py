"""Our graphs as an adapter of the shared staging algorithm (staging.py).

Contract: `GraphStaging` supplies the primitives staging.py drives, with our graph ops
(what is carried and how: graph_values.py):
- `if`: one `cond` over every leaf of the state (non-tensor leaves pass through when
  both branches give the very same object; tensor shapes that differ are merged by
  `cond`, a dtype that differs is its error). A branch traced first that leaves
  `retval_` unset is traced second (`swaps_branches`: the condition negated). A Python
  list one branch resizes becomes a `TensorList` of its items.
- loops: one `while_loop` carrying the condition and the carried leaves, with their
  shape invariants and `maximum_iterations` (no exact-count scan: `scans` is False). A
  Python number a loop assigns keeps the variable's dtype when that is lossless (as
  `while_loop` converts it), checked right after the body, before the test reads it.
  A symbol first bound in the loop is read through `require_bound` after it.
- the `for` index is an int32 tensor counted with `add`; `has_item` and the stop test
  combine with `logical_and`.
- the probe iteration is traced into a throwaway `FuncGraph("loop_probe")` whose inputs
  stand for the carried values (a TensorList's first dimension unknown, so `len(ys)` is
  symbolic there as in the loop); its end state is not reset (the loop body restores
  the state). A probed symbol starts as zeros of the probe's spec (`placeholder_like`).
- every Python list in the state is probed (`probes_lists`): one the loop resizes
  becomes a `TensorList` of its items.
"""

import contextlib

from autograph_py.runtime import context, dtypes, nest
from autograph_py.runtime.control_flow import check_predicate, while_loop
from autograph_py.runtime.control_flow import cond as staged_cond
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.operators import graph_values, staging
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.operators.truth import as_condition, truth
from autograph_py.runtime.ops.bound_check import require_bound
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import add, logical_and, logical_not
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import Tensor, to_array


class GraphStaging:
    scans = False
    skips_empty = False
    probes_lists = True
    swaps_branches = True
    checks_carried_first = True
    staged_if = "the condition is a tensor, so both branches are built into the graph"
    staged_loop = "the loop is staged (its condition is a tensor)"
    loop_changes = ("a staged loop can only change variables that hold a tensor or a "
                    "number before it")
    is_carried = staticmethod(graph_values.is_carried)
    to_carried = staticmethod(graph_values.to_tensor)
    from_carried = staticmethod(graph_values.from_tensor)
    zeros = staticmethod(graph_values.placeholder_like)
    both = staticmethod(logical_and)
    user_code = staticmethod(contextlib.nullcontext)

    # --- if

    def if_stmt(self, cond, body, orelse, get_state, set_state, symbol_names):
        staging.if_stmt(self, cond, body, orelse, get_state, set_state, symbol_names)

    def cond(self, cond, branches, guard):
        return staged_cond(truth(cond), branches.traced(0), branches.traced(1),
                           names=branches.names)

    def negate(self, cond):
        return logical_not(truth(cond))

    def copy_list(self, value):
        return list(value)

    def branch_outputs(self, end):
        return [graph_values.to_tensor(v) for v in nest.flatten(end)]

    def merge(self, init, ends, outputs):
        template = nest.flatten(ends[0])
        return nest.pack_sequence_as(ends[0], [graph_values.from_tensor(t, r)
                                               for t, r in zip(template, outputs)])

    def branch_list(self, before, a, b, name):
        if not (isinstance(before, list) and resized(a, b)):
            return None
        like = element_like(before, a, b)
        return lambda: TensorList.from_items(before, like)

    def check_leaves(self, a, b, name):
        """Nothing here: `cond` merges shapes and names a dtype that differs."""

    # --- loops

    def loop(self, test, body, get_state, set_state, symbol_names, opts, condition=None,
             exact=None):
        # `exact` is always None: without `scans`, staging.for_stmt bounds the loop instead.
        staging.loop(self, test, body, get_state, set_state, symbol_names, opts, condition)

    def next_index(self, index):
        return add(index, 1)

    def condition(self, value):
        tensor = truth(convert_to_tensor(as_condition(value)))
        check_predicate(tensor, "a staged loop's condition")
        return tensor

    def while_loop(self, step, condition, start, opts, entry, carried, names):
        invariants = graph_values.shape_invariants(entry, opts.get("shape_invariants") or ())

        def loop_body(condition, *values):
            next_condition, carried_values = step(values)
            return [next_condition, *carried_values]

        results = while_loop(
            lambda condition, *values: condition, loop_body,
            [self.condition(condition), *start],
            shape_invariants=[None] + [invariants[i] for i in carried],
            maximum_iterations=opts.get("maximum_iterations"),
            names=["<loop condition>"] + [names[i] for i in carried])
        return results[1:]

    def check_list(self, before, after, name):
        """Nothing here: a list the loop resizes is a TensorList (the probe found it)."""

    def check_carried(self, previous, value, name):
        dtype = _carried_dtype(value, previous.dtype)
        if dtype is not previous.dtype:
            raise TypeError(
                f"'{name}' has dtype {previous.dtype.name} before the loop but "
                f"{dtype.name} after an iteration; a variable of a staged loop must keep "
                "its dtype (cast it with ag.cast)")

    def checked_read(self, value, ran, message):
        return graph_values.from_tensor(
            value, require_bound(graph_values.to_tensor(value), ran, message))

    # --- the probe iteration

    def stage_list(self, before, after):
        if not resized(before, after):
            return None
        return TensorList.from_items(before, element_like(before, after))

    def probe(self, run, entry, slots, set_state, get_state):
        probe = FuncGraph("loop_probe", context.current_graph())

        def as_input(value, grows=False):
            if isinstance(value, TensorList):
                # Its length is unknown in the loop (the stacked tensor's shape is
                # relaxed), so it must be in the probe too: `len(ys)` is then symbolic.
                return TensorList(as_input(value.stacked, grows=True))
            if not graph_values.is_carried(value):
                return value
            with probe.as_default():
                spec = convert_to_tensor(value)
            shape = spec.shape
            if grows and shape.dims:
                shape = TensorShape([None, *shape.dims[1:]])
            return probe.add_input("probe", shape, spec.dtype)

        with probe.as_default():
            set_state(tuple(nest.map_structure(as_input, v) for v in entry))
            run()
            after = get_state()
        return {i: after[i] for i in slots}


def resized(a, b):
    """Whether a list ends two paths with different lengths (a TensorList, made by a
    staged loop in a branch, has a length known only when the graph runs)."""
    return isinstance(a, TensorList) or isinstance(b, TensorList) or (
        isinstance(a, list) and isinstance(b, list) and len(a) != len(b))


def element_like(init, *ends):
    """An element (or a TensorList, standing for its elements) that gives the dtype and
    shape of a list that started as `init` and ended as each of `ends`."""
    for end in ends:
        if isinstance(end, TensorList):
            return end
    longer = max(ends, key=len)
    return longer[len(init)] if len(longer) > len(init) else init[0]


def _carried_dtype(value, hint):
    """The dtype `value` has as a loop variable: a Python number takes the variable's
    dtype `hint` when that is lossless (as `while_loop` converts it), else its own."""
    if isinstance(value, (Tensor, TensorList)):
        return value.dtype
    if not graph_values.is_carried(value):
        return hint  # not a number: the structure checks that follow name it
    try:
        return dtypes.as_dtype(to_array(value, hint).dtype)
    except TypeError:
        return dtypes.as_dtype(to_array(value).dtype)


STAGING = GraphStaging()
