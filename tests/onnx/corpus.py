"""A corpus of converted functions for the ONNX differential test (tests/onnx/).

Each `Case` is a plain Python function with `if`/`while`/`for`/`break`/`continue`/
`return`, nested loops, `//` and `%` on ints and floats, its `ag.TensorSpec` signature,
and a few argument tuples (numpy arrays) to run. The oracle is plain Python / our numpy
runtime (`ag.function`); tests/onnx/test_differential.py runs each export in
`onnx.reference.ReferenceEvaluator` and `onnxruntime` and compares.

`REFUSED` holds functions the export must refuse (stateful or host ops), with the text the
error must contain.
"""

from typing import NamedTuple

import numpy as np

import autograph_py as ag

I32 = ag.TensorSpec([], ag.int32)
I64 = ag.TensorSpec([], ag.int64)
F32 = ag.TensorSpec([], ag.float32)
F64 = ag.TensorSpec([], ag.float64)
VI32 = ag.TensorSpec([None], ag.int32)
VF32 = ag.TensorSpec([None], ag.float32)


class Case(NamedTuple):
    fn: object
    signature: tuple
    arguments: list  # tuples of numpy arrays, one value per parameter


CASES = {}


def case(signature, *arguments):
    def add(fn):
        CASES[fn.__name__] = Case(fn, tuple(signature), [
            tuple(np.asarray(a, s.dtype.np_dtype) for a, s in zip(args, signature))
            for args in arguments])
        return fn

    return add


INTS = [(-7,), (7,), (0,), (1,), (27,), (-1,)]


@case([I32], (27,), (1,), (7,), (97,))
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@case([VI32], ([10, 12, 15, 20],), ([],), ([1, 3, 5],), ([-4, -3, 2],))
def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


@case([F32], (3.0,), (-2.5,), (0.0,))
def square_if_positive(x):
    if x > 0:
        x = x * x
    else:
        x = 0.0
    return x


@case([I32, I32], (-7, 2), (7, 2), (7, -2), (-7, -2), (6, 3), (0, 5), (-1, 4))
def int_floordiv(a, b):
    return a // b


@case([I32, I32], (-7, 2), (7, 2), (7, -2), (-7, -2), (6, 3), (0, 5), (-1, 4))
def int_mod(a, b):
    return a % b


@case([I64, I64], (-7, 2), (7, -2), (-9, -4), (10**12 + 1, 7))
def int64_divmod(a, b):
    return a // b, a % b


@case([F32, F32], (-7.5, 2.0), (7.5, -2.0), (-7.0, -2.0), (1.0, 0.1), (5.25, 0.5),
      (-0.0, 3.0), (3.0, 0.0), (-3.0, 0.0))
def float_divmod(a, b):
    return a // b, a % b


@case([F64, F64], (-7.5, 2.0), (1.0, 0.1), (1e300, 3.0), (-2.0, 1e-300))
def float64_divmod(a, b):
    return a // b, a % b


@case([I32], (10,), (0,), (1,), (-3,))
def count_down(n):
    total = 0
    while n > 0:
        total += n
        n -= 1
    return total


@case([I32], (10,), (0,), (5,))
def for_range(n):
    s = 0
    for i in ag.range(n):
        s += i * i
    return s


@case([I32], (10,), (0,), (30,))
def range_break(n):
    s = 0
    for i in ag.range(n):
        if i * i > 20:
            break
        s += i
    return s


@case([I32], (10,), (0,), (3,))
def nested_loops(n):
    s = 0
    i = 0
    while i < n:
        j = 0
        while j < i:
            s += i * j
            j += 1
        i += 1
    return s


@case([I32], (10,), (0,), (7,))
def nested_break_continue(n):
    s = 0
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        j = 0
        while True:
            j += 1
            if j > i:
                break
            if (i + j) % 2 == 0:
                continue
            s += j
    return s


@case([I32], (10,), (0,), (-5,), (3,))
def early_return(n):
    if n < 0:
        return -1
    i = 0
    while i < 100:
        if i * i >= n:
            return i
        i += 1
    return 100


@case([VI32, I32], ([1, 5, 3, 9],  5), ([1, 2],  7), ([],  0))
def find_index(items, target):
    i = 0
    for v in items:
        if v == target:
            return i
        i += 1
    return -1


@case([F32], (2.0,), (10.0,), (0.5,))
def newton_sqrt(x):
    y = x
    k = 0
    while abs(y * y - x) > 1e-5 and k < 50:
        y = (y + x / y) / 2.0
        k += 1
    return y, k


@case([I32], (1,), (10,), (20,))
def fibonacci(n):
    a = 0
    b = 1
    for _ in ag.range(n):
        a, b = b, a + b
    return a


@case([VF32], ([1.0, -2.0, 3.5],), ([],), ([0.5, 0.25],))
def float_accumulate(xs):
    s = 0.0
    p = 1.0
    for x in xs:
        s += x
        p *= x
    return s, p


@case([VF32], ([1.0, -2.0, 3.5],), ([-1.0],), ([0.5, 0.25],))
def break_on_negative(xs):
    s = 0.0
    for x in xs:
        if x < 0.0:
            break
        s += x * x
    return s


@case([I32, I32], (3, 4), (-3, 4), (0, 0), (5, -5))
def bool_logic(a, b):
    if a > 0 and b > 0:
        r = 1
    elif a > 0 or b > 0:
        r = 2
    elif not a == b:
        r = 3
    else:
        r = 4
    return r


@case([I32], (3,), (-4,), (0,))
def ternary(x):
    y = x * 2 if x > 0 else -x
    return y + 1


@case([F32, I32], (2.0, 3), (1.5, 0), (-1.0, 5))
def power_loop(x, n):
    r = 1.0
    while n > 0:
        r *= x
        n -= 1
    return r


@case([ag.TensorSpec([None, 3], ag.float32)], (np.ones((2, 3)),), (np.arange(12).reshape(4, 3),))
def matrix_rows(m):
    s = ag.zeros([3])
    for row in m:
        if ag.reduce_sum(row) > 3.0:
            s += row
        else:
            s -= row * 0.5
    return s


@case([ag.TensorSpec([2, 2], ag.float32)], (np.eye(2),), ([[1.0, 2.0], [3.0, 4.0]],))
def matmul_iterate(m):
    x = m
    i = 0
    while i < 3:
        x = ag.matmul(x, m)
        i += 1
    return x


@case([VF32], ([1.0, 2.0, 3.0],), ([-1.0, 4.0],))
def reductions(xs):
    return ag.reduce_sum(xs), ag.reduce_max(xs), ag.reduce_min(xs), ag.reduce_mean(xs)


@case([I32], (5,), (0,), (12,))
def digit_sum(n):
    s = 0
    while n > 0:
        s += n % 10
        n //= 10
    return s


@case([I32], (12,), (97,), (1,), (2,))
def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


@case([I32, I32], (48, 18), (7, 13), (0, 5))
def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


@case([F32], (0.3,), (1.7,), (12.0,))
def float_loop_mod(x):
    k = 0
    while x < 10.0:
        x = x * 2.0 + 0.1
        if x % 1.0 < 0.5:
            k += 1
    return x, k


@case([I32], (7,), (0,), (4,))
def triangle_table(n):
    out = 0
    for i in ag.range(n):
        for j in ag.range(i):
            if j % 2 == 1:
                continue
            out += i - j
    return out


@case([VI32], ([3, 1, 2],), ([],), ([5, 5, 5, 1],))
def count_descents(xs):
    count = 0
    prev = 1 << 20
    for x in xs:
        if x < prev:
            count += 1
        prev = x
    return count


@case([F32, F32], (1.0, 2.0), (-3.0, 0.5))
def true_division_and_casts(a, b):
    q = a / b
    n = ag.cast(q * 10.0, ag.int32)
    return q, n, ag.cast(n, ag.float32) / 3.0


@case([I32, I32], (7, 2), (-9, 4))
def int_true_division(a, b):
    return a / b


@case([ag.TensorSpec([None, 3], ag.float32), I32],
      (np.arange(12).reshape(4, 3), 1), (np.ones((1, 3)), 0), (np.arange(6).reshape(2, 3), -1))
def slicing(m, k):
    return (m[1:], m[::-1], m[-1], m[:, 0], m[None, k], m[..., 1:2], m[k], m[:k, ::2],
            m[:, ::-2])


@case([VF32], ([1.0, -2.0, 3.0],), ([],))
def stack_and_select(xs):
    both = ag.stack([xs, -xs], axis=1)
    flat = ag.reshape(both, [-1])
    positive = ag.where(xs > 0.0, xs, ag.zeros_like(xs))
    return flat, ag.concat([positive, xs * 2.0], axis=0), ag.transpose(both)


@case([I32], (6,), (0,), (1,))
def while_over_tensor_state(n):
    v = ag.zeros([3], ag.int32)
    i = 0
    while i < n:
        v = v + (i % 3)
        i += 1
    return v


@case([VF32, VI32], ([1.0, 3.0, 3.0, -2.0], [0, 2, -1, 5]), ([0.5], [1]))
def library_ops(xs, labels):
    probabilities = ag.nn.softmax(xs)
    hot = ag.one_hot(labels, 3)  # -1 and 5 are rows of zeros, as in numpy
    grid = ag.tile(ag.reshape(xs, [1, -1]), [2, 1])
    first, second = ag.unstack(grid, num=2)
    return (ag.argmax(xs), ag.argmin(xs, output_type=ag.int32), ag.cumsum(xs),
            ag.cumsum(labels, exclusive=True, reverse=True), probabilities,
            ag.nn.log_softmax(xs), hot, first + second, ag.where(xs > 0.5),
            ag.reduce_any(xs > 2.0), ag.reduce_all(xs > 0.0))


@case([VF32, I32], ([3.0, 1.0, 2.0, 1.0, 3.0], 2), ([5.0], 1), ([], 0))
def sorting(xs, k):
    grid = ag.stack([xs, -xs])
    top = ag.math.top_k(xs, k)
    return (ag.sort(xs), ag.sort(xs, direction="DESCENDING"), ag.argsort(xs),
            ag.argsort(xs, direction="DESCENDING"), ag.sort(grid, axis=0),
            ag.argsort(grid, axis=1), top.values, top.indices)


@case([ag.TensorSpec([None, 3], ag.float32), I32], (np.arange(6).reshape(2, 3), 1),
      (np.ones((3, 3)), 0))
def padding(m, n):
    grown = ag.pad(m, [[1, 0], [0, 2]], constant_values=-1.0)
    reflected = ag.pad(m, [[0, 0], [1, 1]], mode="REFLECT")
    computed = ag.pad(m, ag.stack([ag.stack([n, 0]), ag.stack([0, n])]))
    return grown, reflected, computed


# --- lists grown in staged loops ------------------------------------------------
# A Python list appended to (or popped from) in a staged loop is a TensorList: one
# tensor of its stacked elements, carried by the loop and grown by concatenation
# (runtime/operators/lists.py); its ONNX form is a Loop-carried tensor whose first dim
# grows (Concat), so `len`, `ag.stack`, indexing and returning it need no sequence ops.


@case([I32], (4,), (0,), (1,))
def append_in_while(n):
    out = []
    i = 0
    while i < n:
        out.append(i * 2)
        i += 1
    return ag.stack(out), len(out)


@case([VI32], ([3, -1, 4],), ([],), ([5],))
def append_in_for(xs):
    squares = []
    for x in xs:
        squares.append(x * x)
    return ag.stack(squares), len(squares)


@case([VI32], ([3, -1, 4, -2, 6],), ([],), ([-5],))
def append_in_a_branch(xs):
    kept = []
    dropped = 0
    for x in xs:
        if x > 0:
            kept.append(x)
        else:
            dropped += 1
    return ag.stack(kept), len(kept), dropped


# Rows of a known shape: appending rows of an unknown dim to a list that starts empty
# fails in our runtime (docs/limitations.md, "Python lists in staged loops";
# test_differential.py's xfail `append_rows_of_unknown_length`).
@case([ag.TensorSpec([3], ag.float32), I32], ([1.0, 2.0, 3.0], 2), ([0.5, 0.0, -1.0], 3),
      ([1.0, 1.0, 1.0], 1))
def append_rows_and_pop(xs, n):
    rows = []
    for i in range(n):
        rows.append(xs * ag.cast(i, ag.float32))
    last = rows.pop()
    return ag.stack(rows), last, len(rows)


@case([I32], (5,), (1,), (0,))
def append_until_break(n):
    seen = []
    i = 0
    while True:
        if i >= n:
            break
        seen.append(i % 3)
        i += 1
    total = 0
    for v in seen:
        total += v
    return seen, total


# --- values of unknown rank inside the model -------------------------------------
# A loop variable whose rank changes (an invariant of unknown rank) or a branch output
# of two ranks: ONNX's checker types a body's or branch's values without a shape; the
# model's own outputs need a rank, so the result is reshaped to one.


@case([VF32, I32], ([1.0, 2.0], 3), ([0.5], 0), ([], 2))
def rank_grows_in_loop(x, n):
    i = 0
    while i < n:
        ag.set_loop_options(shape_invariants=[(x, ag.TensorShape(None))])
        x = ag.expand_dims(x, 0) * 2.0
        i += 1
    return ag.reshape(x, [-1]), ag.reshape(ag.rank(x), [])


@case([VF32, I32], ([1.0, 2.0], 1), ([3.0], -1))
def branches_of_two_ranks(x, n):
    if n > 0:
        y = ag.stack([x, x])
    else:
        y = x
    return ag.reshape(y, [-1]), ag.reshape(ag.reduce_sum(y), [])


# Found by tests/onnx/fuzz_export.py (program (28000, 230), minimized): `in` over an
# empty list is reduce_any of nothing, False; ONNX's ReduceMax of nothing is the type's
# lowest value, which int32 cast True.
@case([I32, VI32], (1, []), (1, [2, 1]), (3, [2, 1]))
def membership_of_empty(a, xs):
    return int(a in xs), int(ag.reduce_all(xs > a)), ag.reduce_any(xs > a)


V = ag.Variable([1.0, 2.0, 3.0], name="weights")


@case([VF32], ([1.0, 1.0, 1.0],), ([2.0, -1.0, 0.0],))
def reads_variable(x):
    y = x * V
    if ag.reduce_sum(y) > 0.0:
        y = y + V
    return y


# --- functions the export refuses ------------------------------------------------


def prints(x):
    ag.print("x is", x)
    return x + 1


def assigns(x):
    V.assign_add(x)
    return V.read_value()


def random(x):
    return x + ag.random.uniform([])


REFUSED = {
    "prints": (prints, (F32,), "PrintV2"),
    "assigns": (assigns, (ag.TensorSpec([3], ag.float32),), "AssignAddVariable"),
    "random": (random, (F32,), "RandomUniform"),
}
