"""Einstein-summation equations ('ij,jk->ik', '...ij,...jk', 'ii'), parsed once for the
kernel, the shape rule and the gradient rule of `Einsum`.

Contract: `parse(equation, ranks)` returns an `Equation` whose `inputs` (one label list
per operand) and `output` hold single letters only: each operand's '...' is replaced by
fresh letters, one per broadcast dim, aligned on the right as broadcasting aligns them,
so later code never meets '...'. Without '->', the output is numpy's (and TF's) implicit
one: the broadcast dims, then the letters used exactly once, in alphabetical order. A
rank may be None only for an operand without '...' (the shape rule's unknown ranks).
`Equation.text(inputs, output)` writes label lists back as an equation numpy accepts,
with each run of broadcast letters as '...' again (they may broadcast, other letters not).
Errors (ValueError) quote the equation: a wrong number of terms, a term whose length
does not match its operand's rank, characters other than letters, '...' and ',', an
output letter missing from the inputs or repeated.
"""

import string
from dataclasses import dataclass

ELLIPSIS = "..."


@dataclass(frozen=True)
class Equation:
    source: str
    inputs: tuple
    output: tuple
    broadcast: tuple  # the letters that stand for '...' dims (they may broadcast)

    def text(self, inputs, output):
        """An equation over these labels, the broadcast letters written back as '...' (so
        the kernel broadcasts them as it did for the user's equation)."""
        return ",".join(map(self._term, inputs)) + "->" + self._term(output)

    def _term(self, labels):
        written = [label for i, label in enumerate(labels) if label not in self.broadcast or
                   i == 0 or labels[i - 1] not in self.broadcast]
        return "".join(ELLIPSIS if label in self.broadcast else label for label in written)

    def __str__(self):
        return self.text(self.inputs, self.output)


def _terms(equation, count):
    compact = equation.replace(" ", "")
    lhs, arrow, rhs = compact.partition("->")
    terms = lhs.split(",")
    if len(terms) != count:
        raise ValueError(f"einsum equation {equation!r} has {len(terms)} input terms but "
                         f"{count} operands were given")
    for term in terms + ([rhs] if arrow else []):
        letters = term.replace(ELLIPSIS, "", 1)
        if not all(c in string.ascii_letters for c in letters):
            raise ValueError(f"einsum equation {equation!r}: a term may hold letters and one "
                             f"'...' only, got {term!r}")
    return terms, (rhs if arrow else None)


def _implicit_output(terms):
    letters = "".join(t.replace(ELLIPSIS, "") for t in terms)
    once = sorted(c for c in set(letters) if letters.count(c) == 1)
    return (ELLIPSIS if any(ELLIPSIS in t for t in terms) else "") + "".join(once)


def _ellipsis_sizes(terms, ranks, equation):
    sizes = []
    for term, rank in zip(terms, ranks):
        named = len(term.replace(ELLIPSIS, ""))
        if ELLIPSIS not in term:
            if rank is not None and rank != named:
                raise ValueError(f"einsum equation {equation!r}: term {term!r} has {named} "
                                 f"labels but its operand has rank {rank}")
            sizes.append(0)
        elif rank is None:
            raise ValueError(f"einsum equation {equation!r}: the rank of the operand of "
                             f"{term!r} must be known to expand '...'")
        elif rank < named:
            raise ValueError(f"einsum equation {equation!r}: term {term!r} has {named} "
                             f"labels but its operand has rank {rank}")
        else:
            sizes.append(rank - named)
    return sizes


def _expand(term, fresh):
    head, found, tail = term.partition(ELLIPSIS)
    return tuple(head) + (tuple(fresh) if found else ()) + tuple(tail)


def parse(equation, ranks):
    terms, output = _terms(equation, len(ranks))
    if output is None:
        output = _implicit_output(terms)
    sizes = _ellipsis_sizes(terms, ranks, equation)
    unused = [c for c in string.ascii_letters if c not in equation]
    broadcast = tuple(unused[:max(sizes, default=0)])
    inputs = tuple(_expand(t, broadcast[len(broadcast) - n:] if n else ())
                   for t, n in zip(terms, sizes))
    if broadcast and ELLIPSIS not in output:
        raise ValueError(f"einsum equation {equation!r}: the output must hold '...' when an "
                         "input's '...' stands for dimensions (as in numpy and TensorFlow)")
    out = _expand(output, broadcast)
    used = {c for labels in inputs for c in labels}
    for c in out:
        if c not in used:
            raise ValueError(f"einsum equation {equation!r}: output label {c!r} does not "
                             "appear in any input")
    if len(set(out)) != len(out):
        raise ValueError(f"einsum equation {equation!r}: the output repeats a label")
    return Equation(equation, inputs, out, broadcast)
