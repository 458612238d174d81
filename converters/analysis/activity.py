"""Activity analysis: which symbols a piece of code reads and modifies.

`resolve(tree)` annotates every function and lambda with `Static.SCOPE` and every
compound statement with `Static.HEAD_SCOPE` (its test, iterable, ...) and
`Static.BODY_SCOPE` / `Static.ORELSE_SCOPE` (a `For`'s body scope includes its target,
which the loop binds on every iteration).

Scoping follows Python: a nested function, lambda, class or comprehension is its own
scope. What it reads from the enclosing scope counts as a read where it is defined, and
names it declares `nonlocal` and writes count as modifications there; its own locals
(parameters, comprehension targets) are invisible outside. A comprehension's read of a
name its own `:=` surely bound in an earlier part of the same iteration (`[z for c in
cs if (z := f(c))]`) reads nothing from outside. A bare annotation (`x: T`, no value)
binds nothing: it only makes the name local (`Scope.annotated`, part of
`Scope.locals`), and its annotation counts as read, although Python evaluates it only
outside functions. A call of a function defined in the enclosing function, or in a
function enclosing that one (`bump()`), also counts its `nonlocal` writes (and those of
the local functions it calls) as modifications at the call site, so a loop calling it
carries the names it rebinds; a function generated as a thunk (`Basic.THUNK`, made by
lowering an operator and called only by the statement that follows it) counts its reads
there too, not where it is defined. `Static.CALLS` on each function holds these
`Effects`, for the analyses that see calls (liveness).

A nested function or lambda sees the enclosing function's variables, not their values
at its definition: whenever it runs, it reads (or rebinds) their current binding.
`Scope.closure_reads` holds the names some nested function or lambda reads (not counting
the thunks converters generate, `Basic.THUNK`, which only run within the statement that
uses them), `Scope.closure_writes` those one rebinds (`nonlocal`): control flow keeps the
one binding the closure shares. A name a closure may or may not rebind (under an `if`,
after a `return` that may come first) counts as read by it: converted, its staged
statement carries the old value. A call of a local function (a `def`, or a lambda
assigned to a name) reads what it reads, where it is called (`Effects.reads`), so
liveness sees it; `Scope.captured` holds the reads of the closures that may run where
no call shows it: those that escape (passed, stored, returned, decorated, read by
another closure), whose value matters wherever they may run, so control flow carries
them.
Analysis state lives on the `_Annotator` of one `resolve` call: conversions may run in
several threads at once. A nested function's activity is asked for by every function
around it (each one's own walk meets it), and then for itself: a memo (a dict, made by
each public entry point or passed in by its caller, valid while the tree is unchanged)
computes it once per set of visible local functions, where a function nested d deep
was analyzed about 3^d times. Likewise each statement's own activity, which every block
around it and the CFG's node for it ask for again, is computed once (per set of visible
local functions and of contained closures) and added where it is asked for.
"""
import typing

import gast
from autograph_py.converters import anno, traversal
from autograph_py.converters.analysis.qual_names import QN, qn_of

_FUNCTIONS = (gast.FunctionDef, gast.AsyncFunctionDef)
_NAMESPACE_READERS = ('user_locals', 'local_names')


class Scope:
    """Symbols read and modified by a block; `nonlocals`/`globals` as declared there."""

    def __init__(self):
        self.read = set()
        self.modified = set()
        self.nonlocals = set()
        self.globals = set()
        self.captured = set()  # names (str) a nested function or lambda that escapes reads
        self.closure_reads = set()  # names (str) any nested function or lambda reads
        self.closure_writes = set()  # names (str) a nested function rebinds (nonlocal)
        self.via_calls = set()  # QNs modified by calling local functions
        # Plain names (str) the block's own code binds: not a nested function's
        # `nonlocal` write (it binds when that function runs, if ever) nor a call's.
        self.own = set()
        # Plain names (str) a bare annotation (`x: int`) declares: local, not bound.
        self.annotated = set()

    @property
    def bound(self):
        """Plain names rebound in the block."""
        return {qn for qn in self.modified if not qn.is_composite}

    @property
    def locals(self):
        """Names local to a function scope: bound by its own code and not declared
        elsewhere (a name a call of a function of the enclosing scope rebinds, or a
        nested function's `nonlocal` write, is local only if the scope binds it too), or
        annotated there."""
        return (self.own | self.annotated) - self.nonlocals - self.globals

    def update(self, other):
        """Add everything `other` holds, declarations included."""
        self.merge(other)
        self.nonlocals |= other.nonlocals
        self.globals |= other.globals

    def merge(self, other):
        self.read |= other.read
        self.modified |= other.modified
        self.captured |= other.captured
        self.closure_reads |= other.closure_reads
        self.closure_writes |= other.closure_writes
        self.via_calls |= other.via_calls
        self.own |= other.own
        self.annotated |= other.annotated
        return self

    def __repr__(self):
        return (f'Scope(read={sorted(map(str, self.read))}, '
                f'modified={sorted(map(str, self.modified))})')


class Effects(typing.NamedTuple):
    """What calling a local function does to the enclosing scope: the QNs it reads
    there (only for a generated thunk, whose reads are its caller's) and rebinds."""
    reads: frozenset
    writes: frozenset


class _Collector(traversal.NodeVisitor):
    """`calls`: local function name -> its `Effects`, for the functions callable by
    name in the function being analyzed; `contained`: ids of the closures only ever
    called by name (`contained_closures`), whose reads count where they are called."""

    def __init__(self, calls, contained=frozenset(), memo=None):
        self.scope = Scope()
        self.calls = calls
        self.contained = contained
        self.memo = {} if memo is None else memo
        self._statement_key = (_calls_key(calls), contained)

    def visit(self, node):
        if not isinstance(node, gast.stmt):
            return traversal.NodeVisitor.visit(self, node)
        # A statement's activity depends on nothing around it but `calls` and
        # `contained`: computed once (see the module docstring), then added here.
        key = (id(node), self._statement_key)
        scope = self.memo.get(key)
        if scope is None:
            inner = _Collector(self.calls, self.contained, self.memo)
            traversal.NodeVisitor.visit(inner, node)
            scope = self.memo[key] = inner.scope
        self.scope.update(scope)
        return None

    def visit_Call(self, node):
        func = node.func
        if (isinstance(func, gast.Attribute) and func.attr in _NAMESPACE_READERS and
                isinstance(func.value, gast.Name) and func.value.id == 'ag__'):
            # `ag__.user_locals(locals(), names)` (call_trees) reads every name listed.
            self.scope.read |= {QN(c.value) for c in node.args[1].elts}
        if self.calls:
            callee = node.func
            if _is_converted_callee(callee):  # already rewritten by the call-trees converter
                callee = callee.args[0]
            effects = self.calls.get(callee.id) if isinstance(callee, gast.Name) else None
            if effects is not None:
                self.scope.read |= effects.reads
                self.scope.modified |= effects.writes
                self.scope.via_calls |= effects.writes
        self.generic_visit(node)

    def _symbol(self, node):
        qn = qn_of(node)
        if qn is None:
            return
        if isinstance(node.ctx, gast.Load):
            self.scope.read.add(qn)
        else:
            self.scope.modified.add(qn)
            if not qn.is_composite:
                self.scope.own.add(str(qn))

    def visit_Name(self, node):
        self._symbol(node)

    def visit_Attribute(self, node):
        self._symbol(node)
        self.visit(node.value)

    def visit_Subscript(self, node):
        self._symbol(node)
        self.visit(node.value)
        self.visit(node.slice)

    def visit_AugAssign(self, node):
        qn = qn_of(node.target)
        if qn is not None:
            self.scope.read.add(qn)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self.generic_visit(node)
            return
        # Without a value the target is not bound: a plain name becomes local to the
        # function (the annotation is never evaluated there); an attribute's or item's
        # base is evaluated.
        target = node.target
        if isinstance(target, gast.Name):
            if node.simple:
                self.scope.annotated.add(target.id)
        else:
            self._visit_all(traversal.children(target))
        self.visit(node.annotation)

    def visit_Global(self, node):
        self.scope.globals.update(node.names)

    def visit_Nonlocal(self, node):
        self.scope.nonlocals.update(node.names)

    def visit_alias(self, node):
        name = (node.asname or node.name).split('.')[0]
        self.scope.modified.add(QN(name))
        self.scope.own.add(name)

    def _visit_all(self, nodes):
        for n in nodes:
            if n is not None:
                self.visit(n)

    def _import_closure(self, node, inner, deferred=True, surely=frozenset()):
        """Reads and nonlocal writes of a nested scope, seen from this scope; `deferred`
        when the nested code may run later (anything but a generated thunk). A name it
        rebinds but not `surely` (on every path) counts as read too: converted, the
        staged statement that may rebind it carries its old value."""
        written = _writes(inner)
        free = _free_reads(inner, surely)
        self.scope.read |= free
        self.scope.modified |= written
        if deferred:
            reads = {str(qn.root) for qn in free}
            self.scope.closure_reads |= reads
            if id(node) not in self.contained:
                self.scope.captured |= reads
            self.scope.closure_writes |= {str(qn.root) for qn in written}

    def _visit_signature(self, args):
        self._visit_all(args.defaults)
        self._visit_all(args.kw_defaults)

    def visit_FunctionDef(self, node):
        self.scope.modified.add(QN(node.name))
        self.scope.own.add(node.name)
        self._visit_all(node.decorator_list)
        self._visit_signature(node.args)
        if anno.hasanno(node, anno.Basic.THUNK):
            return  # its reads and writes count where it is called
        self._import_closure(node, visible_function_effects(node, self.calls or {},
                                                            self.memo)[1],
                             surely=_surely_bound(node))

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        self._visit_signature(node.args)
        self._import_closure(node, function_scope(node, self.calls, self.memo),
                             deferred=not anno.hasanno(node, anno.Basic.THUNK))

    def visit_ClassDef(self, node):
        self.scope.modified.add(QN(node.name))
        self.scope.own.add(node.name)
        self._visit_all(node.decorator_list)
        self._visit_all(node.bases)
        self._visit_all(node.keywords)
        body = block_scope(node.body, self.calls, self.memo)
        self.scope.read |= body.read
        self.scope.captured |= body.captured
        self.scope.closure_reads |= body.closure_reads
        self.scope.closure_writes |= body.closure_writes

    def _visit_comprehension(self, node):
        inner = _Collector(self.calls, self.contained, self.memo)
        inner.generic_visit(node)
        targets = {qn for gen in node.generators for qn in block_scope([gen.target]).bound}
        exposed = _exposed_reads(node, self.calls, self.memo)
        self.scope.read |= {qn for qn in inner.scope.read
                            if qn.root not in targets and (exposed is None or qn in exposed)}
        self.scope.modified |= {qn for qn in inner.scope.modified
                                if qn.root not in targets}
        self.scope.own |= {n for n in inner.scope.own if QN(n) not in targets}
        self.scope.captured |= inner.scope.captured
        self.scope.closure_reads |= inner.scope.closure_reads
        self.scope.closure_writes |= inner.scope.closure_writes

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = \
        _visit_comprehension


def _comprehension_parts(node):
    """The parts of a comprehension in the order an iteration evaluates them."""
    for i, gen in enumerate(node.generators):
        yield from ([gen.iter] if i else []) + [gen.target] + gen.ifs
    yield from [node.key, node.value] if isinstance(node, gast.DictComp) else [node.elt]


def _exposed_reads(node, calls, memo):
    """The reads of a comprehension that may see a binding made before it, or None for
    all of them: not a read of a name its own `:=` surely bound in an earlier part of
    the same iteration (`[z for c in cs if c and (z := f(c))]` reads no earlier `z`).
    (The first iterable runs before everything else, outside the comprehension.)"""
    if not any(isinstance(n, gast.NamedExpr) for n in traversal.walk(node)):
        return None
    filters = {id(test) for gen in node.generators for test in gen.ifs}
    bound, exposed = set(), set(block_scope([node.generators[0].iter], calls, memo).read)
    for part in _comprehension_parts(node):
        exposed |= {qn for qn in block_scope([part], calls, memo).read
                    if str(qn.root) not in bound}
        bound |= _bound_if_true(part) if id(part) in filters else \
            _surely_bound_by_walrus(part)
    return exposed


def _bound_if_true(test):
    """Names a `:=` in `test` surely bound when `test` is true: what follows a filter
    runs only then, and every operand of its `and` ran."""
    if isinstance(test, gast.BoolOp) and isinstance(test.op, gast.And):
        return set().union(*(_bound_if_true(value) for value in test.values))
    return _surely_bound_by_walrus(test)


def _surely_bound_by_walrus(expr):
    """Names a `:=` in `expr` binds whenever `expr` is evaluated: not in an operand that
    may not run (after the first of `and`/`or` or a comparison chain, a ternary's
    branches), a lambda or a nested comprehension."""
    names, todo = set(), [expr]
    while todo:
        node = todo.pop()
        if isinstance(node, gast.NamedExpr):
            names.add(node.target.id)
            todo.append(node.value)
        elif isinstance(node, gast.BoolOp):
            todo.append(node.values[0])
        elif isinstance(node, gast.Compare):
            todo += [node.left, node.comparators[0]]
        elif isinstance(node, gast.IfExp):
            todo.append(node.test)
        elif not isinstance(node, (gast.Lambda, gast.ListComp, gast.SetComp,
                                   gast.DictComp, gast.GeneratorExp)):
            todo += traversal.children(node)
    return names


def _calls_key(calls):
    return frozenset(calls.items()) if calls else None


def block_scope(nodes, calls=None, memo=None):
    """Activity of a list of statements (or expressions) in the current scope; `calls`
    as `_Collector` takes it, `memo` as the module docstring says."""
    collector = _Collector(calls, memo=memo)
    for node in nodes:
        collector.visit(node)
    return collector.scope


def function_scope(node, calls=None, memo=None):
    """Activity of a function or lambda body; parameters count as modified."""
    memo = {} if memo is None else memo
    key = ('function_scope', id(node), _calls_key(calls))
    scope = memo.get(key)
    if scope is None:
        scope = memo[key] = _function_scope(node, calls, memo)
    return scope


def _function_scope(node, calls, memo):
    collector = _Collector(calls, contained_closures(node, memo), memo)
    args = node.args
    for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
        if arg is not None:
            collector.scope.modified.add(QN(arg.id))
            collector.scope.own.add(arg.id)
    body = node.body if isinstance(node, _FUNCTIONS) else [node.body]
    for stmt in body:
        collector.visit(stmt)
    return collector.scope


def head_scope(node, calls=None, memo=None):
    """Activity of the part of a compound statement that runs before its blocks.

    A loop's head includes its `Basic.EXTRA_LOOP_TEST` (checked before each iteration).
    """
    extra = anno.getanno(node, anno.Basic.EXTRA_LOOP_TEST, [])
    if isinstance(node, gast.If):
        parts = [node.test]
    elif isinstance(node, gast.While):
        parts = extra + [node.test]
    elif isinstance(node, (gast.For, gast.AsyncFor)):
        parts = extra + [node.iter]
    elif isinstance(node, (gast.With, gast.AsyncWith)):
        parts = node.items
    elif isinstance(node, gast.ExceptHandler):
        parts = [n for n in (node.type, node.name) if n is not None]
    elif isinstance(node, gast.Try):
        parts = []
    elif isinstance(node, gast.Match):
        parts = [node.subject] + [c.pattern for c in node.cases]
    else:
        parts = [node]
    return block_scope(parts, calls, memo)


def _free_reads(inner, surely):
    """What running a nested scope reads from the scopes around it (see _import_closure);
    what the local functions it calls may keep is in their Effects' reads already."""
    kept = {qn for qn in inner.modified if not qn.is_composite and
            str(qn) in inner.nonlocals and str(qn) not in surely}
    return {qn for qn in inner.read | kept if str(qn.root) not in inner.locals}


def _surely_bound(function):
    """Names the function's body binds on every path: targets of its top-level
    assignments that no `return` can skip."""
    names = set()
    for stmt in function.body:
        if isinstance(stmt, (gast.Assign, gast.AnnAssign, gast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, gast.Assign) else [stmt.target]
            names |= {n.id for t in targets for n in traversal.walk(t)
                      if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
        elif _may_return(stmt):
            break
    return names


def _may_return(stmt):
    """Whether `stmt` holds a `return` of its own function (not of a nested one)."""
    todo = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, gast.Return):
            return True
        if not isinstance(node, _FUNCTIONS + (gast.Lambda, gast.ClassDef)):
            todo.extend(traversal.children(node))
    return False


def _writes(scope):
    """What running a nested function's body rebinds outside it: the names it declares
    `nonlocal` and writes, and what the local functions it calls rebind."""
    return {qn for qn in scope.modified if str(qn.root) in scope.nonlocals} | scope.via_calls


def local_function_effects(node, outer_calls=None, memo=None):
    """{name: Effects} for the functions defined in `node` (not in functions nested
    deeper), knowing `outer_calls` of the enclosing functions' local functions. A
    function calling another one rebinds what that one does, so this is a fixpoint."""
    functions = list(_named_functions(node))
    effects = {}
    while True:
        visible = {**(outer_calls or {}), **effects}
        found = {}
        for name, child in functions:
            e = _effects(child, visible_function_effects(child, visible, memo)[1])
            if name in found:  # bound twice: a call may run either
                e = Effects(found[name].reads | e.reads, found[name].writes | e.writes)
            found[name] = e
        found = {name: e for name, e in found.items() if e.reads or e.writes}
        if found == effects:
            return effects
        effects = found


def _named_functions(node):
    """(name, function or lambda) for the functions `node`'s own code binds to a name:
    `def`s and lambdas assigned to one name (not in functions nested deeper)."""
    stack = list(node.body if isinstance(node, _FUNCTIONS) else [node.body])
    while stack:
        child = stack.pop()
        if isinstance(child, _FUNCTIONS):
            yield child.name, child
        elif _lambda_binding(child) is not None:
            yield _lambda_binding(child), child.value
        elif not isinstance(child, (gast.Lambda, gast.ClassDef)):
            # Both bindings are statements: no expression holds one.
            stack += [c for c in traversal.children(child)
                      if isinstance(c, traversal.BLOCK_ITEMS)]


def _lambda_binding(stmt):
    """`n` for `n = lambda ...: ...`, else None."""
    if (isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Lambda) and
            len(stmt.targets) == 1 and isinstance(stmt.targets[0], gast.Name)):
        return stmt.targets[0].id
    return None


def _effects(function, scope):
    surely = _surely_bound(function) if isinstance(function, _FUNCTIONS) else frozenset()
    return Effects(frozenset(_free_reads(scope, surely)), frozenset(_writes(scope)))


def contained_closures(function, memo=None):
    """The ids of the closures defined in `function`'s own code that run only where a
    call by name shows it: a `def` without decorators, or a lambda assigned to a name,
    whose name the function does not declare global or nonlocal, is never loaded but
    as the callee of a call (`h(...)`, `ag__.converted(h)(...)`), and is not read
    by a nested closure. Any other closure escapes: it may run anywhere."""
    key = ('contained_closures', id(function))
    if memo is not None and key in memo:
        return memo[key]
    if not _may_contain_closures(function):
        return frozenset()
    named, loads, declared = {}, {}, set()
    stack = [(child, function, False) for child in traversal.children(function)]
    while stack:
        node, parent, nested = stack.pop()
        if isinstance(node, (gast.Global, gast.Nonlocal)) and not nested:
            declared.update(node.names)
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            loads.setdefault(node.id, []).append(not nested and _is_callee(node, parent))
        closure = isinstance(node, _FUNCTIONS + (gast.Lambda,)) and not anno.hasanno(
            node, anno.Basic.THUNK)
        if closure and not nested:
            if isinstance(node, _FUNCTIONS) and not node.decorator_list:
                named.setdefault(node.name, []).append(node)
            elif isinstance(node, gast.Lambda) and _lambda_binding(parent) is not None:
                named.setdefault(_lambda_binding(parent), []).append(node)
        stack += [(child, node, nested or closure) for child in traversal.children(node)]
    contained = frozenset(id(closure) for name, closures in named.items()
                          if name not in declared and all(loads.get(name, ()))
                          for closure in closures)
    if memo is not None:
        memo[key] = contained
    return contained


def _may_contain_closures(function):
    """Whether `function`'s own code defines a closure `contained_closures` may count (a
    `def` without decorators or a lambda assigned to a name, not generated as a thunk):
    both are statements, so this looks at statements only, where most functions have
    none, and `contained_closures` need not walk every expression for loads."""
    stack = list(function.body) if isinstance(function, _FUNCTIONS) else []
    while stack:
        node = stack.pop()
        if isinstance(node, _FUNCTIONS):
            if not node.decorator_list and not anno.hasanno(node, anno.Basic.THUNK):
                return True
            continue  # a closure nested in it is not the function's own
        if _lambda_binding(node) is not None and not anno.hasanno(node.value,
                                                                 anno.Basic.THUNK):
            return True
        stack += [child for child in traversal.children(node)
                  if isinstance(child, traversal.BLOCK_ITEMS)]
    return False


def _is_callee(name, parent):
    if not isinstance(parent, gast.Call):
        return False
    # `h(...)`, or `ag__.converted(h)` (the callee of `ag__.converted(h)(...)`).
    return parent.func is name or (_is_converted_callee(parent) and parent.args[0] is name)


def _is_converted_callee(node):
    """Whether `node` is `ag__.converted(f)`, a callee call_trees wrote."""
    return (isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute)
            and node.func.attr == 'converted' and isinstance(node.func.value, gast.Name)
            and node.func.value.id == 'ag__' and len(node.args) == 1)


def visible_function_effects(node, outer_calls, memo=None):
    """({name: Effects} of the local functions callable in the function `node`, its
    Scope): its own, and those of enclosing functions (`outer_calls`) it does not
    shadow. Both are shared through `memo`: not to be changed."""
    memo = {} if memo is None else memo
    key = ('visible_function_effects', id(node), _calls_key(outer_calls))
    found = memo.get(key)
    if found is None:
        own = local_function_effects(node, outer_calls, memo)
        scope = function_scope(node, {**outer_calls, **own}, memo)
        calls = {name: e for name, e in outer_calls.items() if name not in scope.locals}
        calls.update(own)
        found = memo[key] = (calls, scope)
    return found


class _Annotator(traversal.NodeVisitor):
    def __init__(self, memo):
        # Per function being annotated (innermost last): its local functions' Effects.
        self.calls = []
        self.memo = memo

    def _function(self, node):
        outer = self.calls[-1] if self.calls else {}
        calls, scope = visible_function_effects(node, outer, self.memo)
        anno.setanno(node, anno.Static.SCOPE, scope)
        anno.setanno(node, anno.Static.CALLS, calls)
        self.calls.append(calls)
        self.generic_visit(node)
        self.calls.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def _compound(self, node):
        writes = self.calls[-1] if self.calls else None
        body = block_scope(node.body, writes, self.memo)
        if isinstance(node, (gast.For, gast.AsyncFor)):
            body.merge(block_scope([node.target], writes, self.memo))
        anno.setanno(node, anno.Static.BODY_SCOPE, body)
        anno.setanno(node, anno.Static.ORELSE_SCOPE,
                     block_scope(getattr(node, 'orelse', []), writes, self.memo))
        anno.setanno(node, anno.Static.HEAD_SCOPE, head_scope(node, writes, self.memo))
        self.generic_visit(node)

    visit_If = visit_For = visit_AsyncFor = visit_While = visit_With = visit_AsyncWith = \
        visit_Try = _compound


def resolve(tree, memo=None):
    """Annotate `tree`; `memo` (see the module docstring) may be shared with later
    analyses of the same unchanged tree."""
    _Annotator({} if memo is None else memo).visit(tree)
    return tree
