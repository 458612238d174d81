"""Unit tests of parser, templates, naming, anno and the transformer base."""
import copy

import gast

from converters import anno, parser, templates
from converters.naming import Namer
from converters.pipeline import to_source
from converters.transformer import ConversionContext, Transformer


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
    anno.copyanno(clone, node, anno.Basic.QN)
    anno.delanno(clone, anno.Basic.SKIP_PROCESSING)
    assert not anno.hasanno(clone, anno.Basic.SKIP_PROCESSING)


def test_transformer_locates_generated_nodes():
    class PassToBreak(Transformer):
        def visit_Pass(self, node):
            return gast.Break()

    tree = gast.parse('while x:\n    pass')
    PassToBreak(ConversionContext()).visit(tree)
    assert tree.body[0].body[0].lineno == 2
