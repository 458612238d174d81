"""The staging algorithm shared by every staging backend, written once over an adapter.

Each backend (graph_staging.py for our graphs, `autograph_py.runtime.xla.staging.adapter`
for JAX tracers) passes an adapter object; this module imports no backend (and never JAX).

Contract:
- `for_stmt(adapter, staged, extra_test, body, get_state, set_state, symbol_names, opts)`
  walks a staged iterable (iterables.py: `has_item`, `item`, `length`, `finished`) by an
  index counting iterations from 0, carried as the symbol `"<for loop index>"` in one
  `adapter.loop`. With no `extra_test` (no `break`/`return`) and a static bound (the
  iterable's `length`, `maximum_iterations`), a backend that `scans` runs exactly that
  many iterations (`exact`); otherwise the loop stops on `has_item(index)` combined with
  `extra_test()` by `adapter.both`, within the bound.
- `entry_state(adapter, test, body, get_state, set_state, symbol_names)`: the loop
  variables' initial values. Symbols the loop assigns before reading them (temporaries,
  `retval_`) start as `adapter.zeros` of what one probe iteration (`adapter.probe`: body
  then test, as the rotated loop runs them) gives them; with `adapter.probes_lists`, a
  Python list the probe resizes becomes `adapter.stage_list(before, after)`. What one
  probe learns can change what the next one sees, so probes repeat until nothing more is
  learnt (each one that learns something settles a symbol for good, so this ends). A
  probe that reads a symbol the loop has not yet defined is a ValueError naming it.

Adapter members used here: `scans`, `both(has_item, more)`, `next_index(index)`,
`loop(test, body, get_state, set_state, symbol_names, opts, exact)`; `probes_lists`,
`staged_loop` (how the backend's messages say the loop is staged), `probe(run, entry,
slots, set_state, get_state)` (a dict: each slot's value after `run()`, its carried leaves
as specs that outlive the probe), `zeros(value)`, `stage_list(before, after)`.
"""

from autograph_py.runtime.operators import state as state_lib
from autograph_py.runtime.operators.undefined import (
    Undefined,
    UndefinedReturnValue,
    UndefinedSymbolError,
)

UNASSIGNED = (Undefined, UndefinedReturnValue)


def for_stmt(adapter, staged, extra_test, body, get_state, set_state, symbol_names, opts):
    index = 0

    def get_loop_state():
        return (index, *get_state())

    def set_loop_state(values):
        nonlocal index
        index = values[0]
        set_state(tuple(values[1:]))

    def test():
        has_item = staged.has_item(index)
        return has_item if extra_test is None else adapter.both(has_item, extra_test())

    def loop_body():
        nonlocal index
        item = staged.item(index)
        index = adapter.next_index(index)
        body(item)

    bounds = [n for n in (staged.length, opts.get("maximum_iterations")) if n is not None]
    bound = min(bounds) if bounds else None
    exact = bound if adapter.scans and extra_test is None else None
    adapter.loop(test, loop_body, get_loop_state, set_loop_state,
                 ("<for loop index>", *symbol_names),
                 {**opts, "maximum_iterations": bound if exact is None else None,
                  "test_keeps_bound": bound == staged.length},
                 exact)
    staged.finished(index)


def entry_state(adapter, test, body, get_state, set_state, symbol_names):
    entry = get_state()
    while True:
        unknown = [i for i, v in enumerate(entry) if isinstance(v, UNASSIGNED)
                   or (adapter.probes_lists and isinstance(v, list))]
        if not unknown:
            return entry
        with state_lib.probing():
            after = adapter.probe(_one_iteration(adapter, test, body, entry), entry, unknown,
                                  set_state, get_state)
        learnt = list(entry)
        for i in unknown:
            if isinstance(entry[i], list):
                staged = adapter.stage_list(entry[i], after[i])
                if staged is not None:
                    learnt[i] = staged
            elif not isinstance(after[i], UNASSIGNED):
                learnt[i] = adapter.zeros(after[i])
        if all(a is b for a, b in zip(learnt, entry)):
            return entry
        entry = tuple(learnt)


def _one_iteration(adapter, test, body, entry):
    """One iteration of the loop from `entry`: the body, then the test (the loop is
    rotated), a symbol read before the loop defines it named in a ValueError."""
    undefined = {v.symbol_name for v in entry if isinstance(v, Undefined)}

    def run():
        try:
            body()
            test()
        except UndefinedSymbolError as e:
            if e.symbol_name in undefined:
                raise ValueError(f"'{e.symbol_name}' must be defined before the loop: "
                                 f"{adapter.staged_loop} and reads '{e.symbol_name}' "
                                 "before assigning it") from e
            raise

    return run
