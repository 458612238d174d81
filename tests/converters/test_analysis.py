"""Unit tests of the analyses on small snippets."""
import textwrap

import gast
from autograph_py.converters import anno
from autograph_py.converters.analysis import activity, resolve


def _function(source):
    node = gast.parse(textwrap.dedent(source)).body[0]
    return resolve(node)


def _names(qns):
    return sorted(str(q) for q in qns)


def test_qualified_names_of_composites():
    fn = _function('''
        def f(self, d, a, i):
            self.x.y = d['k'] + a[0] + a[i]
    ''')
    stmt = fn.body[0]
    scope = activity.block_scope([stmt])
    assert _names(scope.modified) == ['self.x.y']
    assert _names(scope.read) == ['a', 'a[0]', 'd', "d['k']", 'i', 'self', 'self.x']


def test_activity_of_blocks_and_nested_scopes():
    fn = _function('''
        def f(x, items):
            if x > 0:
                y = [v for v in items]
                def g(z):
                    nonlocal x
                    x = z + w
                h = lambda q: q + y
            else:
                del x
    ''')
    body = anno.getanno(fn.body[0], anno.Static.BODY_SCOPE)
    assert _names(body.modified) == ['g', 'h', 'x', 'y']
    assert _names(body.read) == ['items', 'w', 'y']
    orelse = anno.getanno(fn.body[0], anno.Static.ORELSE_SCOPE)
    assert _names(orelse.modified) == ['x']
    scope = anno.getanno(fn, anno.Static.SCOPE)
    assert scope.locals == {'x', 'items', 'y', 'g', 'h'}


def test_global_and_nonlocal_declarations():
    fn = _function('''
        def f():
            global counter
            counter += 1
    ''')
    scope = anno.getanno(fn, anno.Static.SCOPE)
    assert scope.globals == {'counter'} and scope.locals == set()


def test_liveness():
    fn = _function('''
        def f(x, n):
            t = x * 2
            if x > 0:
                y = t
            else:
                y = 0
            for i in range(n):
                tmp = i
                y += tmp
            return y
    ''')
    assign_t, branch, loop, _ = fn.body
    assert _names(anno.getanno(assign_t, anno.Static.LIVE_VARS_OUT)) == ['n', 'range', 't',
                                                                         'x']
    assert _names(anno.getanno(branch, anno.Static.LIVE_VARS_OUT)) == ['n', 'range', 'y']
    assert _names(anno.getanno(loop, anno.Static.LIVE_VARS_IN)) == ['n', 'range', 'y']
    assert _names(anno.getanno(loop, anno.Static.LIVE_VARS_OUT)) == ['y']


def test_liveness_through_break_and_continue():
    fn = _function('''
        def f(n):
            a = 0
            while n > 0:
                n -= 1
                if n == 3:
                    continue
                if n == 5:
                    break
                a = 1
            return a
    ''')
    loop = fn.body[1]
    assert _names(anno.getanno(loop, anno.Static.LIVE_VARS_IN)) == ['a', 'n']


def test_reaching_definitions():
    fn = _function('''
        def f(x):
            if x:
                y = 1
            z = 2
            for i in range(3):
                w = i
            return y
    ''')
    _, assign_z, loop, ret = fn.body
    assert anno.getanno(assign_z, anno.Static.DEFINED_VARS_IN) == {'x'}
    assert anno.getanno(assign_z, anno.Static.MAYBE_DEFINED_VARS_IN) == {'x', 'y'}
    # A loop is entered from outside: its own bindings do not count.
    assert anno.getanno(loop, anno.Static.MAYBE_DEFINED_VARS_IN) == {'x', 'y', 'z'}
    # The target and body bindings may not have happened (empty loop).
    assert anno.getanno(ret, anno.Static.DEFINED_VARS_IN) == {'x', 'z'}
    assert anno.getanno(ret, anno.Static.MAYBE_DEFINED_VARS_IN) == {'i', 'w', 'x', 'y', 'z'}


def test_a_bare_annotation_declares_a_local_without_binding_it():
    fn = _function('''
        def f(c):
            x: int
            if c:
                x = 1
            y: int = 2
            return x, y
    ''')
    scope = anno.getanno(fn, anno.Static.SCOPE)
    assert {'x', 'y'} <= scope.locals
    _, branch, _, ret = fn.body
    assert anno.getanno(branch, anno.Static.MAYBE_DEFINED_VARS_IN) == {'c'}
    assert 'x' in _names(anno.getanno(branch, anno.Static.LIVE_VARS_IN))
    assert anno.getanno(ret, anno.Static.DEFINED_VARS_IN) == {'c', 'y'}


def test_a_with_body_may_stop_at_any_statement():
    # Its manager may swallow an exception (contextlib.suppress): what the body binds is
    # only maybe bound after it, and a read after it may see the value from before.
    fn = _function('''
        def f(a, cm):
            if a > 0:
                with cm as c:
                    risky()
                    v = 5
                a += v
            return a
    ''')
    branch = fn.body[0]
    with_, add = branch.body
    assert anno.getanno(add, anno.Static.DEFINED_VARS_IN) == {'a', 'c', 'cm'}
    assert anno.getanno(add, anno.Static.MAYBE_DEFINED_VARS_IN) == {'a', 'c', 'cm', 'v'}
    assert 'v' in _names(anno.getanno(with_, anno.Static.LIVE_VARS_IN))
    assert 'v' in _names(anno.getanno(branch, anno.Static.LIVE_VARS_IN))


def test_a_finally_block_runs_after_any_statement_of_its_try():
    fn = _function('''
        def f(a, out):
            try:
                risky()
                v = 5
            finally:
                out.append(v)
            return a
    ''')
    try_ = fn.body[0]
    read = try_.finalbody[0]
    assert anno.getanno(read, anno.Static.DEFINED_VARS_IN) == {'a', 'out'}
    assert anno.getanno(read, anno.Static.MAYBE_DEFINED_VARS_IN) == {'a', 'out', 'v'}
    assert 'v' in _names(anno.getanno(try_, anno.Static.LIVE_VARS_IN))


def test_calling_a_local_closure_modifies_what_it_rebinds_nonlocally():
    fn = _function('''
        def f(n):
            count = 0
            def bump():
                nonlocal count
                count += 1
            for _ in range(n):
                bump()
            while n > 0:
                ag__.converted(bump)()
    ''')
    for loop in fn.body[2:]:
        body = anno.getanno(loop, anno.Static.BODY_SCOPE)
        assert 'count' in _names(body.modified)


def test_names_closures_read_and_rebind_and_those_escaping_closures_read():
    fn = _function('''
        def f(n, xs):
            def h():
                return v + n
            def setw():
                nonlocal w
                w = 1
            k = lambda: u
            a = [t for t in xs]
            return a, h(), k
    ''')
    scope = anno.getanno(fn, anno.Static.SCOPE)
    assert scope.closure_reads == {'v', 'n', 'u'}  # not xs: the comprehension runs here
    assert scope.closure_writes == {'w'}  # its value is never read by setw
    # h runs only where a call shows it (liveness sees its reads there); k escapes.
    assert scope.captured == {'u'}
    assert {str(qn) for qn in anno.getanno(fn, anno.Static.CALLS)['h'].reads} == {'v', 'n'}


def test_generated_thunks_are_not_captured():
    fn = _function('''
        def f(x, y):
            return ag__.if_exp(x, lambda: y, lambda: 0, 'y if x else 0')
    ''')
    assert anno.getanno(fn, anno.Static.SCOPE).captured == {'y'}
    thunk = fn.body[0].value.args[1]
    anno.setanno(thunk, anno.Basic.THUNK, True)
    assert anno.getanno(resolve(fn), anno.Static.SCOPE).captured == set()
