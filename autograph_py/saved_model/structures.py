"""Nested Python structures (a function's arguments, what it returned) as JSON and back.

Contract:
- `encode(value, leaf)`: lists, tuples and dicts with string keys are kept as
  `{"list": [...]}`, `{"tuple": [...]}`, `{"dict": [[key, item], ...]}` (the dict's own
  order); every other value is a leaf, encoded by `leaf(value)` (which raises for what
  it cannot save). `constant(value)` encodes the Python values a trace keys by value and
  JSON holds: None, bools, ints, floats, strings, as `{"const": value}`.
- `decode(data, leaf, fail)`: the structure back, `leaf(data)` making each leaf that is
  not a constant; anything else, or nesting deeper than `MAX_DEPTH`, calls
  `fail(message)`, which raises (the data may come from a stranger).
"""

MAX_DEPTH = 32
_CONSTANTS = (type(None), bool, int, float, str)


def encode(value, leaf):
    if type(value) in (list, tuple):
        return {type(value).__name__: [encode(v, leaf) for v in value]}
    if type(value) is dict and all(isinstance(k, str) for k in value):
        return {"dict": [[k, encode(v, leaf)] for k, v in value.items()]}
    return leaf(value)


def constant(value):
    """`{"const": value}` for a Python value JSON keeps exactly, else None."""
    return {"const": value} if type(value) in _CONSTANTS else None


def decode(data, leaf, fail, depth=0):
    if depth > MAX_DEPTH:
        fail("a structure nests too deeply")
    if not isinstance(data, dict) or len(data) != 1:
        fail(f"{data!r:.60} is not an encoded structure")
    (kind, body), = data.items()
    if kind in ("list", "tuple") and isinstance(body, list):
        items = [decode(v, leaf, fail, depth + 1) for v in body]
        return items if kind == "list" else tuple(items)
    if kind == "dict" and isinstance(body, list) and all(
            isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in body):
        return {k: decode(v, leaf, fail, depth + 1) for k, v in body}
    if kind == "const" and type(body) in _CONSTANTS:
        return body
    return leaf(data)
