"""Imports every module of ONNX rows, so the conversion table is full (imports no onnx)."""

from autograph_py.runtime.onnx import (  # noqa: F401
    array_rules,
    control_flow_rules,
    elementwise_rules,
    indexing_rules,
    manipulation_rules,
    reduction_rules,
    sort_rules,
)
