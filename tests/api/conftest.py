"""Fixtures of the API tests."""

import pytest


@pytest.fixture
def converted_path(monkeypatch):
    """Converted functions run their converted code on Python values too (no fast path
    running the function as written): for tests of converted code on Python values."""
    monkeypatch.setenv("AUTOGRAPH_FAST_PATH", "0")
