"""Control-flow ops: `cond` and `while_loop`.

Contract:
- Eagerly (no graph being built, no symbolic input) both are plain Python.
- In graph mode `cond` traces each branch into a `FuncGraph` and adds one `If` op;
  `while_loop` traces the condition and the body into `FuncGraph`s and adds one `While`
  op. Outer tensors used inside are captured explicitly (inputs of the op).
- Branch outputs and loop variables are nested structures. Python numbers among them
  become tensors (taking the dtype of the other branch / the loop variable when
  lossless). Dtypes must agree between branches and across iterations: a TypeError names
  the output (by name when the caller passes `names`, else the body's parameter or the
  index). Branch shapes may differ: the result has the most specific shape both satisfy.
  A loop variable keeps its shape unless `shape_invariants` allows it to change
  (runtime/shape_invariants.py); the body is retraced with relaxed shapes until the
  shapes agree.
- The predicate must be a scalar bool tensor: anything else is a clear error.
- Stateful ops inside a branch or a body run when, and only when, it runs.
- A staged loop is a stateful op (it may hang or fail, so it is never pruned): it runs
  in a function graph, and with the results of converted code, even when its results
  are unused.
"""

import inspect

from autograph_py.runtime import context, dtypes, nest
from autograph_py.runtime import shape_invariants as shape_invariants_lib
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.plan.executor import call_subgraph, forwarded_input, subgraph_runner
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.tensor import EagerTensor, Tensor, is_symbolic

# --- the If and While ops -----------------------------------------------------------------


def _if_kernel(ctx, pred, *captured, then_graph, else_graph, then_indices, else_indices,
               output_specs):
    if pred:
        return tuple(call_subgraph(ctx, then_graph, [captured[i] for i in then_indices]))
    return tuple(call_subgraph(ctx, else_graph, [captured[i] for i in else_indices]))


def _while_kernel(ctx, *inputs, cond_graph, body_graph, num_vars, cond_indices,
                  body_indices, maximum_iterations, output_specs):
    # The runners are looked up once: an iteration is two calls of compiled plans.
    run_cond = subgraph_runner(ctx, cond_graph)
    run_body = subgraph_runner(ctx, body_graph)
    loop_vars = list(inputs[:num_vars])
    captured = inputs[num_vars:]
    cond_extra = [captured[i] for i in cond_indices]
    body_extra = [captured[i] for i in body_indices]
    if maximum_iterations is None:
        test = forwarded_input(cond_graph)
        if test is not None and test < num_vars:  # a rotated loop: the test is a variable
            while loop_vars[test]:
                loop_vars = run_body(loop_vars + body_extra)
            return tuple(loop_vars)
        while run_cond(loop_vars + cond_extra)[0]:
            loop_vars = run_body(loop_vars + body_extra)
        return tuple(loop_vars)
    iterations = 0
    while iterations < maximum_iterations:
        if not run_cond(loop_vars + cond_extra)[0]:
            break
        loop_vars = run_body(loop_vars + body_extra)
        iterations += 1
    return tuple(loop_vars)


def _specs_infer(*inputs, output_specs, **attrs):
    return list(output_specs)


# Like TensorFlow's If/StatelessIf: a branch holding stateful ops (print, assign, Assert)
# makes the op stateful, so it is never pruned and runs in program order. A While is
# always stateful, as TensorFlow's While: a loop may not terminate (or may fail), which
# must happen even when its results are unused.
for _stateful, _prefix in ((False, ""), (True, "Stateful")):
    register(OpDef(f"{_prefix}If", _if_kernel, _specs_infer, num_outputs=-1,
                   stateful=_stateful, needs_context=True))
register(OpDef("While", _while_kernel, _specs_infer, num_outputs=-1, stateful=True,
               needs_context=True))


def _op_type(base, *graphs):
    return ("Stateful" + base) if any(g.stateful_ops for g in graphs) else base


# --- helpers --------------------------------------------------------------------------------


def _describe(names, index):
    if names is not None and index < len(names):
        return f"'{names[index]}'"
    return f"output {index}"


def check_predicate(pred, what):
    """Raise unless `pred` can decide a branch: a scalar bool (symbolic) or a scalar."""
    if pred.shape.rank not in (0, None):
        raise ValueError(f"{what}: the condition must be a scalar, got a tensor of shape "
                         f"{pred.shape} ({pred}); reduce it with ag.reduce_all / "
                         "ag.reduce_any")
    if is_symbolic(pred) and not pred.dtype.is_bool:
        raise TypeError(f"{what}: the condition must be a bool tensor, got dtype "
                        f"{pred.dtype.name} ({pred}); compare it, e.g. `x > 0`")


def _eager_predicate(pred, what):
    if isinstance(pred, EagerTensor):
        if pred._value.size != 1 or pred._value.ndim not in (0,):
            if pred._value.ndim != 0:
                raise ValueError(f"{what}: the condition must be a scalar, got a tensor of "
                                 f"shape {pred.shape}")
        return bool(pred._value)
    return bool(pred)


def _trace(name, outer, fn, args=()):
    graph = FuncGraph(name, outer)
    with graph.as_default():
        result = fn(*args)
    return graph, result


def _graph_constant(graph, value, dtype):
    with graph.as_default():
        return convert_to_tensor(value, dtype)


def _to_graph_tensor(graph, value, dtype_hint, what):
    """`value` (an output of a traced body) as a tensor of `graph`."""
    if hasattr(value, "_as_tensor"):  # a Variable is read, a TensorList is its tensor
        with graph.as_default():
            value = convert_to_tensor(value)
    if isinstance(value, Tensor):
        return graph.capture(value) if not is_symbolic(value) or value.graph is not graph \
            else value
    try:
        if dtype_hint is not None:
            try:
                return _graph_constant(graph, value, dtype_hint)
            except TypeError:
                pass
        return _graph_constant(graph, value, None)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{what} is {value!r}, which cannot become a tensor: {e}") from None


# --- cond -----------------------------------------------------------------------------------


def cond(pred, true_fn, false_fn, name=None, names=None):
    """`true_fn()` if `pred` else `false_fn()`; staged as an `If` op when `pred` is symbolic."""
    if isinstance(pred, Tensor):
        pred_tensor = pred
    elif hasattr(pred, "_as_tensor"):
        pred_tensor = convert_to_tensor(pred)
    else:
        return true_fn() if pred else false_fn()
    check_predicate(pred_tensor, "cond")
    if not is_symbolic(pred_tensor) and context.current_graph() is None:
        return true_fn() if _eager_predicate(pred_tensor, "cond") else false_fn()
    pred_tensor = convert_to_tensor(pred_tensor)
    outer = context.current_graph() or pred_tensor.graph
    then_graph, then_out = _trace("then", outer, true_fn)
    else_graph, else_out = _trace("else", outer, false_fn)
    try:
        nest.assert_same_structure(then_out, else_out, "branch outputs")
    except ValueError as e:
        raise ValueError(f"cond: the true and false branches return different structures: "
                         f"{e}") from None
    then_flat, else_flat = nest.flatten(then_out), nest.flatten(else_out)
    staged = []  # positions that become If outputs
    for i, (a, b) in enumerate(zip(then_flat, else_flat)):
        if a is None and b is None:
            continue
        if a is b and not isinstance(a, Tensor):
            continue  # the same Python object from both branches: keep it as is
        if a is None or b is None:
            which = "true" if a is None else "false"
            raise ValueError(f"cond: {_describe(names, i)} is None in the {which} branch but "
                             "a value in the other; give it a value in both branches")
        hint_a = b.dtype if isinstance(b, Tensor) else None
        hint_b = a.dtype if isinstance(a, Tensor) else None
        ta = _to_graph_tensor(then_graph, a, hint_a, f"{_describe(names, i)} (true branch)")
        tb = _to_graph_tensor(else_graph, b, hint_b, f"{_describe(names, i)} (false branch)")
        if ta.dtype is not tb.dtype:
            raise TypeError(f"cond: {_describe(names, i)} has dtype {ta.dtype.name} in the "
                            f"true branch but {tb.dtype.name} in the false branch; both "
                            "branches must give it the same dtype")
        staged.append((i, ta, tb))
    then_graph.outputs = [ta for _, ta, _ in staged]
    else_graph.outputs = [tb for _, _, tb in staged]
    then_graph.output_names = [_describe(names, i) for i, _, _ in staged]
    captured, then_indices, else_indices = _merge_captures(then_graph, else_graph)
    specs = [(ta.shape.most_specific_compatible(tb.shape), ta.dtype) for _, ta, tb in staged]
    outputs = apply(_op_type("If", then_graph, else_graph), [pred_tensor] + captured, {
        "then_graph": then_graph, "else_graph": else_graph, "then_indices": then_indices,
        "else_indices": else_indices, "output_specs": specs}, op_name=name)
    result = list(then_flat)
    for (i, _, _), t in zip(staged, outputs):
        result[i] = t
    return nest.pack_sequence_as(then_out, result)


def _merge_captures(*graphs):
    captured, index_of, per_graph = [], {}, []
    for graph in graphs:
        indices = []
        for outer, _ in graph.captures:
            if id(outer) not in index_of:
                index_of[id(outer)] = len(captured)
                captured.append(outer)
            indices.append(index_of[id(outer)])
        per_graph.append(indices)
    return (captured, *per_graph)


# --- while_loop -----------------------------------------------------------------------------


def while_loop(cond, body, loop_vars, shape_invariants=None, maximum_iterations=None,
               name=None, names=None):
    """Repeat `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`; staged in graph mode.

    `shape_invariants` has the structure of `loop_vars` (a shape per variable, None for a
    variable that keeps its shape); runtime/shape_invariants.py states the rules."""
    single = not isinstance(loop_vars, (list, tuple))
    structure = [loop_vars] if single else loop_vars
    flat = nest.flatten(structure)
    invariants = shape_invariants_lib.flat_invariants(
        structure, [shape_invariants] if single and shape_invariants is not None
        else shape_invariants)
    if names is None:
        names = _leaf_names(structure, _loop_var_names(body, len(structure)))
    graph = context.current_graph()
    if graph is None:
        for leaf in flat:
            if is_symbolic(leaf):
                graph = leaf.graph
                break
    if graph is None:
        return _eager_while(cond, body, structure, single, maximum_iterations)

    def unpack(values):
        return nest.pack_sequence_as(structure, values)

    with graph.as_default():
        initial = [convert_to_tensor(v) if isinstance(v, Tensor) or hasattr(v, "_as_tensor")
                   else _initial_constant(v, _describe(names, i)) for i, v in enumerate(flat)]
        if maximum_iterations is not None and isinstance(maximum_iterations, Tensor):
            raise TypeError("while_loop: maximum_iterations must be a Python int")
    specs = [(shape_invariants_lib.entry_shape(t.shape, inv, _describe(names, i)), t.dtype)
             for i, (t, inv) in enumerate(zip(initial, invariants))]
    for _ in range(len(specs) + 2):
        cond_graph = FuncGraph("while_cond", graph)
        body_graph = FuncGraph("while_body", graph)
        cond_args = [cond_graph.add_input(_var_name(names, i), s, d)
                     for i, (s, d) in enumerate(specs)]
        body_args = [body_graph.add_input(_var_name(names, i), s, d)
                     for i, (s, d) in enumerate(specs)]
        with cond_graph.as_default():
            c = cond(*_call_args(unpack(cond_args), single))
            c = convert_to_tensor(c) if (isinstance(c, Tensor) or hasattr(c, "_as_tensor")) \
                else _graph_constant(cond_graph, bool(c), dtypes.bool_)
        check_predicate(c, "while_loop")
        cond_graph.outputs = [cond_graph.capture(c)]
        with body_graph.as_default():
            out = body(*_call_args(unpack(body_args), single))
        out_structure = _body_result(out, structure, single, body)
        out_flat = nest.flatten(out_structure)
        outs = []
        for i, (value, (_shape, dtype)) in enumerate(zip(out_flat, specs)):
            t = _to_graph_tensor(body_graph, value, dtype, f"loop variable {_describe(names, i)}")
            if t.dtype is not dtype:
                raise TypeError(
                    f"while_loop: loop variable {_describe(names, i)} has dtype {dtype.name} "
                    f"before the loop but {t.dtype.name} after an iteration; a loop variable "
                    "must keep its dtype (cast it with ag.cast)")
            outs.append(t)
        body_graph.outputs = outs
        relaxed = [(shape_invariants_lib.next_shape(s, t.shape, inv, _describe(names, i)), d)
                   for i, ((s, d), t, inv) in enumerate(zip(specs, outs, invariants))]
        if relaxed == specs:
            break
        specs = relaxed
    num_vars = len(initial)
    captured, cond_indices, body_indices = _merge_captures(cond_graph, body_graph)
    # FuncGraph inputs: loop variables first, then captures in capture order.
    outputs = apply("While", initial + captured, {
        "cond_graph": cond_graph, "body_graph": body_graph, "num_vars": num_vars,
        "cond_indices": cond_indices, "body_indices": body_indices,
        "maximum_iterations": maximum_iterations, "output_specs": specs}, op_name=name)
    result = unpack(list(outputs))
    return result[0] if single else result


def _initial_constant(value, what):
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"while_loop: loop variable {what} is {value!r}, which cannot become a "
                        f"tensor: {e}") from None


def _leaf_names(structure, var_names):
    """A name per leaf of `structure` for messages: `x`, `pair[0]`."""
    names = []
    for var, value in zip(var_names, structure):
        leaves = nest.flatten(value)
        if len(leaves) == 1 and not nest.is_nested(value):
            names.append(var)
        else:
            names.extend(f"{var}[{i}]" for i in range(len(leaves)))
    return names


def _var_name(names, i):
    if names is not None and i < len(names):
        return "".join(c if c.isalnum() or c == "_" else "_" for c in names[i]) or f"var_{i}"
    return f"loop_var_{i}"


def _body_result(out, structure, single, body):
    """The body's result as a list of loop variables (a bare value for one variable is
    accepted, as in TensorFlow), or a ValueError naming the loop variables when it does
    not have their structure."""
    if single and isinstance(out, (list, tuple)) and len(out) == 1:
        result = list(out)
    elif single or not isinstance(out, (list, tuple)):
        result = [out]
    else:
        result = list(out)
    names = _loop_var_names(body, len(structure))
    try:
        if len(result) != len(structure):
            raise ValueError(f"expected {len(structure)} values, got {len(result)}")
        for name, before, after in zip(names, structure, result):
            nest.assert_same_structure(before, after, name)
    except ValueError as e:
        raise ValueError(f"while_loop: the body must return the loop variables "
                         f"({', '.join(names)}) in their structure, got {out!r}: {e}") from None
    return result


def _loop_var_names(body, count):
    """The loop variables' names for messages: the body's parameters, else positions."""
    try:
        params = [p.name for p in inspect.signature(body).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):  # no signature (a builtin)
        params = []
    return params if len(params) == count else [f"loop_vars[{i}]" for i in range(count)]


def _call_args(structure, single):
    return [structure[0]] if single else list(structure)


def _eager_while(cond, body, structure, single, maximum_iterations):
    values = list(structure)
    iterations = 0
    while maximum_iterations is None or iterations < maximum_iterations:
        c = cond(*values)
        if isinstance(c, Tensor):
            check_predicate(c, "while_loop")
        if not c:
            break
        values = _body_result(body(*values), structure, single, body)
        iterations += 1
    return values[0] if single else type(structure)(values)

