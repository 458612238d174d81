"""Operand thunks whose assignment expressions bind where the user wrote them.

Contract: `once(generator)` is a zero-argument function that runs the generator to its
first value and returns it; converted code passes it, made from
`(expr for _ in ONCE)`, to an operator (`and_`, `or_`, `if_exp`, `compare_chain`,
`assert_stmt`) in place of `lambda: expr` when `expr` holds a `:=`. In a lambda, `:=`
would bind a name of the lambda; in a generator expression it binds in the scope around
it (PEP 572), where the user's `:=` binds: the function, or the function around a
comprehension, or the user's own lambda. The element still runs only when the operator
calls the thunk, and operators call each thunk at most once.

A `StopIteration` the operand raises reaches the caller as itself, as it would from a
lambda: a generator would turn it into `RuntimeError` (PEP 479).
"""

ONCE = (None,)  # what the generator expression iterates: its element runs once
_PEP_479 = "generator raised StopIteration"


class once:  # noqa: N801 -- an operator of converted code, called like a function
    __slots__ = ("_generator",)

    def __init__(self, generator):
        self._generator = generator

    def __call__(self):
        generator, self._generator = self._generator, None
        if generator is None:
            raise RuntimeError("internal error: an operand thunk ran twice")
        try:
            return next(generator)
        except RuntimeError as error:
            cause = error.__cause__
            if isinstance(cause, StopIteration) and str(error) == _PEP_479:
                raise cause.with_traceback(cause.__traceback__) from None
            raise
