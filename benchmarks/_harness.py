"""Shared helpers for the benchmarks: a robust timer, peak memory, and result output.

Contract: `median_time(fn)` calls `fn` a few times to warm up (caches, plans, allocator),
then returns the median over `repeats` samples of the seconds per call, each sample
timing `number` back-to-back calls (use `number > 1` for sub-microsecond work so the
clock's resolution does not dominate). `peak_memory(fn)` returns the peak bytes
allocated while `fn` runs, above what was allocated before (numpy reports its buffers to
tracemalloc). `markdown_table` and `write_json` format results. Nothing here asserts a
time: benchmarks measure, tests check behaviour (DESIGN.md §7).
"""

import gc
import json
import statistics
import time
import tracemalloc


def median_time(fn, repeats=7, warmup=2, number=1):
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


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
