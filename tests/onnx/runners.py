"""The three runners of the ONNX differential test, each taking numpy arguments and
returning the flat list of numpy results.

- `ours`: the function under `ag.function` with the same signature (the oracle).
- `reference`: `onnx.reference.ReferenceEvaluator`, ONNX's Python executable spec.
- `runtime`: `onnxruntime.InferenceSession` on the CPU.

The reference evaluator's known quirks are checked for here rather than papered over:
it returns a scan output of scalars as (N, 1) (our models have no scan outputs: loops
carry values only), and a zero-trip `Loop` must return its initial values (the corpus
has zero-trip loops). Every result must come back as a numpy array of the dtype the
model declares; anything else fails the test, naming the output.
"""

import threading

import numpy as np
import onnxruntime
from onnx import helper
from onnx.reference import ReferenceEvaluator

import autograph_py as ag


def ours(fn, signature):
    compiled = ag.function(fn, input_signature=list(signature))

    def run(*args):
        out = compiled(*args)
        return [np.asarray(t.numpy() if hasattr(t, "numpy") else t)
                for t in ag.nest.flatten(out)]

    return run


def _declared(model):
    return [helper.tensor_dtype_to_np_dtype(o.type.tensor_type.elem_type)
            for o in model.graph.output]


def reference(model):
    evaluator = ReferenceEvaluator(model)
    names = [i.name for i in model.graph.input]
    dtypes = _declared(model)

    def run(*args):
        # The evaluator is numpy: the float `//` and `%` compute both sides of their
        # `Where`s (a zero divisor's inf / nan included), which numpy warns about.
        with np.errstate(all="ignore"):
            results = evaluator.run(None, dict(zip(names, map(np.asarray, args))))
        for i, (value, dtype) in enumerate(zip(results, dtypes)):
            assert isinstance(value, np.ndarray) and value.dtype == dtype, \
                f"the reference evaluator gave output {i} as {value!r}, declared {dtype}"
        return list(results)

    return run


def runtime(model, seconds=None):
    """`seconds`: a run still going then is stopped (onnxruntime raises), so a model
    whose Loop never ends fails a test instead of hanging it."""
    session = onnxruntime.InferenceSession(model.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]

    def run(*args):
        feeds = dict(zip(names, map(np.asarray, args)))
        options = onnxruntime.RunOptions()
        timer = threading.Timer(seconds, setattr, (options, "terminate", True)) \
            if seconds is not None else None
        if timer is not None:
            timer.start()
        try:
            return [np.asarray(v) for v in session.run(None, feeds, options)]
        finally:
            if timer is not None:
                timer.cancel()

    return run
