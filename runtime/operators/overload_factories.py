"""Builtin overloads every staging backend builds the same way, from its own ops.

Contract:
- `extreme(reduce, pairwise)`: `min`/`max`: of one value, `reduce(value, axis=0)` (what
  iterating it would compare); of several, `pairwise` folded left to right.
- `cast(builtin, convert)`: `int`/`float`: `convert(x)` of one argument; the builtin
  itself with more (`int(s, 16)`).
- `first_axis_sum(reduce)`: `sum(iterable, start=0)` as `reduce(iterable, axis=0)`, plus
  `start` unless it is the int 0.
"""


def extreme(reduce, pairwise):
    def overload(*args):
        if len(args) == 1:
            return reduce(args[0], axis=0)
        result = args[0]
        for value in args[1:]:
            result = pairwise(result, value)
        return result

    return overload


def cast(builtin, convert):
    def overload(x, *args, **kwargs):
        return builtin(x, *args, **kwargs) if args or kwargs else convert(x)

    return overload


def first_axis_sum(reduce):
    def overload(iterable, start=0):
        total = reduce(iterable, axis=0)
        return total if isinstance(start, int) and start == 0 else total + start

    return overload
