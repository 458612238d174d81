"""Keras's optimizers and learning-rate schedules over Variables.

`SGD`, `Adam`, `RMSprop` and `Adagrad` update Variables from their gradients with
`apply_gradients(zip(grads, vars))`, eagerly, inside `ag.function` and in graphs
(optimizer.py gives the contract, each optimizer's module its update rule);
schedules.py holds the learning-rate schedules. `NAMESPACE` is what users see as
`ag.optimizers` (and `ag.optimizers.schedules`): exactly these names.
"""

from autograph_py.runtime.namespace import Namespace
from autograph_py.runtime.optimizers import schedules
from autograph_py.runtime.optimizers.adagrad import Adagrad
from autograph_py.runtime.optimizers.adam import Adam
from autograph_py.runtime.optimizers.optimizer import MissingGradientWarning, Optimizer
from autograph_py.runtime.optimizers.rmsprop import RMSprop
from autograph_py.runtime.optimizers.sgd import SGD

NAMESPACE = Namespace(
    "autograph_py.optimizers",
    Adagrad=Adagrad, Adam=Adam, MissingGradientWarning=MissingGradientWarning,
    Optimizer=Optimizer, RMSprop=RMSprop, SGD=SGD,
    schedules=Namespace(
        "autograph_py.optimizers.schedules",
        ExponentialDecay=schedules.ExponentialDecay,
        LearningRateSchedule=schedules.LearningRateSchedule,
        PiecewiseConstantDecay=schedules.PiecewiseConstantDecay,
    ),
)
