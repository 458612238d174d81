"""The helpers a vectorized loop's generated lines call (emit.py writes the calls).

Contract: a chunk of a loop's iterations is run as arrays of `trips` lanes (lane k is
iteration k of the chunk). Every helper is exact: it gives the loop variables the values
the iterations, run one by one, would give them, or raises `VectorFallback` when it
cannot (an index out of range, an integer leaving its dtype), and the loop runs the rest
of its iterations one by one from the state the chunk started in. Nothing here changes
its inputs.
- `bound_trips(kind, base, step, limit, low, high)`: the iterations left before a counter
  test `base + step * k <kind> limit` fails, counting the one where it fails (the
  rotated loop runs that one: its test is computed at the end of the body), after
  checking the counter stays in its dtype's `[low, high]` over all of them.
- `check_range(base, step, trips, low, high)`: that `base + step * k` stays in a
  dtype's range for every lane (the one-by-one loop would wrap it around).
- `lane_rows(x, base, step, trips)`: `x[base + step * k]` for every lane, as a slice.
- `lane_take(x, indices)`: `x[indices[k]]` for every lane (GatherV2's rule: in range).
- `affine_lanes(base, step, trips, dtype)`: the lanes of a counter as an array.
- `expand_lanes(lanes, rank)`: lanes whose element has fewer dims than `rank`, reshaped
  to broadcast as one element would (numpy aligns the trailing dims).
- `until_false(go, trips)`: how many lanes run when lane k's loop test is `go[k]`: up to
  and including the first False.
- `fold(ufunc, init, values, mask, n, in_order, identity)`: `init ⊕ v0 ⊕ v1 ...` over
  the first `n` lanes where `mask` holds (None: all), `in_order` one lane after the
  other (floats: `accumulate`, the sequential rounding), else by `reduce` (integers and
  bools, where the wraparound makes any order give the same bits; masked lanes give
  `identity`). No lane: `init` itself.
- `fold_count(init, value, mask, n, low, high)`: an integer `v += value` (the same value
  in every lane: a count) as `init + value * count`, a Python int wrapped into
  `[low, high]` as the loop would wrap it.
- `first_hit(mask, trips)`: the lanes that run when a `break` flag is set where `mask`
  first holds (all `trips` when it never does).
- `fold_scan(ufunc, init, values, mask, trips, identity)`: each lane's value after it.
- `last_hit(init, values, mask, n, per_lane)`: the value of the last of the first `n`
  lanes where `mask` holds (`values[k]`, or `values` itself when not `per_lane`), or
  `init` when none does; `last_hit_affine` the same for a counter's `base + step * k`.
- `append_rows(concat, init, rows, mask, n)`: `init` with the selected rows appended by
  the op's own kernel, or `init` itself when none is.
- `scatter_rows(scatter, buffer, written, indices, rows, mask, n, attrs)`: a TensorArray
  after the selected writes, by its scatter kernel (one call: every index differs, or
  the kernel refuses and the iterations run one by one), or as it was.
- `scatter_affine(scatter, buffer, written, base, step, dtype, rows, mask, n, attrs)`:
  the same for the indices `base + step * k` (of `dtype`): writes in order by the
  kernel's `in_order` case when it has one and takes them, else through `scatter_rows`.
- `last_hit_scan(init, values, mask, trips)`: each lane's value after it.
- `advance(counter, step, n, low, high)`: the counter after `n` iterations, as a Python
  int, in its dtype's range.
- `broadcast_lanes(value, trips)`: an invariant as lanes.
- `vector_fallback(error)`: records why a chunk fell back (`FALLBACKS`, for tests).
"""

import numpy as np
from autograph_py.runtime.plan.python_scalars import dtype_range

FALLBACKS = []  # (error) of each chunk that fell back, the last 100


class VectorFallback(Exception):
    """A chunk cannot be run as arrays exactly: the loop runs its iterations one by one."""


def bound_trips(kind, base, step, limit, low, high):
    # (the strict tests, `<` and `>`, both run ceil((limit - base) / step) iterations
    # before the failing one; `<=` and `>=` floor(...) + 1; negative counts are none)
    if kind == "<" or kind == ">":
        first = -((base - limit) // step)
    else:
        first = (limit - base) // step + 1
    trips = first + 1 if first > 0 else 1
    last = base + step * first if first > 0 else base
    if not (low <= base <= high and low <= last <= high):
        raise VectorFallback(f"an integer leaves [{low}, {high}]")
    return trips


def check_range(base, step, trips, low, high):
    last = base + step * (trips - 1)
    if not (low <= base <= high and low <= last <= high):
        raise VectorFallback(f"an integer leaves [{low}, {high}]")


def lane_rows(x, base, step, trips):
    size = x.shape[0] if x.ndim else 0
    if step == 1:  # (the common case, without the general one's arithmetic)
        stop = base + trips
        if 0 <= base and stop <= size:
            return x[base:stop]
    last = base + step * (trips - 1)
    if not (0 <= base < size and 0 <= last < size):
        raise VectorFallback(f"an index in [{min(base, last)}, {max(base, last)}] is out of "
                             f"range for {size} rows")
    stop = last + (1 if step > 0 else -1)
    return x[base:stop if stop >= 0 else None:step]


def lane_take(x, indices):
    size = x.shape[0] if x.ndim else 0
    if indices.size and (indices.min() < 0 or indices.max() >= size):
        raise VectorFallback(f"an index is out of range for {size} rows")
    return x[indices]


_RANGES = {}  # dtype -> (lowest, highest): np.iinfo costs a µs a call


def affine_lanes(base, step, trips, dtype):
    bounds = _RANGES.get(dtype)
    if bounds is None:
        bounds = _RANGES[dtype] = dtype_range(dtype)
    check_range(base, step, trips, *bounds)
    return np.arange(base, base + step * trips, step, dtype=dtype)[:trips]


def expand_lanes(lanes, rank):
    missing = rank - (lanes.ndim - 1)
    return lanes.reshape(lanes.shape[:1] + (1,) * missing + lanes.shape[1:])


def until_false(go, trips):
    go = np.asarray(go, bool)[:trips]
    first = int(np.argmin(go))  # (numpy stops at the first False)
    return trips if go[first] else first + 1


def _selected(values, mask, n):
    values = values[:n]
    return values if mask is None else values[mask[:n]]


def fold(ufunc, init, values, mask, n, in_order, identity):
    if in_order:
        values = _selected(values, mask, n)
        if not len(values):
            return init
        start = np.asarray(init, values.dtype)
        return ufunc.accumulate(np.concatenate((start[None], values)), axis=0,
                                dtype=values.dtype)[-1]
    values = values[:n]
    if not len(values) or mask is not None and not mask[:n].any():
        return init
    if mask is not None:  # (masked lanes give the identity: faster than selecting them)
        values = np.where(expand_lanes(mask[:n], values.ndim - 1), values, identity)
    start = np.asarray(init, values.dtype)
    # (v - x0 - x1 ... is v - (x0 + x1 ...): subtract's own reduce would alternate signs)
    reducer = np.add if ufunc is np.subtract else ufunc
    return ufunc(start, reducer.reduce(values, axis=0, dtype=values.dtype))[()]


def fold_count(init, value, mask, n, low, high):
    count = n if mask is None else \
        int(np.count_nonzero(mask if mask.shape[0] == n else mask[:n]))
    total = int(init) + int(value) * count
    if not low <= total <= high:  # two's-complement wraparound, as the loop's
        span = high - low + 1
        total = (total - low) % span + low
    return total


def fold_scan(ufunc, init, values, mask, trips, identity):
    values = values[:trips]
    if mask is not None:
        values = np.where(expand_lanes(mask[:trips], values.ndim - 1), values,
                          np.asarray(identity, values.dtype))
    start = np.asarray(init, values.dtype)
    return ufunc.accumulate(np.concatenate((start[None], values)), axis=0,
                            dtype=values.dtype)[1:]


def last_index(mask, n):
    if mask is None:
        return n - 1
    if not n:
        return -1
    if mask[n - 1]:  # (a search's hit ends its lanes: found without a scan)
        return n - 1
    backwards = mask[n - 1::-1]
    last = int(np.argmax(backwards))  # (numpy stops at the first True)
    return n - 1 - last if backwards[last] else -1


def first_hit(mask, trips):
    """How many lanes run when the loop stops after the first lane where `mask` holds
    (a `break` flag set there)."""
    if mask.shape[0] != trips:
        mask = mask[:trips]
    first = int(mask.argmax())  # (numpy stops at the first True; a chunk has lanes)
    return first + 1 if mask[first] else trips


def last_hit(init, values, mask, n, per_lane):
    last = last_index(mask, n)
    if last < 0:
        return init
    return values[last] if per_lane else values


def last_hit_affine(init, base, step, mask, n, dtype):
    last = last_index(mask, n)
    return init if last < 0 else np.asarray(base + step * last, dtype)[()]


def append_rows(concat, init, rows, mask, n):
    rows = _selected(rows, mask, n)
    return concat(init, rows, axis=0) if len(rows) else init


def scatter_rows(scatter, buffer, written, indices, rows, mask, n, attrs):
    indices, rows = _selected(indices, mask, n), _selected(rows, mask, n)
    if not len(rows):
        return buffer, written
    return scatter(buffer, written, indices, rows, **attrs)


def scatter_affine(scatter, buffer, written, base, step, dtype, rows, mask, n, attrs):
    in_order = getattr(scatter, "in_order", None)  # (the kernel's own fast case)
    if mask is None and step == 1 and in_order is not None:
        done = in_order(buffer, written, base, rows if rows.shape[0] == n else rows[:n],
                        **attrs)
        if done is not None:
            return done
    indices = affine_lanes(base, step, rows.shape[0], dtype)
    return scatter_rows(scatter, buffer, written, indices, rows, mask, n, attrs)


def last_hit_scan(init, values, mask, trips):
    values = np.asarray(values)
    start = np.asarray(init, values.dtype)
    if mask is None:
        return np.broadcast_to(values, (trips, *start.shape)) if values.ndim == start.ndim \
            else values[:trips]
    if values.ndim == start.ndim:  # the same value in every lane (`flag = True`)
        mask = np.asarray(mask[:trips], bool)
        first = int(np.argmax(mask))  # (numpy stops at the first True)
        hit = np.zeros(trips, bool)
        if mask.size and mask[first]:
            hit[first:] = True
        if values.dtype == bool and values and start.ndim == 0 and not start:
            return hit  # (a break flag)
        return np.where(expand_lanes(hit, start.ndim), values, start)
    last = np.where(mask[:trips], np.arange(trips), -1)
    np.maximum.accumulate(last, out=last)
    picked = values[np.maximum(last, 0)]
    return np.where(expand_lanes(last >= 0, start.ndim), picked, start)


def advance(counter, step, n, low, high):
    value = int(counter) + step * n
    if not low <= value <= high:
        raise VectorFallback(f"the loop counter leaves [{low}, {high}]")
    return value


def broadcast_lanes(value, trips):
    value = np.asarray(value)
    return np.broadcast_to(value, (trips, *value.shape))


def vector_fallback(error):
    del FALLBACKS[:-99]
    FALLBACKS.append(error)


GLOBALS = {f.__name__: f for f in (
    bound_trips, check_range, lane_rows, lane_take, affine_lanes, expand_lanes, until_false,
    first_hit, fold, fold_count, fold_scan, last_hit, last_hit_affine, last_hit_scan,
    append_rows, scatter_rows, scatter_affine, advance, broadcast_lanes, vector_fallback)}
