"""Directives: calls that tell the converter something and do nothing at run time.

Contract: `set_loop_options(maximum_iterations=None)` as the first statement of a loop
body is consumed by the converter (`converters/directives.py`) and becomes the loop's
`opts`; where the code runs unconverted (plain Python, `autograph=False`), calling it is
a no-op, so the same source runs both ways.
"""


def set_loop_options(maximum_iterations=None):
    """Set options of the enclosing loop (honoured when the function is converted)."""
    if maximum_iterations is not None and not isinstance(maximum_iterations, int):
        raise TypeError(f"maximum_iterations must be an int, got {maximum_iterations!r}")
