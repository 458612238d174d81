"""How fast conversion is: per function, in lines per second, and for a 10,000-line file
through the `autograph` command.

Run: `python benchmarks/conversion.py [--repeat N] [--json PATH]`.
- Corpus: every function of examples/seed.py and tests/cli/fixtures/*.py (those that
  parse and convert) plus generated ones, at least 50. Each is converted uncached, by
  calling the converters on its parsed node, `--repeat` times; the best time is kept
  (the run the machine disturbed least).
- Big file: the generated shapes repeated under fresh names up to 10,000 lines,
  converted by the installed command (`autograph convert big.py -o out.py`, process
  start-up included), best of `--repeat`; the output must compile. The issue asks for
  well under ten seconds.
Prints markdown tables; `--json PATH` also writes the numbers.
"""

import argparse
import itertools
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from autograph_py.cli_convert import convert_definition, first_line, function_definitions
from converters import parser
from converters.errors import ConversionError
from converters.transformer import ConversionContext

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "examples" / "seed.py", *sorted((ROOT / "tests/cli/fixtures").glob("*.py"))]
BIG_FILE_LINES = 10_000

# One function per construct the converters lower; `{i}` makes names unique.
SHAPES = [
    '''def branch_{i}(x):
    if x > {i}:
        x = x * x
    else:
        x = -x
    return x
''',
    '''def sum_odd_{i}(items):
    s = 0
    for c in items:
        if c % 2 == 0:
            continue
        s += c
    return s
''',
    '''def countdown_{i}(n):
    steps = 0
    while n > 0:
        n -= 1
        steps += 1
        if steps > {i} + 100:
            break
    return steps
''',
    '''def find_{i}(values, target):
    for i, v in enumerate(values):
        if v == target:
            return i
    return -1
''',
    '''def nested_{i}(x):
    def scale(v):
        return v * 2 if v > 0 else v
    total = 0
    for k in range(3):
        total += scale(x + k)
    return total
''',
    '''def logic_{i}(a, b, c):
    if (a and not b) or c:
        return a or c
    return b and c
''',
    '''def squares_{i}(n):
    out = []
    i = 0
    while i < n:
        out.append(i * i)
        i += 1
    assert len(out) == n, 'lost an element'
    return out
''',
    '''class Counter_{i}:
    def __init__(self):
        self.total = 0

    def add_positive(self, values):
        for v in values:
            if v > 0:
                self.total = self.total + v
        return self.total
''',
]


def generated(count):
    """`count` generated definitions (the shapes in turn, each with a fresh name)."""
    return [SHAPES[i % len(SHAPES)].format(i=i) for i in range(count)]


def corpus(generated_count):
    """(name, lines, FunctionDef, filename) of every function of the sources and of
    `generated_count` generated definitions."""
    texts = [(str(path.relative_to(ROOT)), path.read_text()) for path in SOURCES]
    texts.append(("<generated>", "\n\n".join(generated(generated_count))))
    for filename, text in texts:
        try:
            module = parser.parse_module(text, filename)
        except ConversionError:
            continue  # the fixture with a syntax error
        for name, node in function_definitions(module):
            yield f"{filename}:{name}", node.end_lineno - first_line(node) + 1, node, filename


def time_functions(repeat, generated_count):
    rows = []
    for name, lines, node, filename in corpus(generated_count):
        ctx = ConversionContext(filename=filename)
        best = float("inf")
        try:
            for _ in range(repeat):
                start = time.perf_counter()
                convert_definition(node, ctx)
                best = min(best, time.perf_counter() - start)
        except ConversionError:
            continue  # the fixture's unsupported generator
        rows.append({"function": name, "lines": lines, "seconds": best})
    return rows


def autograph_command():
    found = shutil.which("autograph")
    return [found] if found else [sys.executable, "-m", "autograph_py.cli"]


def best_run(args, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def time_big_file(repeat):
    with tempfile.TemporaryDirectory() as directory:
        big, out = pathlib.Path(directory, "big.py"), pathlib.Path(directory, "out.py")
        chunks, lines = [], 0
        for i in itertools.count():
            chunk = SHAPES[i % len(SHAPES)].format(i=i) + "\n\n"
            chunks.append(chunk)
            lines += chunk.count("\n")
            if lines >= BIG_FILE_LINES:
                break
        big.write_text("".join(chunks))
        command = autograph_command()
        seconds = best_run([*command, "convert", big, "-o", out], repeat)
        compile(out.read_text(), str(out), "exec")  # the output is valid Python
        startup = best_run([*command, "--version"], repeat)
    return {"lines": lines, "functions": len(chunks), "seconds": seconds,
            "lines_per_second": lines / seconds, "startup_seconds": startup}


def markdown(rows, big):
    total_lines = sum(r["lines"] for r in rows)
    total_seconds = sum(r["seconds"] for r in rows)
    out = ["| function | lines | conversion (ms) |", "| --- | ---: | ---: |"]
    out += [f"| {r['function']} | {r['lines']} | {r['seconds'] * 1e3:.2f} |" for r in rows]
    out += ["", "| measure | value |", "| --- | ---: |",
            f"| functions in the corpus | {len(rows)} |",
            f"| mean conversion time per function | {total_seconds / len(rows) * 1e3:.2f} ms |",
            f"| corpus lines per second | {total_lines / total_seconds:,.0f} |",
            f"| big file: lines (functions) | {big['lines']:,} ({big['functions']}) |",
            f"| big file through `autograph convert` | {big['seconds']:.2f} s |",
            f"| big file lines per second | {big['lines_per_second']:,.0f} |",
            f"| `autograph --version` (start-up) | {big['startup_seconds']:.2f} s |"]
    return "\n".join(out)


def main(argv=None):
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeat", type=int, default=3, help="runs per measurement")
    options.add_argument("--generated", type=int, default=40,
                         help="generated functions added to the corpus")
    options.add_argument("--json", metavar="PATH", help="also write the numbers here")
    args = options.parse_args(argv)
    rows = time_functions(args.repeat, args.generated)
    big = time_big_file(args.repeat)
    print(markdown(rows, big))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"functions": rows, "big_file": big, "python": sys.version.split()[0]}, indent=2))


if __name__ == "__main__":
    main()
