"""The lines running a loop's iterations in chunks of arrays, printed before the loop.

Contract: `emit(program, record, outputs, roles, updates)` returns the lines (unindented,
nested by four spaces) of the vectorized form of the inlined While `record`, or raises
NotVectorizable. The lines run while the loop test holds, a chunk of iterations at a
time; each chunk computes every value the body needs as lanes (lanes.py), finds how
many of its iterations run (the counter's bound, and the first lane where the rest of
the test fails: a `break`, a `return`), and then assigns every loop variable its value
after them, all in one statement. A chunk that raises (a kernel's error, a
`VectorFallback`) assigns nothing: the loop, printed after these lines unchanged, runs
the remaining iterations one by one, and raises the error where they do. When the
counter starts at a constant and its bound is one (a traced length), the number of
iterations is known here: if one chunk holds them, the lines are that chunk alone.
Values are held as the plan holds them (runtime/plan/python_scalars.py): a loop
variable held as a Python scalar is read through its numpy form and assigned `.item()`.
"""

import numpy as np
from autograph_py.runtime.plan.python_scalars import dtype_range, to_numpy
from autograph_py.runtime.plan.vectorize import lanes as lane_helpers
from autograph_py.runtime.plan.vectorize.interpret import INDEXING, NotVectorizable
from autograph_py.runtime.plan.vectorize.updates import FOLDS
from autograph_py.runtime.plan.vectorize.values import (
    Affine,
    Carried,
    Choice,
    Invariant,
    Negated,
    Op,
    constant_int,
    depends_on_carried,
    varies,
)

# The first chunk of a loop that may stop early (a `break`) is smaller, so a search that
# hits at once costs little; chunks grow by GROWTH up to MAX_CHUNK lanes, the memory a
# chunk's arrays may take.
FIRST_CHUNK = 1 << 14
GROWTH = 8
MAX_CHUNK = 1 << 20
# Fewer iterations than this are left to the loop: a chunk costs a few dozen numpy
# calls (tens of µs), a short loop's iterations a fraction of a µs each.
MIN_TRIPS = 48

_COMPARISONS = {"Less": "<", "LessEqual": "<=", "Greater": ">", "GreaterEqual": ">="}
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def emit(program, record, outputs, roles, updates):
    return _Emitter(program, record, outputs, roles, updates).lines()


class _Emitter:
    def __init__(self, program, record, outputs, roles, updates):
        self.program, self.record = program, record
        self.outputs, self.roles, self.updates = outputs, roles, updates
        self.names = record.step.outputs  # the loop variables
        self.tensors = record.op.outputs
        self.body = []          # the chunk's lines
        self.temporaries = []   # the names they bind, deleted after each chunk
        self.memo = {}          # id(value) -> (source, is_lanes)
        self.scans = {}         # loop variable -> its lanes after each iteration
        self.scanning = set()
        self.next_value_of = {id(outputs[j]): j for j in updates}
        self.trips, self.n, self.more = (self.fresh(base) for base in ("trips", "n", "more"))
        # (name, mask): whether the last lane run is the one a `break` flag's mask first
        # holds in (None: the loop has no such flag)
        self.hit = None
        # (counter, c, step, dtype) of the lanes `counter + c + step * k` whose range is
        # checked already (bound_trips checks the loop test's counter)
        self.checked = []

    # --- names --------------------------------------------------------------------

    def fresh(self, base):
        return self.program.namer.fresh(base)

    def helper(self, name):
        """The global bound to the helper `name` of lanes.py (or numpy's `where`...)."""
        helpers = self.program.helpers
        if name not in helpers:
            value = lane_helpers.GLOBALS.get(name) or getattr(np, name)
            helpers[name] = self.fresh(name)
            self.program.namespace[helpers[name]] = value
        return helpers[name]

    def constant(self, base, value):
        name = self.fresh(base)
        self.program.namespace[name] = value
        return name

    def kernel(self, op):
        """The global of the op's kernel: specialized to its inputs' static dtypes where
        that gives the same results (the plan ignores float warnings already)."""
        kernel = op.opdef.kernel
        specialize = getattr(kernel, "specialize", None)
        if specialize is not None and op.inputs and not op.attrs:
            fast = specialize(*(t.dtype.np_dtype for t in op.inputs))
            kernel = getattr(fast, "__wrapped__", fast) or kernel
        name = self.program.namer.kernel(kernel, op.type)
        self.program.namespace[name] = kernel
        return name

    def bind(self, base, source):
        name = self.fresh(base)
        self.body.append(f"{name} = {source}")
        self.temporaries.append(name)
        return name

    def numpy_var(self, j):
        name = self.names[j]
        held = self.program.held.get(name)
        return name if held is None else to_numpy(name, held)

    def held_as_plan(self, j, source, python=False):
        """`source` (a numpy value, or a Python scalar when `python`) as the plan holds
        loop variable j."""
        name = self.names[j]
        if name in self.program.held:
            return source if python else f"{source}.item()"
        if python or self.tensors[j].shape.dims == ():
            return f"{self.helper('asarray')}({source}, {self.dtype(self.tensors[j])})"
        return source

    def dtype(self, tensor):
        np_dtype = tensor.dtype.np_dtype
        key = ("dtype", np_dtype)
        if key not in self.program.helpers:
            self.program.helpers[key] = self.constant(f"dtype_{np_dtype.name}", np_dtype)
        return self.program.helpers[key]

    # --- lanes --------------------------------------------------------------------

    def lanes(self, value):
        """(source, is_lanes): the value in every iteration of the chunk, as an array of
        lanes, or (is_lanes False) once, the same for all."""
        key = id(value)
        if key not in self.memo:
            self.memo[key] = self._lanes(value)
        return self.memo[key]

    def as_lanes(self, value):
        source, is_lanes = self.lanes(value)
        if is_lanes:
            return source
        return self.bind("same", f"{self.helper('broadcast_lanes')}({source}, {self.trips})")

    def _lanes(self, value):
        j = self.next_value_of.get(id(value))
        if j is not None and depends_on_carried(value):
            return self.scan(j), True
        if isinstance(value, Invariant):
            return value.numpy, False
        if isinstance(value, Affine):  # (affine_lanes checks its range)
            return self.bind("counter", f"{self.helper('affine_lanes')}({value.base}, "
                                        f"{value.step}, {self.trips}, "
                                        f"{self.dtype(value.tensor)})"), True
        if isinstance(value, Carried):
            return self.before(value.index), True
        if isinstance(value, Choice):
            return self.choice(value)
        if isinstance(value, Negated):
            source, is_lanes = self.lanes(value.value)
            return self.bind("negated", f"{self.helper('negative')}({source})"), is_lanes
        return self.op(value)

    def check_affine(self, value):
        key = ("range", value.base, value.step)
        if key in self.memo or self.in_range(value.origin, value.step, value.tensor):
            return
        self.body.append(f"{self.helper('check_range')}({value.base}, {value.step}, "
                         f"{self.trips}, {_bounds(value.tensor)})")
        self.mark_checked(value)

    def mark_checked(self, value):
        """The range of the Affine `value`'s lanes is checked (by a line, or bound_trips)."""
        self.memo[("range", value.base, value.step)] = None
        if value.origin is not None:
            self.checked.append((*value.origin, value.step, value.tensor.dtype))

    def in_range(self, origin, step, tensor):
        """Whether `counter + c + step * k` (origin `(counter, c)`) stays in `tensor`'s
        dtype for k in [0, trips), as a range checked already says: the
        counter itself is in range, and so is every value between two that are (the
        range is an interval)."""
        if origin is None:
            return False
        name, c = origin
        for checked_name, checked_c, checked_step, dtype in self.checked:
            if checked_name != name or checked_step != step or dtype != tensor.dtype:
                continue
            # (both ends of the lanes between the counter and the checked lanes' far end)
            low, high = (min(0, checked_c), checked_c) if step > 0 else \
                (checked_c, max(0, checked_c))
            if low <= c <= high:
                return True
        return False

    def broadcastable(self, value, rank):
        source, is_lanes = self.lanes(value)
        if is_lanes and value.tensor.shape.rank < rank:
            return f"{self.helper('expand_lanes')}({source}, {rank})", True
        return source, is_lanes

    def choice(self, value):
        rank = value.tensor.shape.rank
        parts = [self.broadcastable(v, rank) for v in (value.pred, value.then,
                                                        value.otherwise)]
        source = f"{self.helper('where')}({', '.join(s for s, _ in parts)})"
        return self.bind(self.label(value), source), any(is_lanes for _, is_lanes in parts)

    def label(self, value):
        return getattr(getattr(value, "op", None), "name", "choice").rsplit("/", 1)[-1] \
            .lower() + "_lanes"

    def op(self, value):
        op = value.op
        rank = op.outputs[value.output].shape.rank
        if rank is None:
            raise NotVectorizable(f"{op.type} '{op.name}' has a value of unknown rank")
        if not any(map(varies, value.inputs)):
            return self.call(value, [self.lanes(v)[0] for v in value.inputs]), False
        if op.type in INDEXING:
            return self.index(value), True
        if op.type == "ExpandDims":
            axis = op.attrs["axis"]
            axis = axis if axis >= 0 else axis + rank
            source = self.lanes(value.inputs[0])[0]
            return self.bind(self.label(value),
                             f"{self.helper('expand_dims')}({source}, {axis + 1})"), True
        if not op.opdef.elementwise:
            raise NotVectorizable(f"{op.type} '{op.name}' reads values that differ "
                                  "between iterations")
        args = [self.broadcastable(v, rank)[0] for v in value.inputs]
        return self.call(value, args), True

    def call(self, value, args):
        op = value.op
        if op.opdef.needs_context:
            args = ["ctx", *args]
        if op.attrs:
            args.append(f"**{self.constant(f'{self.label(value)}_attrs', op.attrs)}")
        source = f"{self.kernel(op)}({', '.join(args)})"
        if op.opdef.num_outputs != 1:
            source += f"[{value.output}]"
        return self.bind(self.label(value), source)

    def index(self, value):
        params = value.inputs[0]
        source, params_vary = self.lanes(params)
        if params_vary:  # within each element: the lanes' axis first, whole
            spec = (("slice", None, None, None), *value.op.attrs["spec"])
            args = [source, *(self.lanes(v)[0] for v in value.inputs[1:])]
            attrs = self.constant(f"{self.label(value)}_attrs", {"spec": spec})
            return self.bind(self.label(value),
                             f"{self.kernel(value.op)}({', '.join(args)}, **{attrs})")
        index = value.inputs[1]
        if isinstance(index, Affine):  # (lane_rows keeps it in [0, rows): in its dtype)
            call = f"{self.helper('lane_rows')}({source}, {index.base}, {index.step}, {self.trips})"
        else:
            call = f"{self.helper('lane_take')}({source}, {self.lanes(index)[0]})"
        # (`x[i] * x[i]` traces two reads of the same rows: one slice serves both)
        key = ("rows", call)
        if key not in self.memo:
            self.memo[key] = self.bind(self.label(value), call)
        return self.memo[key]

    # --- loop variables across iterations --------------------------------------------

    def scan(self, j):
        """Loop variable j's lanes after each iteration."""
        if j in self.scans:
            return self.scans[j]
        if j in self.scanning:
            raise NotVectorizable(f"'{self.names[j]}' is read where its own update is "
                                  "decided")
        self.scanning.add(j)
        update = self.updates[j]
        mask, values, per_lane = self.mask_and_values(update)
        init = self.numpy_var(j)
        if update.kind == "set":
            source = f"{self.helper('last_hit_scan')}({init}, {values}, {mask}, {self.trips})"
        elif update.kind == "fold":
            identity = self.constant("identity", _identity(update.fold,
                                                           self.tensors[j].dtype.np_dtype))
            values = self.as_lanes_source(values, per_lane)
            source = (f"{self.helper('fold_scan')}({self.ufunc(update.fold)}, {init}, "
                      f"{values}, {mask}, {self.trips}, {identity})")
        else:
            raise NotVectorizable(f"'{self.names[j]}' ({update.kind}) is read inside the "
                                  "loop")
        self.scanning.discard(j)
        self.scans[j] = self.bind(f"{self.names[j]}_after", source)
        return self.scans[j]

    def before(self, j):
        after = self.scan(j)
        init = self.numpy_var(j)
        return self.bind(f"{self.names[j]}_before",
                         f"{self.helper('concatenate')}(({self.helper('asarray')}({init}, "
                         f"{after}.dtype)[None], {after}[:-1]))")

    def as_lanes_source(self, source, per_lane):
        if per_lane:
            return source
        return self.bind("same", f"{self.helper('broadcast_lanes')}({source}, {self.trips})")

    def ufunc(self, fold):
        return self.constant(FOLDS[fold].__name__, FOLDS[fold])

    def condition(self, conds):
        """The lanes where all `conds` ((pred, polarity) pairs) hold, or None."""
        mask = None
        for pred, polarity in conds:
            source = self.as_lanes(pred)
            if not polarity:
                source = self.bind("unless", f"~{source}")
            mask = source if mask is None else self.bind("both", f"{mask} & {source}")
        return mask

    def mask_and_values(self, update, with_values=True):
        """(mask source or "None", values source, values per lane) of an update's
        changing cases; `values` picks each lane's case (computed `with_values`)."""
        key = ("cases", id(update), with_values)
        if key in self.memo:
            return self.memo[key]
        masks = [self.condition(conds) for conds, _ in update.cases]
        payloads = [payload for _, payload in update.cases]
        values = [self.lanes(p) if with_values and update.kind in ("fold", "set", "append")
                  else None for p in payloads]
        if update.kind in ("fold", "set", "append"):
            self.check_shape(update, payloads)
        mask = "None"
        if update.keeps:
            present = [m for m in masks if m is not None]
            mask = present[0] if len(present) == 1 else \
                self.bind("changes", " | ".join(present)) if present else "None"
        if values[0] is None:
            result = (mask, None, True)
        elif len(values) == 1:
            result = (mask, values[0][0], values[0][1])
        else:  # each lane takes its case's value
            rank = self.tensors[update.index].shape.rank if update.kind != "append" else \
                payloads[0].tensor.shape.rank
            chosen = self.as_lanes(payloads[-1])
            for m, p in zip(reversed(masks[:-1]), reversed(payloads[:-1])):
                chosen = self.bind("case", f"{self.helper('where')}("
                                           f"{self.helper('expand_lanes')}({m}, {rank}), "
                                           f"{self.broadcastable(p, rank)[0]}, {chosen})")
            result = (mask, chosen, True)
        self.memo[key] = result
        return result

    def check_shape(self, update, payloads):
        var = self.tensors[update.index]
        for p in payloads:
            shape = p.tensor.shape
            if shape.rank is None or None in shape.dims:
                raise NotVectorizable(f"'{self.names[update.index]}' takes values of unknown "
                                      "shape")
            if update.kind != "append" and not var.shape.is_compatible_with(shape):
                raise NotVectorizable(f"'{self.names[update.index]}' takes values of shape "
                                      f"{shape}, not its own {var.shape}")

    # --- the chunk ----------------------------------------------------------------

    def lines(self):
        test = self.record.loop.test
        bound, extra = self.bound()
        kind, affine, limit = bound
        python = getattr(limit, "python", None)
        limit_source = python if python is not None else f"int({self.lanes(limit)[0]})"
        chunk, total = self.fresh("chunk"), self.fresh("total")
        first = FIRST_CHUNK if extra else MAX_CHUNK
        static = self.static_trips(kind, affine, limit)
        single = static is not None and MIN_TRIPS <= static <= first
        if single:  # (one chunk runs every iteration: no bound to compute, no chunk loop)
            self.body.append(f"{total} = {self.trips} = {static}")
        else:
            self.body += [
                f"{total} = {self.helper('bound_trips')}({kind!r}, {affine.base}, "
                f"{affine.step}, {limit_source}, {_bounds(affine.tensor)})",
                f"if {total} < {MIN_TRIPS}:",
                "    break",
                f"{self.trips} = min({total}, {chunk})",
            ]
        self.mark_checked(affine)  # (by bound_trips, or here when the count is static)
        flag = self.break_flag(extra)
        if flag is not None:  # (the first lane its mask holds in, without the scan)
            j, mask = flag
            self.hit = (self.fresh("hit"), mask)
            self.body += [f"{self.n} = 1 if {self.names[j]} else "
                          f"{self.helper('first_hit')}({mask}, {self.trips})",
                          f"{self.hit[0]} = {mask}[{self.n} - 1]",
                          f"{self.more} = {self.n} == {self.trips} < {total} and not "
                          f"{self.names[j]} and not {self.hit[0]}"]
        elif extra:
            go = self.as_lanes(extra[0])
            for value in extra[1:]:
                go = self.bind("go", f"{go} & {self.as_lanes(value)}")
            self.body += [f"{self.n} = {self.helper('until_false')}({go}, {self.trips})",
                          f"{self.more} = {self.n} == {self.trips} < {total} and "
                          f"bool({go}[{self.n} - 1])"]
        else:
            self.body += [f"{self.n} = {self.trips}", f"{self.more} = {self.trips} < {total}"]
        targets, sources = [], []
        for j in range(len(self.names)):
            role = self.roles[j]
            if role == "same":
                continue
            targets.append(self.names[j])
            if role == "test":
                sources.append(self.held_as_plan(j, self.more, python=True))
            elif role is not None:
                sources.append(self.held_as_plan(j, self.advance(j, role[1]), python=True))
            else:
                sources.append(self.final(j))
        self.body.append(f"{', '.join(targets)} = {', '.join(sources)}")
        if not single:
            self.body.append(f"{chunk} = min({chunk} * {GROWTH}, {MAX_CHUNK})")
        # (a chunk's arrays are freed as soon as it is done)
        dead = [*self.temporaries, self.trips, self.n, self.more, total,
                *([self.hit[0]] if self.hit else [])]
        self.body.append(f"del {', '.join(dead)}")
        error = self.fresh("error")
        loop_test = self.names[test]
        chunks = [f"        {line}" for line in self.body] if single else [
            f"        {chunk} = {first}", f"        while {loop_test}:",
            *(f"            {line}" for line in self.body)]
        return [f"if {loop_test}:",
                "    try:",
                *chunks,
                f"    except Exception as {error}:",
                f"        {self.helper('vector_fallback')}({error})"]

    def static_trips(self, kind, affine, limit):
        """The iterations the loop runs (bound_trips) when its counter starts at a
        constant and its bound is one (`for i in range(n)` over a traced length), else
        None: the lines then need not compute it."""
        bound = constant_int(limit)
        if bound is None or affine.origin is None:
            return None
        name, c = affine.origin
        init = self.program.constants.get(self.record.step.inputs[self.names.index(name)])
        if type(init) is not int:
            return None
        try:
            return lane_helpers.bound_trips(kind, init + c, affine.step, bound,
                                            *dtype_range(affine.tensor.dtype.np_dtype))
        except lane_helpers.VectorFallback:
            return None

    def advance(self, j, step):
        """Counter j after the chunk's n iterations, as a Python int: plain arithmetic
        when a checked range holds all its values up to `counter + step * trips`."""
        name = self.names[j]
        if self.in_range((name, step), step, self.tensors[j]):
            counter = name if name in self.program.held else f"int({name})"
            return f"{counter} + {step} * {self.n}" if step != 1 else f"{counter} + {self.n}"
        return f"{self.helper('advance')}({name}, {step}, {self.n}, {_bounds(self.tensors[j])})"

    def break_flag(self, extra):
        """(loop variable, mask source) when the rest of the test is `not flag` for a
        flag set to True where the mask holds (a `break`, a `return`), else None."""
        if len(extra) != 1 or not isinstance(extra[0], Op) or \
                extra[0].op.type != "LogicalNot":
            return None
        j = self.next_value_of.get(id(extra[0].inputs[0]))
        update = self.updates.get(j)
        if update is None or update.kind != "set" or len(update.cases) != 1 or \
                getattr(update.cases[0][1], "python", None) != "True" or \
                self.tensors[j].shape.rank != 0:
            return None
        mask = self.mask_and_values(update, with_values=False)[0]
        return None if mask == "None" else (j, mask)

    def bound(self):
        """((kind, counter, limit), other conjuncts) of the loop test: the comparison of
        a counter that stops the loop, and the rest (a `break` flag)."""
        conjuncts = _conjuncts(self.outputs[self.record.loop.test])
        for i, value in enumerate(conjuncts):
            found = _counter_bound(value)
            if found is not None:
                return found, conjuncts[:i] + conjuncts[i + 1:]
        raise NotVectorizable("its test compares no counter with a bound")

    def final(self, j):
        """Loop variable j's value after the chunk's first n iterations."""
        update = self.updates[j]
        init = self.numpy_var(j)
        if update.kind == "written":
            return self.written_after_write(update)
        if update.kind == "set" and len(update.cases) == 1 and self.hit is not None and \
                self.mask_and_values(update, with_values=False)[0] == self.hit[1]:
            return self.set_at_hit(j, update.cases[0][1])
        if update.kind == "set" and len(update.cases) == 1 and \
                isinstance(update.cases[0][1], Affine):  # (no lanes of the counter)
            affine = update.cases[0][1]
            self.check_affine(affine)
            mask = self.mask_and_values(update, with_values=False)[0]
            source = (f"{self.helper('last_hit_affine')}({init}, {affine.base}, "
                      f"{affine.step}, {mask}, {self.n}, {self.dtype(affine.tensor)})")
            return self.held_as_plan(j, self.bind(f"{self.names[j]}_final", source))
        if update.kind == "fold" and update.fold == "Add" and len(update.cases) == 1 and \
                not varies(update.cases[0][1]) and \
                self.tensors[j].dtype.np_dtype.kind in "iu" and not self.tensors[j].shape.rank:
            mask = self.mask_and_values(update, with_values=False)[0]
            value = getattr(update.cases[0][1], "python", None) or \
                self.lanes(update.cases[0][1])[0]
            source = (f"{self.helper('fold_count')}({self.names[j]}, {value}, {mask}, "
                      f"{self.n}, {_bounds(self.tensors[j])})")
            return self.held_as_plan(j, self.bind(f"{self.names[j]}_final", source),
                                     python=True)
        mask, values, per_lane = self.mask_and_values(update)
        if update.kind == "fold":
            np_dtype = self.tensors[j].dtype.np_dtype
            identity = self.constant("identity", _identity(update.fold, np_dtype))
            values = self.as_lanes_source(values, per_lane)
            source = (f"{self.helper('fold')}({self.ufunc(update.fold)}, {init}, {values}, "
                      f"{mask}, {self.n}, {np_dtype.kind in 'fc'}, {identity})")
        elif update.kind == "set":
            source = (f"{self.helper('last_hit')}({init}, {values}, {mask}, {self.n}, "
                      f"{per_lane})")
        elif update.kind == "append":
            values = self.as_lanes_source(values, per_lane)
            concat = self.kernel(self.append_op(update))
            source = f"{self.helper('append_rows')}({concat}, {init}, {values}, {mask}, {self.n})"
        else:  # write
            source = self.write(update)
            return self.held_as_plan(j, f"{source}[0]")
        return self.held_as_plan(j, self.bind(f"{self.names[j]}_final", source))

    def set_at_hit(self, j, value):
        """Loop variable j set where the `break` flag's mask holds: the mask holds in no
        lane before the last one run (first_hit), so j takes that lane's value if the
        mask holds there, else keeps its own."""
        hit, last = self.hit[0], f"{self.n} - 1"
        python = getattr(value, "python", None)
        if python is not None:
            source = self.held_as_plan(j, python, python=True)
        elif isinstance(value, Affine):
            self.check_affine(value)
            source = self.held_as_plan(j, f"{value.base} + {value.step} * ({last})",
                                       python=True)
        else:
            values, per_lane = self.lanes(value)
            source = self.held_as_plan(j, f"{values}[{last}]" if per_lane else values)
        return f"({source} if {hit} else {self.names[j]})"

    def append_op(self, update):
        return _concat_of(self.outputs[update.index])

    def write(self, update):
        if len(update.cases) > 1:
            raise NotVectorizable(f"TensorArray '{self.names[update.index]}' is written in "
                                  "several places")
        (_, (scatter, index, row)), = update.cases
        mask = self.mask_and_values(update, with_values=False)[0]
        row_lanes = self.as_lanes(row)
        attrs = self.constant("scatter_attrs", scatter.op.attrs)
        buffer, written = self.numpy_var(update.index), self.numpy_var(update.partner)
        kernel = self.kernel(scatter.op)
        if isinstance(index, Affine):  # (the indices are made only if the writes skip)
            source = (f"{self.helper('scatter_affine')}({kernel}, {buffer}, {written}, "
                      f"{index.base}, {index.step}, {self.dtype(index.tensor)}, "
                      f"{row_lanes}, {mask}, {self.n}, {attrs})")
        else:
            source = (f"{self.helper('scatter_rows')}({kernel}, {buffer}, {written}, "
                      f"{self.as_lanes(index)}, {row_lanes}, {mask}, {self.n}, {attrs})")
        self.memo[("write", update.index)] = name = self.bind("scatter", source)
        return name

    def written_after_write(self, update):
        name = self.memo.get(("write", update.partner))
        if name is None:
            name = self.write(self.updates[update.partner])
        return f"{name}[1]"


def _concat_of(value):
    """The ConcatV2 op of an append update's value (inside the choices of its ifs)."""
    if isinstance(value, Choice):
        return _concat_of(value.then) or _concat_of(value.otherwise)
    if isinstance(value, Op) and value.op.type == "ConcatV2":
        return value.op
    return None


def _conjuncts(value):
    if isinstance(value, Op) and value.op.type == "LogicalAnd":
        return _conjuncts(value.inputs[0]) + _conjuncts(value.inputs[1])
    if isinstance(value, Choice) and value.otherwise is value.pred:
        # (`test if not flag else not flag`: a `break` in a while loop tests the rest
        # only while the flag is unset)
        return _conjuncts(value.pred) + _conjuncts(value.then)
    return [value]


def _counter_bound(value):
    """(kind, counter, limit) when `value` compares an Affine with an integer that is the
    same in every iteration, in the direction its step moves (so it fails after finitely
    many iterations)."""
    if not isinstance(value, Op) or value.op.type not in _COMPARISONS:
        return None
    kind = _COMPARISONS[value.op.type]
    a, b = value.inputs
    if isinstance(b, Affine) and not varies(a):  # (`n > i`)
        a, b, kind = b, a, _MIRRORED[kind]
    if not (isinstance(a, Affine) and not varies(b) and b.tensor.shape.dims == ()):
        return None  # (the limit may be computed in the body: `len(x)` of an unknown length)
    if (kind in ("<", "<=")) != (a.step > 0):
        return None
    return kind, a, b


def _bounds(tensor):
    """`low, high`: the range of an integer tensor's dtype, as source."""
    low, high = dtype_range(tensor.dtype.np_dtype)
    return f"{low}, {high}"


def _identity(fold, np_dtype):
    """The value that leaves `v ⊕ x` unchanged for every v, bit for bit (masked lanes)."""
    kind = np_dtype.kind
    if fold == "Add":
        return np.asarray(-0.0 if kind in "fc" else 0, np_dtype)
    if fold == "Sub":
        return np.asarray(0, np_dtype)
    if fold == "Mul":
        return np.asarray(1, np_dtype)
    if fold in ("LogicalAnd", "LogicalOr"):
        return np.asarray(fold == "LogicalAnd")
    extreme = np.inf if kind == "f" else np.iinfo(np_dtype).max if kind in "iu" else True
    if fold == "Maximum":
        extreme = -extreme if kind == "f" else np.iinfo(np_dtype).min if kind in "iu" else False
    return np.asarray(extreme, np_dtype)
