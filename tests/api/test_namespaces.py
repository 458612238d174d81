"""The public namespaces (ag.math, ag.nn, ag.random, ag.debugging, ag.linalg, ag.nest)
hold their API only, under TensorFlow's names, and a missing name is an AttributeError
naming the namespace (issue 25: `ag.math.reduce_std` said "'types.SimpleNamespace' object
has no attribute 'reduce_std'")."""

import copy
import inspect
import pickle
import types

import pytest

import autograph_py as ag

NAMESPACES = ["math", "nn", "random", "debugging", "linalg", "nest"]
# Names a ported TensorFlow program reaches for (issue 25), each TF's spelling.
TF_NAMES = {
    "linalg": ["matmul", "inv", "det", "solve", "norm", "cholesky", "matrix_transpose",
               "adjoint", "trace", "diag_part", "set_diag", "band_part", "eye"],
    "math": ["reduce_std", "reduce_variance", "reduce_logsumexp", "reduce_mean"],
    "nn": ["moments", "relu", "softmax"],
    "nest": ["flatten", "map_structure", "pack_sequence_as", "assert_same_structure",
             "is_nested"],
}


@pytest.mark.parametrize("name", NAMESPACES)
def test_a_namespace_holds_functions_only(name):
    namespace = getattr(ag, name)
    public = {key: value for key, value in vars(namespace).items() if not key.startswith("_")}
    assert public and all(inspect.isfunction(v) or inspect.isclass(v)
                          for v in public.values()), public
    assert dir(namespace) == sorted(public)
    assert name in ag.__all__


@pytest.mark.parametrize("name", TF_NAMES)
def test_tensorflows_names_are_there(name):
    missing = [n for n in TF_NAMES[name] if not hasattr(getattr(ag, name), n)]
    assert missing == []


def test_a_missing_name_names_the_namespace_and_the_closest_name():
    with pytest.raises(AttributeError, match=r"^module 'autograph_py.math' has no attribute "
                                             r"'reduce_stdev'; did you mean 'reduce_std'\?$"):
        ag.math.reduce_stdev  # noqa: B018
    with pytest.raises(AttributeError, match=r"^module 'autograph_py.linalg' has no attribute "
                                             r"'np'$"):
        ag.linalg.np  # noqa: B018
    assert not hasattr(ag.linalg, "np") and not hasattr(ag.nest, "_nest")


def test_a_namespace_copies_and_pickles_as_itself():
    for namespace in (copy.copy(ag.linalg), pickle.loads(pickle.dumps(ag.linalg))):
        assert repr(namespace) == "<namespace 'autograph_py.linalg'>"
        assert namespace.inv is ag.linalg.inv


def test_no_public_module_or_namespace_exports_a_module_it_uses():
    # ag.dtypes.np and ag.error_rewriting.linecache were reachable. A package's own
    # subpackages (ag.data.dataset) stay: Python sets them on the package.
    leaked = {}
    for name in ag.__all__:
        value = getattr(ag, name)
        if not isinstance(value, (types.ModuleType, types.SimpleNamespace)):
            continue
        own = getattr(value, "__name__", "") + "."
        leaked[name] = [key for key, item in vars(value).items()
                        if isinstance(item, types.ModuleType) and not key.startswith("_")
                        and not item.__name__.startswith(own)]
    assert {name: keys for name, keys in leaked.items() if keys} == {}
    assert len(leaked) >= 10  # the namespaces and modules were all looked at
