"""JAX tracers as an adapter of the shared staging algorithm (runtime/operators/staging.py).

Contract: `JaxStaging` supplies the primitives staging.py drives, with JAX:
- the `for` index is a traced int counted with `+ 1`; the stop test is
  `has_item & truth(extra_test())`; a static trip count with no early stop is a
  `lax.scan` of exactly that many steps (`scans`; the loop itself: loops.py).
- the probe iteration is `jax.eval_shape` of the body and the test from inputs of the
  carried values' specs (the user's code run under `list_reads.user_code()`); the
  specs of its end state are read inside the trace, so its tracers never escape, and the
  state is set back to the entry afterwards. A probed symbol starts as zeros of its spec.
- lists are never probed (`probes_lists` is False): a list the loop resizes is an error
  of the loop itself (loops.py), or the appends of an exact scan.
"""

import jax
import jax.numpy as jnp
from autograph_py.runtime import nest
from autograph_py.runtime.operators.staging import UNASSIGNED
from autograph_py.runtime.xla.staging import list_reads, loops, values


class JaxStaging:
    scans = True
    probes_lists = False
    staged_loop = "the loop is staged with lax (its condition is a JAX tracer)"

    def both(self, has_item, more):
        return has_item & values.truth(more)

    def next_index(self, index):
        return index + 1

    def loop(self, test, body, get_state, set_state, symbol_names, opts, exact):
        loops.loop(self, test, body, get_state, set_state, symbol_names, opts, exact=exact)

    def zeros(self, value):
        return nest.map_structure(_zeros_of_spec, value)

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
                specs[i] = after[i] if isinstance(after[i], UNASSIGNED) else (
                    nest.map_structure(_spec_of, after[i]))

        jax.eval_shape(one_iteration, *[jax.ShapeDtypeStruct(*values.spec(flat[i]))
                                        for i in carried])
        set_state(entry)
        return specs


def _spec_of(value):
    return jax.ShapeDtypeStruct(*values.spec(value)) if values.is_carried(value) else value


def _zeros_of_spec(value):
    if isinstance(value, jax.ShapeDtypeStruct):
        return jnp.zeros(value.shape, value.dtype)
    return value


STAGING = JaxStaging()
