"""The documented rejections: errors a staged mode may raise instead of an answer.

An error counts as a rejection only if one row below recognizes it, and every row names
the passage of docs/limitations.md that documents the rule (tests/test_fuzz.py checks the
passage is there). Anything else a mode raises, where plain Python gave an answer, is a
crash: a bug to fix, or a rule to document and then add here.
"""

import dataclasses
import re

from autograph_py import ConversionError


@dataclasses.dataclass(frozen=True)
class Rejection:
    kind: str
    error: type  # the exception class (or a base of it)
    pattern: str  # a regular expression searched in str(error)
    section: str  # text of docs/limitations.md that documents the rule


REJECTIONS = (
    Rejection("conversion", ConversionError, "",
              "## Constructs that are not converted"),
    Rejection("one-branch", ValueError, r"is defined in only one branch of the `if`",
              "**A variable set in only one branch of a tensor `if` and used after it.**"),
    Rejection("loop-dtype", TypeError, r"before the loop but \w+ after an iteration",
              "**A loop variable whose dtype changes across an iteration.**"),
    Rejection("loop-ran-no-iteration", ValueError,
              r"is used after a staged loop that ran no iteration",
              "**A variable first defined inside a staged loop and used after it.**"),
    Rejection("non-scalar-condition", ValueError, r"the condition must be a scalar",
              "**A condition that is not a scalar.**"),
    Rejection("and-or-value-dtypes", TypeError,
              r"'the value of `(and|or)`' has dtype \w+ in the true branch but \w+",
              "**`and` / `or` as a value whose operands have different dtypes.**"),
)


def classify(error):
    """The kind of the documented rejection `error` is, or None (then it is a crash)."""
    for row in REJECTIONS:
        if isinstance(error, row.error) and re.search(row.pattern, str(error)):
            return row.kind
    return None
