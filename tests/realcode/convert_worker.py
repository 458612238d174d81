"""Converts files with `autograph convert`, in its own process (one per module, so a
crash or a hang of the converter costs one module, and the harness's timeout applies).

    python tests/realcode/convert_worker.py < [[source, destination], ...]  (JSON)

Each source is converted by the CLI's own entry point (`autograph_py.cli.main`, the
`autograph convert SRC -o DST` a user runs). Prints one JSON object: per source, the
exit status, what the command printed to standard error (problems and notes), and
`invalid`: the SyntaxError of an output that is not valid Python. A source that the
command did not write is copied as it is, so the module still imports (its status and
messages say why).
"""

import contextlib
import io
import json
import os
import shutil
import sys


def convert(source, destination):
    from autograph_py import cli

    os.makedirs(os.path.dirname(destination), exist_ok=True)
    messages = io.StringIO()
    with contextlib.redirect_stderr(messages):
        status = cli.main(["convert", source, "-o", destination, "-j", "1"])
    written = os.path.exists(destination)
    if not written:
        shutil.copyfile(source, destination)
    invalid = None
    if written:
        with open(destination, "rb") as f:
            text = f.read()
        try:
            compile(text, destination, "exec")
        except SyntaxError as e:
            invalid = f"{os.path.basename(destination)}:{e.lineno}: SyntaxError: {e.msg}"
    return {"status": status, "written": written, "messages": messages.getvalue(),
            "invalid": invalid}


def main():
    pairs = json.load(sys.stdin)
    print(json.dumps({source: convert(source, destination) for source, destination in pairs}))


if __name__ == "__main__":
    main()
