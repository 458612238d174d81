"""`--signature` of `autograph graph`: text such as `float32[None, 3], int32[]` to TensorSpecs.

Contract of `parse_signature(text) -> list[TensorSpec]`:
- Specs are separated by commas; each is `DTYPE[DIMS]`: a dtype name (`float32`, `int32`,
  `bool`, ...) and its dims, each an int, `None` or `?` (unknown); `DTYPE[]` or a bare
  `DTYPE` is a scalar, `DTYPE[...]` an unknown rank. An empty text is no argument.
- Anything else raises `UsageError` quoting the signature and naming the 1-based column
  where it stops making sense.
"""

import re

from autograph_py.cli.source import UsageError
from autograph_py.runtime.dtypes import as_dtype
from autograph_py.runtime.tensor_spec import TensorSpec

_SPEC = re.compile(r"\s*(?P<dtype>[A-Za-z_][A-Za-z0-9_]*)\s*(?:\[(?P<dims>[^\[\]]*)\])?\s*")
_DIM = re.compile(r"\s*(?:(?P<int>\d+)|(?P<unknown>None|\?))\s*$")


def parse_signature(text):
    specs, pos = [], 0
    if not text.strip():
        return specs
    while True:
        match = _SPEC.match(text, pos)
        if match is None:
            _fail(text, pos, "expected a spec such as float32[None, 3]")
        specs.append(TensorSpec(_dims(text, match), _dtype(text, match)))
        pos = match.end()
        if pos == len(text):
            return specs
        if text[pos] == "[":
            _fail(text, pos, "dims must be closed by ']', e.g. float32[None, 3]")
        if text[pos] != ",":
            _fail(text, pos, "expected ',' between specs")
        pos += 1


def _dtype(text, match):
    try:
        return as_dtype(match["dtype"])
    except TypeError as e:
        _fail(text, match.start("dtype"), str(e))


def _dims(text, match):
    dims = match["dims"]
    if dims is None or not dims.strip():
        return []
    if dims.strip() == "...":
        return None
    shape, pos = [], match.start("dims")
    for item in dims.split(","):
        dim = _DIM.match(item)
        if dim is None:
            _fail(text, pos, f"a dim is an int, None or ?, not {item.strip()!r}")
        shape.append(int(dim["int"]) if dim["int"] is not None else None)
        pos += len(item) + 1
    return shape


def _fail(text, pos, message):
    raise UsageError(f"--signature {text!r}: column {pos + 1}: {message}")
