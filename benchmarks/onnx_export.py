"""`ag.onnx.export`'s models run by onnxruntime against the same functions under
`ag.function` (the numpy runtime), in one run.

Run: `python benchmarks/onnx_export.py [--json PATH]` (or through `benchmarks/run.py`;
needs the `[onnx]` extra). Workloads: Collatz(27) steps and the seed's `sum_even` over
10,000 elements (examples/seed.py), each a staged `while`/`for` with an `if`,
plus the time `ag.onnx.export` itself takes for Collatz (trace + translation +
`check_model`). Rows give medians of interleaved samples; ratios are to onnxruntime,
same run. Nothing is asserted: a benchmark measures, tests check behaviour.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "examples"))

import numpy as np  # noqa: E402
import onnxruntime  # noqa: E402
from _harness import (  # noqa: E402
    interleaved_stats,
    median_time,
    number_for,
    row,
    run_module,
)
from seed import sum_even  # noqa: E402  (the article's function)
from seed_comparison import collatz_steps  # noqa: E402

import autograph_py as ag  # noqa: E402

ORT = "onnxruntime (CPU)"


def _workloads():
    items = np.arange(10_000, dtype=np.int32)
    return [
        ("collatz_steps(27)", collatz_steps, ag.TensorSpec([], ag.int32),
         np.array(27, np.int32)),
        ("sum_even(10,000 int32)", sum_even, ag.TensorSpec([None], ag.int32), items),
    ]


def _session(model):
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # as the numpy runtime: one thread
    return onnxruntime.InferenceSession(model.SerializeToString(), options,
                                        providers=["CPUExecutionProvider"])


def measure(repeats=7):
    rows = []
    for workload, fn, spec, value in _workloads():
        compiled = ag.function(fn, input_signature=[spec])
        session = _session(ag.onnx.export(fn, spec))
        name = session.get_inputs()[0].name
        tensor = ag.constant(value)
        runners = {"ag.function (numpy runtime)": lambda c=compiled, t=tensor: c(t),
                   ORT: lambda s=session, n=name, v=value: s.run(None, {n: v})}
        for runner in runners.values():
            runner()
        number = max(1, min(number_for(r) for r in runners.values()))
        stats = interleaved_stats(runners, repeats=repeats, number=number)
        reference = stats[ORT][0]
        for mode, (seconds, spread) in stats.items():
            rows.append(row(workload, mode, seconds, spread, ORT, reference))
    spec = ag.TensorSpec([], ag.int32)
    seconds = median_time(lambda: ag.onnx.export(collatz_steps, spec), repeats=repeats)
    rows.append(row("export collatz_steps", "ag.onnx.export (trace + check_model)", seconds))
    return rows


def main(argv=None):
    run_module(measure, __doc__, argv)


if __name__ == "__main__":
    main()
