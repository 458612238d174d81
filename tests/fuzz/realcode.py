"""Programs in the style of real code: the generator's statements, plus the constructs of
ordinary modules (issue #24).

`generator.generate` draws one program in `REAL_CODE_EVERY` from here (`build`). Such a
program is the same `f(a, b, xs)` on ints, with more kinds of statement:
- a `for` target rebound in its body, and a nested loop reusing an outer loop's target;
- annotated assignments (`v0: int = ...`) at the top and inside branches and loops;
- a small class hierarchy, made per program, whose methods have control flow and call
  `super().step(...)` (and `super().__init__`); augmented assignment to attributes
  (`self.n += 1`, `o2.n += ...`) and items;
- `try`/`except`/`else`/`finally` and `with` (a counting context manager, or
  `contextlib.suppress`) with `break`, `continue` and `return` inside, in loops too;
- comprehensions (list, set, dict) whose filters and elements use `and`/`or`, ternaries
  and `:=`;
- on Python values only (`domain == "python"`): strings, bytes, sets and dicts and their
  methods (`split`/`join`/`startswith`/`replace`, `dict.get`/`setdefault`/`update`/`pop`
  with a default, `items()` iteration, `set.add`/`discard`/`pop` ...), `global` (read,
  rebound, and through a module function), `warnings.warn(..., stacklevel=2)`. Those
  programs return their strings, bytes, dicts and sets too, and run only in the `python`
  mode; the others run in every mode, on tensors too.

How each construct keeps the generator's contract (generator.py): strings and bytes are
cut to a few items when they grow, dict values and set items stay small ints, every dict
is iterated through a copy (`list(dd.items())`) or not resized while iterated, a key is
read with a default or under `key in dd`, `set.pop` is guarded by the set's truth. In the
tensor domain, comprehensions iterate Python lists and filter on their own variable only
(a comprehension is kept as written, so a tensor condition there could not be staged),
and nothing reads what Python's own protocol methods (`__enter__`/`__exit__`) count, since
a staged loop runs them once while tracing (docs/limitations.md).

`KNOWN_BUGS` lists constructs that convert wrongly today, each reported with its repro;
the generator leaves them out while they are listed (so CI stays green), and generates
them when the environment variable AUTOGRAPH_FUZZ_KNOWN_BUGS is `1` (or names them,
comma-separated). Whoever fixes one removes its name here.
"""

import os

from tests.fuzz.generator import MAX_DEPTH, MAX_LOOP_DEPTH, _Builder, _Scope

# construct -> the bug it triggers today (issue #24's families); generated only when enabled.
KNOWN_BUGS = {
    # Empty: issue #24's families and this fuzzer's F1/F4 are fixed; a construct that finds
    # a bug again comes back here, with the reason, until its fix lands.
}


MODULE = '''\
import contextlib
import warnings

G = 0


class Track:
    def __init__(self):
        self.n = 0

    def __enter__(self):
        self.n += 1
        return self

    def __exit__(self, *exc):
        self.n += 10
        return False


def bump(p):
    global G
    G = (G + p) % 11
    return G


def warn_here(p):
    warnings.warn('fuzz', stacklevel=2)
    return p
'''

KEYS = ("'k'", "'m'", "'z'")


def enabled_bugs():
    """The names of KNOWN_BUGS to generate (AUTOGRAPH_FUZZ_KNOWN_BUGS: 1 for all, or names)."""
    setting = os.environ.get("AUTOGRAPH_FUZZ_KNOWN_BUGS", "").strip()
    if setting in ("", "0"):
        return frozenset()
    if setting == "1":
        return frozenset(KNOWN_BUGS)
    return frozenset(name.strip() for name in setting.split(","))


def build(rng):
    """(module text after the prelude, the function `f`, its builder) of one program:
    `builder.tensor` False when it runs on Python values only."""
    tensor = rng.random() < 0.5
    builder = _RealBuilder(rng, tensor, enabled_bugs())
    function = builder.function()
    return builder.module(), function, builder


class _RealBuilder(_Builder):
    def __init__(self, rng, tensor, bugs):
        super().__init__(rng)
        self.tensor, self.bugs = tensor, bugs
        self.budget += rng.randint(0, 4)
        self.has_class = rng.random() < 0.5
        self.has_track = rng.random() < 0.3
        python = not tensor
        self.has_str = python and rng.random() < 0.5
        self.has_bytes = python and rng.random() < 0.35
        self.has_set = python and rng.random() < 0.4
        self.has_dd = python and rng.random() < 0.5
        self.has_global = python and rng.random() < 0.3
        self.extras = [name for name, present in (
            ("s", self.has_str), ("bs", self.has_bytes), ("dd", self.has_dd),
            ("st", self.has_set), ("G", self.has_global),
            ("tr.n", self.has_track and python),
            ("o2.n", self.has_class and python)) if present]
        if self.extras:  # returns are tuples: s_try must not write `return risky(2) + (...)`
            self.arity = max(self.arity, 2)
        self.classes = _classes(rng, self.bug("zero_arg_super"), tensor)

    def bug(self, name):
        """Whether to generate the construct `name`: always, unless it is a known bug not
        enabled (AUTOGRAPH_FUZZ_KNOWN_BUGS)."""
        return name not in KNOWN_BUGS or name in self.bugs

    def module(self):
        return MODULE + ("\n\n" + self.classes if self.has_class else "")

    # --- the function -----------------------------------------------------------

    def head(self):
        head = super().head()
        if self.rng.random() < 0.4:  # annotated, the way real code binds its locals
            head = [line.replace(" = ", ": int = ", 1) if line[:1] == "v" else line
                    for line in head]
        if self.has_global:
            head = ["global G", "G = 0"] + head  # rebound per call: the oracle runs first
        if self.has_class:
            head.append(f"o2 = C{self.classes.count('class ') - 1}(a)")
        if self.has_track:
            head.append("tr = Track()")
        if self.has_str:
            head.append(self.rng.choice(("s = 'a-b'", "s = str(a)", "s = ''")))
        if self.has_bytes:
            head.append(self.rng.choice(("bs = b'ab'", "bs = bytes([97 + abs(b) % 5])")))
        if self.has_set:
            head.append(self.rng.choice(("st = {1, 2}", "st = set(xs)", "st = set()")))
        if self.has_dd:
            head.append(self.rng.choice(("dd = {'k': 0, 'm': 1}", "dd = {}",
                                         "dd = dict(k=a % 3)")))
        return head

    def return_values(self, scope):
        return super().return_values(scope) + self.extras

    def kinds(self, scope):
        kinds = super().kinds(scope)
        if scope.depth >= MAX_DEPTH:  # simple statements only
            return kinds + ["ann", "comp"]
        kinds += ["ann", "try_real", "with", "comp", "comp"]
        if self.rebindable(scope) and self.bug("loop_target_rebind"):
            kinds += ["rebind_target", "for_shared"]
        if scope.loops < MAX_LOOP_DEPTH:
            kinds += ["for_real"]
        if self.has_class:
            kinds += ["method", "method"]
        if self.has_str:
            kinds += ["str", "str"]
        if self.has_bytes:
            kinds += ["bytes"]
        if self.has_set:
            kinds += ["set", "set"]
        if self.has_dd:
            kinds += ["dd", "dd", "dd"]
        if self.has_global:
            kinds += ["global"]
        if not self.tensor and self.bug("warnings_stacklevel"):
            kinds += ["warn"]
        return kinds

    def rebindable(self, scope):
        """Loop targets a statement may rebind: not those used as indexes of xs."""
        return [t for t in scope.targets if t not in scope.indexes]

    # --- statements -------------------------------------------------------------

    def s_ann(self, scope):
        var = self.rng.choice(self.vars)
        if not self.bug("annotated_in_body"):  # only the head's, before any control flow
            return [f"{var} = {self.bounded(self.expr(scope), scope)}"]
        return [f"{var}: int = {self.bounded(self.expr(scope), scope)}"]

    def s_rebind_target(self, scope):
        target = self.rng.choice(self.rebindable(scope))
        return [f"{target} = {self.bounded(self.expr(scope, 1), scope)}"]

    def s_for_shared(self, scope):
        """A nested loop that reuses an outer loop's target (its last item stays)."""
        target = self.rng.choice(self.rebindable(scope))
        iterable = self.rng.choice(("[1, 2]", "range(2)", "xs", "[]"))
        return ([f"for {target} in {iterable}:"] + self.nested(scope, loop=True)
                + self.loop_else(scope))

    def s_for_real(self, scope):
        self.fresh += 1
        x, var = f"x{self.fresh}", self.rng.choice(self.vars)
        options = [("xs[:3]", x, x)]
        if self.has_str:
            options.append(("s[:4]", "ch", f"{var} = ({var} + ord(ch)) % 7"))
        if self.has_bytes:
            options.append(("bs[:3]", x, x))
        if self.has_set:
            options.append(("sorted(st)", x, x))
        if self.has_dd:
            options += [("list(dd.items())", f"kk, {x}", x),
                        ("sorted(dd)", "kk", f"{var} = ({var} + dd.get(kk, 0)) % 7")]
        iterable, header, first = self.rng.choice(options)
        targets = (x,) if first == x else ()
        lines = [f"for {header} in {iterable}:"]
        if first != x:
            lines.append("    " + first)
        return (lines + self.nested(scope, loop=True, targets=targets)
                + self.loop_else(scope))

    def s_try_real(self, scope):
        """`try` with a body of any statements (a break, continue or return among
        them), a handler, maybe an `else`, maybe a `finally` that runs after them."""
        var = self.rng.choice(self.vars)
        body = self.nested(scope)
        if self.rng.random() < 0.6:  # first or last: between, it could split an `if`
            raises = f"    {var} += risky({self.rng.randint(1, 4)})"
            # Last, a staged `if` before it that returns or breaks would decide whether
            # it runs: whether it raises would depend on a tensor (generator.py's rule;
            # staged, it raises while tracing, whatever the condition).
            last = not self.tensor and self.rng.random() < 0.5
            body = body + [raises] if last else [raises] + body
        handler = [f"    {var} -= 1"]
        if scope.loops and self.rng.random() < 0.3:
            handler.append("    " + self.rng.choice(("break", "continue")))
        lines = ["try:"] + body + ["except ValueError:"] + handler
        if self.rng.random() < 0.3:
            lines += ["else:"] + self.nested(scope)
        if self.rng.random() < 0.5:
            lines += ["finally:", f"    {self.rng.choice(self.vars)} += 1"]
        return lines

    def s_with(self, scope):
        manager = self.rng.choice(
            ["contextlib.suppress(ValueError)", "Track()"]
            + (["tr"] * 2 if self.has_track else []))
        body = self.nested(scope)
        if (manager.startswith("contextlib") and self.bug("suppressed_with_assigns")
                and self.rng.random() < 0.6):
            body.insert(0, f"    {self.rng.choice(self.vars)} += risky("
                           f"{self.rng.randint(1, 4)})")
        return [f"with {manager}:"] + body

    def s_method(self, scope):
        var = self.rng.choice(self.vars)
        kind = self.rng.choice(("call", "call", "aug"))
        # A method's writes to `self` are Python side effects: under a staged `if` or
        # loop of f they happen while tracing (docs/limitations.md), so on tensors a
        # method is called only at the top of f.
        if kind == "aug" or (self.tensor and scope.depth):
            lines = [f"o2.n += {self.small_atom(scope)}"]
            return lines + ([f"o2.n = {self.bounded('o2.n', scope)}"] if scope.loops else [])
        call = f"o2.step({self.small_atom(scope)})"
        return [f"{var} = {self.bounded(call, scope)}"]

    def s_comp(self, scope):
        """A comprehension reduced to an int (or, on Python values, a dict or set)."""
        self.fresh += 1
        c, z = f"c{self.fresh}", f"z{self.fresh}"
        var = self.rng.choice(self.vars)
        inner = _Scope(scope.depth, scope.loops, scope.targets + (c,), scope.indexes)
        # On tensors, only Python lists: the filter runs as Python (kept as written).
        iterables = ["range(4)", "[1, 2, 3]", "[-1, 2]"]
        if not self.tensor:
            iterables += ["xs", "xs[::-1]", f"[{self.small_atom(scope)}, 2]"]
            iterables += (["bs"] if self.has_bytes else []) + (
                ["sorted(st)"] if self.has_set else [])
        filters = [f"{c} > 1", f"{c} % 2 == 0 and {c} < 5", f"{c} or {c} == 2",
                   f"({c} if {c} > 0 else 1) < 3"]
        if not self.tensor or self.bug("walrus_in_comprehension_staged"):
            filters.append(f"({z} := {c} * 2) > 2")
        if self.bug("walrus_in_lazy_comprehension"):
            filters += [f"{c} > 0 and ({z} := {c} + 1) < 5",
                        f"{c} < 1 or ({z} := {c}) > 2"]
        condition = self.rng.choice(filters)
        element = self.rng.choice((c, f"{c} * 2", f"{c} + {self.atom(scope)}",
                                   f"({c} if {c} > 1 else {self.atom(inner)})",
                                   f"({c} and {self.atom(scope)})"))
        # The walrus's value, bound by a filter that passes only once it ran.
        if f"({z} :=" in condition and " or " not in condition and self.rng.random() < 0.7:
            element = f"{z} - {c}"
        loop = f"for {c} in {self.rng.choice(iterables)}"
        if self.rng.random() < 0.7:
            loop += f" if {condition}"
        elif element.startswith(z):  # no filter binds it
            element = c
        # max compares the items: on tensors, Python control flow
        shape = self.rng.choice(("sum", "sum", "len") + (() if self.tensor else ("max",)))
        if not self.tensor and self.has_dd and self.rng.random() < 0.3:
            return [f"dd = {{kk: v % 5 for kk, v in dd.items() if v != {self.atom(scope)}}}"]
        if not self.tensor and self.has_set and self.rng.random() < 0.3:
            return [f"st = {{{c} % 5 for {c} in xs if {c} or {c} == 0}} | st"]
        if shape == "max":
            value = f"max([{element} {loop}], default=0)"
        else:
            value = f"{shape}([{element} {loop}])"
        return [f"{var} = {self.bounded(value, scope)}"]

    def s_str(self, scope):
        atom = self.small_atom(scope)
        return [self.rng.choice((
            f"s = (s + str({atom}))[-6:]",
            f"s = '-'.join(s.split('-')[-3:] + [str({atom} % 10)])",
            "s = s.replace('-', '')", "s = s.upper()", "s = s[::-1]",
            "s = s.strip('-').lower()",
            f"s = f'{{s[:3]}}{{{atom}}}'",
            f"s = (s + chr(97 + {atom} % 26)) if len(s) < 6 else s[1:]",
        ))]

    def s_bytes(self, scope):
        atom = self.small_atom(scope)
        return [self.rng.choice((
            f"bs = bs[-4:] + bytes([97 + {atom} % 26])",
            "bs = bs.replace(b'a', b'bc')[:6]",
            f"bs += (b'a' if {self.cond(scope, 1)} else b'z')",
            "bs = bs.upper()[-5:]",
        ))] + ["bs = bs[-6:]"]

    def s_set(self, scope):
        atom, var = self.small_atom(scope), self.rng.choice(self.vars)
        return self.rng.choice((
            [f"st.add({atom} % 5)"], [f"st.discard({atom})"],
            [f"st.update([{atom} % 5, 1])"], [f"st |= {{{atom} % 4}}"], ["st -= {1}"],
            ["if st:", f"    {var} = {self.bounded(f'{var} + st.pop()', scope)}"],
        ))

    def s_dd(self, scope):
        key, atom, var = self.rng.choice(KEYS), self.small_atom(scope), self.rng.choice(
            self.vars)
        options = [
            [f"dd[{key}] = {self.bounded(f'dd.get({key}, 0) + {atom}', scope)}"],
            [f"dd.setdefault({key}, {atom} % 5)"],
            [f"dd.update({{{key}: {self.bounded(self.expr(scope), scope)}}})"],
            [f"dd.update({key[1:-1]}={atom} % 5)"],
            [f"if {key} in dd:", f"    dd[{key}] += {atom}",
             f"    dd[{key}] %= {self.rng.randint(5, 9)}"],
            [f"if {key} in dd:", f"    del dd[{key}]"],
            [f"if {key} in dd:",
             f"    {var} = {self.bounded(f'{var} + dd.pop({key})', scope)}"],
        ]
        if self.bug("dict_pop_default"):
            options.append([f"{var} = {self.bounded(f'{var} + dd.pop({key}, {atom})', scope)}"])
        return self.rng.choice(options)

    def s_global(self, scope):
        var = self.rng.choice(self.vars)
        return self.rng.choice((
            [f"G = {self.bounded(f'G + {self.small_atom(scope)}', scope)}"],
            [f"{var} = {self.bounded(f'bump({self.small_atom(scope)})', scope)}"],
        ))

    def s_warn(self, scope):
        self.fresh += 1
        caught, var = f"caught{self.fresh}", self.rng.choice(self.vars)
        return [f"with warnings.catch_warnings(record=True) as {caught}:",
                "    warnings.simplefilter('always')",
                f"    {var} = {self.bounded(f'warn_here({self.small_atom(scope)})', scope)}",
                f"{var} += int({caught}[-1].filename == __file__)"]

    # --- expressions ------------------------------------------------------------

    def atom(self, scope):
        extras = (["o2.n"] if self.has_class else [])
        if self.has_str:
            extras += ["len(s)", "s.count('-')", "s.find('1')", "int(s.isalpha())"]
        if self.has_bytes:
            extras += ["len(bs)", "bs.count(b'a')", "sum(bs) % 7", "(bs[0] if bs else 0)"]
        if self.has_set:
            extras += ["len(st)", "sum(st) % 9", "max(st, default=0)"]
        if self.has_dd:
            extras += [f"dd.get({self.rng.choice(KEYS)}, 0)", "len(dd)",
                       "sum(dd.values()) % 9"]
        if self.has_global:
            extras.append("G")
        if extras and self.rng.random() < 0.2:
            return self.rng.choice(extras)
        return super().atom(scope)

    def cond(self, scope, depth=2):
        conditions = []
        if self.has_str:
            conditions += ["s.startswith('a')", "s.endswith('1')", "'-' in s", "not s",
                           f"len(s) > {self.rng.randint(1, 4)}", "s.isdigit()"]
        if self.has_bytes:
            conditions += ["bs.startswith(b'a')", "b'c' in bs", "bs.endswith(b'z')"]
        if self.has_set:
            conditions += [f"{self.small_atom(scope)} in st", "len(st) > 2", "not st"]
        if self.has_dd:
            key = self.rng.choice(KEYS)
            conditions += [f"{key} in dd", f"dd.get({key}, 0) > {self.small_atom(scope)}"]
        if conditions and self.rng.random() < 0.25:
            return self.rng.choice(conditions)
        return super().cond(scope, depth)


def _classes(rng, zero_arg_super, tensor):
    """A class hierarchy C0 <- C1 [<- C2] whose `step` methods have control flow and call
    the base's `step` (zero-argument `super()` when enabled; `super(C, self)` else). On
    tensors no `step` calls the base's under an `if` on `p`, which would be staged: the
    base writes `self.n`, a side effect that happens while tracing (the same reason f
    calls methods only at its top level, `s_method`)."""
    def sup(name):
        return "super()" if zero_arg_super else f"super({name}, self)"

    base = rng.choice((
        ["        if p > 1:", "            self.n = (self.n + p) % 7", "        else:",
         "            self.n -= 1", "        return self.n"],
        ["        for i in range(2):", "            if p > i:",
         "                self.n = (self.n + i) % 7", "        return self.n + p"],
        ["        self.n += 1", "        self.n %= 5", "        return p - self.n"],
    ))
    lines = ["class C0:", "    def __init__(self, n):", "        self.n = n % 4", "",
             "    def step(self, p):"] + base
    for level in range(1, rng.choice((2, 3))):
        name, call = f"C{level}", f"{sup(f'C{level}')}.step"
        bodies = [
            ["        r = 0", "        for i in range(2):",
             f"            r += {call}(p - i)", "        return r % 9"],
            [f"        r = {call}(p)", "        while r > 3:", "            r -= 2",
             "        return r"],
            ["        try:", f"            return {call}(p) + 1", "        finally:",
             "            self.m += 1"],
        ]
        if not tensor:
            bodies.append(["        if p > 0:", f"            r = {call}(p)", "        else:",
                           f"            r = {call}(-p) + 1", "        self.m += 1",
                           "        return r % 9"])
        body = rng.choice(bodies)
        lines += ["", "", f"class {name}(C{level - 1}):", "    def __init__(self, n):",
                  f"        {sup(name)}.__init__(n + 1)", "        self.m = 0", "",
                  "    def step(self, p):"] + body
    return "\n".join(lines) + "\n"
