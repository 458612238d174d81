"""How fast conversion is: per function, in lines per second, and for a 10,000-line file
through the `autograph` command.

Run: `python benchmarks/conversion.py [--repeat N] [--json PATH]`.
- Corpus: every function of examples/seed.py and tests/cli/fixtures/*.py (those that
  parse and convert) plus generated ones, at least 50. Each is converted uncached, by
  calling the converters on its parsed node, `--repeat` times; the best time is kept
  (the run the machine disturbed least).
- Big file: the generated shapes repeated under fresh names up to 10,000 lines,
  converted by the installed command (`autograph convert big.py -o out.py`, process
  start-up included, its default `--jobs`: one process per core), best of `--repeat`;
  the output must compile. Also timed in one process (`-j 1`).
- Long function: one function of N `if` statements (N = 1,250, 2,500, 5,000), converted
  by `cli.convert.convert_text` in this process, best of `--repeat`: conversion must
  be linear in a function's size (lines per second about equal across N). The target
  for ordinary code is 10,000 lines per second on the machine the numbers come from.
- `measure()` (for `benchmarks/run.py`) also times `ag.to_code` on fresh live functions
  (generated, imported from a file), against `tf.autograph.to_code` on the same ones when
  TensorFlow is importable.
Each measure is taken twice: wall-clock seconds, and CPU seconds of the process doing
the work (the converting process, or the `autograph` child). On a machine others share
(2 cores, several test runs) the wall clock measures the load as much as the code; the
CPU time does not, and equals the wall clock on an idle machine (conversion runs in one
thread). Lines per second are given for both.
Prints markdown tables; `--json PATH` also writes the numbers.
"""

import argparse
import functools
import importlib.util
import inspect
import itertools
import json
import os
import pathlib
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _harness import row, tensorflow  # noqa: E402
from autograph_py.converters import parser  # noqa: E402
from autograph_py.converters.errors import ConversionError  # noqa: E402
from autograph_py.converters.transformer import ConversionContext  # noqa: E402

from autograph_py.cli.convert import (  # noqa: E402
    convert_definition,
    convert_text,
    first_line,
    function_definitions,
)

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "examples" / "seed.py", *sorted((ROOT / "tests/cli/fixtures").glob("*.py"))]
BIG_FILE_LINES = 10_000
LONG_FUNCTION_IFS = (1_250, 2_500, 5_000)
TARGET_LINES_PER_SECOND = 10_000

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


def _best(run, repeat):
    """(wall, CPU) seconds of the best of `repeat` calls of `run` (each the minimum of
    its own kind: the run the machine disturbed least); `run` returns its result."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall = min(wall, time.perf_counter() - start_wall)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def time_functions(repeat, generated_count):
    rows = []
    for name, lines, node, filename in corpus(generated_count):
        ctx = ConversionContext(filename=filename)
        try:
            wall, cpu = _best(functools.partial(convert_definition, node, ctx), repeat)
        except ConversionError:
            continue  # the fixture's unsupported generator
        rows.append({"function": name, "lines": lines, "seconds": wall, "cpu_seconds": cpu})
    return rows


def autograph_command():
    found = shutil.which("autograph")
    return [found] if found else [sys.executable, "-m", "autograph_py.cli"]


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_run(args, repeat):
    """(wall, CPU) seconds of the best of `repeat` runs of the command."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        start_wall, start_cpu = time.perf_counter(), _children_cpu()
        subprocess.run(args, check=True, capture_output=True)
        wall = min(wall, time.perf_counter() - start_wall)
        cpu = min(cpu, _children_cpu() - start_cpu)
    return wall, cpu


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
        seconds, cpu = best_run([*command, "convert", big, "-o", out], repeat)
        compile(out.read_text(), str(out), "exec")  # the output is valid Python
        one, one_cpu = best_run([*command, "convert", big, "-o", out, "-j", "1"], repeat)
        startup, startup_cpu = best_run([*command, "--version"], repeat)
    return {"lines": lines, "functions": len(chunks), "seconds": seconds,
            "lines_per_second": lines / seconds, "cpu_seconds": cpu,
            "cpu_lines_per_second": lines / cpu, "one_process_seconds": one,
            "one_process_cpu_seconds": one_cpu, "startup_seconds": startup,
            "startup_cpu_seconds": startup_cpu}


def long_function(ifs):
    """One function of `ifs` staged `if` statements (two lines each)."""
    body = "".join(f"    if x > {i}:\n        x = x + {i}\n" for i in range(ifs))
    return f"def long(x):\n{body}    return x\n"


def time_long_functions(repeat):
    rows = []
    for ifs in LONG_FUNCTION_IFS:
        source = long_function(ifs)
        lines = source.count("\n")
        assert not convert_text(source, "<long>").problems
        wall, cpu = _best(functools.partial(convert_text, source, "<long>"), repeat)
        rows.append({"ifs": ifs, "lines": lines, "seconds": wall,
                     "lines_per_second": lines / wall, "cpu_seconds": cpu,
                     "cpu_lines_per_second": lines / cpu})
    return rows


def markdown(rows, big, long_rows):
    total_lines = sum(r["lines"] for r in rows)
    total_seconds = sum(r["seconds"] for r in rows)
    total_cpu = sum(r["cpu_seconds"] for r in rows)
    out = ["| function | lines | conversion (ms) | CPU (ms) |", "| --- | ---: | ---: | ---: |"]
    out += [f"| {r['function']} | {r['lines']} | {r['seconds'] * 1e3:.2f} | "
            f"{r['cpu_seconds'] * 1e3:.2f} |" for r in rows]
    out += ["", "| measure | wall clock | CPU |", "| --- | ---: | ---: |",
            f"| functions in the corpus | {len(rows)} | |",
            f"| mean conversion time per function | {total_seconds / len(rows) * 1e3:.2f} ms "
            f"| {total_cpu / len(rows) * 1e3:.2f} ms |",
            f"| corpus lines per second | {total_lines / total_seconds:,.0f} | "
            f"{total_lines / total_cpu:,.0f} |",
            f"| big file: lines (functions) | {big['lines']:,} ({big['functions']}) | |",
            f"| big file through `autograph convert` | {big['seconds']:.2f} s | "
            f"{big['cpu_seconds']:.2f} s |",
            f"| big file lines per second | {big['lines_per_second']:,.0f} | "
            f"{big['cpu_lines_per_second']:,.0f} |",
            f"| big file in one process (`-j 1`) | {big['one_process_seconds']:.2f} s "
            f"({big['lines'] / big['one_process_seconds']:,.0f} lines/s) | "
            f"{big['one_process_cpu_seconds']:.2f} s |",
            f"| `autograph --version` (start-up) | {big['startup_seconds']:.2f} s | "
            f"{big['startup_cpu_seconds']:.2f} s |"]
    out += ["", f"| one function of N `if`s | lines | seconds (CPU) | lines per second, CPU "
                f"(target {TARGET_LINES_PER_SECOND:,}) |", "| ---: | ---: | ---: | ---: |"]
    out += [f"| {r['ifs']:,} | {r['lines']:,} | {r['seconds']:.2f} ({r['cpu_seconds']:.2f}) | "
            f"{r['lines_per_second']:,.0f} ({r['cpu_lines_per_second']:,.0f}) |"
            for r in long_rows]
    return "\n".join(out)


def _fresh_module(directory, source, index):
    """A module of `source` imported under a new name: new code objects, so neither
    our conversion cache nor TensorFlow's (both keyed by code object) can answer."""
    name = f"conversion_corpus_{index}"
    path = pathlib.Path(directory, f"{name}.py")
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # inspect.getsource looks the module up
    spec.loader.exec_module(module)
    return [f for f in vars(module).values()
            if inspect.isfunction(f) and f.__module__ == name]


def _time_to_code(to_code, count, repeat, directory, first_index):
    """(median, spread, functions) seconds per function of `to_code` over fresh functions.
    (Code objects compare by content, not by file: each run gets other names and
    constants, so no cache keyed by code object can answer.)"""
    samples = []
    for i in range(repeat):
        offset = (first_index + i) * count
        source = "\n\n".join(SHAPES[k % len(SHAPES)].format(i=offset + k)
                              for k in range(count))
        functions = _fresh_module(directory, source, first_index + i)
        start = time.perf_counter()
        for f in functions:
            to_code(f)
        samples.append((time.perf_counter() - start) / len(functions))
    median = statistics.median(samples)
    return median, (max(samples) - min(samples)) / median, len(functions)


def measure(repeat=3, generated_count=40):
    """Rows (see _harness.row): conversion per function (the whole corpus, and live
    functions through `ag.to_code` against `tf.autograph.to_code`), the big file, and
    the long functions."""
    import autograph_py as ag

    corpus_rows = time_functions(repeat, generated_count)
    total_lines = sum(r["lines"] for r in corpus_rows)
    total_seconds = sum(r["seconds"] for r in corpus_rows)
    total_cpu = sum(r["cpu_seconds"] for r in corpus_rows)
    rows = [row(f"conversion of a corpus of {len(corpus_rows)} functions", "converters, per "
                "function (best of runs)", total_seconds / len(corpus_rows),
                note=f"{total_lines / total_seconds:,.0f} lines/s "
                     f"({total_lines / total_cpu:,.0f} per CPU second)",
                lines_per_second=total_lines / total_seconds,
                cpu_lines_per_second=total_lines / total_cpu)]
    count = max(generated_count, 50)
    tf = tensorflow()
    with tempfile.TemporaryDirectory() as directory:
        ours, spread, count = _time_to_code(ag.to_code, count, max(repeat, 5), directory, 0)
        tf_seconds = None
        if tf is not None:
            tf_seconds = _time_to_code(tf.autograph.to_code, count, max(repeat, 5),
                                       directory, 1000)[0]
    rows.append(row(f"to_code of {count} generated functions, uncached", "ag.to_code, per "
                    "function", ours, spread, tf_mode="tf.autograph.to_code",
                    tf_seconds=tf_seconds))
    big = time_big_file(repeat)
    rows.append(row(f"{big['lines']:,}-line file ({big['functions']} functions)",
                    "autograph convert (process start-up included, best of runs)",
                    big["seconds"], note=f"{big['lines_per_second']:,.0f} lines/s "
                    f"({big['cpu_lines_per_second']:,.0f} per CPU second), start-up "
                    f"{big['startup_seconds']:.2f} s",
                    lines_per_second=big["lines_per_second"],
                    cpu_lines_per_second=big["cpu_lines_per_second"],
                    startup_seconds=big["startup_seconds"]))
    rows.append(row(f"{big['lines']:,}-line file ({big['functions']} functions)",
                    "autograph convert -j 1 (one process)", big["one_process_seconds"],
                    note=f"{big['lines'] / big['one_process_seconds']:,.0f} lines/s",
                    lines_per_second=big["lines"] / big["one_process_seconds"]))
    for long_row in time_long_functions(repeat):
        rows.append(row(f"one function of {long_row['ifs']:,} ifs ({long_row['lines']:,} "
                        "lines)", "cli.convert.convert_text (best of runs)",
                        long_row["seconds"],
                        note=f"{long_row['lines_per_second']:,.0f} lines/s "
                             f"({long_row['cpu_lines_per_second']:,.0f} per CPU second)",
                        lines_per_second=long_row["lines_per_second"],
                        cpu_lines_per_second=long_row["cpu_lines_per_second"]))
    return rows


def main(argv=None):
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeat", type=int, default=3, help="runs per measurement")
    options.add_argument("--generated", type=int, default=40,
                         help="generated functions added to the corpus")
    options.add_argument("--json", metavar="PATH", help="also write the numbers here")
    args = options.parse_args(argv)
    rows = time_functions(args.repeat, args.generated)
    big = time_big_file(args.repeat)
    long_rows = time_long_functions(args.repeat)
    print(markdown(rows, big, long_rows))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"functions": rows, "big_file": big, "long_functions": long_rows,
             "python": sys.version.split()[0]}, indent=2))


if __name__ == "__main__":
    main()
