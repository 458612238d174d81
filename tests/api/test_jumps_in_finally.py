"""A `return`, `break` or `continue` inside `finally` (issue 24, real code review) also
discards the exception raised in the `try`, which the flags a lowered jump sets cannot
do: conversion refuses it, naming the jump and its line, instead of a wrong answer
(converted, the exception escaped) or invalid code (`continue` as the whole `finally`
left it empty). A helper with one, called from converted code, runs as written."""

import warnings

import pytest
from autograph_py.converters.errors import ConversionError

import autograph_py as ag
from tests.converted_path import converted_path


def returns_in_finally(x):
    try:
        if x > 0:
            raise KeyError(x)
        return 1
    finally:
        return 2  # noqa: B012 -- the construct under test


def continues_in_finally(xs):
    total = 0
    for x in xs:
        try:
            total += x
            if x > 2:
                raise ValueError(x)
        finally:
            continue  # noqa: B012
    return total


def breaks_in_finally(xs):
    total = 0
    for x in xs:
        try:
            if x > 2:
                raise ValueError(x)
            total += x
        finally:
            if x > 1:
                break  # noqa: B012
    return total


def calls_the_helper(x):
    if x > 0:
        x = x + returns_in_finally(x)
    return x


@pytest.mark.parametrize("fn, jump", [(returns_in_finally, "return"),
                                      (continues_in_finally, "continue"),
                                      (breaks_in_finally, "break")])
def test_a_jump_in_finally_is_refused_with_its_line(fn, jump):
    with pytest.raises(ConversionError, match=f"'{jump}' inside 'finally' is not supported") \
            as caught:
        ag.to_graph(fn)
    assert caught.value.filename == __file__


def test_a_helper_with_one_runs_as_written():
    with converted_path(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert ag.to_graph(calls_the_helper)(3) == calls_the_helper(3) == 5
    assert any("could not convert returns_in_finally" in str(w.message) for w in caught)
    assert continues_in_finally([1, 2, 3, 4]) == 10 and breaks_in_finally([1, 2, 3]) == 3
