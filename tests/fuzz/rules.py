"""Static check of the generator's rule that the oracle cannot check: bound before use.

Plain Python only reads the variables of the path it runs, so a program that reads a
variable before binding it may still run fine as the oracle; staged, every path is
traced and the read fails. That is a documented limitation, not a bug, so programs the
fuzzer runs must bind each of `f`'s variables before any statement that reads it, on
every path: in the same block or an enclosing one, before the reading statement (a loop
target counts inside its loop). Helpers and lambdas are not looked into: they read
their free variables when called.

The generator keeps this rule by construction; the minimizer, which removes statements,
checks it on every smaller program (`bound_before_use`).
"""

import ast
import builtins

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def bound_before_use(source):
    tree = ast.parse(source)
    f = next(node for node in tree.body if getattr(node, "name", None) == "f")
    params = {arg.arg for arg in f.args.args}
    # A name bound nowhere (not in f, the module or builtins) is never bound: a local.
    known = _module_names(tree) | set(dir(builtins)) | _MODULE_DUNDERS
    unknown = {node.id for node in ast.walk(f) if isinstance(node, ast.Name)} - known
    declared_global = {name for node in _walk_outside_scopes(f) if isinstance(node, ast.Global)
                       for name in node.names}
    return _block(f.body, params, (_locals(f) | params | unknown) - declared_global)


# Globals every module has without binding them (the warnings family reads __file__).
_MODULE_DUNDERS = {"__file__", "__name__", "__doc__", "__spec__", "__loader__", "__package__"}


def _module_names(tree):
    names = set()
    for statement in tree.body:
        if isinstance(statement, _SCOPES):
            names.add(statement.name)
        elif isinstance(statement, ast.Assign):
            names |= _stored(statement)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            names |= {alias.asname or alias.name.split(".")[0] for alias in statement.names}
    return names


def _locals(f):
    """Names bound anywhere in `f` (helpers' own locals too: harmless, never read here)."""
    names = {node.id for node in ast.walk(f)
             if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    return names | {node.name for node in ast.walk(f)
                    if isinstance(node, ast.FunctionDef) and node is not f}


def _block(body, bound, local):
    bound = set(bound)
    for statement in body:
        if isinstance(statement, (ast.If, ast.While)):
            ok = (_reads(statement.test, bound, local)
                  and _block(statement.body, bound | _walrus(statement.test), local)
                  and _block(statement.orelse, bound | _walrus(statement.test), local))
        elif isinstance(statement, ast.For):
            ok = (_reads(statement.iter, bound, local)
                  and _block(statement.body, bound | _stored(statement.target), local)
                  and _block(statement.orelse, bound, local))
        elif isinstance(statement, ast.Try):
            ok = all(_block(inner, bound, local) for inner in (
                statement.body, statement.orelse, statement.finalbody,
                *(handler.body for handler in statement.handlers)))
        elif isinstance(statement, ast.With):
            targets = set().union(*(_stored(item) for item in statement.items))
            ok = (all(_reads(item.context_expr, bound, local) for item in statement.items)
                  and _block(statement.body, bound | targets, local))
        elif isinstance(statement, _SCOPES):
            ok = True
        else:
            ok = _reads(statement, bound, local)
        if not ok:
            return False
        bound |= _bound_by(statement)
    return True


def _bound_by(statement):
    """What `statement` binds for the statements after it, on every path."""
    if isinstance(statement, _SCOPES):
        return {statement.name}
    if isinstance(statement, (ast.If, ast.While)):
        return _walrus(statement.test)
    if isinstance(statement, ast.For):
        return _walrus(statement.iter)
    if isinstance(statement, ast.Try):
        return set()
    if isinstance(statement, ast.With):  # its body may stop early: only the `as` names
        return set().union(*(_stored(item) for item in statement.items))
    return _stored(statement)


def _reads(node, bound, local):
    """Every local that `node` loads (outside helpers and lambdas) is bound. A
    comprehension binds its targets, and its `:=` names, before its element reads them."""
    bound = bound | {name for child in _walk_outside_scopes(node)
                     if isinstance(child, ast.comprehension)
                     for part in (child.target, *child.ifs) for name in _stored(part)}
    for child in _walk_outside_scopes(node):
        if isinstance(child, ast.Name) and child.id in local:
            loads = isinstance(child.ctx, ast.Load)
            if (loads or isinstance(node, ast.AugAssign)) and child.id not in bound:
                return False
    return True


def _stored(node):
    return {child.id for child in _walk_outside_scopes(node)
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store)}


def _walrus(expression):
    """Names a walrus in `expression` binds on every path: lazy operands (all but the
    first of `and`/`or`, a ternary's branches, a chained comparison's later operands)
    may not run."""
    stack, names = [expression], set()
    while stack:
        node = stack.pop()
        if isinstance(node, ast.NamedExpr):
            names.add(node.target.id)
        if isinstance(node, ast.BoolOp):
            stack.append(node.values[0])
        elif isinstance(node, ast.IfExp):
            stack.append(node.test)
        elif isinstance(node, ast.Compare):
            stack += [node.left, node.comparators[0]]
        elif not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))
    return names


def _walk_outside_scopes(node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(child for child in ast.iter_child_nodes(current)
                     if not isinstance(child, _SCOPES))
