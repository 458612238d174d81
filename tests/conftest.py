"""Fixtures shared by every test directory."""

import pytest

from autograph_py import config


@pytest.fixture
def converted_path(monkeypatch):
    """The converted path for the whole test, even where a call stages nothing
    (tests/converted_path.py says why)."""
    monkeypatch.setattr(config, "_fast_path", False)
