"""Shared helpers for the benchmarks: a robust timer, peak memory, and result output.

Contract: `median_time(fn)` calls `fn` a few times to warm up (caches, plans, allocator),
then returns the median over `repeats` samples of the seconds per call, each sample
timing `number` back-to-back calls (use `number > 1` for sub-microsecond work so the
clock's resolution does not dominate). `peak_memory(fn)` returns the peak bytes
allocated while `fn` runs, above what was allocated before (numpy reports its buffers to
tracemalloc). `markdown_table` and `write_json` format results. Nothing here asserts a
time: benchmarks measure, tests check behaviour (DESIGN.md §7).

`benchmarks/run.py` gathers every module's `measure()` rows; a row is a dict (`row(...)`)
with `workload`, `mode`, `seconds` (or `bytes`), `spread`, `reference` and `ratio` (to the
row named by `reference`, same workload, same run), and `tensorflow`: the same workload
run by TensorFlow in the equivalent mode (`tf_mode`, `tf_seconds`), or why not
("not installed", "n/a"). `tensorflow()` is the module, or None when it is not importable.
"""

import argparse
import functools
import gc
import importlib.util
import json
import os
import statistics
import time
import tracemalloc


def median_time(fn, repeats=7, warmup=2, number=1):
    return time_stats(fn, repeats, warmup, number)[0]


def time_stats(fn, repeats=7, warmup=2, number=1):
    """(median, spread) of seconds per call; spread is (max - min) / median."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    median = statistics.median(samples)
    return median, (max(samples) - min(samples)) / median


def interleaved_stats(runners, repeats=7, warmup=2, number=1, clock=time.perf_counter):
    """{name: (median, spread)} for `runners` ({name: fn}), their samples taken in turns
    (one sample of each, `repeats` times), so a burst of load from elsewhere on the
    machine hits every runner alike and the ratios between them stay fair. `clock` may
    be `time.process_time` (this process's CPU time: less moved by other processes)."""
    stats = {}
    for name, values in interleaved_samples(runners, repeats, warmup, number,
                                            clock).items():
        median = statistics.median(values)
        stats[name] = (median, (max(values) - min(values)) / median)
    return stats


def interleaved_samples(runners, repeats=7, warmup=2, number=1, clock=time.perf_counter):
    """{name: [seconds per call of each sample]}, sampled as `interleaved_stats` does."""
    for fn in runners.values():
        for _ in range(warmup):
            fn()
    samples = {name: [] for name in runners}
    for _ in range(repeats):
        for name, fn in runners.items():
            start = clock()
            for _ in range(number):
                fn()
            samples[name].append((clock() - start) / number)
    return samples


def number_for(fn, target_seconds=0.02):
    """How many calls make one sample last about `target_seconds` (at least 1)."""
    fn()
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    return max(1, min(100_000, int(target_seconds / max(once, 1e-9))))


@functools.cache
def tensorflow():
    """The `tensorflow` module when it is importable, else None (never a dependency)."""
    if importlib.util.find_spec("tensorflow") is None:
        return None
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    # One thread per framework, as numpy's BLAS in the runs that limit it: the
    # comparison is of the runtimes, not of how each splits work on a loaded machine.
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    return tf


NOT_INSTALLED = "not installed"


def row(workload, mode, seconds=None, spread=None, reference=None, reference_value=None,
        peak_bytes=None, tf_mode=None, tf_seconds=None, note="", **numbers):
    """One result row (see the module doc). `reference_value` is the reference row's
    seconds (or bytes); the ratio is this row's value over it. `numbers` are further
    measured values the row carries by name (`best_seconds=...`), for docs/performance.md
    to cite (a name ending in `seconds` is a time, in `ratio` a ratio)."""
    value = seconds if seconds is not None else peak_bytes
    if tf_mode is None:
        tensorflow_status = "n/a"
    elif tensorflow() is None:
        tensorflow_status = NOT_INSTALLED
    else:
        tensorflow_status = "installed"
    return {"workload": workload, "mode": mode, "seconds": seconds, "bytes": peak_bytes,
            "spread": spread, "reference": reference,
            "ratio": value / reference_value if reference_value else None,
            "tensorflow": tensorflow_status, "tf_mode": tf_mode, "tf_seconds": tf_seconds,
            "note": note, **numbers}


def peak_memory(fn):
    gc.collect()
    tracemalloc.start()
    try:
        baseline, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - baseline


def markdown_table(rows, columns):
    """`rows` are dicts; `columns` is a list of (key, header, format spec)."""
    lines = ["| " + " | ".join(header for _, header, _ in columns) + " |",
             "|" + "|".join(" --- " for _ in columns) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(format(row[key], spec) for key, _, spec in columns)
                     + " |")
    return "\n".join(lines)


def write_json(path, data):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")


def format_seconds(seconds):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_value(r):
    if r.get("seconds") is not None:
        return format_seconds(r["seconds"])
    if r.get("bytes") is not None:
        return f"{r['bytes'] / 1e6:.2f} MB"
    return "—"


def results_table(rows):
    """The rows of `row(...)` as one markdown table (TensorFlow columns included)."""
    lines = ["| workload | mode | median | spread | ratio | reference | TensorFlow mode "
             "| TF median | ours / TF |",
             "| --- | --- | ---: | ---: | ---: | --- | --- | ---: | ---: |"]
    for r in rows:
        spread = "—" if r["spread"] is None else f"{r['spread']:.0%}"
        ratio = "—" if r["ratio"] is None else f"{r['ratio']:.3g}"
        reference = r["reference"] or "—"
        if r["tensorflow"] == "installed" and r["tf_seconds"] is not None:
            tf_mode, tf_median = r["tf_mode"], format_seconds(r["tf_seconds"])
            versus = f"{r['seconds'] / r['tf_seconds']:.3g}"
        elif r["tensorflow"] == "installed":
            tf_mode, tf_median, versus = r["tf_mode"], "failed", "—"
        elif r["tensorflow"] == NOT_INSTALLED:
            tf_mode, tf_median, versus = r["tf_mode"], NOT_INSTALLED, NOT_INSTALLED
        else:
            tf_mode, tf_median, versus = "—", "—", "—"
        mode = r["mode"] + (f" ({r['note']})" if r.get("note") else "")
        lines.append(f"| {r['workload']} | {mode} | {format_value(r)} | {spread} | {ratio} | "
                     f"{reference} | {tf_mode} | {tf_median} | {versus} |")
    return "\n".join(lines)


def run_module(measure, doc, argv=None):
    """A benchmark module's `main`: measure, print the table, `--json PATH` writes the rows."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)
    rows = measure()
    print(results_table(rows))
    if args.json:
        write_json(args.json, rows)
