"""The one cache of an `ag.function`: traced ConcreteFunctions, found by subtype.

Contract (TensorFlow's function cache, DESIGN.md §5):
- `add(key, concrete)` records a trace made for `key` (see `trace_key`); its shapes may
  be general (an `input_signature`, a relaxed `reduce_retracing` trace, a partial spec).
- `lookup(key)` returns the trace that serves a call of `key`: one made for that very key,
  else the most specific trace of the same structure whose shapes are supertypes of the
  call's (`[None]` serves every length), else None. The answer is remembered per key
  (up to `_MAX_RESOLVED` keys), so a repeated call costs one dict lookup.
- `fast` maps the fast key of a plain call of eager tensors (`trace_key.eager_call_key`)
  to the `_call_flat` of the trace `lookup` gave for its key (`remember_fast`; what
  `trace_key.FAST_CALLS` runs); it is forgotten whenever
  the resolved answers are, so it never serves a call other than `lookup` would.
- `concrete_functions()` lists every trace (what `ag.saved_model.save` writes).
- Lookups take no lock and may run while another thread adds a trace (they see it or
  not); `add` is called under the owning Function's trace lock.
"""

from autograph_py.tracing.trace_key import is_subtype, specificity

_MAX_RESOLVED = 1024  # remembered answers; beyond, the memo starts over (bounded memory)


class FunctionCache:
    def __init__(self):
        self._resolved = {}   # key -> ConcreteFunction serving it (traced for it or wider)
        self._traces = {}     # structure -> [(shapes, ConcreteFunction)], in trace order
        # eager_call_key's fast key -> `_call_flat` of what lookup gave for its key; one
        # dict for the cache's life (cleared, never replaced): a Function holds it.
        self.fast = {}

    def lookup(self, key):
        return self._resolved.get(key) or self._search(key)

    def _search(self, key):
        structure, shapes = key
        best, best_rank = None, -1
        for trace_shapes, candidate in self._traces.get(structure, ()):
            if is_subtype(shapes, trace_shapes) and specificity(trace_shapes) > best_rank:
                best, best_rank = candidate, specificity(trace_shapes)
        if best is not None:
            if len(self._resolved) >= _MAX_RESOLVED:  # e.g. a [None] trace fed every length
                self._resolved = {}
                self.fast.clear()
            self._resolved[key] = best
        return best

    def remember_fast(self, fast_key, concrete):
        if len(self.fast) >= _MAX_RESOLVED:
            self.fast.clear()
        self.fast[fast_key] = concrete._call_flat

    def add(self, key, concrete):
        structure, shapes = key
        self._traces.setdefault(structure, []).append((shapes, concrete))
        # A new trace may be more specific than what an earlier lookup resolved to.
        self._resolved = {key: concrete}
        self.fast.clear()

    def concrete_functions(self):
        """Every trace, oldest first."""
        return [concrete for traces in self._traces.values() for _, concrete in traces]

    def shapes_traced(self, structure):
        """The shapes of the traces made for `structure`, oldest first."""
        return [shapes for shapes, _ in self._traces.get(structure, ())]
