"""`RMSprop` (Keras's rule):

    velocity = rho * velocity + (1 - rho) * g * g
    centered:     average = rho * average + (1 - rho) * g
                  denominator = velocity - average * average + epsilon
    not centered: denominator = velocity + epsilon
    increment = learning_rate * g / sqrt(denominator)
    momentum > 0: moment = momentum * moment + increment;  w = w - moment
    else:         w = w - increment
"""

from autograph_py.runtime.ops.math_ops import sqrt, square
from autograph_py.runtime.optimizers.optimizer import Optimizer


class RMSprop(Optimizer):
    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name="RMSprop"):
        super().__init__(learning_rate, name)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def _slot_initial_values(self):
        slots = {"velocity": 0.0}
        if self.momentum > 0:
            slots["momentum"] = 0.0
        if self.centered:
            slots["average_gradient"] = 0.0
        return slots

    def _update_step(self, gradient, variable, learning_rate):
        rho = self.rho
        slots = self._slots_of(variable)
        velocity = slots["velocity"]
        velocity = velocity.assign(rho * velocity + (1 - rho) * square(gradient))
        updates = [velocity]
        if self.centered:
            average = slots["average_gradient"]
            average = average.assign(rho * average + (1 - rho) * gradient)
            updates.append(average)
            denominator = velocity - square(average) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = learning_rate * gradient / sqrt(denominator)
        if self.momentum > 0:
            moment = slots["momentum"]
            moment = moment.assign(self.momentum * moment + increment)
            return [*updates, moment, variable.assign_sub(moment)]
        return [*updates, variable.assign_sub(increment)]
