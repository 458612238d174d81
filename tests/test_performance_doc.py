"""docs/performance.md tells one run's truth, in one voice (benchmarks/performance_doc.py).

The page is its template (docs/performance.md.in) filled from one run of every benchmark,
saved beside it as docs/performance.json. Without running a benchmark, these tests check:
- the template's prose states no measured number: every number comes from the run;
- every placeholder parses and names a benchmark module, and filling the template from
  the saved run gives exactly the page: so every placeholder names a row the run has, and
  no number was edited into the page by hand or left from another run;
- the saved run is a full one (not `--quick`) and covers every benchmark module;
- and the checks themselves find what they look for, on a made-up run.
After changing the template only: `python benchmarks/performance_doc.py --from-json
docs/performance.json` fills it again from the same run.
"""

import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import _docgen  # noqa: E402
import _suite  # noqa: E402

TEMPLATE = ROOT / "docs" / "performance.md.in"
PAGE = ROOT / "docs" / "performance.md"
RUN = ROOT / "docs" / "performance.json"
REGENERATE = "run `python benchmarks/performance_doc.py` (all benchmarks, one run)"


def _run():
    assert RUN.exists(), f"no {RUN.relative_to(ROOT)}: {REGENERATE}"
    return json.loads(RUN.read_text(encoding="utf-8"))


def test_the_template_states_no_measured_number():
    assert _docgen.measured_numbers(TEMPLATE.read_text(encoding="utf-8")) == []


def test_every_placeholder_names_a_benchmark_module():
    _docgen.check_template(TEMPLATE.read_text(encoding="utf-8"), _suite.benchmark_names())


def test_the_page_is_the_template_filled_from_one_run():
    page = _docgen.render(TEMPLATE.read_text(encoding="utf-8"), _run())
    assert PAGE.read_text(encoding="utf-8") == page, (
        "docs/performance.md is not docs/performance.md.in filled from "
        "docs/performance.json: edit the template, then `python "
        "benchmarks/performance_doc.py --from-json docs/performance.json`")


def test_the_run_is_a_full_run_of_every_benchmark():
    run = _run()
    assert not run["quick"], f"docs/performance.json is a --quick run: {REGENERATE}"
    missing = set(_suite.benchmark_names()) - set(run["seconds"])
    assert not missing, f"benchmarks not in the run: {sorted(missing)}: {REGENERATE}"


def test_benchmark_modules_are_found_by_their_measure():
    names = _suite.benchmark_names()
    assert {"default_runtime", "python_values", "xla", "building_blocks"} <= set(names)
    assert not {"run", "performance_doc", "_harness", "_suite", "_docgen"} & set(names)


def _made_up_run():
    def row(benchmark, workload, mode, seconds, ratio, **extra):
        return {"benchmark": benchmark, "workload": workload, "mode": mode,
                "seconds": seconds, "bytes": None, "spread": 0.1, "reference": "plain",
                "ratio": ratio, "tensorflow": "not installed", "tf_mode": "tf.function",
                "tf_seconds": None, "note": "", **extra}

    environment = {"date": "2026-01-01 00:00 UTC", "commit": "abc", "python": "3.11",
                   "numpy": "2", "jax": "not installed", "tensorflow": "not installed",
                   "threadpoolctl": "3", "cpus": 2, "machine": "x86_64",
                   "load_average": 0.5}
    return {"command": "python benchmarks/performance_doc.py", "quick": False,
            "environment": environment,
            "rows": [row("a", "Collatz(27)", "ag.function", 9e-6, 1.8, best_seconds=8e-6),
                     row("new", "w", "m", 1e-3, None)],
            "seconds": {"a": 3.0, "broken": 1.0, "new": 2.0},
            "failed": {"broken": "ImportError: no jax"}}


def test_the_checks_find_what_they_look_for():
    assert _docgen.measured_numbers(
        "about 0.2 µs, 3x faster, 40%, 1.5 s, 10,000 lines per second; {{a | w | m}}, "
        "10,000 ints, 128x256, 3x3 filters, 1e6 floats, 256 KiB blocks, 20 steps") == [
        "0.2 µs", "3x", "40%", "1.5 s", "10,000 lines per second"]
    run = _made_up_run()
    template = ("# T\n{{table a}}\n{{a | Collatz(27) | ag.function}} "
                "{{a | Collatz* | ag.function | ratio <= 3}} "
                "{{a | Collatz(27) | ag.function | best_seconds <= 5 µs}} "
                "{{a | Collatz(27) | ag.function | vs_tf <= 1.2}} "
                "{{broken | x | y | ratio <= 1.5}}\n{{table broken}}\n")
    page = _docgen.render(template, run)
    assert "9 µs 1.8x (target ≤ 3x: met) 8 µs (target ≤ 5 µs: not met)" in page
    assert "not measured (TensorFlow not installed; target ≤ 1.2x)" in page
    assert "not measured (`broken` failed in this run; target ≤ 1.5x)" in page
    assert "`benchmarks/broken.py` failed" in page
    assert "*`benchmarks/a.py`, 3 s of the run made by `python benchmarks/performance_doc.py`;" \
           " 2026-01-01 00:00 UTC, commit abc" in page
    # A module no table names (a new benchmark) still gets its table, at the end.
    assert page.rstrip().endswith("| w | m | 1 ms | 10% | — | plain | tf.function | "
                                  "not installed | — |")
    assert "### `new`" in page


@pytest.mark.parametrize("placeholder, message", [
    ("{{a | Collatz(28) | ag.function}}", "0 rows of a match"),
    ("{{a | Collatz(27) | ag.function | bogus}}", "no field 'bogus'"),
    ("{{nowhere | w | m}}", "no module 'nowhere'"),
    ("{{a | Collatz(27)}}", "expected MODULE | WORKLOAD | MODE"),
])
def test_a_placeholder_the_run_cannot_fill_fails_loudly(placeholder, message):
    with pytest.raises(_docgen.TemplateError, match=message.replace("|", r"\|")):
        _docgen.render(f"text {placeholder} text", _made_up_run())


def test_a_measured_number_in_the_template_stops_the_run_before_it_starts():
    with pytest.raises(_docgen.TemplateError, match="a measured number in the prose: '2x'"):
        _docgen.check_template("the graph is 2x faster: {{a | w | m}}", ["a"])
    with pytest.raises(_docgen.TemplateError, match="no benchmark module 'b'"):
        _docgen.check_template("{{table b}}", ["a"])
