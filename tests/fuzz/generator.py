"""Seeded random programs `f(a, b, xs)` that a user may legitimately stage.

`generate(seed, index)` returns a `Program`: the source of a module (a small prelude, then
`def f(a, b, xs)`) and the inputs to call it with. It draws everything from
`random.Random(seed + index)`, so (seed, index) reproduces a program exactly. One program
in REAL_CODE_EVERY is written in the style of real code instead (realcode.py: the
statements below and more; some of them on Python values only, `Program.python_only`).
A statement kind of its own (`s_vector`, vector_loops.py) is a loop over the items of
`xs` in the forms the plan compiler's vectorization pass runs as array operations, or
a little off them; a program with one that walks xs itself (`for x in xs`, `enumerate`,
`zip`: vectorized only where the length of xs is known) also runs in the runner's
`static` mode (`Program.static`).

What makes a program legitimate for staging (docs/limitations.md, docs/guide.md), and
how the generator guarantees it:
- every variable is an int and keeps that dtype: expressions combine ints with `+`, `-`,
  `%` and `//` by positive constants, `abs`, `min`, `max`, ternaries, and `and`/`or`
  over ints (and `*`, in vector_loops.py: by 2, and a product of factors in [-2, 2]
  over the items of `xs`, reset to 1 before); comparisons appear only in conditions;
- every variable is bound at the top of `f`, before any staged `if` or loop; a loop's
  target is read only inside that loop;
- every path returns, and every `return` has the same arity (an int, or a tuple of ints);
- loops terminate: `while` loops count a fresh counter first thing in their body, range
  bounds are small, and nothing grows faster than by a bounded sum per iteration (an
  assignment inside a loop that reads variables is taken `% K`), so no int leaves int32;
- only `risky(c)` raises, and only on a literal `c`, so whether it raises never depends
  on a tensor;
- lists are only popped under a length guard; dict items and attributes keep their keys.
"""

import dataclasses
import random

PRELUDE = '''\
K = 3


class Box:
    pass


def risky(p):
    if p > 2:
        raise ValueError(p)
    return p


def call_it(fn):
    return fn()
'''

MAX_LOOP_DEPTH = 3
# Program i of seed S is real code (realcode.py) when (S + i) % REAL_CODE_EVERY == 0.
REAL_CODE_EVERY = 3
MAX_DEPTH = 4


@dataclasses.dataclass(frozen=True)
class Program:
    seed: int
    index: int
    source: str  # the module: PRELUDE, then `def f(a, b, xs)`
    inputs: tuple  # ((a, b, xs), ...): each call checked against the oracle
    python_only: bool = False  # uses values no tensor can be (strings...): Python mode only
    vector_loops: int = 0  # loops made by `s_vector` (vector_loops.py)
    static: bool = False  # one of them walks xs itself: run in the static mode too


def generate(seed, index):
    rng = random.Random(seed + index)
    inputs = tuple(
        (rng.randint(-3, 5), rng.randint(-3, 5),
         [rng.randint(-3, 6) for _ in range(rng.randint(0, 4))])
        for _ in range(3))
    if (seed + index) % REAL_CODE_EVERY == 0:
        from tests.fuzz import realcode  # it builds on _Builder, below: imported once used
        module, body, builder = realcode.build(rng)
        return Program(seed, index, PRELUDE + "\n\n" + module + "\n\n" + body, inputs,
                       not builder.tensor, builder.vector_loops, builder.static)
    builder = _Builder(rng)
    body = builder.function()
    return Program(seed, index, PRELUDE + "\n\n" + body, inputs,
                   vector_loops=builder.vector_loops, static=builder.static)


@dataclasses.dataclass
class _Scope:
    """Where a statement is generated: loop nesting, the loop targets readable there, and
    those of them that are valid indexes of `xs`."""

    depth: int = 0
    loops: int = 0
    targets: tuple = ()
    indexes: tuple = ()


def vector_loop_fits(scope):
    """Whether a loop of vector_loops.py (a body up to two `if`s deep) fits here."""
    return scope.loops < MAX_LOOP_DEPTH and scope.depth < MAX_DEPTH - 2


class _Builder:
    def __init__(self, rng):
        self.rng = rng
        self.budget = rng.randint(3, 14)
        self.arity = rng.choice((1, 1, 2, 3))
        self.vars = [f"v{i}" for i in range(rng.randint(2, 4))]
        self.has_list = rng.random() < 0.4
        self.has_dict = rng.random() < 0.25
        self.has_box = rng.random() < 0.25
        self.rebinders = []  # helpers that rebind a variable through nonlocal
        self.readers = []  # helpers and lambdas that read variables
        self.fresh = 0
        self.tensor = True  # whether f may run on tensors (realcode.py: maybe not)
        self.vector_loops = 0  # loops of vector_loops.py made
        self.static = False  # whether one of them walks xs itself (Program.static)

    # --- the function -------------------------------------------------------------------

    def function(self):
        lines = ["def f(a, b, xs):"]
        head = self.head() + self.helpers()
        body = self.block(_Scope(), top=True)
        body.append(self.return_stmt(_Scope()))
        lines += ["    " + line for line in head + body]
        return "\n".join(lines) + "\n"

    def head(self):
        """The statements that bind every variable before any `if` or loop."""
        head = [f"{v} = {self.init_expr()}" for v in self.vars]
        if self.has_list:
            head.append(self.rng.choice(("ys = []", "ys = [1, 2]")))
        if self.has_dict:
            head.append("d = {'k': 0, 'm': 1}")
        if self.has_box:
            head += ["o = Box()", "o.k = 0"]
        return head

    def init_expr(self):
        return self.rng.choice(("a", "b", "0", "1", "a + 1", "b - a", "len(xs)", "2"))

    def helpers(self):
        lines = []
        for n in range(self.rng.choice((0, 0, 1, 2))):
            kinds = ["rebind", "rebind_if", "set", "set_if", "set_or_return", "read",
                     "default", "branch", "loop", "lambda"]
            kind = self.rng.choice(kinds + ["calls"] * n)  # h1 may call h0
            name, var = f"h{n}", self.rng.choice(self.vars)
            if kind == "calls":  # rebinds (transitively) what h0 rebinds
                lines += [f"def {name}(p):", "    return h0(p) + 1"]
                (self.rebinders if "h0" in self.rebinders else self.readers).append(name)
            elif kind == "rebind":
                lines += [f"def {name}(p):", f"    nonlocal {var}", f"    {var} = {var} + p",
                          f"    return {var}"]
                self.rebinders.append(name)
            elif kind == "rebind_if":
                lines += [f"def {name}(p):", f"    nonlocal {var}", f"    if p > {var}:",
                          f"        {var} = p", f"    return {var}"]
                self.rebinders.append(name)
            elif kind == "set":  # rebinds without reading: the value before is dead
                lines += [f"def {name}(p):", f"    nonlocal {var}", f"    {var} = p % 5",
                          "    return p"]
                self.rebinders.append(name)
            elif kind == "set_if":  # may keep the value before, without reading it
                lines += [f"def {name}(p):", f"    nonlocal {var}", "    if p > 1:",
                          f"        {var} = p", "    return p"]
                self.rebinders.append(name)
            elif kind == "set_or_return":  # a return may come before the rebinding
                lines += [f"def {name}(p):", f"    nonlocal {var}", "    if p > 2:",
                          "        return p", f"    {var} = p - 1", "    return p"]
                self.rebinders.append(name)
            elif kind == "read":
                lines += [f"def {name}(p):", f"    return p + {var}"]
                self.readers.append(name)
            elif kind == "default":
                lines += [f"def {name}(p, q=2):", f"    return p - q + {var}"]
                self.readers.append(name)
            elif kind == "loop":
                lines += [f"def {name}(p):", f"    t = p + {var}", "    for x in xs:",
                          "        t += x", "    return t % 7"]
                self.readers.append(name)
            elif kind == "branch":
                lines += [f"def {name}(p):", f"    if p > {var}:", "        return p",
                          f"    return {var} - p"]
                self.readers.append(name)
            else:
                lines.append(f"{name} = lambda p: p - {var}")
                self.readers.append(name)
        return lines

    # --- statements ---------------------------------------------------------------------

    def block(self, scope, top=False):
        lines = []
        count = self.rng.randint(2, 5) if top else self.rng.randint(1, 3)
        for _ in range(count):
            if self.budget <= 0:
                break
            lines += self.statement(scope)
        return lines or ["pass"]

    def statement(self, scope):
        self.budget -= 1
        return getattr(self, "s_" + self.rng.choice(self.kinds(scope)))(scope)

    def kinds(self, scope):
        """The kinds of statement that may come here (a kind listed twice is twice as
        likely); each is made by the method `s_<kind>`."""
        kinds = ["assign", "assign", "aug", "aug", "swap", "if", "if"]
        if scope.loops < MAX_LOOP_DEPTH and scope.depth < MAX_DEPTH:
            kinds += ["while", "while_true", "for", "for", "for"]
        if scope.depth >= MAX_DEPTH:
            kinds = ["assign", "aug"]
        if scope.loops:
            kinds += ["break", "continue"]
        if scope.depth:
            kinds.append("return")
        if self.has_list:
            kinds += ["append", "pop"]
        if self.has_dict:
            kinds.append("dict")
        if self.has_box:
            kinds.append("attr")
        if self.rebinders:
            kinds.append("call")
        if self.tensor and vector_loop_fits(scope):  # for the vectorization pass
            kinds.append("vector")
        return kinds + ["try", "assert", "closure"]

    def nested(self, scope, loop=False, targets=(), indexes=()):
        inner = _Scope(scope.depth + 1, scope.loops + loop, scope.targets + tuple(targets),
                       scope.indexes + tuple(indexes))
        return ["    " + line for line in self.block(inner)]

    def s_assign(self, scope):
        var = self.rng.choice(self.vars)
        return [f"{var} = {self.bounded(self.expr(scope), scope)}"]

    def s_swap(self, scope):
        first, second = self.rng.sample(self.vars, 2)
        if self.rng.random() < 0.5:
            return [f"{first}, {second} = {second}, {first}"]
        values = (self.bounded(self.expr(scope, 1), scope) for _ in range(2))
        return [f"{first}, {second} = " + ", ".join(values)]

    def s_aug(self, scope):
        var = self.rng.choice(self.vars)
        if self.rng.random() < 0.2:
            return [f"{var} {self.rng.choice(('%=', '//='))} {self.rng.randint(2, 5)}"]
        return [f"{var} {self.rng.choice(('+=', '-='))} {self.small_atom(scope)}"]

    def s_assert(self, scope):  # always holds: staged, it must not fail either
        return [self.rng.choice((f"assert {self.atom(scope)} == {self.atom(scope)} or True",
                                 "assert len(xs) >= 0",
                                 f"assert abs({self.expr(scope, 1)}) >= 0"))]

    def s_if(self, scope):
        lines = [f"if {self.cond(scope)}:"] + self.nested(scope)
        for _ in range(self.rng.choice((0, 0, 1, 2))):
            lines += [f"elif {self.cond(scope)}:"] + self.nested(scope)
        if self.rng.random() < 0.5:
            lines += ["else:"] + self.nested(scope)
        return lines

    def counter(self):
        self.fresh += 1
        return f"w{self.fresh}"

    def s_while(self, scope):
        w = self.counter()
        test = f"{w} < {self.rng.randint(1, 4)}"
        connective = self.rng.choice(("", "", "and", "or"))
        if connective == "and":
            test += f" and {self.cond(scope)}"
        elif connective == "or":  # the condition alone could keep it going: bound it again
            test = f"{w} < 5 and ({test} or {self.cond(scope)})"
        if self.rng.random() < 0.2:  # the walrus counts in the test itself
            header = [f"while ({w} := {w} + 1) <= {self.rng.randint(1, 4)}:"]
        else:
            header = [f"while {test}:", f"    {w} += 1"]
        return ([f"{w} = 0"] + header + self.nested(scope, loop=True)
                + self.loop_else(scope))

    def s_while_true(self, scope):
        w = self.counter()
        lines = [f"{w} = 0", "while True:", f"    {w} += 1",
                 f"    if {w} > {self.rng.randint(0, 3)}:", "        break"]
        return lines + self.nested(scope, loop=True)

    def s_for(self, scope):
        self.fresh += 1
        i, x = f"i{self.fresh}", f"x{self.fresh}"
        kind = self.rng.choice(("range", "range", "xs", "xs", "list", "enumerate", "zip",
                                "enumerate_zip"))
        indexes = ()
        if kind == "range":
            iterable, targets, header = self.range_call(scope), (i,), i
            indexes = (i,) if iterable == "range(len(xs))" else ()
        elif kind == "xs":
            iterable, targets, header = "xs", (x,), x
        elif kind == "list":
            items = ", ".join(str(self.rng.randint(-2, 4)) for _ in range(self.rng.randint(0, 3)))
            iterable, targets, header = f"[{items}]", (x,), x
        elif kind == "enumerate":
            iterable, targets, header = "enumerate(xs)", (i, x), f"{i}, {x}"
            indexes = (i,)
        elif kind == "zip":
            other = self.rng.choice(("xs", "range(3)", "[4, 5]"))
            iterable, targets, header = f"zip(xs, {other})", (x, i), f"{x}, {i}"
        else:
            y = f"y{self.fresh}"
            iterable = f"enumerate(zip(xs, {self.rng.choice(('xs', '[1, 2, 3]'))}))"
            targets, header, indexes = (i, x, y), f"{i}, ({x}, {y})", (i,)
        lines = [f"for {header} in {iterable}:"]
        return (lines + self.nested(scope, loop=True, targets=targets, indexes=indexes)
                + self.loop_else(scope))

    def s_vector(self, scope):
        from tests.fuzz import vector_loops  # it builds on _Scope, above: imported once used
        self.vector_loops += 1
        # It is several statements: the budget pays for them (the generator's statements
        # in it are fewer, and those after it), so programs stay about as big.
        self.budget -= 3
        lines = vector_loops.loop(self, scope)
        self.budget -= max(0, len(lines) // 2 - 3)
        return lines

    def range_call(self, scope):
        return self.rng.choice((
            f"range({self.rng.randint(0, 4)})",
            f"range({self.rng.choice(('a', 'b'))} % 4)",
            f"range({self.rng.randint(-1, 1)}, {self.rng.randint(1, 4)})",
            "range(len(xs))",
            f"range({self.rng.choice(('a', 'b'))}, 4)",
            f"range({self.rng.choice(('0', 'a'))}, 5, 2)",
            f"range({self.rng.choice(('3', 'b'))}, -1, -1)",
        ))

    def loop_else(self, scope):
        if self.rng.random() < 0.25:
            return ["else:"] + self.nested(scope)
        return []

    def s_break(self, scope):
        return ["break"]

    def s_continue(self, scope):
        return ["continue"]

    def s_return(self, scope):
        return [self.return_stmt(scope)]

    def return_stmt(self, scope):
        values = self.return_values(scope)
        if len(values) == 1:
            return f"return {values[0]}"
        return f"return ({', '.join(values)})"

    def return_values(self, scope):
        return [self.expr(scope) for _ in range(self.arity)]

    def s_append(self, scope):
        return [f"ys.append({self.expr(scope, 1)})"]

    def s_pop(self, scope):
        var = self.rng.choice(self.vars)
        guard = f"if len(ys) > {self.rng.randint(0, 2)}:"
        return self.rng.choice(([guard, f"    {var} += ys.pop()"], [guard, "    ys.pop()"]))

    def s_dict(self, scope):
        key = self.rng.choice(("'k'", "'m'"))
        if self.rng.random() < 0.5:
            return [f"d[{key}] += {self.small_atom(scope)}"]
        return [f"d[{key}] = {self.bounded(self.expr(scope), scope)}"]

    def s_attr(self, scope):
        if self.rng.random() < 0.5:
            return [f"o.k -= {self.small_atom(scope)}"]
        return [f"o.k = {self.bounded(self.expr(scope), scope)}"]

    def s_call(self, scope):
        call = f"{self.rng.choice(self.rebinders)}({self.small_atom(scope)})"
        if self.rng.random() < 0.5:
            return [call]
        return [f"{self.rng.choice(self.vars)} = {self.bounded(call, scope)}"]

    def s_closure(self, scope):
        """A closure made here and called at once: by name (a lambda or a def, which read
        where they are called, loop targets too), or passed on (it escapes: what it reads
        counts as read after every staged statement around it, so it must be bound
        before them, docs/limitations.md)."""
        self.fresh += 1
        g, var = f"g{self.fresh}", self.rng.choice(self.vars)
        kind = self.rng.choice(("lambda", "def", "passed"))
        if kind == "passed":  # may run anywhere: reads only variables bound at the top
            read = self.rng.choice(self.vars + ["a", "b"])
            return [f"{var} = {self.bounded(f'call_it(lambda: {read})', scope)}"]
        if kind == "lambda":
            lines = [f"{g} = lambda p: p + {self.atom(scope)}"]
        else:
            lines = [f"def {g}(p):", f"    return p - {self.atom(scope)}"]
        return lines + [f"{var} = {self.bounded(f'{g}({self.small_atom(scope)})', scope)}"]

    def s_try(self, scope):
        var = self.rng.choice(self.vars)
        risky = f"risky({self.rng.randint(1, 4)})"
        body = self.rng.choice((
            [f"{var} = {self.bounded(f'{var} + {risky}', scope)}"],
            [f"{var} += 1", f"{var} -= {risky}"],
            [self.return_stmt(scope).replace("return ", f"return {risky} + ", 1)
             if self.arity == 1 else f"{var} = {risky}"],
        ))
        if scope.loops and self.rng.random() < 0.3:
            body.append(self.rng.choice(("break", "continue")))
        handler = [f"{var} -= 1"] if self.rng.random() < 0.7 else ["pass"]
        lines = (["try:"] + ["    " + line for line in body] + ["except ValueError:"]
                 + ["    " + line for line in handler])
        if self.rng.random() < 0.3:  # runs after a return or break in the body, too
            lines += ["finally:", f"    {self.rng.choice(self.vars)} += 1"]
        return lines

    # --- expressions --------------------------------------------------------------------

    def bounded(self, expr, scope):
        """`expr`, taken `% K` inside a loop (where it could compound) unless it is small."""
        if scope.loops and not expr.isidentifier() and not expr.lstrip("-").isdigit():
            return f"({expr}) % {self.rng.randint(5, 13)}"
        return expr

    def small_atom(self, scope):
        options = ["a", "b", "1", "2", str(self.rng.randint(-2, 3))]
        return self.rng.choice(options + list(scope.targets))

    def atom(self, scope):
        options = self.vars + ["a", "b", "K", str(self.rng.randint(-2, 4))]
        options += scope.targets
        extras = ["len(xs)", "sum(xs)"] + [f"xs[{i}]" for i in scope.indexes]
        if self.has_list:
            extras += ["len(ys)", "sum(ys)"]
        if self.has_dict:
            extras.append(f"d[{self.rng.choice(('k', 'm'))!r}]")
        if self.has_box:
            extras.append("o.k")
        helpers = self.readers + self.rebinders
        if helpers:
            keyword = "p=" if self.rng.random() < 0.2 else ""
            extras.append(f"{self.rng.choice(helpers)}({keyword}{self.small_atom(scope)})")
        if self.rng.random() < 0.25:
            return self.rng.choice(extras)
        return self.rng.choice(options)

    def expr(self, scope, depth=2):
        if depth <= 0 or self.rng.random() < 0.4:
            return self.atom(scope)
        kind = self.rng.choice(("+", "-", "+", "%", "//", "ternary", "and", "or", "neg",
                                "abs", "minmax", "int"))

        def sub():
            return self.expr(scope, depth - 1)
        if kind in ("+", "-"):
            return f"{sub()} {kind} {sub()}"
        if kind in ("%", "//"):
            return f"({sub()}) {kind} {self.rng.randint(2, 5)}"
        if kind == "ternary":
            return f"({sub()} if {self.cond(scope, depth - 1)} else {sub()})"
        if kind in ("and", "or"):
            return f"({sub()} {kind} {sub()})"
        if kind == "neg":
            return f"-{self.atom(scope)}"
        if kind == "int":  # a condition's truth as 0 or 1
            return f"int({self.cond(scope, depth - 1)})"
        if kind == "abs":
            return f"abs({sub()})"
        return f"{self.rng.choice(('min', 'max'))}({sub()}, {sub()})"

    def cond(self, scope, depth=2):
        kind = self.rng.choice(("cmp", "cmp", "cmp", "cmp", "truth", "truth", "not", "and",
                                "or", "chain", "parity", "walrus"))
        if self.rng.random() < 0.03:
            kind = "in"
        if depth <= 0:
            kind = "cmp"

        def sub():
            return self.cond(scope, depth - 1)
        if kind == "cmp":
            op = self.rng.choice(("<", "<=", ">", ">=", "==", "!="))
            return f"{self.expr(scope, 1)} {op} {self.expr(scope, 1)}"
        if kind == "truth":
            return self.expr(scope, 1)
        if kind == "not":
            return f"not {sub()}"
        if kind in ("and", "or"):
            return f"({sub()} {kind} {sub()})"
        if kind == "chain":
            return f"{self.atom(scope)} < {self.atom(scope)} <= {self.atom(scope)}"
        if kind == "walrus":  # rebinds a variable in the middle of a condition
            value = self.bounded(f"{self.rng.choice(self.vars)} + {self.small_atom(scope)}", scope)
            return f"({self.rng.choice(self.vars)} := {value}) > {self.atom(scope)}"
        if kind == "parity":
            return f"{self.atom(scope)} % 2 == 0"
        return f"{self.atom(scope)} in xs"
