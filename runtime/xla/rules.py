"""Every lowering rule module, imported for its registrations (the whole table)."""

from autograph_py.runtime.xla import (  # noqa: F401  (imported for their rows)
    array_rules,
    collective_rules,
    control_flow_rules,
    gradient_rules,
    linalg_rules,
    math_rules,
    nn_rules,
    state_rules,
)
