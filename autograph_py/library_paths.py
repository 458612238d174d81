"""Where library code lives: which files are autograph_py's own, which are libraries.

`OWN_PREFIXES`: the folders of our three packages (they differ from the import names in
a checkout), also one by one: `API_PREFIX` (autograph_py's own), `CONVERTERS_PREFIX`,
`RUNTIME_PREFIX`. `LIBRARY_PREFIXES`: those, the standard library and installed
packages: code `converted_call` calls as it is (`is_library_file`).
"""

import os
import sysconfig

import autograph_py
from autograph_py import converters, runtime


def _folder(path):
    return os.path.abspath(path) + os.sep


OWN_PREFIXES = tuple(_folder(os.path.dirname(m.__file__))
                     for m in (autograph_py, converters, runtime))
API_PREFIX, CONVERTERS_PREFIX, RUNTIME_PREFIX = OWN_PREFIXES
LIBRARY_PREFIXES = tuple(dict.fromkeys(
    OWN_PREFIXES + tuple(_folder(p) for p in (sysconfig.get_paths()[k] for k in (
        "stdlib", "platstdlib", "purelib", "platlib")) if p)))


def is_library_file(filename):
    return os.path.abspath(filename).startswith(LIBRARY_PREFIXES)
