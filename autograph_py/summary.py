"""`ag.summary.write_graph`: graphs for TensorBoard's graph dashboard.

Contract of `write_graph(logdir, fn, *args, **kwargs) -> str`:
- `fn` is a traced graph (a `Graph`, or a ConcreteFunction: anything whose `.graph` is a
  `Graph`; then no arguments), an `ag.function`, or a plain Python function (traced with
  `ag.function`); `args`/`kwargs` are what `get_concrete_function` takes: tensors,
  `ag.TensorSpec`s, Python values.
- Writes one new event file into `logdir` (created when missing) holding the graph as a
  `GraphDef` (`graph_def.py`: nested bodies as name scopes, the user's `file:line` as the
  `location` attr), and returns its path. `tensorboard --logdir LOGDIR` then shows it
  under Graphs. The file appears complete or not at all (written aside, then renamed), so
  a running TensorBoard never reads half of it.
- Needs the optional `tensorboard` package (`pip install autograph-py[tensorboard]`),
  imported only here, on call: an ImportError says how to install it.
"""

import itertools as _itertools
import os as _os
import socket as _socket
import time as _time

from autograph_py.runtime.graph import Graph

_file_numbers = _itertools.count()


def write_graph(logdir, fn, *args, **kwargs):
    graph = _graph_of(fn, args, kwargs)
    try:
        from tensorboard.compat.proto import event_pb2
        from tensorboard.summary.writer.record_writer import RecordWriter

        from autograph_py.graph_def import to_graph_def
    except ImportError as e:
        raise ImportError(f"ag.summary.write_graph needs the tensorboard package ({e}); "
                          "install it with `pip install autograph-py[tensorboard]`") from e
    now = _time.time()
    events = [event_pb2.Event(wall_time=now, file_version="brain.Event:2"),
              event_pb2.Event(wall_time=now, step=0,
                              graph_def=to_graph_def(graph).SerializeToString())]
    _os.makedirs(logdir, exist_ok=True)
    # "tfevents" in the name is what TensorBoard looks for; the temporary name lacks it.
    number = next(_file_numbers)
    path = _os.path.join(logdir, f"events.out.tfevents.{int(now):010d}.{_socket.gethostname()}."
                                f"{_os.getpid()}.{number}.autograph")
    partial = _os.path.join(logdir, f".autograph-{_os.getpid()}-{number}.partial")
    with open(partial, "wb") as f:
        writer = RecordWriter(f)
        for event in events:
            writer.write(event.SerializeToString())
    _os.replace(partial, path)
    return path


def _graph_of(fn, args, kwargs):
    traced = fn if isinstance(fn, Graph) else getattr(fn, "graph", None)
    if isinstance(traced, Graph):
        if args or kwargs:
            raise TypeError("write_graph: this graph is traced already; pass no arguments")
        return traced
    if not hasattr(fn, "get_concrete_function"):
        if not callable(fn):
            raise TypeError(f"write_graph: expected a function or a traced graph, got "
                            f"{type(fn).__name__}")
        from autograph_py.tracing.function import function

        fn = function(fn)
    return fn.get_concrete_function(*args, **kwargs).graph
