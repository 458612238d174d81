"""TensorFlow's spellings a TF user types in their first hour (dtype comparisons,
ag.function keywords, the tensor repr, small protocol details), each checked against
what numpy or plain Python says."""

import functools

import numpy as np
import pytest

import autograph_py as ag


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "int8", "int16", "int32",
                                  "int64", "uint8", "bool"])
def test_dtype_equals_numpy_type_dtype_and_name(name):
    np_dtype = np.dtype(name)
    dtype = ag.as_dtype(np_dtype.type)
    assert dtype is ag.as_dtype(name) is ag.as_dtype(np_dtype)
    assert dtype.np_dtype == np_dtype
    tensor = ag.constant(np.zeros(2, np_dtype))
    assert tensor.dtype == np_dtype.type and np_dtype.type == tensor.dtype
    assert tensor.dtype == np_dtype and tensor.dtype == name
    others = [d for d in ("float32", "int32", "bool") if d != name]
    assert all(tensor.dtype != d and tensor.dtype != np.dtype(d).type for d in others)
    assert hash(dtype) == hash(name)  # usable as a dict key next to its name


def test_dtype_differs_from_things_that_are_not_dtypes():
    assert ag.float32 != "no such dtype" and ag.float32 != None  # noqa: E711
    assert ag.float32 != 1.0


def _signed_sum(x, y):
    if x > 0:
        return x + y
    return x - y


@pytest.mark.parametrize("x", [1.5, -1.5])
def test_function_of_a_partial_converts_what_it_wraps(x):
    staged = ag.function(functools.partial(_signed_sum, y=2.0))
    assert staged.name == "_signed_sum"
    assert staged(ag.constant(x)).numpy() == np.float32(_signed_sum(x, 2.0))


def test_tf_keywords_are_accepted():
    relaxed = ag.function(lambda x: x * 2, experimental_relax_shapes=True,
                          experimental_autograph_options=())
    assert relaxed.reduce_retracing
    for n in (2, 3, 4):
        np.testing.assert_array_equal(relaxed(ag.constant(np.ones(n, np.float32))).numpy(),
                                      np.ones(n) * 2)
    assert relaxed.experimental_get_tracing_count() == relaxed.trace_count == 2


@pytest.mark.parametrize("typo, nearest", [("reduce_retrace", "reduce_retracing"),
                                           ("jit_compiled", "jit_compile"),
                                           ("input_signatures", "input_signature"),
                                           ("experimental_relax_shape",
                                            "experimental_relax_shapes")])
def test_unknown_keyword_names_the_nearest(typo, nearest):
    with pytest.raises(TypeError, match=f"'{typo}'; did you mean '{nearest}'"):
        ag.function(_signed_sum, **{typo: True})


def test_unsupported_tf_keyword_says_so():
    with pytest.raises(TypeError, match="TensorFlow's keyword 'experimental_implements'"):
        ag.function(_signed_sum, experimental_implements="x")


def test_get_without_owner_binds_the_instance():
    class Doubler:
        @ag.function
        def call(self, x):
            return x * 2

    obj = Doubler()
    assert Doubler.call.__get__(obj) == obj.call and obj.call.__self__ is obj
    assert Doubler.call.__get__(obj).__func__ is obj.call.__func__
    assert Doubler.call.__get__(obj)(ag.constant(2.0)).numpy() == 4.0


def test_len_of_a_variable_is_its_first_dimension():
    value = np.zeros((3, 2), np.float32)
    assert len(ag.Variable(value)) == len(value)
    with pytest.raises(TypeError, match="scalar variable"):
        len(ag.Variable(1.0))


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_dict_outputs_keep_insertion_order(mode):
    def fn(x):
        return {"b": x, "a": x + 1, "c": x * 2}

    run = ag.function(fn) if mode == "function" else fn
    result = run(ag.constant(1.0))
    expected = fn(1.0)
    assert list(result) == list(expected)
    assert {k: v.numpy() for k, v in result.items()} == expected


def test_public_namespaces_do_not_export_the_modules_they_use():
    # Issue 25: `ag.importlib`, `ag.config.os`, `ag.summary.socket`, `ag.errors.sys` were
    # reachable. Our own subpackages stay attributes of the package (Python sets them).
    import types

    for namespace in (ag.config, ag.summary, ag.errors, ag.jax):
        leaked = [name for name, value in vars(namespace).items()
                  if isinstance(value, types.ModuleType) and not name.startswith("_")]
        assert leaked == [], namespace.__name__
    assert not hasattr(ag, "importlib")
