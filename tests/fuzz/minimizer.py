"""Delta debugging: the smallest program (and inputs) on which a failure persists.

`minimize(source, inputs, still_fails)` first keeps one input and simplifies it, then
repeatedly tries, on the module's syntax tree, edits that make the program smaller:
- remove a statement (an emptied body becomes `pass`);
- replace a compound statement (`if`, loops, `try`) by one of its bodies, or drop an
  `else`;
- replace an expression by one of its operands, or by `0` or `1`.
An edit is kept when `still_fails(source, inputs)` holds for the result; the loop stops
when no edit is kept (a local minimum: removing any single piece loses the failure) or at
`deadline` (a `time.monotonic()` value). `still_fails` is the judge of everything else,
including that the smaller program is still valid (its oracle runs).
"""

import ast
import copy
import time

_BODIES = ("body", "orelse", "finalbody")
_COMPOUND = (ast.If, ast.For, ast.While, ast.Try, ast.With)
_INT_CALLS = ("abs", "min", "max")
_OPERATORS = (ast.BinOp, ast.BoolOp, ast.UnaryOp, ast.IfExp, ast.Compare, ast.Tuple)


def minimize(source, inputs, still_fails, deadline=None):
    inputs = _minimize_inputs(source, list(inputs), still_fails)
    tree = ast.parse(source)
    tried = {source}
    progress = True
    while progress and not _expired(deadline):
        progress = False
        for edit in _edits(tree):
            if _expired(deadline):
                break
            candidate = copy.deepcopy(tree)
            edit(candidate)
            text = ast.unparse(ast.fix_missing_locations(candidate)) + "\n"
            if text in tried:
                continue
            tried.add(text)
            if still_fails(text, inputs):
                tree, source, progress = candidate, text, True
                break  # the node numbering changed: enumerate the edits again
    return source, inputs


def _expired(deadline):
    return deadline is not None and time.monotonic() > deadline


def _minimize_inputs(source, inputs, still_fails):
    failing = next((i for i in inputs if still_fails(source, [i])), None)
    if failing is None:
        return inputs
    a, b, xs = failing
    for simpler in ((0, b, xs), (a, 0, xs), (a, b, []), (a, b, xs[:1]), (a, b, xs[1:])):
        if simpler != failing and still_fails(source, [simpler]):
            return _minimize_inputs(source, [simpler], still_fails)
    return [failing]


def _edits(tree):
    """Edits of `tree`, each a function that applies it to a deep copy of `tree` (nodes
    are found again by their position in `ast.walk`, which a deep copy preserves)."""
    nodes = list(ast.walk(tree))
    statement_edits, expression_edits = [], []
    for n, node in enumerate(nodes):
        for field in _BODIES:
            body = getattr(node, field, None)
            for i, child in enumerate(body if isinstance(body, list) else ()):
                if not (isinstance(node, ast.Module) and isinstance(child, ast.FunctionDef)
                        and child.name == "f"):
                    statement_edits.append(_at(n, _delete, field, i))
                if isinstance(child, _COMPOUND):
                    for inner in range(len(_bodies_of(child))):
                        statement_edits.append(_at(n, _splice, field, i, inner))
                    if getattr(child, "orelse", None) and not isinstance(child, ast.Try):
                        statement_edits.append(_at(n, _drop_else, field, i))
        for field, value in ast.iter_fields(node):
            if field == "func":  # a call's callee stays: `0(x)` is not a simpler program
                continue
            for slot, child in _expression_slots(field, value):
                for replacement in _simpler(child):
                    expression_edits.append(_at(n, _replace, field, slot, replacement))
    return statement_edits + expression_edits


def _bodies_of(statement):
    bodies = [getattr(statement, field) for field in _BODIES if getattr(statement, field, None)]
    return bodies + [handler.body for handler in getattr(statement, "handlers", ())]


def _expression_slots(field, value):
    """(slot, expression) for the loaded expressions held in `field` (slot None: the
    field itself; an int: the position in the field's list)."""
    if isinstance(value, ast.expr) and _is_load(value):
        yield None, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, ast.expr) and _is_load(item):
                yield i, item


def _is_load(expression):
    context = getattr(expression, "ctx", None)
    return context is None or isinstance(context, ast.Load)


def _simpler(expression):
    """Replacements for `expression`: its operands, then the constants 0 and 1."""
    if isinstance(expression, ast.Constant):
        return [ast.Constant(0)] if expression.value not in (0, 1) else []
    if isinstance(expression, (ast.Name, ast.Lambda)):
        return []
    if isinstance(expression, ast.Call):
        # abs/min/max give an operand's type; other calls (`len(xs)`) do not.
        int_valued = isinstance(expression.func, ast.Name) and expression.func.id in _INT_CALLS
        operands = list(expression.args) if int_valued else []
    elif isinstance(expression, _OPERATORS):
        operands = [child for child in ast.iter_child_nodes(expression)
                    if isinstance(child, ast.expr)]
    else:
        operands = []
    return operands + [ast.Constant(0), ast.Constant(1)]


def _at(n, operation, *args):
    def apply(tree):
        operation(list(ast.walk(tree))[n], *args)
    return apply


def _delete(parent, field, i):
    body = getattr(parent, field)
    del body[i]
    if not body and field == "body":
        body.append(ast.Pass())


def _splice(parent, field, i, inner):
    body = getattr(parent, field)
    body[i:i + 1] = _bodies_of(body[i])[inner]


def _drop_else(parent, field, i):
    getattr(parent, field)[i].orelse = []


def _replace(parent, field, slot, replacement):
    replacement = copy.deepcopy(replacement)
    if slot is None:
        setattr(parent, field, replacement)
    else:
        getattr(parent, field)[slot] = replacement
