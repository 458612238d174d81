"""Forcing the converted path in tests: a converted function whose call stages nothing runs
as written (autograph_py/fast_path.py), so a test about the converted code on Python values
or eager tensors forces the converted path, in both settings of AUTOGRAPH_FAST_PATH.

`converted_path()` is a context manager (the modes of tests/api/modes.py, the fuzzer's
runner); the `converted_path` fixture (tests/conftest.py) does the same for a whole test.
"""

import contextlib

from autograph_py import config


@contextlib.contextmanager
def converted_path():
    previous = config.set_fast_path(False)
    try:
        yield
    finally:
        config.set_fast_path(previous)
