"""The documented rejections: errors a staged mode may raise instead of an answer.

An error counts as a rejection only if one row below recognizes it, and every row names
the passage of docs/limitations.md that documents the rule (tests/test_fuzz.py checks the
passage is there). Anything else a mode raises, where plain Python gave an answer, is a
crash: a bug to fix, or a rule to document and then add here.

Some rules are about what the program does ("'y' is defined in only one branch ... and
used after it"): such a row has a `premise`, a static check that the program really does
it. When the premise is false the error blames the program for something it does not
do: a false rejection, which counts as a crash.
"""

import dataclasses
import re

from autograph_py import ConversionError
from tests.fuzz.rules import bound_before_use


def _may_read_unbound(source):
    return not bound_before_use(source)



@dataclasses.dataclass(frozen=True)
class Rejection:
    kind: str
    error: type  # the exception class (or a base of it)
    pattern: str  # a regular expression searched in str(error)
    section: str  # text of docs/limitations.md that documents the rule
    premise: object = None  # source -> bool: the program breaks the rule (None: always)
    eager: bool = False  # a rule of tensors, eager ones too, not only of staging


REJECTIONS = (
    Rejection("conversion", ConversionError, "",
              "## Constructs that are not converted"),
    Rejection("one-branch", ValueError, r"is defined in only one branch of the `if`",
              "**A variable set in only one branch of a tensor `if` and used after it.**",
              _may_read_unbound),
    Rejection("loop-dtype", TypeError, r"before the loop but \w+ after an iteration",
              "**A loop variable whose dtype changes across an iteration.**"),
    Rejection("loop-ran-no-iteration", ValueError,
              r"is used after a staged loop that ran no iteration",
              "**A variable first defined inside a staged loop and used after it.**",
              _may_read_unbound),
    Rejection("non-scalar-condition", ValueError, r"the condition must be a scalar",
              "**A condition that is not a scalar.**"),
    Rejection("python-int-out-of-range", TypeError,
              r"cannot convert -?\d{10,} \(dtype int64\) to a tensor of dtype int32 without "
              r"losing information",
              "**A Python integer too large for the tensor it meets.**", eager=True),
    Rejection("and-or-value-dtypes", TypeError,
              r"'the value of `(and|or)`' has dtype \w+ in the true branch but \w+",
              "**`and` / `or` as a value whose operands have different dtypes.**"),
)


def classify(error, source, staged=True):
    """(kind, documented): the row that recognizes `error` raised by the program `source`
    (in a staged mode, or eagerly: only `eager` rows) and whether its premise holds;
    (None, False) when no row recognizes it."""
    for row in REJECTIONS:
        if (staged or row.eager) and isinstance(error, row.error) and re.search(
                row.pattern, str(error)):
            return row.kind, row.premise is None or row.premise(source)
    return None, False
