"""JAX tracers as an adapter of the shared staging algorithm (runtime/operators/staging.py).

Contract: `JaxStaging` supplies the primitives staging.py drives, with JAX (the staged
`if`: branches.py; loops: loops.py). Where it differs from our graphs:
- carried are JAX arrays, numpy values and Python numbers (values.py), as arrays; the
  user's code runs under `list_reads.user_code()`, our staging under `machinery()`.
- `if`: one `lax.cond` over the carried leaves; both branches must give each one dtype
  and shape, and any other leaf the very same object (`check_leaves`); a Python list one
  branch resizes is an error (`branch_list`). A branch traced first that leaves
  `retval_` unset gets zeros there on a second tracing (`swaps_branches` is False).
- loops: a dtype or shape that changes is an error after the structure checks
  (`checks_carried_first` is False); a loop known to run no iteration builds nothing
  (`skips_empty`); a static trip count with no early stop is a `lax.scan` of exactly that
  many steps (`scans`), whose appends to Python lists are its stacked outputs.
- the `for` index is a traced int counted with `+ 1`; the stop test is
  `has_item & truth(extra_test())`.
- the probe iteration is `jax.eval_shape` of the body and the test from inputs of the
  carried values' specs; the specs of its end state are read inside the trace, so its
  tracers never escape, and the state is set back to the entry afterwards. A probed
  symbol starts as zeros of its spec.
- lists are never probed (`probes_lists` is False): a list the loop resizes is an error
  of the loop itself (`check_list`), or the appends of an exact scan.
"""

import jax
import jax.numpy as jnp
from autograph_py.runtime import nest
from autograph_py.runtime.operators import staging
from autograph_py.runtime.xla.staging import branches, guards, list_reads, loops, values


class JaxStaging:
    scans = True
    skips_empty = True
    probes_lists = False
    swaps_branches = False
    checks_carried_first = False
    staged_if = ("the condition is a JAX tracer, so both branches are traced into one "
                 "lax.cond")
    staged_loop = "the loop is staged with lax (its condition is a JAX tracer)"
    loop_changes = ("a loop staged with lax can only change variables that hold an array "
                    "or a number before it")
    is_carried = staticmethod(values.is_carried)
    to_carried = staticmethod(values.as_array)
    user_code = staticmethod(list_reads.user_code)
    copy_list = staticmethod(list_reads.copy)
    watch_lists = staticmethod(list_reads.watch)
    check_list = staticmethod(loops.check_list)
    check_carried = staticmethod(loops.check_carried)
    checked_read = staticmethod(loops.checked_read)

    def from_carried(self, template, value):
        return value

    def zeros(self, value):
        return nest.map_structure(_zeros, value)

    # --- if

    @list_reads.as_machinery
    def if_stmt(self, pred, body, orelse, get_state, set_state, symbol_names):
        pred = values.truth(pred, "the condition of an `if` statement")
        guard = guards.take()  # set when this `if` starts a bounded loop's step (guards.py)
        staging.if_stmt(self, pred, body, orelse, get_state, set_state, symbol_names, guard)

    def cond(self, pred, staged, guard):
        return branches.cond(pred, staged, guard)

    def branch_outputs(self, end):
        return [values.as_array(v) for v in nest.flatten(end) if values.is_carried(v)]

    def merge(self, init, ends, outputs):
        return list_reads.rewatched(init, branches.assemble(init, ends, outputs))

    def branch_list(self, before, a, b, name):
        branches.check_resized(before, a, b, name)

    def check_leaves(self, a, b, name):
        for x, y in zip(nest.flatten(a), nest.flatten(b)):
            branches.check_same_leaf(x, y, name)

    # --- loops

    @list_reads.as_machinery
    def loop(self, test, body, get_state, set_state, symbol_names, opts, condition=None,
             exact=None):
        """`exact`: the static trip count of a loop that never stops early (then `test`
        is not called: a `for` without `break` over a static length)."""
        before = get_state()
        staging.loop(self, test, body, get_state, set_state, symbol_names, opts, condition,
                     exact)
        set_state(list_reads.rewatched(before, get_state()))

    def next_index(self, index):
        return index + 1

    def both(self, has_item, more):
        return has_item & values.truth(more)

    def condition(self, value):
        return values.truth(value, "a loop's condition")

    def while_loop(self, step, condition, start, opts, **_):
        return loops.while_loop(step, self.condition(condition), start, opts)

    def scan(self, iteration, start, length):
        return loops.scan(iteration, start, length)

    # --- the probe iteration

    def stage_list(self, before, after):
        return None  # never asked: lists are not probed

    def probe(self, run, entry, slots, set_state, get_state):
        flat = nest.flatten(entry)
        carried = [i for i, v in enumerate(flat) if values.is_carried(v)]
        specs = {}

        def one_iteration(*carried_values):
            leaves = list(flat)
            for i, value in zip(carried, carried_values):
                leaves[i] = value
            set_state(nest.pack_sequence_as(entry, leaves))
            with list_reads.user_code():
                run()
            after = get_state()
            for i in slots:
                specs[i] = after[i] if isinstance(after[i], staging.UNASSIGNED) else (
                    nest.map_structure(_spec_of, after[i]))

        jax.eval_shape(one_iteration, *[jax.ShapeDtypeStruct(*values.spec(flat[i]))
                                        for i in carried])
        set_state(entry)
        return specs


def _spec_of(value):
    return jax.ShapeDtypeStruct(*values.spec(value)) if values.is_carried(value) else value


def _zeros(value):
    """Zeros of a probe's spec, or of a carried value's (another leaf is kept)."""
    if isinstance(value, jax.ShapeDtypeStruct):
        return jnp.zeros(value.shape, value.dtype)
    return jnp.zeros(*values.spec(value)) if values.is_carried(value) else value


STAGING = JaxStaging()
