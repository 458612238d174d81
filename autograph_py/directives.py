"""Directives: calls that tell the converter something and do nothing at run time.

Contract: `set_loop_options(...)` as the first statement of a loop body is consumed by
the converter (`converters/directives.py`) and becomes the loop's `opts`
(`maximum_iterations`, and `shape_invariants`: `(variable, shape)` pairs letting a loop
variable change shape within `shape`). `set_element_type(l, dtype, shape=None)` is
rewritten to rebind `l` through `ag__.set_element_type` (runtime/operators/lists.py).
Where the code runs unconverted (plain Python, `autograph=False`), both calls are no-ops,
so the same source runs both ways. `autograph.experimental` holds them under TensorFlow's
spelling (`tf.autograph.experimental.set_loop_options`).
"""

from autograph_py.runtime.namespace import Namespace


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                     shape_invariants=None):
    """Set options of the enclosing loop (honoured when the function is converted).

    `parallel_iterations` and `swap_memory` are accepted for TensorFlow's sake and have no
    effect: the runtime runs iterations one after the other."""
    if maximum_iterations is not None and not isinstance(maximum_iterations, int):
        raise TypeError(f"maximum_iterations must be an int, got {maximum_iterations!r}")
    for pair in shape_invariants or ():
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise ValueError(f"shape_invariants must be (variable, shape) pairs, got {pair!r}")


def set_element_type(entity, dtype, shape=None):
    """Declare the element dtype (and shape) of the list `entity` for staged code."""


# `ag.autograph.experimental.set_loop_options`, TensorFlow's spelling.
autograph = Namespace("autograph_py.autograph", experimental=Namespace(
    "autograph_py.autograph.experimental",
    set_loop_options=set_loop_options, set_element_type=set_element_type))
