"""The op library. Importing this package registers every op's row in the registry."""

from runtime.ops import core, math_ops  # noqa: F401
