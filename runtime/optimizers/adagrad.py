"""`Adagrad` (Keras's rule):

    accumulator = accumulator + g * g          (starting at initial_accumulator_value)
    w = w - learning_rate * g / sqrt(accumulator + epsilon)
"""

from autograph_py.runtime.ops.math_ops import sqrt, square
from autograph_py.runtime.optimizers.optimizer import Optimizer


class Adagrad(Optimizer):
    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="Adagrad"):
        if initial_accumulator_value < 0:
            raise ValueError("`initial_accumulator_value` must be non-negative, got "
                             f"{initial_accumulator_value}")
        super().__init__(learning_rate, name)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def _slot_initial_values(self):
        return {"accumulator": self.initial_accumulator_value}

    def _update_step(self, gradient, variable, learning_rate):
        accumulator = self._slots_of(variable)["accumulator"]
        accumulator = accumulator.assign_add(square(gradient))
        return [accumulator, variable.assign_sub(
            learning_rate * gradient / sqrt(accumulator + self.epsilon))]
