"""`gast_printer` prints a gast tree exactly as `ast.unparse` prints its translation to
`ast` (the oracle), on real files, on their conversions and on the constructs where the
two trees differ or the printer tests classes."""
import ast
import textwrap

import gast
import pytest
from autograph_py.converters import gast_ast, gast_printer, parser, pipeline
from autograph_py.converters.errors import ConversionError
from autograph_py.converters.transformer import ConversionContext

from tests.converters.test_census_gating import ROOT, SOURCES

CONSTRUCTS = textwrap.dedent('''
    """A module docstring."""
    def f(a, b: int = 1, /, c=2, *args: str, d, e: float = 3.0, **kwargs: bool) -> None:
        """A docstring."""
        try:
            pass
        except (ValueError, TypeError) as error:
            raise error from None
        except Exception:
            pass
        x: int = 3 .real + 3.5.real + (-3).real
        y = t[a, b] + t[(a, b)] + t[()] + t[a:b, ::2] + t[a,]
        z = f"{a!r:>{b}} {{c}} {d['k']}" + f'{"q"}' + f"""{e}\\n"""
        if a:
            pass
        elif b:
            pass
        else:
            if c:
                pass
        g = lambda p, *q, r=1, **s: (p, q, r, s)
        h = lambda: (yield)
        async def inner(*, k):
            async with k as m, n:
                await m
            async for i in k:
                pass
        return [i for i in x if i] + {i: j for i, j in y} + (*a, *b)


    def g(*, k=None, **kw):
        match k:
            case [1, *rest] if rest:
                pass
            case {"a": 1, **others}:
                pass
            case Point(x=0) | None:
                pass
        del kw["a"], k
        global G
        return (x := 1), not k, -k, k ** -1, (yield from k)


    class C(Base, metaclass=M):
        """Docstring."""
        attribute: int
        def method(self, /): ...
''')


def _oracle(tree):
    return ast.unparse(gast_ast.fix_missing_locations(gast_ast.gast_to_ast(tree)))


def _converted_modules():
    for path in SOURCES:
        try:
            module = parser.parse_module(path.read_text(), str(path))
        except ConversionError:
            continue  # the fixture with a syntax error
        yield str(path.relative_to(ROOT)), module
        yield f"{path.relative_to(ROOT)} converted", pipeline.convert_module(
            module, ConversionContext(str(path)))[0]


@pytest.mark.parametrize("name, tree", list(_converted_modules()), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_files_and_their_conversions_print_as_the_oracle(name, tree):
    assert gast_printer.to_source(tree) == _oracle(tree)
    for node in gast.walk(tree):  # every statement and expression alone, too
        if isinstance(node, (gast.stmt, gast.expr)):
            assert gast_printer.to_source(node) == _oracle(node)


def test_constructs_print_as_the_oracle():
    tree = parser.parse_module(CONSTRUCTS, "constructs.py")
    printed = gast_printer.to_source(tree)
    assert printed == _oracle(tree)
    for node in gast.walk(tree):  # alone too: an annotated parameter prints its name
        if isinstance(node, (gast.stmt, gast.expr)):
            assert gast_printer.to_source(node) == _oracle(node)
    assert "def f(a, b: int=1, /, c=2, *args: str, d, e: float=3.0, **kwargs: bool)" in printed
    assert "except (ValueError, TypeError) as error:" in printed
    assert "3 .real" in printed and "t[a, b]" in printed and "elif b:" in printed


def test_generated_nodes_without_locations_print():
    assign = gast.Assign(targets=[gast.Name('x', gast.Store(), None, None)],
                         value=gast.Constant(1, None), type_comment='int')
    assert gast_printer.to_source(assign) == _oracle(assign) == "x = 1"
