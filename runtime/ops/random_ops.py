"""Random ops, exposed as `ag.random`: uniform, normal, set_seed.

Contract: random ops are stateful (never constant-folded, cached or pruned as pure), so
every eager call and every graph run draws new numbers. They draw from a module-level
numpy Generator; `set_seed(s)` resets it, making the following sequence of draws
reproducible. An op-level `seed` gives that op its own stream, derived from the global
seed and `seed` (as TensorFlow combines them), also reset by `set_seed`.
`uniform(shape, minval=0, maxval=None, dtype=float32)`: floats in [minval, maxval)
(maxval defaults to 1); integer dtypes need maxval and give ints in [minval, maxval).
`normal(shape, mean=0, stddev=1, dtype=float32)`: floats only.
"""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.ops import infer, shape_args
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape

_DEFAULT_GLOBAL_SEED = 87654321  # used with op seeds when no global seed is set (as TF)
_global_seed = None
_global_generator = np.random.default_rng()
_op_generators = {}


def set_seed(seed):
    """Make the random ops that follow reproducible (None: unpredictable again)."""
    global _global_seed, _global_generator
    _global_seed = None if seed is None else int(seed)
    _global_generator = np.random.default_rng(_global_seed)
    _op_generators.clear()


def seed_for_compiled_call():
    """A seed from the global generator: the PRNG key of one call of a compiled
    (jit_compile) function, so `set_seed` makes its draws reproducible too."""
    return int(_global_generator.integers(2**32))


def _generator(seed):
    if seed is None:
        return _global_generator
    generator = _op_generators.get(seed)
    if generator is None:
        base = _DEFAULT_GLOBAL_SEED if _global_seed is None else _global_seed
        generator = _op_generators[seed] = np.random.default_rng([base, seed])
    return generator


def _uniform_draw(generator, shape, low, high, np_dtype):
    if np_dtype.kind == "f":
        unit = generator.random(shape, dtype=np.float64 if np_dtype.itemsize == 8 else np.float32)
        values = np.asarray(unit * (high - low) + low).astype(np_dtype)
        # Rounding to a narrow dtype (float16) can land on maxval itself: keep [low, high).
        below_high = np.nextafter(np_dtype.type(high), np_dtype.type(low))
        return np.minimum(values, below_high, out=values)
    if low >= high:
        raise ValueError(f"uniform needs minval < maxval, got {low} and {high}")
    return generator.integers(low, high, shape, dtype=np_dtype)


def _normal_draw(generator, shape, mean, stddev, np_dtype):
    unit = generator.standard_normal(shape, dtype=np.float64 if np_dtype.itemsize == 8
                                     else np.float32)
    return (unit * stddev + mean).astype(np_dtype)


def _row(op, draw, kinds):
    """Register random op `op`; inputs: two scalar parameters, then the optional shape."""

    def kernel(a, b, *shape_input, shape, seed):
        infer.require_kind(a.dtype, kinds)
        if a.ndim or b.ndim:
            raise ValueError("the distribution parameters must be scalars")
        return draw(_generator(seed), shape_args.resolve(shape, shape_input), a[()], b[()],
                    a.dtype)

    def rule(a, b, *shape_input, shape, seed):
        infer.require_specs(kinds, a)
        dtype = infer.same_dtype(a, b)
        return TensorShape(shape_args.infer_target(shape, shape_input)), dtype

    register(OpDef(op, kernel, rule, stateful=True))

    def call(shape, a, b, dtype, seed, name):
        static, shape_input = shape_args.split(shape, op)
        params = [convert_to_tensor(np.asarray(v, dtype.np_dtype)) if not hasattr(v, "dtype")
                  else convert_to_tensor(v, dtype) for v in (a, b)]
        return apply(op, params + shape_input,
                     {"shape": static, "seed": None if seed is None else int(seed)}, op_name=name)

    return call


_uniform = _row("RandomUniform", _uniform_draw, infer.NUMERIC)
_normal = _row("RandomNormal", _normal_draw, infer.FLOAT)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    dtype = dtypes.as_dtype(dtype)
    if maxval is None:
        if dtype.is_integer:
            raise ValueError(f"uniform: maxval must be given for integer dtype {dtype.name}")
        maxval = 1
    return _uniform(shape, minval, maxval, dtype, seed, name)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return _normal(shape, mean, stddev, dtypes.as_dtype(dtype), seed, name)
