"""What converting a module costs where nothing is staged (issue 24, DESIGN.md §5).

Each workload runs pure-Python code of the standard library on Python values, three ways:
- `original`: the module as Python ships it;
- `converted`: the module converted by `autograph convert` (into a temporary folder, as a
  user would) and imported from there: a converted function whose call stages nothing
  runs as written (the fast path);
- `converted, AUTOGRAPH_FAST_PATH=0`: the same converted file imported again, imported and
  run with the fast path off (`ag.config.set_fast_path(False)`): the converted code itself.

Each time is the median of `--repeats` samples of this process's CPU time after warm-up
(less moved than wall time by other work on the machine), the three ways sampled in
turns; the ratio is to `original`. The last rows give the geometric mean of the ratios
of each converted way over all workloads (a ratio, no time). Prints a markdown table;
`--json PATH` also writes the numbers. Nothing is asserted (DESIGN.md §7).
Usage: `python benchmarks/python_values.py [--repeats N] [--only WORKLOAD ...] [--json PATH]`.
"""

import argparse
import contextlib
import importlib
import importlib.util
import math
import os
import platform
import subprocess
import sys
import sysconfig
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _harness import interleaved_stats, number_for, results_table, row, write_json  # noqa: E402

from autograph_py import config  # noqa: E402

ORIGINAL, FAST, FORCED = "original", "converted", "converted, AUTOGRAPH_FAST_PATH=0"

TEXT = ("Beautiful is better than ugly. Explicit is better than implicit. Simple is "
        "better than complex. Complex is better than complicated. Flat is better than "
        "nested. Sparse is better than dense. Readability counts. ") * 4


def _difflib(m):
    a = TEXT.split()
    b = TEXT.replace("better", "worse").replace("Flat", "Deep").split()
    return lambda: m.SequenceMatcher(None, a, b).ratio()


def _pprint(m):
    data = {f"key{i}": [list(range(i)), {"name": f"item {i}", "tags": ("a", "b", i)},
                        (i, i * 2.5, None)] for i in range(12)}
    return lambda: m.pformat(data, width=60)


def _shlex(m):
    line = ("gcc -O2 -Wall -o 'my program' main.c util.c -DNAME=\"a b\" "
            "--flag=value \\\n  -I/usr/include $HOME/lib 'it''s' ") * 3
    return lambda: m.split(line)


def _colorsys(m):
    colors = [(r / 7, g / 7, b / 7) for r in range(8) for g in range(8) for b in range(4)]

    def run():
        return [(m.hsv_to_rgb(*m.rgb_to_hsv(r, g, b)), m.hls_to_rgb(*m.rgb_to_hls(r, g, b)))
                for r, g, b in colors]
    return run


def _textwrap(m):
    return lambda: m.fill(TEXT, width=42, initial_indent="* ", subsequent_indent="  ")


def _json_decode(decoder, scanner):
    import json  # noqa: PLC0415

    text = json.dumps([{"id": i, "name": f"n\u00e9me {i}\n", "values": [i, i / 3, None, True],
                        "nested": {"a": [1, 2, {"b": "c\\d"}]}} for i in range(8)])
    # The pure-Python scanner and string scanner, as CPython's tests force them.
    parser = decoder.JSONDecoder()
    parser.parse_string = decoder.py_scanstring
    parser.scan_once = scanner.py_make_scanner(parser)
    return lambda: parser.decode(text)


def _json_encode(encoder):
    strings = [f"line {i}: \"quoted\" \\ tab\t caf\u00e9 \u2603 {'x' * i}" for i in range(40)]

    def run():
        return [(encoder.py_encode_basestring_ascii(s), encoder.py_encode_basestring(s))
                for s in strings]
    return run


def _fractions(m):
    def run():
        total = m.Fraction(0)
        for k in range(1, 40):
            total += m.Fraction(1, k) * m.Fraction(k + 1, 3)
        return total.limit_denominator(1000)
    return run


def _statistics(m):
    data = [float(i * 7 % 23) / 3 for i in range(200)]
    return lambda: (m.variance(data), m.median(data), m.fmean(data), m.quantiles(data))


def _ipaddress(m):
    addresses = [f"10.{i}.{i * 7 % 256}.{i * 13 % 256}" for i in range(40)]

    def run():
        found = [m.ip_address(text) in m.ip_network(f"{text}/24", strict=False)
                 for text in addresses]
        return found, m.ip_address("2001:db8::8a2e:370:7334").exploded
    return run


def _calendar(m):
    return lambda: m.TextCalendar().formatyear(2024)


def _html(m):
    text = "&lt;p class=&quot;x&quot;&gt;caf&eacute; &#233; &#x263A; &amp; &notanentity;" * 10
    return lambda: (m.unescape(text), m.escape(text))


def _csv(m):
    sample = "\n".join(f"{i};'name {i}';{i * 2.5};x" for i in range(30))
    def run():
        dialect = m.Sniffer().sniff(sample)
        return dialect.delimiter, dialect.quotechar, dialect.doublequote
    return run


# workload -> (stdlib files to convert, relative to the stdlib folder; the workload made
# from the imported modules, in that order)
WORKLOADS = {
    "difflib SequenceMatcher.ratio": (["difflib.py"], _difflib),
    "pprint.pformat": (["pprint.py"], _pprint),
    "shlex.split": (["shlex.py"], _shlex),
    "colorsys round trips": (["colorsys.py"], _colorsys),
    "textwrap.fill": (["textwrap.py"], _textwrap),
    "json decode (pure-Python scanner)": (["json/decoder.py", "json/scanner.py"],
                                          _json_decode),
    "json encode strings (pure Python)": (["json/encoder.py"], _json_encode),
    "fractions arithmetic": (["fractions.py"], _fractions),
    "statistics variance/median/quantiles": (["statistics.py"], _statistics),
    "ipaddress parse and contain": (["ipaddress.py"], _ipaddress),
    "calendar.TextCalendar.formatyear": (["calendar.py"], _calendar),
    "html.unescape/escape": (["html/__init__.py"], _html),
    "csv.Sniffer.sniff": (["csv.py"], _csv),
}


def _stdlib_module(relative):
    name = relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    return importlib.import_module(name)


def _convert(relative, folder):
    """`autograph convert` of a standard-library file, as a user runs it."""
    source = os.path.join(sysconfig.get_paths()["stdlib"], relative)
    target = os.path.join(folder, relative.replace("/", "_"))
    done = subprocess.run([sys.executable, "-m", "autograph_py.cli", "convert", source,
                           "-o", target], capture_output=True, text=True)
    if not os.path.exists(target):  # status 1 only reports what was left as written
        raise RuntimeError(f"autograph convert {source} failed:\n{done.stderr}")
    return target


def _import(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import does: inspect and dataclasses look it up
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def _fast_path(enabled):
    previous = config.set_fast_path(enabled)
    try:
        yield
    finally:
        config.set_fast_path(previous)


def _runner(thunk, fast_path):
    def run():
        with _fast_path(fast_path):
            return thunk()
    return run


def _runners(workload, files, make, folder):
    """{way: runner} of one workload; each converted way imports its own copy of the
    converted files, and makes its workload, under its own setting. All three must
    give the same result."""
    converted = [_convert(relative, folder) for relative in files]
    runners = {ORIGINAL: _runner(make(*[_stdlib_module(relative) for relative in files]),
                                 True)}
    for way, enabled in ((FAST, True), (FORCED, False)):
        with _fast_path(enabled):
            modules = [_import(path, f"ag_{enabled}_{os.path.basename(path)[:-3]}")
                       for path in converted]
            runners[way] = _runner(make(*modules), enabled)
    results = {way: repr(run()) for way, run in runners.items()}
    if len(set(results.values())) != 1:
        raise AssertionError(f"{workload}: the three ways disagree: {results}")
    return runners


def measure(repeats=7, only=None):
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for workload, (files, make) in WORKLOADS.items():
            if only and workload not in only:
                continue
            runners = _runners(workload, files, make, folder)
            number = number_for(runners[ORIGINAL])
            stats = interleaved_stats(runners, repeats=repeats, number=number,
                                      clock=time.process_time)
            reference = stats[ORIGINAL][0]
            for way, (median, spread) in stats.items():
                rows.append(row(workload, way, median, spread, ORIGINAL, reference))
    return rows + geomean_rows(rows)


GEOMEAN = "geometric mean over"


def geomean_rows(rows):
    """One row per converted way: the geometric mean of its ratios (no time of its own)."""
    count = len({r["workload"] for r in rows})
    summaries = []
    for way, mean in geomeans(rows).items():
        summary = row(f"{GEOMEAN} {count} workloads", way, reference=ORIGINAL)
        summary["ratio"] = mean
        summaries.append(summary)
    return summaries


def geomeans(rows):
    """{way: geometric mean of its ratios to the original} (summary rows left out)."""
    ratios = {}
    for r in rows:
        if r["mode"] != ORIGINAL and not r["workload"].startswith(GEOMEAN):
            ratios.setdefault(r["mode"], []).append(r["ratio"])
    return {way: math.exp(sum(map(math.log, values)) / len(values))
            for way, values in ratios.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--only", nargs="*", help="workload names (default: all)")
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args()
    rows = measure(args.repeats, args.only)
    print(f"Python {platform.python_version()}, {platform.machine()}\n")
    print(results_table(rows))  # its last rows are the geometric means
    if args.json:
        write_json(args.json, {"rows": rows, "geomeans": geomeans(rows)})


if __name__ == "__main__":
    main()
