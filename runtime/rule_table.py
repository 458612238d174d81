"""A table of per-op rules for a backend that translates our graphs: the XLA lowerings
(runtime/xla/table.py) and the ONNX conversions (runtime/onnx/table.py).

Contract:
- `RuleTable(error_type, doing, rule_kind, missing, refused)`; `register(*types)`
  decorates a rule, one per op type (a second rule for a type raises ValueError);
  `names()` lists the op types with a rule, sorted.
- `error(op, reason)` is the backend's error (`error_type`) naming the op, its type and
  the user's file:line; `rule_for(op)` returns the op type's rule or raises that error,
  with the reason `refused[type]` gives (an op never translated, and why) or `missing`.
- The tables are filled when the backend's rule modules are imported; this module
  imports no backend.
"""

from autograph_py.runtime.errors import format_location


class RuleTable:
    def __init__(self, error_type, doing, rule_kind, missing, refused):
        self.error_type = error_type
        self._doing = doing          # e.g. "jit_compile: ... cannot be compiled with XLA"
        self._rule_kind = rule_kind  # what a rule is called in the duplicate message
        self._missing = missing
        self.refused = refused
        self._rules = {}

    def register(self, *types):
        def decorate(rule):
            for name in types:
                if name in self._rules:
                    raise ValueError(f"op {name!r} has two {self._rule_kind}")
                self._rules[name] = rule
            return rule

        return decorate

    def names(self):
        return sorted(self._rules)

    def error(self, op, reason):
        prefix, verb = self._doing
        return self.error_type(f"{prefix}: op '{op.name}' ({op.type}) created at "
                               f"{format_location(op.location)} {verb}: {reason}")

    def rule_for(self, op):
        rule = self._rules.get(op.type)
        if rule is None:
            raise self.error(op, self.refused.get(op.type, self._missing))
        return rule
