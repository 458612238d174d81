"""Learning-rate schedules (`ag.optimizers.schedules`, Keras's): a schedule is called with
the step (an optimizer passes its `iterations`) and returns the learning rate, as a
tensor, by ops: eagerly, in a graph, and inside an `ag.function`, where the rate follows
the step on every call of one trace.

- `ExponentialDecay(initial_learning_rate, decay_steps, decay_rate, staircase=False)`:
  `initial_learning_rate * decay_rate ** (step / decay_steps)`, the exponent floored
  when `staircase`.
- `PiecewiseConstantDecay(boundaries, values)`: `values[0]` while `step <= boundaries[0]`,
  `values[i]` while `boundaries[i-1] < step <= boundaries[i]`, `values[-1]` after the last
  boundary.
"""

from autograph_py.runtime.graph import name_scope
from autograph_py.runtime.ops.array_ops import cast, where
from autograph_py.runtime.ops.core import constant, convert_to_tensor
from autograph_py.runtime.ops.unary_math_ops import floor


class LearningRateSchedule:
    """The base of schedules: `schedule(step)` is the learning rate at `step`."""

    def __call__(self, step):
        raise NotImplementedError(f"{type(self).__name__} must define __call__(step)")

    def get_config(self):
        raise NotImplementedError(f"{type(self).__name__} must define get_config()")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class ExponentialDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0, got {decay_steps}")
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        with name_scope(self.name):
            initial = convert_to_tensor(self.initial_learning_rate)
            dtype = initial.dtype
            exponent = cast(step, dtype) / constant(self.decay_steps, dtype)
            if self.staircase:
                exponent = floor(exponent)
            return initial * constant(self.decay_rate, dtype) ** exponent

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class PiecewiseConstantDecay(LearningRateSchedule):
    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(f"The length of boundaries should be 1 less than the length of "
                             f"values: {len(boundaries)} boundaries, {len(values)} values")
        self.boundaries = list(boundaries)
        self.values = list(values)
        self.name = name

    def __call__(self, step):
        with name_scope(self.name):
            # Compared in float64: exact for every integer step a run can reach.
            step = cast(step, "float64")
            values = convert_to_tensor(self.values)
            rate = values[-1]
            for i in reversed(range(len(self.boundaries))):
                rate = where(step <= float(self.boundaries[i]), values[i], rate)
            return rate

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}
