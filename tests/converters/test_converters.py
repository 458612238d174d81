"""Structure of each converter's output (behaviour is in test_behaviour.py)."""
import textwrap

import gast
from autograph_py.converters import parser, pipeline
from autograph_py.converters.transformer import ConversionContext

from tests.converters import corpus, harness


def convert(source, recursive=True):
    module = parser.parse_module(textwrap.dedent(source), 'snippet.py')
    node = pipeline.convert_function(
        module.body[0], ConversionContext('snippet.py', recursive=recursive))
    return pipeline.to_source(node)


def count(text, word):
    return text.count(word)


def test_no_jump_remains_and_single_return():
    text = convert('''
        def f(xs):
            for x in xs:
                if x > 3:
                    return x
                while x:
                    x -= 1
                    if x == 2:
                        break
                    if x == 5:
                        continue
                    x -= 1
            return 0
    ''')
    tree = gast.parse(text)
    kinds = [type(n) for n in gast.walk(tree)]
    assert gast.Break not in kinds and gast.Continue not in kinds
    assert count(text, 'return retval_') == 1 and text.rstrip().endswith('return retval_')
    assert 'do_return = False' in text and 'break_ = False' in text


def test_final_return_only_is_untouched():
    text = convert('''
        def f(x):
            if x:
                x = 1
            return x
    ''')
    assert 'retval_' not in text


def test_continue_at_end_of_if_guards_the_rest_without_flag():
    text = convert('''
        def f(xs):
            s = 0
            for x in xs:
                if x < 0:
                    continue
                s += x
            return s
    ''')
    assert 'continue_' not in text and 'ag__.not_(x < 0)' in text


def test_break_in_loop_with_else_guards_the_else():
    text = convert('''
        def f(xs):
            for x in xs:
                if x:
                    break
            else:
                x = None
            return x
    ''')
    assert 'def extra_test():\n        return ag__.not_(break_)' in text
    assert 'ag__.if_stmt(ag__.not_(break_)' in text


def test_directive_becomes_loop_options():
    text = convert('''
        def f(n):
            while n > 0:
                ag.set_loop_options(maximum_iterations=10)
                n -= 1
            return n
    ''')
    assert "{'maximum_iterations': 10})" in text and 'set_loop_options' not in text


def test_expression_level_calls():
    text = convert('''
        def f(a, b, c, l, *args, **kw):
            assert a, 'message'
            l.append(g(a, *args, k=b, **kw))
            x = l.pop()
            super().m()
            return (a if b else c, a and b, not c, a < b <= c)
    ''')
    assert "ag__.assert_stmt(a, lambda: 'message', 'a')" in text
    assert 'l = ag__.list_append(l, ag__.converted(g)(a, *args, k=b, **kw))' in text
    assert 'l, x = ag__.list_pop(l)' in text
    assert 'super().m()' in text.replace('ag__.converted(super().m)()', 'super().m()')
    assert "ag__.if_exp(b, lambda: a, lambda: c, 'a if b else c')" in text
    assert 'ag__.and_(lambda: a, lambda: b)' in text and 'ag__.not_(c)' in text
    assert "ag__.compare_chain(a, '<', lambda: b, '<=', lambda: c)" in text


def test_undefined_symbols_are_initialized_and_loaded_with_ld():
    text = convert('''
        def f(x):
            if x:
                y = 1
            return y
    ''')
    assert "y = ag__.Undefined('y')" in text and 'return ag__.ld(y)' in text


def test_body_local_names_are_not_state():
    text = convert('''
        def f(n):
            s = 0
            for i in range(n):
                t = i * 2
                s += t
            return s
    ''')
    assert "('s',)" in text and "'t'" not in text and 'nonlocal s\n' in text


def test_attributes_are_state_but_not_nonlocal():
    text = convert('''
        def f(self, n):
            while n > 0:
                self.count += 1
                n -= 1
    ''')
    assert "('n', 'self.count')" in text and 'nonlocal n\n' in text


def test_globals_are_declared_global_in_bodies():
    text = convert('''
        def f(n):
            global total
            if n:
                total = n
    ''')
    assert 'global total' in text.split('def if_body')[1]


def test_do_not_convert_nested_function_is_left_alone():
    text = convert('''
        def f(x):
            @ag.do_not_convert
            def g(y):
                if y:
                    y = 1
                return y
            return g(x)
    ''')
    assert 'if y:' in text and 'ag__.converted(g)(x)' in text


def test_docstring_stays_first_when_returns_are_lowered():
    converted = harness.load(corpus.early_return_with_docstring)
    assert converted.__doc__ == corpus.early_return_with_docstring.__doc__
    assert harness.to_code(corpus.early_return_with_docstring).startswith(
        'def early_return_with_docstring(x):\n'
        '    """The docstring stays first, so __doc__ survives return lowering."""\n'
        '    retval_ = ag__.UndefinedReturnValue()\n')


def test_not_recursive_leaves_calls_alone():
    source = '''
        def f(x):
            if g(x) > 0:
                x = h(x, k=1)
            return x
    '''
    assert 'ag__.converted(' in convert(source)
    text = convert(source, recursive=False)
    assert 'ag__.converted(' not in text and 'ag__.if_stmt(g(x) > 0' in text
    assert 'x = h(x, k=1)' in text


def test_jumps_inside_try_become_plain_assignments():
    text = convert('''
        def f(s):
            try:
                return int(s)
            except ValueError:
                return 0
    ''')
    assert 'try:\n        retval_ = ag__.converted(int)(s)\n' in text
    assert 'except ValueError:\n        retval_ = 0\n    return retval_' in text
    assert 'do_return' not in text  # both paths return: the try is in tail position


def test_lazy_operands_that_rebind_become_a_local_function_with_an_if():
    code = convert('''
        def f(a, b):
            n = 0
            def bump():
                nonlocal n
                n += 1
                return n
            if a and bump():
                b = a or b
            return n, b
    ''')
    assert count(code, 'def and_value():') == 1 and 'nonlocal n' in code
    assert "'<value of `a and bump()`>'" in code
    assert 'ag__.and_' not in code  # lowered to an if
    assert count(code, 'ag__.or_(') == 1  # `a or b` rebinds nothing: left as it is
