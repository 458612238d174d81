"""`if`, `while` and `for` statements of converted code (call shapes: docs/architecture.md).

Contract:
- Dispatch: a statement is staged only when its condition or iterable belongs to a
  staging backend (backends.py: our symbolic tensors and their lazy `range`/`enumerate`/
  `zip`/`TensorList` stand-ins; JAX tracers). Otherwise it runs as Python: same
  evaluation order, side effects and errors. An eager tensor condition is `bool()` of it;
  one that holds more than one value is a TypeError.
- A loop whose condition (`while`) or stop test (`for` with `extra_test`) turns staged
  after some Python iterations runs those iterations in Python and stages the rest of
  the loop from the state reached, with the backend of that condition (a `for` over a
  Python iterable stages its remaining items stacked into one value).
  `maximum_iterations` counts in both modes.
- How a backend stages a statement, and the errors it raises naming the symbol (a
  symbol defined in only one branch, a dtype that changes across iterations, ...):
  the shared algorithm (staging.py) over each backend's adapter: graph_staging.py for our
  graphs, `autograph_py.runtime.xla.staging.adapter` for JAX.
- A loop run as Python while a graph is built warns once it has unrolled
  `unrolling.UNROLL_WARNING_THRESHOLD` iterations into the graph (`unrolling`).
"""

import itertools

from autograph_py.runtime.operators import unrolling
from autograph_py.runtime.operators.backends import backend_for
from autograph_py.runtime.operators.truth import as_condition
from autograph_py.runtime.tensor import EagerTensor


def python_condition(value, statement):
    """`bool(value)` for a Python-run statement, refusing ambiguous eager tensors."""
    if isinstance(value, EagerTensor) and value.numpy().size != 1:
        raise TypeError(f"the condition of {statement} must hold a single value, got a tensor "
                        f"of shape {value.shape}; reduce it with ag.reduce_all or "
                        "ag.reduce_any")
    return bool(value)


# --- if ---------------------------------------------------------------------------------


def if_stmt(cond, body, orelse, get_state, set_state, symbol_names):
    """`if cond: body() else: orelse()`. Every symbol is an output."""
    cond = as_condition(cond)
    backend = backend_for(cond)
    if backend is not None:
        backend.if_stmt(cond, body, orelse, get_state, set_state, symbol_names)
    elif python_condition(cond, "an `if` statement"):
        body()
    else:
        orelse()


# --- while ------------------------------------------------------------------------------


def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    """`while test(): body()`; `opts` may hold `maximum_iterations`."""
    limit = (opts or {}).get("maximum_iterations")
    iterations = 0
    while limit is None or iterations < limit:
        test_value = as_condition(test())
        backend = backend_for(test_value)
        if backend is not None:
            remaining = None if limit is None else limit - iterations
            backend.loop(test, body, get_state, set_state, symbol_names,
                         {**(opts or {}), "maximum_iterations": remaining}, test_value)
            return
        if not python_condition(test_value, "a `while` loop"):
            return
        body()
        iterations += 1
        unrolling.check(iterations)


# --- for --------------------------------------------------------------------------------


def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """`for item in iter_: body(item)`, stopping early when `extra_test()` is false."""
    opts = opts or {}
    backend = backend_for(iter_)
    if backend is not None:
        backend.for_stmt(backend.iterable(iter_), extra_test, body, get_state, set_state,
                         symbol_names, opts)
    else:
        _py_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts)


def _py_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    limit = opts.get("maximum_iterations")
    items = iter(iter_) if limit is None else itertools.islice(iter_, limit)
    if extra_test is None:
        for iterations, item in enumerate(items, 1):
            body(item)
            unrolling.check(iterations)
        return
    iterations = 0
    while True:
        # Tested before taking the next item, as Python's `break` never takes it.
        more = extra_test()
        backend = backend_for(more)
        if backend is not None:
            rest = list(items)
            if rest:
                backend.for_stmt(backend.iterable(_stacked(backend, rest)), extra_test, body,
                                 get_state, set_state, symbol_names,
                                 {**opts, "maximum_iterations": None})
            return
        if not python_condition(more, "a `for` loop's stop test"):
            return
        try:
            item = next(items)
        except StopIteration:
            return
        body(item)
        iterations += 1
        unrolling.check(iterations)


def _stacked(backend, rest):
    try:
        return backend.stack(rest)
    except (TypeError, ValueError) as e:
        raise NotImplementedError(
            "this `for` loop over a Python iterable stops on a tensor condition (a `break` "
            "or `return` under a tensor `if`), so its remaining iterations must be staged, "
            f"but its remaining items cannot become one tensor: {e}") from e


