"""Our graphs as an adapter of the shared staging algorithm (staging.py).

Contract: `GraphStaging` supplies the primitives staging.py drives, with our graph ops:
- the `for` index is an int32 tensor counted with `add`; `has_item` and the stop test
  combine with `logical_and`; there is no exact-count scan (`scans` is False): the loop
  is one `while_loop` (graph_control_flow.loop) bounded by `maximum_iterations`.
- the probe iteration is traced into a throwaway `FuncGraph("loop_probe")` whose inputs
  stand for the carried values (a TensorList's first dimension unknown, so `len(ys)` is
  symbolic there as in the loop); its end state is not reset (the loop body restores
  the state). A probed symbol starts as zeros of the probe's spec (`placeholder_like`).
- every Python list in the state is probed (`probes_lists`): one the loop resizes
  becomes a `TensorList` of its items.
"""

from autograph_py.runtime import context, nest
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.operators import graph_control_flow
from autograph_py.runtime.operators import state as state_lib
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import add, logical_and
from autograph_py.runtime.shapes import TensorShape


class GraphStaging:
    scans = False
    probes_lists = True
    staged_loop = "the loop is staged (its condition is a tensor)"
    both = staticmethod(logical_and)
    zeros = staticmethod(state_lib.placeholder_like)

    def next_index(self, index):
        return add(index, 1)

    def loop(self, test, body, get_state, set_state, symbol_names, opts, exact):
        # `exact` is always None: without `scans`, staging.for_stmt bounds the loop instead.
        graph_control_flow.loop(self, test, body, get_state, set_state, symbol_names, opts)

    def stage_list(self, before, after):
        if not graph_control_flow.resized(before, after):
            return None
        return TensorList.from_items(before, graph_control_flow.element_like(before, after))

    def probe(self, run, entry, slots, set_state, get_state):
        probe = FuncGraph("loop_probe", context.current_graph())

        def as_input(value, grows=False):
            if isinstance(value, TensorList):
                # Its length is unknown in the loop (the stacked tensor's shape is
                # relaxed), so it must be in the probe too: `len(ys)` is then symbolic.
                return TensorList(as_input(value.stacked, grows=True))
            if not state_lib.is_carried(value):
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


STAGING = GraphStaging()
