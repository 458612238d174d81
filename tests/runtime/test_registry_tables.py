"""runtime.registry: the op table and the gradient table beside it.

An op's row is final once registered (gradient rules are rows of their own table, never
written into the op's row), so which module is imported first never matters; and every
gradient rule names an op that exists.
"""

import subprocess
import sys
import textwrap

import autograph_py.runtime.gradients  # noqa: F401  (registers the rules)
import pytest
from autograph_py.runtime import registry
from autograph_py.runtime.registry import OpDef, register, register_gradient

# Imports every module of the runtime after the op library: none may replace a row.
_ROWS_STAY = textwrap.dedent("""
    import importlib, pkgutil
    import autograph_py.runtime as runtime
    from autograph_py.runtime import registry

    rows = {name: registry.get(name) for name in registry.registered_names()}
    import autograph_py as ag
    ag.function  # the API layer, and what it registers
    for module in pkgutil.walk_packages(runtime.__path__, runtime.__name__ + "."):
        importlib.import_module(module.name)
    replaced = [name for name, row in rows.items() if registry.get(name) is not row]
    assert not replaced, replaced
    assert len(registry.registered_names()) > len(rows)  # the walk registered more
    missing = sorted(set(registry.gradient_names()) - set(registry.registered_names()))
    assert not missing, missing
""")


def test_op_rows_are_never_replaced_and_every_gradient_names_an_op():
    result = subprocess.run([sys.executable, "-c", _ROWS_STAY], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_every_gradient_in_this_process_names_a_registered_op():
    assert set(registry.gradient_names()) <= set(registry.registered_names())


def test_a_gradient_row_carries_the_rule_and_its_flags():
    call = registry.gradient("Call")
    assert call.op_type == "Call" and call.takes_none and not call.takes_needed
    assert registry.gradient("Add").direct is None
    assert registry.gradient("StopGradient") is None
    assert not registry.has_gradient("StopGradient") and registry.has_gradient("Add")


def test_a_rule_may_come_before_its_op_but_not_twice():
    name = "TestRegistryTablesRuleFirst"
    if registry.gradient(name) is None:
        register_gradient(name)(lambda op, grad: (grad,))
        register(OpDef(name, lambda x: x, lambda x: (x.shape, x.dtype)))
    assert registry.get(name).name == name
    with pytest.raises(ValueError, match="registered twice"):
        register_gradient(name)(lambda op, grad: (grad,))
