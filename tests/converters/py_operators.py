"""A pure-Python reference implementation of the `ag__` contract (docs/architecture.md).

Python-value semantics only: every operator does what the statement it replaces would
do in plain Python. Converted code run against this module must behave exactly like
the original function; the real runtime must agree with it on Python values.
"""
import operator

_COMPARISONS = {
    '==': operator.eq, '!=': operator.ne, '<': operator.lt, '<=': operator.le,
    '>': operator.gt, '>=': operator.ge, 'is': operator.is_, 'is not': operator.is_not,
    'in': lambda a, b: a in b, 'not in': lambda a, b: a not in b,
}


class Undefined:
    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def __repr__(self):
        return f'Undefined({self.symbol_name!r})'


class UndefinedReturnValue:
    pass


def ld(value):
    if isinstance(value, Undefined):
        raise UnboundLocalError(f"cannot access local variable '{value.symbol_name}' "
                                'where it is not associated with a value')
    return value


def _check_state(get_state, symbol_names):
    """get_state must work before the statement (staging calls it), except for an
    attribute or item the statement itself creates (a documented limitation)."""
    try:
        assert len(get_state()) == len(symbol_names)
    except (KeyError, AttributeError):
        assert any('.' in name or '[' in name for name in symbol_names)


def if_stmt(cond, if_body, else_body, get_state, set_state, symbol_names):
    _check_state(get_state, symbol_names)
    (if_body if cond else else_body)()


def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    _check_state(get_state, symbol_names)
    while test():
        body()


def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    _check_state(get_state, symbol_names)
    iterator = iter(iter_)
    while extra_test is None or extra_test():
        try:
            item = next(iterator)
        except StopIteration:
            return
        body(item)


def if_exp(cond, true_fn, false_fn, expr_repr):
    return true_fn() if cond else false_fn()


def and_(*thunks, test=False):  # `test`: only truth matters, no change on Python values
    value = thunks[0]()
    for thunk in thunks[1:]:
        if not value:
            return value
        value = thunk()
    return value


def or_(*thunks, test=False):
    value = thunks[0]()
    for thunk in thunks[1:]:
        if value:
            return value
        value = thunk()
    return value


def not_(value):
    return not value


def bool_(value):
    return bool(value)


def compare_chain(left, *ops_and_thunks):
    result = True
    for op, thunk in zip(ops_and_thunks[::2], ops_and_thunks[1::2]):
        right = thunk()
        result = _COMPARISONS[op](left, right)
        if not result:
            return result
        left = right
    return result


def assert_stmt(test, msg_thunk, source=None):
    if not test:
        raise AssertionError(msg_thunk()) if msg_thunk is not None else AssertionError()


def converted(f):
    return f


def list_append(target, x):
    target.append(x)
    return target


def list_pop(target, *index):
    return target, target.pop(*index)


def new_list(iterable=()):
    return list(iterable)
