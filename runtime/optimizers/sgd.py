"""`SGD`: gradient descent, with momentum and Nesterov momentum (Keras's rule).

    momentum == 0:  w = w - learning_rate * g
    momentum > 0:   velocity = momentum * velocity - learning_rate * g
                    w = w + velocity
    nesterov:       w = w + momentum * velocity - learning_rate * g   (the new velocity)
"""

from autograph_py.runtime.optimizers.optimizer import Optimizer


class SGD(Optimizer):
    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD"):
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) or \
                not 0 <= momentum <= 1:
            raise ValueError(f"`momentum` must be a float between [0, 1], got {momentum!r}")
        super().__init__(learning_rate, name)
        self.momentum = momentum
        self.nesterov = nesterov

    def _slot_initial_values(self):
        return {"momentum": 0.0} if self.momentum != 0 else {}

    def _update_step(self, gradient, variable, learning_rate):
        if self.momentum == 0:
            return [variable.assign_sub(gradient * learning_rate)]
        velocity = self._slots_of(variable)["momentum"]
        velocity = velocity.assign(velocity * self.momentum - gradient * learning_rate)
        if self.nesterov:
            return [velocity, variable.assign_add(
                velocity * self.momentum - gradient * learning_rate)]
        return [velocity, variable.assign_add(velocity)]
