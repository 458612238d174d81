"""A Python list mixing numbers and strings is refused (issue 25, bug 16: `ag.constant([1,
'a'])` silently made the string tensor ['1', 'a'], as numpy would).

Oracle: TensorFlow's behaviour, a ValueError "Can't convert Python sequence with mixed
types to Tensor." (tensorflow/python/lib/core/py_seq_tensor.cc, ErrorMixedTypes). Ours
names the offending element (the first whose kind differs from the first element's)
and quotes TensorFlow's words. Refused the same way eagerly, while building a graph,
while tracing `ag.function` and under `jit_compile=True`; lists of one kind still convert
as numpy does.
"""

import numpy as np
import pytest

import autograph_py as ag

MIXED = [
    ([1, "a"], r"element \[1\] is the str 'a', but element \[0\] is the int 1"),
    (["a", 2.5], r"element \[1\] is the float 2.5, but element \[0\] is the str 'a'"),
    ([["x", "y"], ["z", 3]], r"element \[1\]\[1\] is the int 3, but element \[0\]\[0\] is "
                             r"the str 'x'"),
    ((True, b"no"), r"element \[1\] is the bytes b'no', but element \[0\] is the bool True"),
]
MODES = ("eager", "graph", "function", "jit_compile")


def _constant_in(mode, value, make=ag.constant):
    if mode == "eager":
        return make(value)
    if mode == "graph":
        with ag.Graph().as_default():
            return make(value)
    return ag.function(lambda: make(value), jit_compile=mode == "jit_compile")()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("value, words", MIXED)
def test_numbers_and_strings_in_one_list_are_refused_naming_the_element(mode, value, words):
    for make in (ag.constant, ag.convert_to_tensor):
        with pytest.raises(ValueError, match=words) as info:
            _constant_in(mode, value, make)
        assert "mixes numbers and strings" in str(info.value)
        assert "Can't convert Python sequence with mixed types to Tensor" in str(info.value)


@pytest.mark.parametrize("value", [["a", "bc"], [[b"x"], [b"y"]], [1, 2.5], [[True], [False]]])
def test_lists_of_one_kind_still_convert_as_numpy_does(value):
    expected = np.asarray(value)
    tensor = ag.constant(value)
    assert tensor.shape == expected.shape
    if expected.dtype.kind in "US":
        assert tensor.dtype == ag.string
        assert [str(v) for v in tensor.numpy().ravel()] == [str(v) for v in expected.ravel()]
    else:
        np.testing.assert_array_equal(tensor.numpy(), expected)
