"""The converter corpus's (case, argument tuple) pairs that run on tensors: every argument
a number or a non-empty list of numbers, `as_tensor` making the tensor of each. Shared by
the tests that stage the corpus (the ONNX export, the vectorization pass)."""

import autograph_py as ag
from tests.converters.corpus import CASES


def as_tensor(value):
    """`ag.constant(value)` for a number or a non-empty list of numbers, else None."""
    if isinstance(value, (bool, int, float)) or (
            isinstance(value, list) and value and
            all(isinstance(v, (int, float)) for v in value)):
        return ag.constant(value)
    return None


def tensor_cases():
    """[(case, index)] of the cases (not Python-only) whose argument tuple `index` is all
    tensors."""
    return [(case, i) for case in CASES if not case.python_only
            for i, args in enumerate(case.arg_tuples())
            if all(as_tensor(a) is not None for a in args)]
