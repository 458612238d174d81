"""The fast tree infrastructure against its oracles: `gast_ast`'s translators give the
trees gast's own translators give (classes, fields, values, locations), on real files
and on converted code, and its `fix_missing_locations` fills what ast's does;
`traversal.children` gives what `gast.iter_child_nodes` gives, less the field-less
contexts and operators it skips by design."""
import ast
import pathlib

import gast
import pytest
from autograph_py.converters import gast_ast, pipeline, templates, traversal
from autograph_py.converters.analysis import cfg
from autograph_py.converters.copier import copy_tree
from autograph_py.converters.transformer import ConversionContext

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Sources with every construct the converters meet: the converters themselves (match,
# walrus, try/except with names, decorators, comprehensions, f-strings), the corpus.
SOURCES = sorted([*ROOT.glob("converters/**/*.py"), ROOT / "tests/converters/corpus.py",
                  ROOT / "examples/seed.py", *ROOT.glob("tests/cli/fixtures/*.py")])
_LEAVES = (gast.expr_context, gast.operator, gast.cmpop, gast.boolop, gast.unaryop)


def _trees(sources=SOURCES):
    for path in sources:
        try:
            yield path.name, ast.parse(path.read_text())
        except SyntaxError:
            continue  # the CLI fixture with a syntax error


def _assert_same(a, b, where):
    if isinstance(a, list) or isinstance(b, list):
        assert isinstance(a, list) and isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, ast.AST) or isinstance(b, ast.AST):
        assert type(a) is type(b), (where, type(a), type(b))
        assert a.__dict__.keys() == b.__dict__.keys(), (where, a.__dict__, b.__dict__)
        for key in a.__dict__:
            _assert_same(a.__dict__[key], b.__dict__[key], f"{where}.{key}")
    else:
        assert type(a) is type(b) and (a == b or a != a and b != b), (where, a, b)


@pytest.mark.parametrize("name, tree", list(_trees()))
def test_fast_translators_give_gasts_trees(name, tree):
    gast_tree = gast.ast_to_gast(tree)
    _assert_same(gast_ast.ast_to_gast(tree), gast_tree, name)
    _assert_same(gast_ast.gast_to_ast(gast_tree), gast.gast_to_ast(gast_tree), name)


@pytest.mark.parametrize("name, tree", list(_trees(
    [p for p in SOURCES if ROOT / "converters" not in p.parents])))
def test_fast_translation_of_converted_code_prints_and_locates_the_same(name, tree):
    converted, _ = pipeline.convert_module(gast.ast_to_gast(tree),
                                           ConversionContext(filename=name))
    fast = gast_ast.fix_missing_locations(gast_ast.gast_to_ast(converted))
    slow = ast.fix_missing_locations(gast.gast_to_ast(converted))
    _assert_same(fast, slow, name)
    assert ast.unparse(fast) == ast.unparse(slow)


@pytest.mark.parametrize("name, tree", list(_trees()))
def test_children_are_the_standard_ones_less_contexts_and_operators(name, tree):
    for node in gast.walk(gast.ast_to_gast(tree)):
        expected = [c for c in gast.iter_child_nodes(node) if not isinstance(c, _LEAVES)]
        assert [id(c) for c in traversal.children(node)] == [id(c) for c in expected], (
            name, type(node).__name__)


_TEMPLATES = [
    '''
    def name(a, b=1, *args, c=None, **kw):
        nonlocal x, y
        global z
        x, y = vars_
        return f(a, *args, k=x[1:2], **kw) if a else (lambda: -1.5)()
    ''',
    'ag__.if_stmt(cond, if_body, else_body, get_state, set_state, names)',
    'l = ag__.list_append(l, x)',
    'while not (a and b or c) and d < e <= f:\n    body',
    'for i, (j, k) in enumerate(items):\n    body\nelse:\n    pass',
    '{"a": [1, 2.0, True, None, ...], **rest}',
]


@pytest.mark.parametrize("template", _TEMPLATES)
def test_a_compiled_template_copy_is_a_copy_of_the_parsed_template(template):
    parsed = templates._parsed(template)
    built = templates._builder(template)()
    _assert_same(built, copy_tree(parsed), template)
    originals = {id(n) for n in gast.walk(parsed)}
    # Only empty nodes (contexts, operators) are shared, as copy_tree shares them.
    assert all(not n.__dict__ for n in gast.walk(built) if id(n) in originals)
    assert templates._builder(template)() is not built


@pytest.mark.parametrize("name, tree", list(_trees(
    [p for p in SOURCES if ROOT / "converters" not in p.parents])))
def test_control_flow_graphs_are_built_for_every_function(name, tree):
    functions = (gast.FunctionDef, gast.AsyncFunctionDef)
    for function in [n for n in gast.walk(gast.ast_to_gast(tree)) if isinstance(n, functions)]:
        expected = {id(n) for n in gast.walk(function) if isinstance(n, functions)}
        assert {id(g.function) for g in cfg.build_all(function)} == expected, name


def _copied(replacements):
    return {key: copy_tree(value) for key, value in replacements.items()}


def _recorded_template_calls():
    """(template, replacements) of every `templates.replace` call converting the corpus
    and the seed examples makes, each value a copy taken before the call (the call
    takes the nodes it is given)."""
    calls = []
    original = templates.replace

    def recording(template, **replacements):
        calls.append((template, _copied(replacements)))
        return original(template, **replacements)

    templates.replace = recording
    try:
        for path in [ROOT / "tests/converters/corpus.py", ROOT / "examples/seed.py",
                     *ROOT.glob("tests/cli/fixtures/*.py")]:
            try:
                module = gast_ast.ast_to_gast(ast.parse(path.read_text()))
            except SyntaxError:
                continue
            pipeline.convert_module(module, ConversionContext(str(path)))
    finally:
        templates.replace = original
    return calls


def test_compiled_templates_replace_as_the_walking_replacer():
    calls = _recorded_template_calls()
    assert len({template for template, _ in calls}) > 15
    for template, replacements in calls:
        compiled = templates.replace(template, **_copied(replacements))
        walked = templates._Replacer(_copied(replacements)).visit(
            templates._builder(template)()).body
        _assert_same(compiled, walked, template)


# Shapes no template of the converters has today, where the compiled replacement must
# still do what the walking one does (a reviewer's repros).
_SYNTHETIC = [
    ('def f(a: int):\n    pass', {}),
    ('def f(a: int):\n    pass', {'a': 'b'}),
    ('def f(a, b=c):\n    pass', {'c': 'zz'}),
    ('def f(*args, k=c, **kw):\n    pass', {'args': 'x', 'c': 'zz', 'kw': 'y', 'k': 'q'}),
    ('g = lambda p=c: p', {'c': 'zz', 'p': 'r'}),
    ('def f(params):\n    body', {'params': ['a', 'b'], 'body': gast.Pass()}),
    ('call(args, k=v)', {'args': [gast.Constant(1, None)], 'k': 'key', 'v': 'w'}),
    ('nonlocal names\nx = 1', {'names': []}),
    ('global names\nbody', {'names': ['a'], 'body': []}),
]


@pytest.mark.parametrize("template, replacements", _SYNTHETIC)
def test_compiled_templates_replace_as_the_walker_on_other_shapes(template, replacements):
    compiled = templates.replace(template, **_copied(replacements))
    walked = templates._Replacer(_copied(replacements)).visit(
        templates._builder(template)()).body
    _assert_same(compiled, walked, template)
