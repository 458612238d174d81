"""The simulated devices of the suite (tests/conftest.py asks JAX for eight)."""

import jax

import autograph_py as ag


def mirrored(count=8):
    """A MirroredStrategy over the first `count` CPU devices, failing (not skipping) when
    JAX started with fewer (XLA_FLAGS set too late)."""
    devices = jax.devices("cpu")
    assert len(devices) >= count, (
        f"JAX has {len(devices)} CPU devices: tests/conftest.py must set XLA_FLAGS before "
        "JAX starts")
    return ag.distribute.MirroredStrategy(devices[:count])
