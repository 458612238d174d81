"""`print`: a stateful op that prints when it runs (eagerly: at once; in a graph: at every
run), and the tensor formatting it shares with `Assert`.

Contract: `print_(*values, sep=' ', end='\\n', output_stream=None, summarize=3)`.
Tensor arguments are op inputs, formatted like tf.print (`1`, `[1 2 3]`, `2.5`,
`[[1 2]\\n [3 4]]`, floats with up to 6 significant digits, strings unquoted, dimensions
longer than 2 * summarize elided with `...`; summarize=-1 prints everything). Other
arguments are printed with `str()` when the op is created. `output_stream` is
sys.stdout (the default), sys.stderr (both looked up when the op runs, so redirection
works), 'file://path' (appended to), or any object with `write`.
Eagerly it returns None; in a graph it returns the Operation (fetch it, or let a traced
function run it: it is stateful, so it runs in program order there).
"""

import sys

import numpy as np
from autograph_py.runtime import context
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.tensor import SymbolicTensor, Tensor

# Per-element formatters: numpy would pad elements to a common width, tf.print does not.
_FORMATTER = {
    "int_kind": str,
    "float_kind": lambda v: format(float(v), ".6g"),
    "object": str,
}


def format_tensor(array, summarize=3):
    """One tensor's value as tf.print shows it."""
    array = np.asarray(array)
    if array.dtype == object and array.ndim == 0:
        item = array.item()
        return item.decode() if isinstance(item, bytes) else str(item)
    threshold = sys.maxsize if summarize < 0 else 2 * summarize
    return np.array2string(array, formatter=_FORMATTER, threshold=threshold,
                           edgeitems=max(summarize, 1), separator=" ")


def template_of(values):
    """Split print arguments into (template, tensors): the template holds each non-tensor
    argument's text, and None where a tensor input goes."""
    template, tensors = [], []
    for value in values:
        if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
            template.append(None)
            tensors.append(convert_to_tensor(value))
        else:
            template.append(str(value))
    return tuple(template), tensors


def render(template, arrays, sep, summarize):
    pending = iter(arrays)
    return sep.join(format_tensor(next(pending), summarize) if part is None else part
                    for part in template)


def _stream_name(stream):
    if stream is None or stream is sys.stdout:
        return "stdout"
    if stream is sys.stderr:
        return "stderr"
    return stream


def _write(stream, text):
    if stream in ("stdout", "stderr"):
        getattr(sys, stream).write(text)
    elif isinstance(stream, str) and stream.startswith("file://"):
        with open(stream[len("file://"):], "a") as f:
            f.write(text)
    else:
        stream.write(text)


def _print_kernel(*arrays, template, sep, end, stream, summarize):
    _write(stream, render(template, arrays, sep, summarize) + end)
    return ()


def _print_infer(*inputs, template, sep, end, stream, summarize):
    return []


register(OpDef("PrintV2", _print_kernel, _print_infer, num_outputs=0, stateful=True))


def apply_without_outputs(op, inputs, attrs, name):
    """Apply a zero-output op; return its Operation in graph mode, None eagerly."""
    apply(op, inputs, attrs, op_name=name)
    graph = context.current_graph()
    if graph is None:
        graph = next((t.graph for t in inputs if isinstance(t, SymbolicTensor)), None)
    # A stateful op is appended to `stateful_ops` when it is created (runtime.graph).
    return None if graph is None else graph.stateful_ops[-1]


def print_(*values, sep=" ", end="\n", output_stream=None, summarize=3, name=None):
    """Print `values` when the op runs (like tf.print)."""
    template, tensors = template_of(values)
    attrs = {"template": template, "sep": str(sep), "end": str(end),
             "stream": _stream_name(output_stream), "summarize": int(summarize)}
    return apply_without_outputs("PrintV2", tensors, attrs, name)


print_.__name__ = "print"
