"""Loops over the elements of a tensor, staged with `ag.function`, with the vectorization
pass (runtime/plan/passes/vectorize.py) on and off, against plain Python, numpy's
vectorized form and `jax.jit` (issue 27).

Run: `python benchmarks/vectorize.py [--json PATH]` (or through `benchmarks/run.py`).
Each workload is written the natural way, as a Python loop, and staged with
`ag.function` over `ag.constant` inputs of 10,000 and of 1,000,000 elements:

- `sum_even`: the seed article's function (examples/seed.py), int32 in [0, 1000);
- `count_above`: how many elements exceed a threshold (int32 in [0, 1000), t = 500);
- a TensorArray map: `out.write(i, x[i] * x[i] + 1.0)` over `range(ag.shape(x)[0])`,
  then `out.stack()` (float32);
- a first-index search with `break`: the index of the first element over 1.5 in float32
  values in [0, 1) of which only the one at 3/4 of the length is over it, so the loop
  (and the search) stops at 3/4 of the length;
- a masked running max: `best = ag.maximum(best, x[i])` where `mask[i]` (float32, a
  bool mask about 30% true).

Modes: numpy's vectorized form (the natural one-liner, named in the row: the reference
of every ratio), the same loop in plain Python over Python lists (`x.tolist()`, made
before timing), `jax.jit` of the vectorized `jax.numpy` form (JAX's defaults; no column
when `jax` is not importable), and `ag.function` with the pass on and off. The pass is
off for a plan compiled while AUTOGRAPH_VECTORIZE=0: that mode's `ag.function` is made,
traced and called once with the variable set, and the variable restored. Every mode's
answer is checked against numpy's before timing, and each `ag.function`'s plan source
(`ConcreteFunction.code`) is checked to run the loop as array operations with the pass
on ("loop not vectorized" in the row otherwise) and not with it off.

Samples of the modes are taken in turns (as `_harness.interleaved_samples`). A mode
whose call takes under 20 ms takes `repeats` samples of several calls; a slower one (the
loops in Python or with the pass off, at 1,000,000 elements) takes one call a sample and
as many samples as fit in about a second (at least one). A mode whose call at 10,000
elements, times 100, would exceed `SKIP_SECONDS` is not run at 1,000,000 (its row says
so). Every row carries its best sample (`best_seconds`, the one the machine's other load
hit least) and `best_ratio` (to numpy's best); the pass-on rows also `pass_speedup_ratio`,
off / on (medians). Nothing is asserted: the targets and a reference machine's numbers
are in docs/performance.md.
"""

import contextlib
import importlib.util
import math
import os
import statistics
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "examples"))

import numpy as np  # noqa: E402
from _harness import format_seconds, row, run_module  # noqa: E402
from seed import sum_even  # noqa: E402  (the article's function)
from vector_loops import count_above, masked_max  # noqa: E402
from vector_loops import first_above as first_over  # noqa: E402
from vector_loops import squares_into_tensor_array as square_plus_one  # noqa: E402

import autograph_py as ag  # noqa: E402

SIZES = (10_000, 1_000_000)
NUMPY, PYTHON, JAX = "numpy, vectorized", "plain Python (lists)", "jax.jit, vectorized jnp"
ON, OFF = "ag.function, vectorize on", "ag.function, vectorize off"
SLOW_CALL = 0.02  # seconds: a call this slow is one sample, and few samples are taken
SLOW_MODE_SECONDS = 1.0  # about how long a slow mode's samples take, per workload
SKIP_SECONDS = 10.0  # a mode whose call would take longer is not run at 1,000,000
VECTORIZED = "# vectorized:"  # how the plan's source marks a loop the pass vectorized


# --- the workloads as staged with ag.function: Python loops (examples/vector_loops.py) --


def square_plus_one_python(x):
    out = [0.0] * len(x)
    for i in range(len(x)):
        out[i] = x[i] * x[i] + 1.0
    return out


def first_over_python(x, t):
    found = -1
    for i in range(len(x)):
        if x[i] > t:
            found = i
            break
    return found


def masked_max_python(x, mask):
    best = -math.inf
    for i in range(len(x)):
        if mask[i]:
            best = max(best, x[i])
    return best


# --- numpy's vectorized forms ------------------------------------------------------------


def first_over_numpy(x, t):
    hit = x > t
    i = int(hit.argmax())
    return i if hit[i] else -1


def _jax():
    """`jax` and `jax.numpy` when jax is importable, else None (never a dependency)."""
    if importlib.util.find_spec("jax") is None:
        return None
    import jax
    import jax.numpy as jnp

    return jax, jnp


def _jax_forms(jnp):
    def first_over_jnp(x, t):
        hit = x > t
        i = jnp.argmax(hit)
        return jnp.where(hit[i], i, -1)

    return {
        "sum_even": lambda x: jnp.sum(jnp.where(x % 2 == 0, x, 0)),
        "count_above": lambda x, t: jnp.count_nonzero(x > t),
        "square_plus_one": lambda x: x * x + 1,
        "first_over": first_over_jnp,
        "masked_max": lambda x, mask: jnp.max(x, where=mask, initial=-jnp.inf),
    }


def _workloads(size, rng):
    """(key, workload, staged function, plain Python function, numpy form and its text,
    arguments as numpy values)."""
    ints = rng.integers(0, 1000, size, dtype=np.int32)
    floats = rng.standard_normal(size).astype(np.float32)
    mask = rng.random(size) < 0.3
    search = rng.random(size).astype(np.float32)
    search[3 * size // 4] = 2.0
    n = f"{size:,}"
    return [
        ("sum_even", f"sum_even, {n} int32", sum_even, sum_even,
         lambda x: x[x % 2 == 0].sum(), "x[x % 2 == 0].sum()", (ints,)),
        ("count_above", f"count_above, {n} int32", count_above, count_above,
         lambda x, t: np.count_nonzero(x > t), "np.count_nonzero(x > t)",
         (ints, np.int32(500))),
        ("square_plus_one", f"TensorArray map, x squared + 1, {n} float32", square_plus_one,
         square_plus_one_python, lambda x: x * x + 1, "x * x + 1", (floats,)),
        ("first_over", f"first index over t with break (hit at 3/4), {n} float32",
         first_over, first_over_python, first_over_numpy,
         "argmax of x > t, -1 when no hit", (search, np.float32(1.5))),
        ("masked_max", f"masked running max (30% mask), {n} float32", masked_max,
         masked_max_python, lambda x, mask: np.max(x[mask], initial=-np.inf),
         "np.max(x[mask], initial=-inf)", (floats, mask)),
    ]


@contextlib.contextmanager
def _vectorize_off():
    """AUTOGRAPH_VECTORIZE=0 while the context lasts (read when a plan is compiled)."""
    before = os.environ.get("AUTOGRAPH_VECTORIZE")
    os.environ["AUTOGRAPH_VECTORIZE"] = "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ["AUTOGRAPH_VECTORIZE"]
        else:
            os.environ["AUTOGRAPH_VECTORIZE"] = before


def _check(mode, workload, got, expected):
    """The mode's answer is numpy's (no speed of a wrong answer is reported)."""
    got, expected = np.asarray(got), np.asarray(expected)
    message = f"{workload}: {mode} gives another answer than numpy"
    if expected.dtype.kind == "f":
        np.testing.assert_allclose(got, expected, rtol=1e-6, err_msg=message)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=message)


def _staged(fn, args, vectorize):
    """A runner of a fresh `ag.function` of `fn` (traced, compiled and called once here,
    with the pass on or off), its first answer, and whether its plan vectorized a loop."""
    compiled = ag.function(fn)
    tensors = [ag.constant(a) for a in args]
    with contextlib.nullcontext() if vectorize else _vectorize_off():
        first = compiled(*tensors)
    code = compiled.get_concrete_function(*tensors).code
    return (lambda: compiled(*tensors)), first, VECTORIZED in code


def _runners(key, workload, staged, python, numpy_form, args, jax_forms, skip):
    """{mode: runner} with every answer checked, and {mode: note}. `skip` maps a mode not
    to run to the reason."""
    expected = numpy_form(*args)
    runners, notes = {NUMPY: lambda: numpy_form(*args)}, {}
    if PYTHON not in skip:
        lists = [a.tolist() for a in args]
        _check(PYTHON, workload, python(*lists), expected)
        runners[PYTHON] = lambda: python(*lists)
    if jax_forms is not None:
        jax, forms = jax_forms
        jitted = jax.jit(forms[key])
        arrays = [jax.numpy.asarray(a) for a in args]
        _check(JAX, workload, jitted(*arrays), expected)
        runners[JAX] = lambda: jax.block_until_ready(jitted(*arrays))
    for mode, vectorize in ((ON, True), (OFF, False)):
        if mode in skip:
            continue
        runner, first, vectorized = _staged(staged, args, vectorize)
        _check(mode, workload, first, expected)
        if vectorize and not vectorized:
            notes[mode] = "loop not vectorized"
        assert vectorize or not vectorized, f"{workload}: the pass ran with it switched off"
        runners[mode] = runner
    return runners, notes


def _samples(runners, repeats):
    """{mode: [seconds per call]}: samples taken in turns, one of each mode a round; a
    fast mode (a call under SLOW_CALL) takes `repeats` samples of several calls, a slow
    one single calls, as many as fit in SLOW_MODE_SECONDS (at least one), in the first
    rounds."""
    plan = {}
    for mode, fn in runners.items():
        start = time.perf_counter()  # a warm-up call (after the one checking the answer)
        fn()
        once = time.perf_counter() - start
        if once >= SLOW_CALL:
            plan[mode] = (1, max(1, min(repeats, int(SLOW_MODE_SECONDS / once))))
        else:
            plan[mode] = (max(1, int(0.01 / max(once, 1e-9))), repeats)
    samples = {mode: [] for mode in runners}
    for round_ in range(max(count for _, count in plan.values())):
        for mode, fn in runners.items():
            number, count = plan[mode]
            if round_ < count:
                start = time.perf_counter()
                for _ in range(number):
                    fn()
                samples[mode].append((time.perf_counter() - start) / number)
    return samples


def measure(repeats=15):
    jax_forms = _jax()
    if jax_forms is not None:
        jax_forms = (jax_forms[0], _jax_forms(jax_forms[1]))
    rng = np.random.default_rng(0)
    small = {}  # (workload key, mode) -> median seconds at the smaller size
    rows = []
    for size in SIZES:
        for key, workload, staged, python, numpy_form, text, args in _workloads(size, rng):
            skip = {}
            for mode in (PYTHON, ON, OFF):
                estimate = small.get((key, mode), 0.0) * size / SIZES[0]
                if estimate > SKIP_SECONDS:
                    skip[mode] = (f"not run: {format_seconds(small[key, mode])} a call at "
                                  f"{SIZES[0]:,} elements, so at least "
                                  f"{format_seconds(estimate)} here")
            runners, notes = _runners(key, workload, staged, python, numpy_form, args,
                                      jax_forms, skip)
            samples = _samples(runners, repeats)
            medians = {mode: statistics.median(values) for mode, values in samples.items()}
            if size == SIZES[0]:
                small.update({(key, mode): seconds for mode, seconds in medians.items()})
            notes[NUMPY] = f"`{text}`"
            rows += _rows(workload, samples, medians, notes, skip)
    return rows


def _rows(workload, samples, medians, notes, skip):
    reference, best_reference = medians[NUMPY], min(samples[NUMPY])
    rows = []
    for mode in (NUMPY, PYTHON, JAX, ON, OFF):
        if mode in skip:
            rows.append(row(workload, mode, reference=NUMPY, note=skip[mode]))
            continue
        if mode not in samples:  # jax not importable
            continue
        values, seconds = samples[mode], medians[mode]
        # The fastest sample of each mode is the one the machine's other load hit least.
        numbers = {"best_seconds": min(values), "best_ratio": min(values) / best_reference}
        note = [notes[mode]] if mode in notes else []
        if mode == ON:
            note.append(f"best {format_seconds(min(values))}, "
                        f"{numbers['best_ratio']:.3g}x numpy's best")
        if mode == ON and OFF in medians:
            numbers["pass_speedup_ratio"] = medians[OFF] / seconds
            note.append(f"pass off / on: {medians[OFF] / seconds:.3g}x")
        if len(values) < 5:
            note.append(f"{len(values)} sample{'s' if len(values) > 1 else ''}")
        rows.append(row(workload, mode, seconds, (max(values) - min(values)) / seconds,
                        NUMPY, reference, note="; ".join(note), **numbers))
    return rows


def main(argv=None):
    run_module(measure, __doc__, argv)


if __name__ == "__main__":
    main()
