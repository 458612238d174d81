"""Every plan of the corpus (plan_corpus.py) against the reference interpreter
(reference.py), with all the compiler's optional passes and with each one switched off:
the same values, bit for bit, of the same dtypes."""

import numpy as np
import pytest
from autograph_py.runtime.plan.passes.pipeline import OPTIONAL
from autograph_py.runtime.recording import EAGER_CONTEXT
from plan_corpus import CASES, build, plan_of
from reference import interpret

CONFIGURATIONS = {"all passes": OPTIONAL, "none": frozenset(),
                  **{f"without {name}": OPTIONAL - {name} for name in sorted(OPTIONAL)}}


def assert_same_values(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        g, e = np.asarray(g), np.asarray(e)
        assert g.dtype == e.dtype
        np.testing.assert_array_equal(g, e)


@pytest.fixture(scope="module")
def corpus():
    return {}


@pytest.mark.parametrize("configuration", list(CONFIGURATIONS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_plan_computes_what_the_interpreter_does(corpus, name, configuration):
    if name not in corpus:
        built = build(name)
        feeds = {id(t): v for t, v in built.feeds.items()}
        corpus[name] = built, interpret(EAGER_CONTEXT, built.fetches, built.targets, feeds)
    built, expected = corpus[name]
    plan = plan_of(built, CONFIGURATIONS[configuration])
    assert_same_values(plan.run(EAGER_CONTEXT, list(built.feeds.values())), expected)
