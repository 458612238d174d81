"""`Adam` (Keras's rule; `epsilon` is the paper's "epsilon hat"): at step t = iterations + 1,

    alpha = learning_rate * sqrt(1 - beta_2 ** t) / (1 - beta_1 ** t)
    m = m + (g - m) * (1 - beta_1)
    v = v + (g * g - v) * (1 - beta_2)
    w = w - alpha * m / (sqrt(v) + epsilon)
"""

from autograph_py.runtime.ops.array_ops import cast
from autograph_py.runtime.ops.core import constant
from autograph_py.runtime.ops.math_ops import sqrt, square
from autograph_py.runtime.optimizers.optimizer import Optimizer


class Adam(Optimizer):
    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Adam"):
        super().__init__(learning_rate, name)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def _slot_initial_values(self):
        return {"momentum": 0.0, "velocity": 0.0}

    def _update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        step = cast(self.iterations + 1, dtype)
        beta_1_power = constant(self.beta_1, dtype) ** step
        beta_2_power = constant(self.beta_2, dtype) ** step
        alpha = learning_rate * sqrt(1 - beta_2_power) / (1 - beta_1_power)
        slots = self._slots_of(variable)
        m, v = slots["momentum"], slots["velocity"]
        m = m.assign_add((gradient - m) * (1 - self.beta_1))
        v = v.assign_add((square(gradient) - v) * (1 - self.beta_2))
        return [m, v, variable.assign_sub(m * alpha / (sqrt(v) + self.epsilon))]
