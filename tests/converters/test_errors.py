"""Unsupported constructs and unreadable source raise ConversionError at file:line."""
import gast
import pytest
from autograph_py.converters import parser, pipeline
from autograph_py.converters.errors import ConversionError
from autograph_py.converters.transformer import ConversionContext

from tests.converters import harness


def generator(n):
    for i in range(n):
        yield i * 2  # line: generator


async def coroutine(x):
    return x


def return_in_match(x):
    match x:
        case 0:
            return 1  # line: return in match
    return x


def break_in_match(items):
    for x in items:
        match x:
            case 0:
                break  # line: break in match
    return items


def misplaced_directive(n):
    set_loop_options(maximum_iterations=3)  # noqa: F821  line: directive
    return n


def _location_of(fn, marker):
    """`line:col` (1-based) of the statement on the line marked `line: marker`."""
    lines, first = parser.inspect.getsourcelines(fn)
    i, text = next((i, t) for i, t in enumerate(lines) if f'line: {marker}' in t)
    return f'{first + i}:{len(text) - len(text.lstrip()) + 1}'


@pytest.mark.parametrize('fn, marker, words', [
    (generator, 'generator', 'yield'),
    (return_in_match, 'return in match', "'return' inside 'match'"),
    (break_in_match, 'break in match', "'break' inside 'match'"),
    (misplaced_directive, 'directive', 'set_loop_options'),
])
def test_unsupported_construct_names_file_line_and_column(fn, marker, words):
    with pytest.raises(ConversionError) as info:
        harness.converted_node(fn)
    message = str(info.value)
    assert message.startswith(f'{__file__}:{_location_of(fn, marker)}: ')
    assert words in message


def test_columns_are_one_based_like_syntax_errors():
    source = 'def f(x):\n    yield x\n'
    with pytest.raises(ConversionError) as syntax:
        parser.parse_module(source.replace('yield x', 'yield )'), 'e.py')
    assert str(syntax.value).startswith('e.py:2:11: ')  # `)` is the 11th character
    node = parser.parse_module(source, 'e.py').body[0]
    with pytest.raises(ConversionError) as unsupported:
        pipeline.convert_function(node, ConversionContext('e.py'))
    assert str(unsupported.value).startswith('e.py:2:5: ')  # `yield` starts at the 5th


def test_async_def():
    with pytest.raises(ConversionError, match='async'):
        parser.parse_function(coroutine)


def test_source_not_available():
    namespace = {}
    exec('def made_by_exec(x):\n    return x\n', namespace)
    with pytest.raises(ConversionError) as info:
        parser.parse_function(namespace['made_by_exec'])
    assert str(info.value).startswith('<string>:1: ')
    assert 'source code is not available' in str(info.value)


def test_syntax_error_in_module():
    with pytest.raises(ConversionError) as info:
        parser.parse_module('x = 1\ndef f(:\n', 'broken.py')
    assert str(info.value).startswith('broken.py:2:')


def test_module_conversion_reports_problems_and_keeps_going():
    source = (
        'import autograph_py as ag\n'
        'def good(x):\n'
        '    if x > 0:\n'
        '        x = -x\n'
        '    return x\n'
        'def bad(n):\n'
        '    yield n\n'
        '@ag.do_not_convert\n'
        'def skipped(x):\n'
        '    if x:\n'
        '        x = 1\n'
        '    return x\n'
        'class C:\n'
        '    def method(self, x):\n'
        '        return x if x else 0\n'
    )
    module, problems = pipeline.convert_module(parser.parse_module(source, 'm.py'),
                                               ConversionContext(filename='m.py'))
    assert [str(p) for p in problems] == [
        'm.py:7:5: generator functions (yield) are not supported']
    text = pipeline.to_source(module)
    assert 'ag__.if_stmt' in text.split('def bad')[0]
    assert 'yield n' in text
    assert '@ag.do_not_convert\ndef skipped(x):\n    if x:' in text
    assert 'ag__.if_exp(x, lambda: x, lambda: 0' in text
    compile(text, 'm.py', 'exec')
    assert isinstance(module, gast.Module)
