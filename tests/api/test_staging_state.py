"""State and expressions under tensor conditions: attributes (`self.total`) and dict
items modified in staged branches and loops, nested ternaries, chained comparisons,
`and`/`or`, early returns. Each compared with the plain-Python result in three modes."""

import pytest

from tests.api.test_staging_loops import MODES, check


class Accumulator:
    def __init__(self):
        self.total = 0
        self.count = 0

    def add_positive(self, xs):
        for x in xs:
            if x > 0:
                self.total += x
                self.count += 1
        return self.total, self.count

    def add_or_subtract(self, x):
        if x > 2:
            self.total += x
        else:
            self.total -= x
        return self.total


@pytest.mark.parametrize("mode", MODES)
def test_attributes_modified_in_a_staged_loop(mode):
    # A fresh object per run: the converted code mutates it.
    check(mode, lambda xs: Accumulator().add_positive(xs), [3, -1, 4],
          expected=Accumulator().add_positive([3, -1, 4]))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("x", [5, 1])
def test_attribute_modified_in_staged_branches(mode, x):
    check(mode, lambda v: Accumulator().add_or_subtract(v), x,
          expected=Accumulator().add_or_subtract(x))


def split_sums(xs):
    d = {"big": 0, "small": 0}
    for x in xs:
        if x > 2:
            d["big"] += x
        else:
            d["small"] += x
    return d["big"], d["small"]


def while_dict(n):
    d = {"i": 0, "acc": 1}
    while d["i"] < n:
        d["acc"] = d["acc"] * 2
        d["i"] += 1
    return d["acc"]


def nested_ternary(x, y):
    return x if x > 5 else (y * 2 if y > x else x + y) if x > 0 else -x


def ternary_in_loop(xs):
    total = 0
    for x in xs:
        total += x if x > 0 else -x
    return total


def ordered(a, b, c):
    return a <= b < c


def either_sign(x, y):
    return (x > 0 and y > 0) or (x < 0 and y < 0)


def grade(x):
    if x > 90:
        return 4
    elif x > 75:
        return 3
    elif x > 50:
        return 2
    return 0


CASES = [
    (split_sums, ([1, 3, 5, 2],)), (while_dict, (4,)), (while_dict, (0,)),
    (nested_ternary, (7, 1)), (nested_ternary, (1, 3)), (nested_ternary, (2, 1)),
    (nested_ternary, (-1, 0)),
    (ternary_in_loop, ([1, -2, 3],)),
    (ordered, (1, 2, 3)), (ordered, (1, 3, 2)), (ordered, (2, 1, 3)),
    (either_sign, (1, 2)), (either_sign, (-1, -2)), (either_sign, (1, -2)),
    (grade, (95,)), (grade, (80,)), (grade, (60,)), (grade, (10,)),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn, args", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in
                                                 enumerate(CASES)])
def test_state_pattern(mode, fn, args):
    check(mode, fn, *args)
