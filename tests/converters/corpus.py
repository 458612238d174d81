"""Functions that exercise every converted construct, with the inputs to run them on.

Shared by the converter tests (converted code against the pure-Python operators) and
the end-to-end tests (eager and graph modes through the real runtime). Functions are
written over numbers and free of side effects where possible, so they can be fed
tensors; `python_only=True` marks cases that only make sense on Python values (lists,
objects, dicts, None results, side-effect traces). `args` entries are argument tuples,
or zero-argument callables returning one when the arguments are mutable and each run
needs fresh ones.
"""
import contextlib
import dataclasses


@dataclasses.dataclass
class Case:
    fn: object
    args: list
    python_only: bool = False

    @property
    def name(self):
        return getattr(self.fn, '__qualname__', repr(self.fn))

    def arg_tuples(self):
        """Fresh argument tuples, one per run."""
        return [a() if callable(a) else a for a in self.args]


def set_loop_options(**kwargs):
    """Stand-in for ag.set_loop_options when the original function runs."""


def helper(x):
    return x * 2 + 1


def record(trace, value):
    trace.append(value)
    return value


@dataclasses.dataclass
class Box:
    value: int = 0
    count: int = 0


@dataclasses.dataclass
class Accumulator:
    total: int = 0

    def add_all(self, items):
        for item in items:
            if item > 0:
                self.total += item
        return self.total


# --- if / elif / else -----------------------------------------------------------------

def square_if_positive(x):
    if x > 0:
        x = x * x
    else:
        x = 0.0
    return x


def abs_value(x):
    if x < 0:
        x = -x
    return x


def sign(x):
    if x > 0:
        s = 1
    elif x < 0:
        s = -1
    else:
        s = 0
    return s


def new_symbol_in_branches(x):
    if x > 0:
        y = x + 1
    else:
        y = x - 1
    return y * 2


def nested_if(x, y):
    if x > 0:
        if y > 0:
            z = 1
        else:
            z = 2
    else:
        z = 3
    return z


def branch_local_temporary(x):
    if x > 0:
        t = x * 3
        x = t + 1
    return x


def read_before_write_in_branch(x, y):
    if x > y:
        y = y + x
    return x


def if_without_state(x):
    if x > 0:
        helper(x)
    return x


def sequential_ifs(x):
    if x > 1:
        y = 1
    if x > 2:
        y = 2
    else:
        y = 0
    return y


# --- return ---------------------------------------------------------------------------

def early_return(x):
    if x > 0:
        return x
    return -x


def return_in_elif_chain(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    elif x < 10:
        return 1
    return 2


def return_in_some_branches(x):
    if x > 0:
        x = x + 1
    else:
        return x * 10
    x = x * 2
    return x


def implicit_none(x):
    if x > 0:
        return x


def return_in_nested_if(x, y):
    if x > 0:
        if y > 0:
            return 1
        y = -y
    return y


def return_inside_for(items, target):
    for i, item in enumerate(items):
        if item == target:
            return i
    return -1


def return_inside_while(n):
    i = 0
    while i < n:
        if i * i > n:
            return i
        i += 1
    return n


def return_in_nested_loops(n):
    for i in range(n):
        for j in range(n):
            if i * j == 6:
                return i + j
    return 0


def return_then_more_code(x):
    total = 0
    for i in range(x):
        total += i
        if total > 10:
            return total
        total += 1
    total = total * 2
    return total


def while_true_with_return(x):
    while True:
        x = x + 3
        if x > 10:
            return x



def early_return_with_docstring(x):
    """The docstring stays first, so __doc__ survives return lowering."""
    if x > 0:
        return x * 2
    return -x


def return_in_try(s):
    try:
        return int(s)
    except ValueError:
        return 0


def return_in_try_with_else(s):
    out = 'start'
    try:
        v = int(s)
        if v > 5:
            return 'big'
        out = 'small'
    except ValueError:
        out = 'bad'
    else:
        out = out + '!'
    finally:
        out = out + '.'
    return out

# --- loops ----------------------------------------------------------------------------

def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


def count_down(n):
    total = 0
    while n > 0:
        total += n
        n -= 1
    return total


def for_range_two_accumulators(n):
    a = 0
    b = 1
    for _ in range(n):
        a, b = b, a + b
    return a


def while_with_break(n):
    i = 0
    total = 0
    while i < n:
        if total > 20:
            break
        total += i
        i += 1
    return total


def while_with_continue(n):
    i = 0
    total = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        total += i
    return total


def for_with_break(items):
    total = 0
    for x in items:
        if x < 0:
            break
        total += x
    return total


def for_else_with_break(items, target):
    found = -1
    for i in range(len(items)):
        if items[i] == target:
            found = i
            break
    else:
        found = -2
    return found


def for_else_without_break(n):
    total = 0
    for i in range(n):
        total += i
    else:
        total = total * 10
    return total


def while_else_with_break(n):
    i = 0
    while i < n:
        if i == 5:
            break
        i += 1
    else:
        i = -1
    return i


def while_else_without_break(n):
    i = 0
    while i < n:
        i += 2
    else:
        i += 100
    return i


def nested_loops_break_inner(n):
    total = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            total += j
    return total


def nested_loops_continue_outer(n):
    total = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        j = 0
        while True:
            j += 1
            if j >= i:
                break
        total += j
    return total


def break_in_nested_if(n):
    total = 0
    for i in range(n):
        if i > 2:
            if total > 5:
                break
            total += 1
        total += i
    return total


def continue_in_nested_if(n):
    total = 0
    for i in range(n):
        if i > 1:
            if i % 2 == 0:
                continue
            total += 100
        total += i
    return total


def continue_with_else_branch(n):
    total = 0
    for i in range(n):
        if i % 2 == 0:
            total += 1
            continue
        else:
            total -= 1
        total += i
    return total


def break_and_continue(n):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        if i > 7:
            break
        total += i
    return total


def enumerate_loop(items):
    total = 0
    for i, x in enumerate(items):
        total += i * x
    return total


def zip_loop(xs, ys):
    total = 0
    for x, y in zip(xs, ys):
        total += x * y
    return total


def loop_var_used_after(n):
    for i in range(n):  # noqa: B007 - the loop leaves `i` bound
        pass
    return i


def defined_only_in_loop(n):
    i = 0
    while i < n:
        last = i * 2
        i += 1
    return last


def loop_local_temporary(n):
    total = 0
    for i in range(n):
        sq = i * i
        total += sq
    return total


def helper_in_loop(n):
    total = 0
    for i in range(n):
        total += helper(i)
    return total


def loop_with_directive(n):
    i = 0
    while i < n:
        set_loop_options(maximum_iterations=100)
        i += 1
    return i


def walrus_in_while(n):
    total = 0
    while (n := n - 1) > 0:
        total += n
    return total


def walrus_in_while_with_break(n):
    # A `:=` in the test and a `break`: lazy_operands moves the loop's `not break_ and
    # test` into a thunk, where logical_expressions must still rewrite the `not`.
    total = 0
    while (m := n - total) > 0:
        if total > 6:
            break
        total += 2
    return total + m


def loop_over_tuple_target(pairs):
    total = 0
    for (a, b) in pairs:
        total += a - b
    return total



def while_condition_with_and(n):
    i = 0
    total = 0
    while i < n and total < 20:
        total += i
        i += 1
    return total


def range_accumulator_with_break(n):
    total = 0
    for i in range(n):
        total += i
        if total > 10:
            break
    return total


def append_then_break(xs):
    out = []
    for i in range(len(xs)):
        out.append(xs[i] * 2)
        if xs[i] > 2:
            break
    return out


def break_before_append(xs):
    out = []
    for i in range(len(xs)):
        if xs[i] > 2:
            break
        out.append(xs[i] * 2)
    return out


def append_then_sum(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    return sum(out)


def builtins_in_loop(xs):
    total = 0
    biggest = xs[0]
    smallest = xs[0]
    for x in xs:
        biggest = max(biggest, x)
        smallest = min(smallest, x)
        total += abs(x)
    return total, biggest, smallest


def break_in_try(items):
    total = 0
    for s in items:
        try:
            total += int(s)
        except ValueError:
            break
        total += 1
    return total


def continue_in_try_else(items):
    last = -1
    for s in items:
        try:
            value = int(s)
        except ValueError:
            continue
        else:
            if value > 2:
                break
        finally:
            last += 1
    return last

# --- expressions ----------------------------------------------------------------------

def ternary(x):
    return x if x > 0 else -x


def nested_ternary(x):
    return 'neg' if x < 0 else 'zero' if x == 0 else 'pos'


def ternary_in_loop(n):
    total = 0
    for i in range(n):
        total += i if i % 2 else -i
    return total


def chained_comparison(x):
    return 0 < x < 10


def chained_comparison_side_effects(trace, x):
    return record(trace, 0) < record(trace, x) < record(trace, 10) <= record(trace, 20)


def and_or_operands(x, y):
    return (x and y, x or y, x and y or 7)


def not_operator(x):
    return not x


def short_circuit_side_effects(trace, x):
    a = x > 0 and record(trace, 'and-right')
    b = x > 0 or record(trace, 'or-right')
    return a, b


def condition_with_and(x, y):
    if x > 0 and y > 0:
        z = x + y
    else:
        z = 0
    return z



def reassign_parameter_dead_after_if(x, y):
    z = x * 2
    if y > 0:
        x = x + y
        z = z + x
    return z

# --- lists, attributes, dict items ----------------------------------------------------

def list_append_in_loop(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


def list_pop_in_while(items):
    items = list(items)
    out = 0
    while items:
        x = items.pop()
        out = out * 10 + x
    return out


def bare_pop(items):
    items = list(items)
    items.pop(0)
    return items


def attribute_in_branch(box, x):
    if x > 0:
        box.value = x
    else:
        box.value = -x
    return box.value


def attribute_in_loop(box, n):
    for i in range(n):
        box.count += i
    return box.count


def dict_item_in_branch(d, x):
    if x > 0:
        d['k'] = x
    return d


def dict_item_in_loop(d, n):
    i = 0
    while i < n:
        d['total'] += i
        i += 1
    return d['total']


# --- functions, calls, misc -----------------------------------------------------------

def nested_function(x):
    def inner(y):
        if y > 0:
            return y * 2
        return -y

    total = 0
    for i in range(x):
        total += inner(i - 2)
    return total



def nested_function_called_in_while(n, scale):
    def step(v):
        return v * scale

    total = 0
    i = 0
    while i < n:
        total += step(i)
        i += 1
    return total

def nested_closure_nonlocal(n):
    count = 0

    def bump():
        nonlocal count
        count += 1

    for _ in range(n):
        bump()
    return count


def lambda_in_loop(n):
    f = lambda v: v * 3  # noqa: E731
    total = 0
    for i in range(n):
        total += f(i)
    return total


def default_args(x, scale=2, *, offset=1):
    if x > 0:
        x = x * scale
    return x + offset


def star_args(*args, **kwargs):
    total = sum(args)
    for key in sorted(kwargs):
        total += kwargs[key]
    return max(*args, total)


def recursive(n):
    if n <= 1:
        return 1
    return n * recursive(n - 1)


def with_assert(x):
    assert x >= 0, 'x must be non-negative'
    return x + 1


def assert_without_message(x):
    assert x
    return x


def try_without_jumps(x):
    try:
        y = 10 // x
    except ZeroDivisionError:
        y = 0
    if y > 2:
        y = y - 1
    return y


def with_statement(x):
    with contextlib.nullcontext():
        if x > 0:
            x = x + 1
    return x


def comprehension_and_fstring(n):
    squares = [i * i for i in range(n) if i % 2]
    if squares:
        label = f'{len(squares)} squares'
    else:
        label = 'none'
    return label, squares


def match_statement(x):
    match x:
        case 0:
            y = 'zero'
        case _:
            y = 'other'
            if x > 5:
                y = 'big'
    if x > 1:
        y = y + '!'
    return y


def delete_statement(x):
    y = x + 1
    del x
    if y > 1:
        y = y * 2
    return y


COUNTER = 0


def modify_global(n):
    global COUNTER
    COUNTER = 0
    for _ in range(n):
        COUNTER += 1
    return COUNTER


def multiple_assignment_targets(x):
    a = b = 0
    for i in range(x):
        a, b = b + i, a
    return a, b


def string_values(s):
    out = ''
    for ch in s:
        if ch == ' ':
            continue
        out += ch.upper()
    return out


def undefined_read(x):
    if x > 0:
        y = 1
    return y


def lazy_operands_that_rebind(a, b):
    count = 0
    seen = 0

    def bump(k):
        nonlocal count
        count = count + k
        return count
    if a > 0 and (b > 0 or (seen := bump(2)) > 1):
        count = count * 10
    r = bump(1) if b > 1 else count
    return count, seen, r


abs_lambda = lambda x: x if x >= 0 else -x  # noqa: E731

CASES = [
    Case(lazy_operands_that_rebind, [(1, 1), (1, 0), (0, 0), (1, 2), (-1, 3)]),
    Case(square_if_positive, [(9.0,), (-9.0,), (0.0,)]),
    Case(abs_value, [(3,), (-2,)]),
    Case(sign, [(5,), (-5,), (0,)]),
    Case(new_symbol_in_branches, [(3,), (-3,)]),
    Case(nested_if, [(1, 1), (1, -1), (-1, 1)]),
    Case(branch_local_temporary, [(2,), (-2,)]),
    Case(read_before_write_in_branch, [(3, 1), (1, 3)]),
    Case(if_without_state, [(1,), (-1,)]),
    Case(sequential_ifs, [(0,), (2,), (3,)]),
    Case(early_return, [(4,), (-4,)]),
    Case(return_in_elif_chain, [(-5,), (0,), (5,), (50,)]),
    Case(return_in_some_branches, [(3,), (-3,)]),
    Case(implicit_none, [(3,), (-3,)], python_only=True),
    Case(return_in_nested_if, [(1, 1), (1, -2), (-1, 5)]),
    Case(return_inside_for, [([4, 5, 6], 5), ([4, 5, 6], 9)]),
    Case(return_inside_while, [(10,), (0,), (1,)]),
    Case(return_in_nested_loops, [(5,), (2,)]),
    Case(return_then_more_code, [(3,), (10,)]),
    Case(while_true_with_return, [(0,), (20,)]),
    Case(early_return_with_docstring, [(3,), (-3,)]),
    Case(return_in_try, [('7',), ('x',)], python_only=True),
    Case(return_in_try_with_else, [('7',), ('2',), ('x',)], python_only=True),
    Case(sum_even, [([10, 12, 15, 20],), ([],)]),
    Case(count_down, [(5,), (0,)]),
    Case(for_range_two_accumulators, [(10,), (0,)]),
    Case(while_with_break, [(3,), (30,)]),
    Case(while_with_continue, [(10,), (0,)]),
    Case(for_with_break, [([1, 2, -1, 4],), ([1, 2],)]),
    Case(for_else_with_break, [([3, 4, 5], 4), ([3, 4, 5], 7)]),
    Case(for_else_without_break, [(4,), (0,)]),
    Case(while_else_with_break, [(10,), (3,)]),
    Case(while_else_without_break, [(5,), (0,)]),
    Case(nested_loops_break_inner, [(5,), (0,)]),
    Case(nested_loops_continue_outer, [(6,)]),
    Case(break_in_nested_if, [(10,), (2,)]),
    Case(continue_in_nested_if, [(6,)]),
    Case(continue_with_else_branch, [(6,)]),
    Case(break_and_continue, [(20,), (3,)]),
    Case(enumerate_loop, [([3, 4, 5],)]),
    Case(zip_loop, [([1, 2, 3], [4, 5, 6])]),
    Case(loop_var_used_after, [(3,), (0,)], python_only=True),
    Case(defined_only_in_loop, [(3,), (0,)], python_only=True),
    Case(loop_local_temporary, [(4,)]),
    Case(helper_in_loop, [(4,)]),
    Case(loop_with_directive, [(5,)]),
    Case(walrus_in_while, [(5,)]),
    Case(walrus_in_while_with_break, [(5,), (20,), (0,)]),
    Case(loop_over_tuple_target, [([(5, 1), (7, 2)],)]),
    Case(while_condition_with_and, [(3,), (10,), (0,)]),
    Case(range_accumulator_with_break, [(3,), (10,)]),
    Case(append_then_break, [([1, 2, 3, 1],), ([1, 2],), ([5],)]),
    Case(break_before_append, [([1, 2, 3, 1],), ([1, 2],)]),
    Case(append_then_sum, [([1, 2, 3],), ([4.0, -1.5],)]),
    Case(builtins_in_loop, [([3, -7, 2],), ([-1, 0, 5],)]),
    Case(break_in_try, [(['1', '2', 'x', '4'],), (['3'],)], python_only=True),
    Case(continue_in_try_else, [(['1', 'x', '5', '9'],), (['x'],)], python_only=True),
    Case(ternary, [(3,), (-3,)]),
    Case(nested_ternary, [(-1,), (0,), (1,)], python_only=True),
    Case(ternary_in_loop, [(6,)]),
    Case(chained_comparison, [(5,), (0,), (10,)]),
    Case(chained_comparison_side_effects, [lambda: ([], 5), lambda: ([], -1),
                                           lambda: ([], 15)], python_only=True),
    Case(and_or_operands, [(0, 5), (3, 0), (3, 4)], python_only=True),
    Case(not_operator, [(0,), (2,)]),
    Case(short_circuit_side_effects, [lambda: ([], 1), lambda: ([], -1)],
         python_only=True),
    Case(condition_with_and, [(1, 2), (1, -2), (-1, 2)]),
    Case(reassign_parameter_dead_after_if, [(1, 2), (1, -2)]),
    Case(list_append_in_loop, [(4,), (0,)], python_only=True),
    Case(list_pop_in_while, [([1, 2, 3],)], python_only=True),
    Case(bare_pop, [([1, 2, 3],)], python_only=True),
    Case(attribute_in_branch, [lambda: (Box(), 3), lambda: (Box(), -3)], python_only=True),
    Case(attribute_in_loop, [lambda: (Box(), 4)], python_only=True),
    Case(dict_item_in_branch, [lambda: ({}, 3), lambda: ({}, -3)], python_only=True),
    Case(dict_item_in_loop, [lambda: ({'total': 1}, 4)], python_only=True),
    Case(Accumulator.add_all, [lambda: (Accumulator(), [1, -2, 3])], python_only=True),
    Case(nested_function, [(5,)]),
    Case(nested_function_called_in_while, [(4, 3), (0, 3)]),
    Case(nested_closure_nonlocal, [(3,)]),
    Case(lambda_in_loop, [(4,)]),
    Case(default_args, [(3,), (-3,), (3, 5)]),
    Case(star_args, [(1, 2, 3), (4,)], python_only=True),
    Case(recursive, [(5,)]),
    Case(with_assert, [(3,), (-1,)]),
    Case(assert_without_message, [(1,), (0,)]),
    Case(try_without_jumps, [(2,), (0,), (50,)], python_only=True),
    Case(with_statement, [(1,), (-1,)]),
    Case(comprehension_and_fstring, [(5,), (0,)], python_only=True),
    Case(match_statement, [(0,), (2,), (7,)], python_only=True),
    Case(delete_statement, [(1,), (-1,)]),
    Case(modify_global, [(3,)], python_only=True),
    Case(multiple_assignment_targets, [(4,)]),
    Case(string_values, [('a b c',)], python_only=True),
    Case(undefined_read, [(1,), (-1,)], python_only=True),
    Case(abs_lambda, [(3,), (-3,)]),
]
