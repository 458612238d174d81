"""Converted functions behave exactly like the originals on Python values."""
import contextlib
import copy
import io

import pytest

from tests.converters import corpus, harness


def _run(fn, args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            result = ('returned', fn(*args))
        except Exception as e:  # noqa: BLE001 - the exception is the observed behaviour
            result = ('raised', type(e), str(e))
    return result, args, out.getvalue()


@pytest.mark.parametrize('case', corpus.CASES, ids=lambda c: c.name)
def test_same_behaviour(case):
    converted = harness.load(case.fn)
    assert len(case.args) >= 1
    for args in case.arg_tuples():
        expected = _run(case.fn, copy.deepcopy(args))
        actual = _run(converted, copy.deepcopy(args))
        assert actual == expected, harness.to_code(case.fn)


def test_corpus_is_large_enough():
    assert len(corpus.CASES) >= 60
