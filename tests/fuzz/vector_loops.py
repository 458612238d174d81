"""Loops over the items of `xs` in the forms the plan compiler's vectorization pass runs
as array operations (runtime/plan/passes/vectorize.py), for the generator
(`_Builder.s_vector`), and loops a little off those forms, which it must leave alone.

`loop(builder, scope)` returns the lines of one such loop, with what it binds just
before it and the reductions of its lists just after it. Its header walks `xs`:
`for x in xs`, `for i, x in enumerate(xs)`, `for x, y in zip(xs, xs)` (or `xs[1:]`),
`for i in range(len(xs))` reading `xs[i]` (also from 1, backwards, by 2),
`while w < len(xs)` (or a bound `n = len(xs)` taken before) counting `w` first or last.
Staged on a tensor of unknown length, the range and bound forms are the ones the pass
can take; on a tensor of known length (the runner's `static` mode, for programs with
`builder.static`), the others (the range and bound forms are then Python loops,
unrolled).
Its body changes a few of f's variables, each in one way: a sum (`v += t`, `v -= t`,
`v = v + t`), a count (`v += 1`), `v = max(v, t)` / `min`, a product (`v *= t`, the
variable reset to 1 just before the loop), a last hit (`v = i`, `v = x + a`), an append
to a list (`ys`, or a list made just before and reduced to an int just after it:
`len`, `sum`); each maybe under an `if` on the item (nested, with `elif`/`else`), among
`if ...: continue`, `if ...: break` (on the item, or on a running sum) and
`if ...: return ...`. Off the forms (about one loop in three): a variable read where its
own update is decided (`if v > 5: v = 0`), taken `%` after its fold, changed in two ways,
a condition or statements of the generator's own (generator.py), another such loop inside.

How it keeps the generator's rules (generator.py): every variable it changes is one of
f's, bound at the top; what it binds itself (a counter, a bound, a list) is bound just
before it in the same block and read only there and inside it. No int leaves int32: a
term added per iteration reads only the item, the index, `a`, `b`, constants and f's
variables taken `% 5`, so it is small, a product's factors are in [-2, 2] and it starts
at 1 before each run of its loop, a reset only lowers, and what the generator's own
statements add is bounded as everywhere. A while counts its counter first thing in its
body, or last when nothing in the body continues (a `continue` would skip it).
"""

import dataclasses

from tests.fuzz.generator import _Scope, vector_loop_fits

HEADERS = ("items", "items", "enumerate", "zip", "range", "range", "range_from",
           "range_back", "range_step", "while_first", "while_last")


@dataclasses.dataclass
class _Loop:
    item: str  # the item, as the body reads it: `x3`, `xs[i3]`, `xs[w3 - 1]`
    other: str | None  # a second item (zip's, or the one before), or None
    index: str | None  # the item's index, or None
    can_continue: bool  # False: a `continue` would skip the while's counter
    scope: _Scope  # the body's scope (its targets readable, as the generator sees them)
    outer: _Scope  # the loop's own
    changed: list  # f's variables the loop changes
    invariant: list  # f's variables it does not
    exits: bool = False  # whether the body has a `break` or `return` yet


def loop(builder, scope):
    rng = builder.rng
    builder.fresh += 1
    n = builder.fresh
    i, x, y, w = f"i{n}", f"x{n}", f"y{n}", f"w{n}"
    before, after = [], []
    kind = rng.choice(HEADERS)
    targets, indexes, other, index, can_continue = (), (), None, None, True
    if kind == "items":
        header, item, targets = f"for {x} in xs:", x, (x,)
    elif kind == "enumerate":
        header, item, index = f"for {i}, {x} in enumerate(xs):", x, i
        targets, indexes = (i, x), (i,)
    elif kind == "zip":
        header = f"for {x}, {y} in zip(xs, {rng.choice(('xs', 'xs[1:]'))}):"
        item, other, targets = x, y, (x, y)
    elif kind.startswith("range"):
        header = {
            "range": f"for {i} in range(len(xs)):",
            "range_from": f"for {i} in range(1, len(xs)):",
            "range_back": f"for {i} in range(len(xs) - 1, -1, -1):",
            "range_step": f"for {i} in range(0, len(xs), 2):",
        }[kind]
        item, index, targets, indexes = f"xs[{i}]", i, (i,), (i,)
        if kind == "range_from":
            other = f"xs[{i} - 1]"
    else:
        bound = "len(xs)"
        if rng.random() < 0.5:
            bound = f"n{n}"
            before.append(f"{bound} = len(xs)")
        before.append(f"{w} = 0")
        header = f"while {w} < {bound}:"
        if kind == "while_first":
            item, index = f"xs[{w} - 1]", f"{w} - 1"
        else:
            item, index, can_continue = f"xs[{w}]", w, False
        # (w is no target: the generator's statements would rebind targets, or index xs
        # with them, past its end in `while_first`)
    builder.static |= kind in ("items", "enumerate", "zip")
    inner = _Scope(scope.depth + 1, scope.loops + 1, scope.targets + targets,
                   scope.indexes + indexes)
    changed = rng.sample(builder.vars, rng.randint(1, min(3, len(builder.vars))))
    state = _Loop(item, other, index, can_continue, inner, scope, changed,
                  [v for v in builder.vars if v not in changed])
    body = [_wrapped(builder, state, _update(builder, state, var, before))
            for var in changed]  # pieces: lists of lines
    if rng.random() < 0.4:  # an append, maybe to a list reduced to an int after the loop
        body.append(_wrapped(builder, state, _append(builder, state, n, before, after)))
    for _ in range(rng.choice((0, 0, 1, 1, 2))):  # control flow among the updates
        body.insert(rng.randint(0, len(body)), _control(builder, state))
    if rng.random() < 0.3:  # off the forms the pass takes: it must leave the loop alone
        body.insert(rng.randint(0, len(body)), _off_form(builder, state))
    if kind == "while_first":
        body.insert(0, [f"{w} += 1"])
    elif kind == "while_last":
        body.append([f"{w} += 1"])
    lines = [header] + ["    " + line for piece in body for line in piece]
    if state.exits and rng.random() < 0.2:
        lines += ["else:"] + builder.nested(scope)
    return before + lines + after


# --- the body's pieces: each a list of lines ----------------------------------------------

def _update(builder, state, var, before):
    """The lines changing `var` in one of the ways the pass takes."""
    rng = builder.rng
    kind = rng.choice(("sum", "sum", "count", "max", "min", "product", "last", "last"))
    t = _term(builder, state)
    if kind == "sum":
        return [rng.choice((f"{var} += {t}", f"{var} -= {t}", f"{var} = {var} + {t}",
                            f"{var} = {t} + {var}"))]
    if kind == "count":
        return [f"{var} += 1"]
    if kind in ("max", "min"):
        return [rng.choice((f"{var} = {kind}({var}, {t})", f"{var} = {kind}({t}, {var})"))]
    if kind == "product":
        before.append(f"{var} = 1")
        factor = rng.choice((f"{state.item} % 3 - 1", f"min(max({state.item}, -2), 2)",
                             f"(2 if {_cond(builder, state)} else 1)", f"{state.item} % 2 + 1"))
        return [rng.choice((f"{var} *= {factor}", f"{var} = {var} * ({factor})"))]
    value = rng.choice([state.item, f"{state.item} + a", f"-{state.item}", t]
                       + [state.index] * 2 * (state.index is not None))
    lines = [f"{var} = {value}"]
    if rng.random() < 0.3:  # a first hit: the search stops there
        state.exits = True
        lines.append("break")
    return lines


def _append(builder, state, n, before, after):
    rng = builder.rng
    value = _term(builder, state)
    if builder.has_list and rng.random() < 0.4:
        return [f"ys.append({value})"]
    name, var = f"l{n}", rng.choice(builder.vars)
    before.append(f"{name} = []")
    reduced = rng.choice((f"len({name})", f"sum({name})", f"{var} + sum({name})",
                          f"sum({name}) - len({name})"))
    after.append(f"{var} = {builder.bounded(reduced, state.outer)}")
    return [f"{name}.append({value})"]


def _control(builder, state):
    rng = builder.rng
    kinds = ["break", "break", "return"] + ["continue"] * 2 * state.can_continue
    kind = rng.choice(kinds)
    if kind == "continue":
        return [f"if {_cond(builder, state)}:", "    continue"]
    state.exits = True
    if kind == "break":
        test = _cond(builder, state)
        if rng.random() < 0.3:  # on a running value: the pass scans it
            test = f"{rng.choice(state.changed)} > {rng.randint(0, 8)}"
        return [f"if {test}:", "    break"]
    values = [rng.choice([state.item, f"{state.item} - b", "a"]
                         + [state.index] * (state.index is not None)
                         + state.changed[:1] + state.invariant[:1])
              for _ in range(builder.arity)]
    value = values[0] if len(values) == 1 else f"({', '.join(values)})"
    return [f"if {_cond(builder, state)}:", f"    return {value}"]


def _off_form(builder, state):
    """Lines the pass must leave as they are (or find it may not): they read a variable
    where its own update is decided, change it in a second way, or are the generator's
    own statements (another loop among them)."""
    rng = builder.rng
    var = rng.choice(state.changed)
    kind = rng.choice(("reset", "reset", "modulo", "mixed", "statements", "inner"))
    if kind == "reset":  # the update depends on the running value
        return [f"if {var} > {rng.randint(0, 6)}:", f"    {var} = {rng.randint(-1, 1)}"]
    if kind == "modulo":
        return [f"{var} = ({var} + {_term(builder, state)}) % {rng.randint(5, 13)}"]
    if kind == "mixed":  # set here, folded elsewhere (or the other way round)
        return [f"if {_cond(builder, state)}:", f"    {var} = {_term(builder, state)}",
                "else:", f"    {var} -= 1"]
    if kind == "inner" and vector_loop_fits(state.scope):
        return loop(builder, state.scope)
    if not state.can_continue:  # the generator's statements may `continue`
        return [f"{var} = {builder.bounded(builder.expr(state.scope), state.scope)}"]
    return [line[4:] for line in builder.nested(state.scope)]  # one level down already


def _wrapped(builder, state, lines):
    """`lines`, maybe under an `if` on the item (maybe nested, with `elif`/`else`)."""
    rng = builder.rng
    shape = rng.choice(("plain", "plain", "plain", "if", "if", "if_else", "elif", "nested"))
    if shape == "plain":
        return lines
    indented = ["    " + line for line in lines]
    head = [f"if {_cond(builder, state)}:"]
    if shape == "if":
        return head + indented
    if shape == "nested":
        return head + [f"    if {_cond(builder, state)}:"] + ["    " + line for line in indented]
    other = _alternative(builder, state)
    if shape == "if_else":
        return head + indented + ["else:"] + other
    return head + indented + [f"elif {_cond(builder, state)}:"] + other


def _alternative(builder, state):
    """An `else` or `elif` body: another variable's update, a `continue`, or `pass`."""
    rng = builder.rng
    options = ["pass"]
    if state.can_continue:
        options.append("continue")
    if state.invariant:
        options.append("count")
    choice = rng.choice(options)
    if choice == "count":  # changes a variable the loop did not change yet: a count
        var = state.invariant.pop(rng.randrange(len(state.invariant)))
        state.changed.append(var)
        return [f"    {var} += 1"]
    return [f"    {choice}"]


# --- expressions ---------------------------------------------------------------------------

def _term(builder, state):
    """A small int from the item: what a sum adds, a max compares, a list holds."""
    rng = builder.rng
    e = state.item
    options = [e, e, f"{e} % 3", f"{e} // 2", f"abs({e} - a)", f"{e} + b", f"min({e}, b)",
               f"max({e}, 0)", f"({e} if {_cond(builder, state)} else {rng.randint(-1, 2)})",
               "1", f"{e} * 2"]
    if state.other is not None:
        options += [f"{e} - {state.other}", f"max({e}, {state.other})"]
    if state.index is not None:
        options += [f"{e} - {state.index}", state.index]
    if state.invariant:
        options.append(f"{e} + {rng.choice(state.invariant)} % 5")
    return rng.choice(options)


def _cond(builder, state):
    """A condition on the item (the pass computes it for every item at once); now and
    then one of the generator's own, which may read anything."""
    rng = builder.rng
    if rng.random() < 0.1:
        return builder.cond(state.scope, 1)
    e, k = state.item, rng.randint(-2, 4)
    atoms = ["a", "b", str(k)] + [f"{v} % 5" for v in state.invariant[:1]]
    if state.index is not None:
        atoms.append(state.index)
    if state.other is not None:
        atoms.append(state.other)
    atom = rng.choice(atoms)
    simple = [f"{e} > {k}", f"{e} <= {atom}", f"{e} % 2 == 0", f"{e} % 3 != 1",
              f"{e} != {atom}", f"{e} == {k}", f"{e} >= {atom}", e, f"not {e}",
              f"a < {e} <= {k + 2}"]
    if rng.random() < 0.2:
        first, second = rng.sample(simple, 2)
        return f"({first} {rng.choice(('and', 'or'))} {second})"
    return rng.choice(simple)
