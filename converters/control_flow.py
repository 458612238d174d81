"""`if`, `while` and `for` statements as calls of the `ag__` staging operators.

After this pass no If/While/For statement remains in a converted function. Each one
becomes closures plus one operator call (docs/architecture.md has the protocol):

    def get_state(): return (x,)            # the symbols the statement produces
    def set_state(vars_): nonlocal x; (x,) = vars_
    def if_body(): nonlocal x; ...          # bodies write through nonlocal
    ag__.if_stmt(test, if_body, else_body, get_state, set_state, ('x',))

What is state comes from the analyses, run on the function as it is when this pass
starts (after jumps were lowered):
* plain names a body rebinds are `nonlocal` in it when their value before or after the
  statement matters (live before it, or live after it, which names the function
  declares global or nonlocal always are, and so are names a nested function or lambda
  reads: it sees the variable, whenever it runs), or when the statement's head binds
  them (`if (n := f()):`, the head runs outside the body's closure), or when an
  enclosing statement carries them (its get_state reads them at the end of the block
  this statement is in): these are carried; a name the statement binds that a nested
  function rebinds through `nonlocal` is `nonlocal` in the bodies too (one binding,
  shared with that function), but carried only by the rules above; names only used
  inside a body stay local;
* the state of an `if` or a loop is its carried names (an `if` needs even those dead
  after it, so staging can restore them between the two branches); attributes and
  constant subscripts a body assigns (`self.x`, `d['k']`) are always state, unless
  their base is local to the body;
* a nonlocal name that may be unbound before the statement first gets
  `x = ag__.Undefined('x')` (a `nonlocal` needs a binding), and later loads of it that
  may see the sentinel are marked `Basic.MAY_BE_UNDEFINED` for `variables` (and the
  function `Basic.MARKED_LOADS`, so that `variables` walks only a function that has some).
No state means `lambda: ()` / `lambda _: None` instead of get_state/set_state; a missing
`else` is `lambda: None`. Names the function declares `global` are declared `global`
in the bodies instead of `nonlocal`.
"""
import dataclasses

import gast
from autograph_py.converters import analysis, anno, templates, traversal
from autograph_py.converters.transformer import Transformer

_FUNCTIONS = (gast.FunctionDef, gast.AsyncFunctionDef)
# The activities of the parts of a statement that run in its generated closures.
_OWN_SCOPES = {
    gast.If: (anno.Static.BODY_SCOPE, anno.Static.ORELSE_SCOPE),
    gast.For: (anno.Static.BODY_SCOPE, anno.Static.ORELSE_SCOPE),
    gast.While: (anno.Static.BODY_SCOPE, anno.Static.ORELSE_SCOPE, anno.Static.HEAD_SCOPE),
}


@dataclasses.dataclass
class _Plan:
    nonlocals: set       # plain names (str) the generated bodies rebind
    globals: set         # the same, for names the function declares global
    state: list          # QNs for get_state/set_state, sorted
    undefined: list      # names (str) to bind to ag__.Undefined first
    carried: set         # plain names (str) in `state`
    # Per block ('body', 'orelse'): names the closures of statements in it rebind through
    # `nonlocal` that nothing else binds in the block's function (see _block_locals).
    block_locals: dict = dataclasses.field(default_factory=dict)

    def declared(self, names):
        """(nonlocal names, global names) among `names`, sorted."""
        names = {str(n) for n in names}
        return sorted(names & self.nonlocals), sorted(names & self.globals)


def _plan(node, function_scope, outer):
    """`outer`: names whose binding is seen from outside the statement's closures: after
    the function returns (global, nonlocal), by a nested function whenever it runs, or by
    the get_state of an enclosing statement carrying them, at the end of its block."""
    modified = (anno.getanno(node, anno.Static.BODY_SCOPE).modified |
                anno.getanno(node, anno.Static.ORELSE_SCOPE).modified)
    if isinstance(node, gast.While):  # its test runs in a closure too (walrus)
        modified |= anno.getanno(node, anno.Static.HEAD_SCOPE).modified
    live_in = anno.getanno(node, anno.Static.LIVE_VARS_IN)
    live_out = anno.getanno(node, anno.Static.LIVE_VARS_OUT)
    names = {qn for qn in modified if not qn.is_composite}
    # A name the head binds (`if (n := f()):`, a `while` test) that a block reads
    # carries the head's value into the block: the head and the block are different
    # scopes (a `while` test runs in a closure too), so it must be nonlocal in them.
    head = anno.getanno(node, anno.Static.HEAD_SCOPE).modified
    into_blocks = frozenset().union(*(anno.getanno(block[0], anno.Static.LIVE_VARS_IN)
                                      for block in (node.body, node.orelse) if block))
    carried = {qn for qn in names if qn in live_in or qn in live_out or str(qn) in outer or
               (qn in head and qn in into_blocks)}
    if isinstance(node, gast.If):
        # An `if` reads no value of a name unbound before it and dead after it (a body's
        # read before its own assignment fails in Python too): carrying it would make a
        # staged `if` reject a name only one branch binds although nothing uses it after.
        maybe_before = anno.getanno(node, anno.Static.MAYBE_DEFINED_VARS_IN)
        carried = {qn for qn in carried if qn in live_out or str(qn) in outer or qn in head
                   or str(qn) in maybe_before or str(qn) not in function_scope.locals}
    # Every name a body rebinds through `nonlocal` is state, even when it is dead after
    # the statement: staging traces both branches, and set_state must undo the first
    # branch's writes before the second is traced (else it reads the first's tensors).
    composites = {qn for qn in modified
                  if qn.is_composite and (qn.root not in names or qn.root in carried)}
    # A name the statement's own code binds that a nested function reads or rebinds
    # must stay the one binding they share, dead or not; only liveness makes it state.
    own = set().union(*(anno.getanno(node, key).own for key in _OWN_SCOPES[type(node)]))
    closures = function_scope.closure_writes | function_scope.closure_reads
    shared = {qn for qn in names - carried if str(qn) in own & closures}
    defined = anno.getanno(node, anno.Static.DEFINED_VARS_IN)
    maybe = anno.getanno(node, anno.Static.MAYBE_DEFINED_VARS_IN)
    undefined = [str(qn) for qn in sorted(carried | shared)
                 if str(qn) in function_scope.locals and str(qn) not in defined and
                 (qn not in live_in or str(qn) not in maybe)]
    carried_names = {str(qn) for qn in carried}
    declared = carried_names | {str(qn) for qn in shared}
    return _Plan(nonlocals=declared - function_scope.globals,
                 globals=declared & function_scope.globals,
                 state=sorted(carried | composites), undefined=undefined,
                 carried=carried_names)


def _own_expressions(stmt):
    """The parts of a statement that run at its own CFG node (not in its blocks)."""
    if isinstance(stmt, (gast.If, gast.While)):
        return [stmt.test]
    if isinstance(stmt, gast.For):
        return [stmt.iter]
    if isinstance(stmt, gast.With):
        return stmt.items
    if isinstance(stmt, gast.ExceptHandler):
        return [stmt.type] if stmt.type else []
    if isinstance(stmt, gast.Match):
        return [stmt.subject]
    if isinstance(stmt, gast.match_case):
        return [stmt.guard] if stmt.guard else []
    if isinstance(stmt, (gast.Try, gast.ClassDef) + _FUNCTIONS):
        return []
    return [stmt]


class _Planner(traversal.NodeVisitor):
    """Plans every statement, then marks loads that may see an Undefined."""

    enters = traversal.BLOCK_ITEMS  # what it plans is statements

    def __init__(self, tree):
        self.plans = {}
        self.scopes = []
        self.undefined = []
        self.enclosing = []  # per function: names the statements around this one carry
        self.outside = []  # per function: names whose binding is seen after it returns
        self.calls = []  # per function: its Static.CALLS
        self.callers = _thunk_callers(tree)
        self.may_mark = False  # whether some load may be marked MAY_BE_UNDEFINED

    def visit_FunctionDef(self, node):
        scope = anno.getanno(node, anno.Static.SCOPE)
        self.outside.append(scope.globals | self._observed_nonlocals(node, scope) |
                            scope.captured)
        self.calls.append(anno.getanno(node, anno.Static.CALLS))
        self.scopes.append(scope)
        self.undefined.append(set())
        self.enclosing.append(frozenset())
        self.generic_visit(node)
        self.enclosing.pop()
        sentinels = _sentinel_names(node)
        undefined = self.undefined.pop()
        self.may_mark = self.may_mark or bool(undefined or sentinels)
        _mark_loads(node.body, undefined, sentinels)
        _mark_closure_loads(node, undefined | sentinels)
        self.scopes.pop()
        self.calls.pop()
        self.outside.pop()

    def _observed_nonlocals(self, node, scope):
        """The names a function rebinds through `nonlocal` whose binding may be read after
        it returns. A generated thunk runs only within the statement after it: what may
        be read after it there (liveness.live_within), or what its own function exposes;
        any other function may run anywhere."""
        caller = self.callers.get(id(node))
        live = caller and analysis.liveness.live_within(caller, self.calls[-1])
        if live is None:
            return scope.nonlocals
        return scope.nonlocals & ({str(qn) for qn in live} | self.outside[-1] |
                                  self.enclosing[-1])

    def visit_ClassDef(self, node):
        if not anno.hasanno(node, anno.Basic.SKIP_PROCESSING):
            self.generic_visit(node)

    def _statement(self, node):
        plan = _plan(node, self.scopes[-1], self.outside[-1] | self.enclosing[-1])
        self.plans[id(node)] = plan
        self.undefined[-1].update(plan.undefined)
        outer = self.enclosing[-1]
        self.enclosing[-1] = outer | plan.carried
        self.generic_visit(node)
        self.enclosing[-1] = outer
        for field in ('body', 'orelse'):
            # A `for` body's closure binds the loop's target itself, every iteration.
            entry = [node.target] if isinstance(node, gast.For) and field == 'body' else []
            plan.block_locals[field] = _block_locals(getattr(node, field), entry, plan,
                                                     self.plans)

    visit_If = visit_For = visit_While = _statement


def _thunk_callers(tree):
    """{id(thunk def): the statement calling it}: the first statement after it, in its
    block, that is not another thunk def (lazy_operands puts them there)."""
    callers = {}
    for node in traversal.block_items(tree):
        for field in ('body', 'orelse', 'finalbody'):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            waiting = []
            for stmt in stmts:
                if isinstance(stmt, _FUNCTIONS) and anno.hasanno(stmt, anno.Basic.THUNK):
                    waiting.append(stmt)
                    continue
                callers.update((id(thunk), stmt) for thunk in waiting)
                waiting = []
    return callers


def _block_parts(stmts, staged, plain, closures):
    """Sort a block's parts as its function will hold them: staged statements, plain
    code (expressions and simple statements) and lowered operators' closures. The blocks
    of `try`/`with`/`match` are entered (they stay plain code), those of `if`/`for`/
    `while` are not (they become closures of their own)."""
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            staged.append(stmt)
        elif isinstance(stmt, _FUNCTIONS) and anno.hasanno(stmt, anno.Basic.THUNK):
            closures.append(stmt)
        elif isinstance(stmt, (gast.Try, gast.With, gast.Match)):
            plain += _own_expressions(stmt)
            for part in stmt.handlers if isinstance(stmt, gast.Try) else ():
                plain += [part.name] if part.name else []
                _block_parts(part.body, staged, plain, closures)
            for case in stmt.cases if isinstance(stmt, gast.Match) else ():
                _block_parts(case.body, staged, plain, closures)
            for field in ('body', 'orelse', 'finalbody'):
                _block_parts(getattr(stmt, field, []), staged, plain, closures)
        else:
            plain.append(stmt)


def _block_locals(stmts, entry, plan, plans):
    """Names a block's function must bind itself: those the closures made in it (of the
    statements staged in it, of operators lowered to functions) rebind through
    `nonlocal`, when the block's statement does not carry them and nothing else in the
    block binds them, nor `entry` (the targets its function binds on entry: a `for`
    body's); else the `nonlocal` would reach a binding of the enclosing function, and
    staging would leave a tensor of the block's graph there. Not carried means their
    value on entering the block is never read, so `ag__.Undefined` does."""
    staged, plain, closures = [], [], []
    _block_parts(stmts, staged, plain, closures)
    needed = set()
    for inner in staged:
        inner_plan = plans[id(inner)]
        needed |= inner_plan.nonlocals - set(inner_plan.undefined)
    for closure in closures:
        needed |= anno.getanno(closure, anno.Static.SCOPE).nonlocals
    if not needed:
        return []
    heads = [s.test for s in staged if isinstance(s, gast.If)] + [
        s.iter for s in staged if isinstance(s, gast.For)]
    bound = {str(qn) for qn in analysis.activity.block_scope(entry + plain + heads).bound}
    return sorted(needed - plan.nonlocals - plan.globals - bound)


def _mark_loads(stmts, undefined, sentinels):
    """Marks the loads in the function's own statements that may see an Undefined: of
    `undefined` names where they are not surely bound, of `sentinels` (bound to one by an
    earlier pass, which the analysis counts as a binding) everywhere."""
    if not undefined and not sentinels:
        return
    for stmt in stmts:
        if isinstance(stmt, _FUNCTIONS):
            continue  # its own scope: _mark_closure_loads
        defined = anno.getanno(stmt, anno.Static.DEFINED_VARS_IN, frozenset())
        for expr in _own_expressions(stmt):
            for n in traversal.walk(expr):
                if (isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load) and
                        (n.id in undefined and n.id not in defined or n.id in sentinels)):
                    anno.setanno(n, anno.Basic.MAY_BE_UNDEFINED, 'local')
        for field in ('body', 'orelse', 'finalbody', 'handlers', 'cases'):
            _mark_loads(getattr(stmt, field, []), undefined, sentinels)


def _mark_closure_loads(function, names):
    """Marks the loads of `names` (which `function` may leave holding an Undefined) in
    the functions and lambdas nested in it, wherever they are not shadowed: a closure
    may run before the name is bound, where Python raises NameError ('free'). A
    generated thunk runs within the statement that uses it: its loads are the
    function's own ('local'), and its lambdas are marked with the statement."""
    todo = [(child, names, None) for child in traversal.children(function) if names]
    while todo:
        node, visible, kind = todo.pop()
        if isinstance(node, _FUNCTIONS + (gast.Lambda,)):
            thunk = anno.hasanno(node, anno.Basic.THUNK)
            if thunk and kind is None and isinstance(node, gast.Lambda):
                inner_kind = None
            else:
                inner_kind = 'local' if thunk and kind != 'free' else 'free'
            visible = visible - anno.getanno(node, anno.Static.SCOPE).locals
            todo += [(child, visible, inner_kind) for child in traversal.children(node)
                     if visible]
            continue
        if (kind and isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) and
                node.id in visible):
            anno.setanno(node, anno.Basic.MAY_BE_UNDEFINED, kind)
        todo += [(child, visible, kind) for child in traversal.children(node)]


def _sentinel_names(function):
    """Names an earlier pass binds to `ag__.Undefined` in `function`'s own code
    (lazy_operands does, for a name only a moved `:=` binds)."""
    names, todo = set(), list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, _FUNCTIONS + (gast.ClassDef,)):
            continue
        if (isinstance(node, gast.Assign) and isinstance(node.value, gast.Call) and
                isinstance(node.value.func, gast.Attribute) and
                node.value.func.attr == 'Undefined' and
                isinstance(node.value.func.value, gast.Name) and
                node.value.func.value.id == 'ag__'):
            names.update(t.id for t in node.targets if isinstance(t, gast.Name))
        todo += [child for child in traversal.children(node)
                 if isinstance(child, traversal.BLOCK_ITEMS)]  # an Assign is a statement
    return names


def _symbol_names(state, namer):
    return gast.Tuple(elts=[gast.Constant(value=namer.label(str(qn)), kind=None)
                            for qn in state], ctx=gast.Load())


def _state_tuple(state):
    return gast.Tuple(elts=[qn.to_node() for qn in state], ctx=gast.Load())


def _state_loads(state):
    return gast.Tuple(elts=[_state_load(qn) for qn in state], ctx=gast.Load())


def _state_load(qn):
    # A dict item or attribute may not exist before the statement that creates it.
    if not qn.is_composite:
        return qn.to_node()
    return templates.replace_as_expression('ag__.ldu(lambda: x, name)', x=qn.to_node(),
                                           name=gast.Constant(value=str(qn), kind=None))


def _all(tests):
    return tests[0] if len(tests) == 1 else gast.BoolOp(op=gast.And(), values=tests)


class ControlFlowTransformer(Transformer):
    def __init__(self, ctx, plans):
        super().__init__(ctx)
        self.plans = plans

    def _new(self, base):
        return self.ctx.namer.new_symbol(base)

    def _undefined(self, plan):
        return self._undefined_names(plan.undefined)

    def _undefined_names(self, names):
        stmts = []
        for name in names:
            stmts += templates.replace('name = ag__.Undefined(label)', name=name,
                                       label=gast.Constant(value=name, kind=None))
        return stmts

    def _state_names(self, plan):
        return (self._new('get_state'), self._new('set_state')) if plan.state else None

    def _state_functions(self, plan, names):
        """(defining statements, get_state, set_state) for the statement's state."""
        if not plan.state:
            return ([], templates.replace_as_expression('lambda: ()'),
                    templates.replace_as_expression('lambda _: None'))
        get_state, set_state = names
        nonlocals, globals_ = plan.declared(qn for qn in plan.state
                                            if not qn.is_composite)
        stmts = templates.replace('''
            def get_state():
                return loads

            def set_state(vars_):
                nonlocal names
                global gnames
                state = vars_
        ''', get_state=get_state, set_state=set_state, state=_state_tuple(plan.state),
            loads=_state_loads(plan.state),
            vars_=self.ctx.namer.shared_symbol('vars_'), names=nonlocals, gnames=globals_)
        return stmts, get_state, set_state

    def _body_function(self, name, plan, body, scope, params=(), block_locals=()):
        """A closure running `body`; `scope` is the activity of the user's block."""
        nonlocals, globals_ = plan.declared(scope.bound)
        return templates.replace('''
            def name(params):
                nonlocal names
                global gnames
                body
        ''', name=name, params=list(params), names=nonlocals, gnames=globals_,
            body=self._undefined_names(block_locals) + body)

    def _call(self, template, plan, **placeholders):
        return templates.replace(template,
                                 symbol_names=_symbol_names(plan.state, self.ctx.namer),
                                 **placeholders)

    def visit_If(self, node):
        plan = self.plans[id(node)]
        state_names = self._state_names(plan)
        if_body = self._new('if_body')
        else_body = self._new('else_body') if node.orelse else None
        node = self.generic_visit(node)
        defs, get_state, set_state = self._state_functions(plan, state_names)
        if_def = self._body_function(
            if_body, plan, node.body, anno.getanno(node, anno.Static.BODY_SCOPE),
            block_locals=plan.block_locals['body'])
        defs += if_def
        if node.orelse:
            else_def = self._body_function(
                else_body, plan, node.orelse, anno.getanno(node, anno.Static.ORELSE_SCOPE),
                block_locals=plan.block_locals['orelse'])
            defs += else_def
        else:
            else_body = templates.replace_as_expression('lambda: None')
        call = self._call('ag__.if_stmt(test, if_body, else_body, get_state, set_state, '
                          'symbol_names)', plan, test=node.test, if_body=if_body,
                          else_body=else_body, get_state=get_state, set_state=set_state)
        return self._undefined(plan) + defs + call

    def _loop_options(self, node):
        keywords = anno.getanno(node, anno.Basic.LOOP_OPTIONS, [])
        return gast.Dict(keys=[gast.Constant(value=k.arg, kind=None) for k in keywords],
                         values=[k.value for k in keywords])

    def visit_While(self, node):
        plan = self.plans[id(node)]
        state_names = self._state_names(plan)
        loop_test, loop_body = self._new('loop_test'), self._new('loop_body')
        node = self.generic_visit(node)
        defs, get_state, set_state = self._state_functions(plan, state_names)
        test = _all(anno.getanno(node, anno.Basic.EXTRA_LOOP_TEST, []) + [node.test])
        defs += self._body_function(loop_test, plan,
                                    templates.replace('return test', test=test),
                                    anno.getanno(node, anno.Static.HEAD_SCOPE))
        body_def = self._body_function(
            loop_body, plan, node.body, anno.getanno(node, anno.Static.BODY_SCOPE),
            block_locals=plan.block_locals['body'])
        call = self._call('ag__.while_stmt(loop_test, loop_body, get_state, set_state, '
                          'symbol_names, opts)', plan, loop_test=loop_test,
                          loop_body=loop_body, get_state=get_state, set_state=set_state,
                          opts=self._loop_options(node))
        return self._undefined(plan) + defs + body_def + call

    def visit_For(self, node):
        plan = self.plans[id(node)]
        state_names = self._state_names(plan)
        extra = anno.getanno(node, anno.Basic.EXTRA_LOOP_TEST, [])
        extra_test = self._new('extra_test') if extra else None
        loop_body = self._new('loop_body')
        node = self.generic_visit(node)
        defs, get_state, set_state = self._state_functions(plan, state_names)
        if extra:
            defs += templates.replace('''
                def extra_test():
                    return test
            ''', extra_test=extra_test, test=_all(extra))
        else:
            extra_test = gast.Constant(value=None, kind=None)
        target, body = node.target, node.body
        if isinstance(target, gast.Name) and target.id not in plan.nonlocals | plan.globals:
            param = target.id
        else:
            param = self.ctx.namer.shared_symbol('itr')
            body = templates.replace('target = itr', target=target, itr=param) + body
        body_def = self._body_function(
            loop_body, plan, body, anno.getanno(node, anno.Static.BODY_SCOPE), [param],
            plan.block_locals['body'])
        call = self._call('ag__.for_stmt(iter_, extra_test, loop_body, get_state, '
                          'set_state, symbol_names, opts)', plan, iter_=node.iter,
                          extra_test=extra_test, loop_body=loop_body,
                          get_state=get_state, set_state=set_state,
                          opts=self._loop_options(node))
        return self._undefined(plan) + defs + body_def + call


_STAGED = (gast.If, gast.For, gast.While)


def may_change(node):
    """Whether this pass has anything to do in `node`: an `if`, `for` or `while` to
    stage, or a name an earlier pass bound to an Undefined whose loads to mark. Both are
    found among statements, so this walk (unlike the analyses) skips expressions."""
    functions = []
    for stmt in traversal.block_items(node):
        if isinstance(stmt, _STAGED):
            return True
        if isinstance(stmt, _FUNCTIONS):
            functions.append(stmt)
    return any(_sentinel_names(f) for f in functions)


def transform(node, ctx):
    if not may_change(node):
        return node
    analysis.resolve(node)
    planner = _Planner(node)
    planner.visit(node)
    node = ControlFlowTransformer(ctx, planner.plans).visit(node)
    if planner.may_mark:
        anno.setanno(node, anno.Basic.MARKED_LOADS, True)
    return node
