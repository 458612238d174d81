"""Fixtures shared by every test directory, and the JAX device count of the suite.

JAX reads XLA_FLAGS once, when its CPU backend starts: eight simulated CPU devices are
asked for here, before any test imports jax, so tests/distribute/ shards over eight
devices in this one process (every other JAX test runs on device 0, as before).
"""

import os

import pytest

from autograph_py import config  # imports no jax

DEVICE_COUNT_FLAG = "--xla_force_host_platform_device_count"
if DEVICE_COUNT_FLAG not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {DEVICE_COUNT_FLAG}=8".strip()


@pytest.fixture
def converted_path(monkeypatch):
    """The converted path for the whole test, even where a call stages nothing
    (tests/converted_path.py says why)."""
    monkeypatch.setattr(config, "_fast_path", False)
