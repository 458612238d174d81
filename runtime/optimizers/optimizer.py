"""`Optimizer`: the base of the optimizers, with Keras's `apply_gradients` contract.

Contract:
- `apply_gradients(grads_and_vars)` takes (gradient, Variable) pairs (`zip(grads, vars)`),
  skips the pairs whose gradient is None with a `MissingGradientWarning` naming their
  Variables (a ValueError when no gradient is left), updates each Variable by the
  subclass's rule, then adds 1 to `iterations` and returns what that assignment returns.
  It runs eagerly, while an `ag.function` traces (the updates become ops of its graph)
  and in a graph a Session runs (the returned tensor depends on every update, so running
  it runs the step).
- The learning rate is read once per step, before `iterations` grows: a number is kept
  in a Variable (`optimizer.learning_rate = 0.01` changes it, traced functions included),
  a `LearningRateSchedule` is called with `iterations`, another callable with nothing.
- Slot Variables (Adam's moments, ...) are made for a Variable the first time it is
  updated (or by `build(var_list)`), then reused: inside an `ag.function` the first trace
  makes them (lifted out of the graph, as every Variable made there), later traces and
  calls find them. `iterations` and the learning rate Variable are made with the
  optimizer.
- A subclass lists its slots in `_slot_initial_values()` ({name: initial value}) and
  writes `_update_step(gradient, variable, learning_rate)`, returning the results of its
  assignments; gradient and learning rate come in the Variable's dtype.
"""

import threading
import warnings

import numpy as np
from autograph_py.runtime import errors
from autograph_py.runtime.distribute.replica_context import aggregate_gradients
from autograph_py.runtime.graph import name_scope
from autograph_py.runtime.ops.array_ops import cast
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.optimizers.schedules import LearningRateSchedule
from autograph_py.runtime.tensor import SymbolicTensor
from autograph_py.runtime.variables import Variable


class MissingGradientWarning(UserWarning):
    """`apply_gradients` got a None gradient: that Variable is left as it is."""


_warning_registry = {}  # one warning per message and line, as warnings.warn gives


class Optimizer:
    def __init__(self, learning_rate, name):
        self.name = name
        self._slots = {}  # id(variable) -> (variable, {slot name: slot Variable})
        self._slots_lock = threading.Lock()  # two threads' first steps make one set
        self.iterations = Variable(np.int64(0), trainable=False, name="iteration")
        if isinstance(learning_rate, LearningRateSchedule) or callable(learning_rate):
            self._learning_rate = learning_rate
        else:
            self._learning_rate = Variable(_learning_rate_value(learning_rate),
                                           trainable=False, name="learning_rate")

    # --- the learning rate ------------------------------------------------------------

    @property
    def learning_rate(self):
        """The learning rate now: the Variable holding a constant rate, or the value of
        the schedule at `iterations`."""
        rate = self._learning_rate
        if isinstance(rate, Variable):
            return rate
        if isinstance(rate, LearningRateSchedule):
            return rate(self.iterations)
        return rate()

    @learning_rate.setter
    def learning_rate(self, value):
        if not isinstance(self._learning_rate, Variable):
            raise TypeError(f"optimizer {self.name!r} was made with a learning rate schedule "
                            "(or callable), so its learning rate cannot be set; make a new "
                            "optimizer")
        self._learning_rate.assign(_learning_rate_value(value))

    # --- state ------------------------------------------------------------------------

    @property
    def variables(self):
        """The optimizer's own Variables: `iterations`, the learning rate's, the slots."""
        own = [self.iterations]
        if isinstance(self._learning_rate, Variable):
            own.append(self._learning_rate)
        return own + [slot for _, slots in self._slots.values() for slot in slots.values()]

    def build(self, var_list):
        """Make the slot Variables of `var_list` now (else each first update makes them)."""
        for var in var_list:
            self._slots_of(var)

    def _slot_initial_values(self):
        return {}

    def _slots_of(self, var):
        entry = self._slots.get(id(var))
        if entry is not None:
            return entry[1]
        if not var.shape.is_fully_defined():
            raise ValueError(f"{type(self).__name__} cannot make its slots for Variable "
                             f"'{var.name}' of shape {var.shape}: the shape must be known")
        with self._slots_lock:
            entry = self._slots.get(id(var))
            if entry is None:
                slots = {name: Variable(np.full(var.shape.as_list(), value, var.dtype.np_dtype),
                                        trainable=False, name=f"{var.name}_{name}")
                         for name, value in self._slot_initial_values().items()}
                entry = self._slots[id(var)] = (var, slots)  # holding var keeps its id unique
        return entry[1]

    # --- applying gradients -----------------------------------------------------------

    def apply_gradients(self, grads_and_vars, name=None):
        pairs = _present_gradients(list(grads_and_vars))
        # Inside strategy.run: every replica applies the SUM of all replicas' gradients
        # (TensorFlow's rule), so the mirrored Variables stay one value.
        grads = aggregate_gradients([grad for grad, _ in pairs])
        pairs = [(grad, var) for grad, (_, var) in zip(grads, pairs)]
        with name_scope(name or self.name):
            self.build([var for _, var in pairs])
            rate = convert_to_tensor(self.learning_rate)
            updates = []
            for grad, var in pairs:
                updates.extend(self._update_step(_as_gradient(grad, var), var,
                                                 cast(rate, var.dtype)))
            step = self.iterations.assign_add(1)
        if isinstance(step, SymbolicTensor):
            # In a graph a Session runs, running the step runs every update; function
            # graphs order their stateful ops already.
            for update in updates:
                if isinstance(update, SymbolicTensor):
                    step.op.add_control_input(update.op)
        return step

    def _update_step(self, gradient, variable, learning_rate):
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r}>"


def _learning_rate_value(value):
    try:
        return np.float32(value)
    except (TypeError, ValueError):
        raise TypeError(f"learning_rate must be a number, a LearningRateSchedule or a callable "
                        f"returning the rate, got {value!r:.60}") from None


def _present_gradients(pairs):
    """The pairs with a gradient; a warning names the Variables without one."""
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2 or \
                not isinstance(pair[1], Variable):
            raise TypeError(f"apply_gradients takes (gradient, Variable) pairs, such as "
                            f"zip(grads, model.trainable_variables); got {pair!r:.80}")
    present = [(grad, var) for grad, var in pairs if grad is not None]
    if not present:
        raise ValueError(f"No gradients provided for any variable: "
                         f"{[var.name for _, var in pairs]}")
    if len(present) < len(pairs):
        missing = [var.name for grad, var in pairs if grad is None]
        location = errors.user_location()
        filename, lineno = location if location is not None else ("<unknown>", 0)
        warnings.warn_explicit(
            f"Gradients do not exist for variables {missing} when minimizing the loss: "
            "apply_gradients leaves them unchanged (the loss does not depend on them, or only "
            "through integer or non-differentiable ops)", MissingGradientWarning, filename,
            lineno, registry=_warning_registry)
    return present


def _as_gradient(grad, var):
    grad = convert_to_tensor(grad)
    if not var.shape.is_compatible_with(grad.shape):
        raise ValueError(f"the gradient for Variable '{var.name}' has shape {grad.shape}, the "
                         f"Variable {var.shape}")
    return cast(grad, var.dtype)
