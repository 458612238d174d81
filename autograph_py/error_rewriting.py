"""Point exceptions raised in converted code at the user's own file and line.

Contract: `annotate(exc)` walks the traceback of `exc`; for every frame that runs
generated code it adds, once, a PEP 678 note with the user's file, line, function and
source text, innermost last (a converter-made body such as `if_body` is named after the
user's function it came from), like a traceback of the original function. The exception
itself (type, message, traceback) is left intact, so `except` clauses still work.
"""

import linecache as _linecache

from autograph_py import source_map as _source_map

_NOTED = "__autograph_noted__"


def user_frames(tb):
    frames = []
    while tb is not None:
        code = tb.tb_frame.f_code
        mapped = _source_map.lookup(code.co_filename, tb.tb_lineno)
        if mapped is not None:
            name = code.co_name
            if frames and not written_by_user(code):
                name = frames[-1][2]  # a converter-made body (`if_body`): its user function
            frames.append((mapped[0], mapped[1], name))
        tb = tb.tb_next
    return frames


def written_by_user(code):
    """Whether `code` is a function the user wrote: its `def` maps to a user's `def` line
    (a converter-made body maps to the statement it was made from; lambdas keep theirs)."""
    if code.co_name.startswith("<"):
        return True
    mapped = _source_map.lookup(code.co_filename, code.co_firstlineno)
    if mapped is None:
        return True
    return _linecache.getline(*mapped).lstrip().startswith(("def ", "async def "))


def _dedupe(frames):
    kept = []
    for frame in frames:
        if not kept or kept[-1][:2] != frame[:2]:
            kept.append(frame)
    return kept


def annotate(exc):
    if getattr(exc, _NOTED, False):
        return exc
    frames = _dedupe(user_frames(exc.__traceback__))
    if not frames:
        return exc
    lines = ["raised in converted code; in your source:"]
    for filename, lineno, function in frames:
        lines.append(f'  File "{filename}", line {lineno}, in {function}')
        text = _linecache.getline(filename, lineno).strip()
        if text:
            lines.append(f"    {text}")
    note = "\n".join(lines)
    try:
        if hasattr(exc, "add_note"):
            exc.add_note(note)
        elif exc.args and isinstance(exc.args[0], str):  # Python 3.10: no notes
            exc.args = (f"{exc.args[0]}\n{note}",) + exc.args[1:]
        setattr(exc, _NOTED, True)
    except (AttributeError, TypeError):  # exceptions that refuse attributes or notes
        pass
    return exc
