"""Boolean operators and ternaries whose lazy operands rebind names, as `if` statements.

An operand that runs only when the ones before it decide so (`h(0)` in `v and h(0)`, the
branches of `x if c else y`) may rebind a name of the function: it calls a local
function that writes the name through `nonlocal`, or it binds one with `:=`. Staging
such an operator as a value (`ag__.and_`) would trace the operand in a `cond` branch and
leave the name holding a tensor of that branch. So, when such a name may be read
afterwards (liveness, run here only on functions that have both operators and rebinding
expressions, decides), the operator becomes a call of a local function holding an
`if`, which control flow then stages with the names as state:

    if v and h(0):                 def and_value():
        ...                 ->         nonlocal v
                                       value = ag__.bool_(v)
                                       if value:
                                           value = ag__.bool_(h(0))
                                       return value
                                   if and_value():
                                       ...

The call stands where the operator stood, so evaluation order is kept. In a test
position (the condition of `if`/`while`/a ternary, the operand of `not`, an operand of a
boolean operator in a test position) only truth matters, so each operand goes through
`ag__.bool_`; elsewhere the value is kept. A ternary, already `ag__.if_exp(c, lambda: x,
lambda: y, source)` here, becomes `if c: value = x / else: value = y`. A comparison
chain (`a < (b := f()) < c`, or a single `in`, whose right operands logical_expressions
would put in lambdas) evaluates each operand into a variable of its own, each
comparison under an `if` on the ones before. The generated function declares
`nonlocal` the rebound names that may be read afterwards and every name a `:=` it now
holds binds (in the test of a ternary too): `:=` binds in the user's function, read
afterwards or not (`v := v` reads it first). Names the
function declares `global` are declared `global` in the generated function; a name only
ever bound by a moved `:=` is first bound to `ag__.Undefined` at the top of the
function (a `nonlocal` needs a binding). An operator in the element of a list, set or
dict comprehension (which runs within its statement) is lowered the same way, its function
taking as parameters the names the comprehension binds that the operands read; a `:=`
there binds in the function, as in Python. Operators inside lambdas and generator
expressions (code that may run after the statement, where no statement can go) stay
as they are (their thunks bind a `:=` where Python does: templates.thunk). An operator
whose first operand rebinds a name is lowered too (`ag__.and_` takes every operand as a
lambda, where `:=` would bind a name of the lambda), and so is a `while` test that
rebinds names, joined first with
the loop's lowered-jump tests (`not break_ and test`), which run before it.

After this pass no boolean operator or ternary outside a lambda or generator expression
has a lazy operand that rebinds a name of the function.
"""
import ast

import gast
from autograph_py.converters import analysis, anno, census, templates, traversal
from autograph_py.converters.analysis import activity, liveness
from autograph_py.converters.transformer import Transformer

_FUNCTIONS = (gast.FunctionDef, gast.AsyncFunctionDef)
# Scopes whose code may run after the statement (a lambda, a generator) or binds its own
# names where `:=` cannot reach them (a lambda): their operators stay as they are.
_LATER_SCOPES = (gast.Lambda, gast.GeneratorExp)
_COMPREHENSIONS = (gast.ListComp, gast.SetComp, gast.DictComp)
_BLOCKS = ('body', 'orelse', 'finalbody')


def _if_exp_parts(node):
    """(test, body, orelse, source) of an `ag__.if_exp(...)` call with thunks, else None."""
    if not templates.is_operator_call(node, 'if_exp') or len(node.args) != 4:
        return None
    test, body, orelse, source = node.args
    body, orelse = templates.thunk_value(body), templates.thunk_value(orelse)
    if body is None or orelse is None:
        return None
    return test, body, orelse, source.value


def _chained(node):
    """Whether `node` is a comparison whose right operands logical_expressions turns
    into lambdas: a chain (`a < b <= c`), or a single `in`/`not in`."""
    return isinstance(node, gast.Compare) and (
        len(node.ops) > 1 or isinstance(node.ops[0], (gast.In, gast.NotIn)))


def _walrus_only_names(function):
    """Plain names the function binds only with `:=` (never assigns otherwise)."""
    walrus, other = set(), set()
    args = function.args
    other.update(a.id for a in args.posonlyargs + args.args + args.kwonlyargs +
                 [args.vararg, args.kwarg] if a is not None)
    todo = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, gast.NamedExpr):
            walrus.add(node.target.id)
            todo.append(node.value)
            continue
        if isinstance(node, _FUNCTIONS + (gast.ClassDef,)):
            other.add(node.name)
            continue
        if isinstance(node, (gast.Global, gast.Nonlocal)):
            other.update(node.names)
            continue
        if isinstance(node, gast.Lambda):
            continue
        if isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load):
            other.add(node.id)
        todo.extend(traversal.children(node))
    return walrus - other


def _join_loop_tests(loop, rebound):
    """A `while` test that rebinds names joins the loop's lowered-jump tests here, as
    `not break_ and test`, so that this pass lowers the `and` (control flow would join
    them with an `and` it leaves as it is)."""
    extra = anno.getanno(loop, anno.Basic.EXTRA_LOOP_TEST, [])
    if extra and rebound:
        loop.test = gast.BoolOp(op=gast.And(), values=extra + [loop.test])
        anno.delanno(loop, anno.Basic.EXTRA_LOOP_TEST)


class _Function:
    """What lowering needs to know of the function whose statements it rewrites."""

    def __init__(self, node, outer_calls):
        self.calls, scope = activity.visible_function_effects(node, outer_calls)
        self.globals = scope.globals
        # Seen from outside the function body: after it returns, or by a closure.
        self.outside = scope.globals | scope.nonlocals | scope.captured
        self.walrus_only = _walrus_only_names(node)
        self.unbound = set()  # walrus_only names a generated function declares nonlocal
        # Names the staged statements around the one being rewritten may carry: their
        # get_state reads them at the end of the block (control_flow's rule, widened).
        self.enclosing = frozenset()


class LazyOperandTransformer(Transformer):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.functions = []
        self.observed = None  # names read after the statement being rewritten, if known
        self.maybe_defined = None  # names bound on some path to that statement, if known
        # Names the comprehensions around the expression being rewritten bind: a function
        # lowering an operator there takes those it reads as parameters.
        self.comprehension_names = frozenset()

    def visit_FunctionDef(self, node):
        outer = self.functions[-1].calls if self.functions else {}
        function = _Function(node, outer)
        self.functions.append(function)
        node.body = self._block(node.body)
        self.functions.pop()
        if function.unbound:
            node.body = self.locate(_undefined(sorted(function.unbound)), node) + node.body
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        return node  # no statement can go inside it

    def _block(self, stmts):
        # A block may be a generated function's.
        outer, out = (self.observed, self.maybe_defined), []
        for stmt in stmts:
            if isinstance(stmt, _FUNCTIONS):
                out.append(self.visit(stmt))
                continue
            if isinstance(stmt, gast.ClassDef):
                out.append(stmt)
                continue
            defs = []
            self.observed = self._observed(stmt)
            self.maybe_defined = anno.getanno(stmt, anno.Static.MAYBE_DEFINED_VARS_IN)
            if isinstance(stmt, gast.While):
                _join_loop_tests(stmt, self._rebound([stmt.test]))
            for field, value in gast.iter_fields(stmt):
                if field in _BLOCKS or field in ('handlers', 'cases'):
                    continue
                test = field == 'test' and isinstance(stmt, (gast.If, gast.While))
                setattr(stmt, field, self._expression(value, test, defs))
            out += self.locate(defs, stmt) if defs else []
            out.append(stmt)
            around = self._enter(stmt)
            for field in _BLOCKS:
                if getattr(stmt, field, None):
                    setattr(stmt, field, self._block(getattr(stmt, field)))
            for part in getattr(stmt, 'handlers', []) + getattr(stmt, 'cases', []):
                part.body = self._block(part.body)
            if self.functions:
                self.functions[-1].enclosing = around
        self.observed, self.maybe_defined = outer
        return out

    def _enter(self, stmt):
        """Before rewriting the blocks of `stmt`: a staged `if` or loop carries the names
        live before or after it. Returns what to restore after them."""
        if not self.functions:
            return None
        function = self.functions[-1]
        around = function.enclosing
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            live = (anno.getanno(stmt, anno.Static.LIVE_VARS_IN, frozenset()) |
                    anno.getanno(stmt, anno.Static.LIVE_VARS_OUT, frozenset()))
            # control_flow carries a name the statement's head binds (`if (v := ...)`)
            # that its blocks read, live before and after it or not: an operator in a
            # block that rebinds it must hand it back too (`elif v` reads the test's).
            head = anno.getanno(stmt, anno.Static.HEAD_SCOPE, None)
            if head is not None:
                into_blocks = frozenset().union(*(
                    anno.getanno(block[0], anno.Static.LIVE_VARS_IN, frozenset())
                    for block in (stmt.body, stmt.orelse) if block))
                live = live | (head.modified & into_blocks)
            function.enclosing = around | {str(qn) for qn in live if not qn.is_composite}
        return around

    def _expression(self, node, test, defs):
        """`node` with its operators that need it lowered; their functions go to `defs`."""
        if isinstance(node, list):
            return [self._expression(n, test, defs) for n in node]
        if not isinstance(node, gast.AST) or isinstance(node, _LATER_SCOPES + (gast.stmt,)):
            return node
        if isinstance(node, _COMPREHENSIONS):
            return self._comprehension(node, defs)
        if isinstance(node, gast.BoolOp):
            # The first operand counts too: `ag__.and_` takes every operand as a lambda,
            # where `:=` would bind a name of the lambda.
            rebound = self._rebound(node.values)
            if rebound:
                return self._lower_bool_op(node, test, rebound, defs)
            node.values = [self._expression(v, test, defs) for v in node.values]
            return node
        if _chained(node):
            rebound = self._rebound(node.comparators)
            if rebound:
                return self._lower_compare(node, rebound, defs)
        if_exp = _if_exp_parts(node)
        if if_exp is not None:
            rebound = self._rebound(if_exp[1:3])
            if rebound:
                return self._lower_if_exp(*if_exp, test, rebound, defs)
            node.args[0] = self._expression(node.args[0], True, defs)
            return node
        # Only the truth of `not x` and of `ag__.bool_(x)` (made by this pass) is used.
        operand_test = (isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.Not) or
                        templates.is_operator_call(node, 'bool_'))
        for field, value in gast.iter_fields(node):
            setattr(node, field, self._expression(value, operand_test, defs))
        return node

    def _comprehension(self, node, defs):
        """A list, set or dict comprehension runs within its statement: the operators of
        its element and iterables are lowered like the statement's own, the names it binds
        passed to their functions. Only its first iterable runs in the scope around it."""
        first = node.generators[0]
        first.iter = self._expression(first.iter, False, defs)
        outer = self.comprehension_names
        self.comprehension_names = outer | {
            n.id for gen in node.generators for n in traversal.walk(gen.target)
            if isinstance(n, gast.Name)}
        # A filter is left as it is: the comprehension asks Python's truth of it, which
        # a staged value cannot give (its `:=` binds where Python's does: templates.thunk),
        # and activity reads its `and` as binding what the element then reads.
        for gen in node.generators[1:]:
            gen.iter = self._expression(gen.iter, False, defs)
        for field in ('elt', 'key', 'value'):
            if hasattr(node, field):
                setattr(node, field, self._expression(getattr(node, field), False, defs))
        self.comprehension_names = outer
        return node

    def _observed(self, stmt):
        """Names whose binding may be read after an operator of `stmt` runs: read by the
        statement (its blocks included), live after it unless its assignment rebinds
        them, carried by a statement around it, or seen from outside the function. None
        for a statement without liveness (made by this pass)."""
        if not self.functions:
            return None
        function = self.functions[-1]
        live = liveness.live_within(stmt, function.calls)
        if live is None:
            return None
        return ({str(qn) for qn in live if not qn.is_composite} | function.outside |
                function.enclosing)

    def _rebound(self, operands):
        """Plain names the operands rebind that may be read afterwards (sorted), or []: a
        `:=` whose value nobody reads may bind a name of the lambda it ends up in."""
        calls = self.functions[-1].calls if self.functions else {}
        # A helper rebinding a name a comprehension shadows rebinds the function's, which
        # the lowered operator's function could not declare: it stays a Python effect.
        rebound = {str(qn) for qn in activity.block_scope(operands, calls).modified
                   if not qn.is_composite and str(qn) not in self.comprehension_names}
        return sorted(rebound if self.observed is None else rebound & self.observed)

    def _operand(self, value, test, expr):
        """The statements `value = expr`, the operand's truth in a test position."""
        if test:
            expr = templates.replace_as_expression('ag__.bool_(x)', x=expr)
        return templates.replace('value = expr', value=value, expr=expr)

    def _function(self, base, source, rebound, body_of, defs):
        """A call of a new local function computing `value` with `body_of(value)`."""
        function = self.functions[-1]
        namer = self.ctx.namer
        name = namer.new_symbol(base)
        value = namer.new_symbol('value', meaning=f'value of `{source}`')
        body = body_of(value)
        params = sorted({n.id for stmt in body for n in traversal.walk(stmt)
                         if isinstance(n, gast.Name)} & self.comprehension_names)
        outer_names, self.comprehension_names = self.comprehension_names, frozenset()
        # A moved `:=` must still bind the user's name, read afterwards or not (`v := v`
        # reads it first): the new function declares every name the moved code binds.
        rebound = sorted(set(rebound) | traversal.walrus_targets(body))
        function.unbound.update(n for n in rebound if n in function.walrus_only)
        # A name no path before the statement binds (a helper's `nonlocal` write binds it
        # first) needs a binding for the control flow state the new function reads.
        unbound = [n for n in rebound if self.maybe_defined is not None and
                   n not in self.maybe_defined | function.globals | function.walrus_only]
        defs.extend(_undefined(unbound))
        new = templates.replace('''
            def name(params):
                nonlocal names
                global gnames
                body
                return value
        ''', name=name, names=[n for n in rebound if n not in function.globals],
            gnames=[n for n in rebound if n in function.globals], body=body,
            value=value, params=params)
        # Only called by the statement it precedes: what it reads and rebinds counts at
        # that call (activity), the names are not captured by a closure that may run later.
        anno.setanno(new[0], anno.Basic.THUNK, True)
        defs.extend(self._block(new))  # lowers what the moved operands still hold
        self.comprehension_names = outer_names
        call = templates.replace_as_expression('name(params)', name=name,
                                              params=[_load(p) for p in params])
        anno.setanno(call, anno.Basic.SKIP_PROCESSING, True)  # not a converted_call
        return call

    def _lower_bool_op(self, node, test, rebound, defs):
        source = _source(node)
        check = 'if value:' if isinstance(node.op, gast.And) else 'if not value:'

        def body_of(value):
            stmts = self._operand(value, test, node.values[-1])
            for operand in reversed(node.values[:-1]):
                stmts = self._operand(value, test, operand) + templates.replace(
                    f'''
                    {check}
                        rest
                    ''', value=value, rest=stmts)
            return stmts

        base = 'and_value' if isinstance(node.op, gast.And) else 'or_value'
        return self._function(base, source, rebound, body_of, defs)

    def _lower_compare(self, node, rebound, defs):
        """`a < b < c`: each operand once, into a variable of its own, left to right; each
        comparison runs only when the ones before it held."""
        def body_of(value):
            operands = [self.ctx.namer.new_symbol('operand') for _ in node.comparators]
            stmts = []
            for i in reversed(range(len(node.ops))):
                left = operands[i - 1] if i else node.left
                step = templates.replace('''
                    operand = right
                    value = compare
                ''', operand=operands[i], right=node.comparators[i], value=value,
                    compare=gast.Compare(left=_load(left), ops=[node.ops[i]],
                                         comparators=[_load(operands[i])]))
                if stmts:
                    step += templates.replace('''
                        if value:
                            rest
                    ''', value=value, rest=stmts)
                stmts = step
            return stmts

        return self._function('compare_value', _source(node), rebound, body_of, defs)

    def _lower_if_exp(self, cond, body, orelse, source, test, rebound, defs):
        def body_of(value):
            return templates.replace('''
                if cond:
                    body
                else:
                    orelse
            ''', cond=cond, body=self._operand(value, test, body),
                orelse=self._operand(value, test, orelse))

        return self._function('if_exp_value', source, rebound, body_of, defs)


def _undefined(names):
    stmts = []
    for name in names:
        stmts += templates.replace('name = ag__.Undefined(label)', name=name,
                                   label=gast.Constant(value=name, kind=None))
    return stmts


def _load(name_or_node):
    if not isinstance(name_or_node, str):
        return name_or_node
    return gast.Name(id=name_or_node, ctx=gast.Load(), annotation=None, type_comment=None)


def _source(node):
    return ast.unparse(gast.gast_to_ast(node))


def _may_rebind_lazily(tree):
    """Whether `tree` has an operator with lazy operands (or a `while` with lowered-jump
    tests) and something that rebinds a name from an expression (`nonlocal` in a
    helper, `:=`): most functions have neither."""
    operators = rebinders = False
    for node in traversal.walk(tree):
        # A ternary is an ag__.if_exp call with thunks by now.
        if isinstance(node, (gast.BoolOp, gast.Compare)) or templates.is_operator_call(
                node, 'if_exp') or (
                isinstance(node, gast.While) and
                anno.hasanno(node, anno.Basic.EXTRA_LOOP_TEST)):
            operators = True
        elif isinstance(node, (gast.Nonlocal, gast.NamedExpr)):
            rebinders = True
        if operators and rebinders:
            return True
    return False


def may_run(ctx):
    """Whether this pass may change the function (then it may also make boolean
    operators of its own: a loop's `not break_ and test`, which `logical_expressions`
    must rewrite). Nothing rebinds from an expression without a `nonlocal` or a `:=`,
    which no pass before this one makes but `lists`, from a `pop`: the census tells
    without a walk."""
    return census.may_hold(ctx, (gast.Nonlocal, gast.NamedExpr), attributes=('pop',))


def transform(node, ctx):
    if not may_run(ctx):
        return node
    if not _may_rebind_lazily(node):
        return node
    analysis.resolve(node)  # liveness says which rebound names matter
    return LazyOperandTransformer(ctx).visit(node)
