"""Unit tests of parser, templates, naming, anno and the transformer base."""
import concurrent.futures
import copy
import sys

import gast
from autograph_py.converters import anno, parser, templates
from autograph_py.converters.copier import copy_tree
from autograph_py.converters.naming import Namer
from autograph_py.converters.pipeline import to_source
from autograph_py.converters.transformer import ConversionContext, Transformer

from tests.converters import corpus, harness


class Outer:
    def method(self, x):
        def nested(y):
            return y
        return nested(x)


pair = (lambda a: a + 1, lambda b: -b)  # two lambdas on one line


def test_parse_method_and_nested_lines_are_absolute():
    node, filename, lines = parser.parse_function(Outer.method)
    assert node.name == 'method' and node.lineno == Outer.method.__code__.co_firstlineno
    assert filename == __file__ and lines[0].strip().startswith('def method')


def test_parse_picks_the_right_lambda():
    for fn, expected in zip(pair, ['lambda a: a + 1', 'lambda b: -b']):
        node, _, _ = parser.parse_function(fn)
        assert to_source(node) == expected


def test_template_replaces_names_bodies_and_fixes_context():
    target = gast.Attribute(value=gast.Name('self', gast.Load(), None, None), attr='x',
                            ctx=gast.Load())
    body = templates.replace('''
        def name(arg):
            nonlocal names
            target = target + 1
            body
    ''', name='f', arg='a', names=['x', 'y'], target=target,
        body=gast.parse('pass').body)
    assert to_source(body) == 'def f(a):\n    nonlocal x, y\n    self.x = self.x + 1\n    pass'
    assign = body[0].body[1]
    assert isinstance(assign.targets[0].ctx, gast.Store)
    assert isinstance(assign.value.left.ctx, gast.Load)
    assert not hasattr(assign, 'lineno') or assign.lineno is None


def test_template_drops_empty_declarations_and_expands_call_args():
    stmts = templates.replace('''
        def f():
            nonlocal names
            g(args)
    ''', names=[], args=[gast.Constant(1, None), gast.Constant(2, None)])
    assert to_source(stmts) == 'def f():\n    g(1, 2)'


def test_namer_never_clashes():
    namer = Namer.for_tree(gast.parse('if_body = 1\ndef if_body_1(): pass'))
    assert [namer.new_symbol('if_body') for _ in range(2)] == ['if_body_2', 'if_body_3']
    assert namer.new_symbol('ag__') == 'ag___1'
    assert namer.shared_symbol('vars_') == namer.shared_symbol('vars_') == 'vars_'


def test_annotations_survive_copies():
    node = gast.parse('x').body[0]
    anno.setanno(node, anno.Basic.SKIP_PROCESSING, True)
    clone = copy.deepcopy(node)
    assert anno.getanno(clone, anno.Basic.SKIP_PROCESSING) is True
    anno.copyanno(clone, node, anno.Basic.LOOP_OPTIONS)
    anno.delanno(clone, anno.Basic.SKIP_PROCESSING)
    assert not anno.hasanno(clone, anno.Basic.SKIP_PROCESSING)


def test_transformer_locates_generated_nodes():
    class PassToBreak(Transformer):
        def visit_Pass(self, node):
            return gast.Break()

    tree = gast.parse('while x:\n    pass')
    PassToBreak(ConversionContext()).visit(tree)
    assert tree.body[0].body[0].lineno == 2


def test_copy_tree_is_a_deep_copy_with_annotations():
    tree = gast.parse('while x:\n    y = f(x)')
    loop = tree.body[0]
    test = gast.parse('not b', mode='eval').body
    anno.setanno(loop, anno.Basic.EXTRA_LOOP_TEST, [test])
    clone = copy_tree(tree)
    assert to_source(clone) == to_source(tree)
    originals = {id(n) for n in gast.walk(tree)}
    shared = [n for n in gast.walk(clone) if id(n) in originals]
    # Only empty nodes (contexts, operators) are shared: nothing in them to change.
    assert shared and all(not n.__dict__ and not n._fields for n in shared)
    copied_test = anno.getanno(clone.body[0], anno.Basic.EXTRA_LOOP_TEST)[0]
    assert copied_test is not test and to_source(copied_test) == 'not b'


def test_template_inserts_a_node_once_then_copies():
    value = gast.Name('v', gast.Load(), None, None)
    body = gast.parse('pass').body
    stmts = templates.replace('''
        x = value
        y = value
        body
    ''', value=value, body=body)
    assert stmts[0].value is value and stmts[1].value is not value
    assert stmts[2] is body[0]


def test_statement_transformers_do_not_enter_expressions():
    class Statements(Transformer):
        def visit_Pass(self, node):
            return gast.Break()

    class Names(Transformer):
        def visit_Name(self, node):
            return node

    assert Statements.enters is not gast.AST and Names.enters is gast.AST
    tree = gast.parse('if x:\n    pass')
    Statements(ConversionContext()).visit(tree)
    assert isinstance(tree.body[0].body[0], gast.Break)


def test_namer_labels_invented_state_by_meaning():
    namer = Namer(['break_'])
    flag = namer.new_symbol('break_', meaning='break flag')
    assert flag == 'break__1' and namer.label(flag) == '<break flag>'
    # A user's name is the user's, whatever it looks like.
    assert namer.label('break_') == 'break_' and namer.label('retval_x') == 'retval_x'


def test_conversions_in_threads_give_the_sequential_results():
    fns = [case.fn for case in corpus.CASES]
    expected = [harness.to_code(fn) for fn in fns]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            for _ in range(6):  # a shared analysis state failed about one round in 3
                assert list(pool.map(harness.to_code, fns)) == expected
    finally:
        sys.setswitchinterval(interval)
