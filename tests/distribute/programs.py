"""The training programs the distribution tests run, on any strategy: the default one
(one replica, no JAX: the oracle) and mirrored ones. TensorFlow's custom training loop:
per-example losses scaled by the global batch (`ag.nn.compute_average_loss`), the
optimizer summing the replicas' gradients, `strategy.reduce(SUM)` of the losses.

`train(strategy, model, mode)` returns (losses per step, final weights):
- "eager": the step (`strategy.run` + `reduce`) called in a Python loop;
- "function": the step is an `ag.function`, called per batch;
- "jit": the same, `jit_compile=True` (the sharded call inlined in the XLA program);
- "epoch": one `ag.function` over the whole distributed dataset (`for batch in dist`).
"""

import numpy as np

import autograph_py as ag

GLOBAL_BATCH = 16
STEPS = 4


def data(features=3, outputs=1, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(GLOBAL_BATCH * STEPS, features)).astype(np.float32)
    w = rng.normal(size=(features, outputs)).astype(np.float32)
    y = (np.tanh(x @ w) + 0.1 * rng.normal(size=(len(x), outputs))).astype(np.float32)
    return x, y


class Linear:
    """Linear regression trained with SGD."""

    def __init__(self, features=3, outputs=1):
        self.w = ag.Variable(np.zeros((features, outputs), np.float32), name="w")
        self.b = ag.Variable(np.zeros(outputs, np.float32), name="b")
        self.optimizer = ag.optimizers.SGD(0.1)

    def variables(self):
        return [self.w, self.b]

    def __call__(self, x):
        return ag.matmul(x, self.w) + self.b


class MLP:
    """A small MLP (tanh hidden layer) trained with Adam (slot Variables made in a trace)."""

    def __init__(self, features=3, outputs=1, hidden=8, seed=1):
        rng = np.random.default_rng(seed)
        self.w1 = ag.Variable(rng.normal(0, 0.5, (features, hidden)).astype(np.float32))
        self.b1 = ag.Variable(np.zeros(hidden, np.float32))
        self.w2 = ag.Variable(rng.normal(0, 0.5, (hidden, outputs)).astype(np.float32))
        self.b2 = ag.Variable(np.zeros(outputs, np.float32))
        self.optimizer = ag.optimizers.Adam(0.05)

    def variables(self):
        return [self.w1, self.b1, self.w2, self.b2]

    def __call__(self, x):
        return ag.matmul(ag.tanh(ag.matmul(x, self.w1) + self.b1), self.w2) + self.b2


def train(strategy, model_class, mode, x=None, y=None):
    if x is None:
        x, y = data()
    with strategy.scope():
        model = model_class()
    dataset = ag.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    dist = strategy.experimental_distribute_dataset(dataset)

    def replica_step(xb, yb):
        with ag.GradientTape() as tape:
            per_example = ag.reduce_sum(ag.square(model(xb) - yb), axis=1)
            loss = ag.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        variables = model.variables()
        model.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss

    def step(batch):
        losses = strategy.run(replica_step, args=batch)
        return strategy.reduce(ag.distribute.ReduceOp.SUM, losses, axis=None)

    if mode == "eager":
        losses = [step(batch).numpy() for batch in dist]
    elif mode in ("function", "jit"):
        compiled = ag.function(step, jit_compile=mode == "jit")
        losses = [compiled(batch).numpy() for batch in dist]
    else:
        @ag.function
        def epoch(batches):
            losses = ag.TensorArray(ag.float32, size=0, dynamic_size=True)
            i = 0
            for batch in batches:
                losses = losses.write(i, step(batch))
                i += 1
            return losses.stack()

        losses = list(epoch(dist).numpy())
    return np.array(losses), [v.numpy() for v in model.variables()]
