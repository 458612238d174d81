"""TensorFlow's "Writing a training loop from scratch", ported: a small MLP classifier
trained with Adam on a shuffled, batched `tf.data` pipeline, its step an `@tf.function`.

Run: `python examples/custom_training_loop.py`. The program is the tutorial's, written
as TensorFlow 2 code that also runs on TensorFlow unchanged: replace the import below by
`import tensorflow as tf`. What differs from the tutorial, and why:
- the data: the tutorial downloads MNIST; here the points of the plane are labelled by
  the ring they fall in (three classes of equal size, not linearly separable), made by
  numpy;
- the Keras parts (`keras.layers.Dense`, `keras.losses.SparseCategoricalCrossentropy`,
  `keras.metrics.SparseCategoricalAccuracy`) are written with `tf.Module`, as TensorFlow's
  guides "Introduction to modules" and "Basic training loops" write them: Keras is a
  library of its own, not part of the TensorFlow core this project reimplements.
tests/e2e/test_custom_training_loop.py runs it and checks the loss falls and the final
accuracy against numpy references (a least-squares linear classifier, the class prior).
"""

import time

import numpy as np

import autograph_py as tf  # on TensorFlow: import tensorflow as tf


class Dense(tf.Module):
    """`keras.layers.Dense`: `activation(x @ w + b)`, w initialised as Keras's default
    (Glorot uniform), b zeros."""

    def __init__(self, in_features, out_features, activation=None, name=None):
        super().__init__(name=name)
        limit = np.sqrt(6.0 / (in_features + out_features))
        self.w = tf.Variable(
            tf.random.uniform([in_features, out_features], -limit, limit), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")
        self.activation = activation

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return self.activation(y) if self.activation is not None else y


class MLP(tf.Module):
    """The tutorial's model: two hidden layers of 64 ReLU units, then one logit per class."""

    def __init__(self, in_features, classes, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features, 64, activation=tf.nn.relu)
        self.dense_2 = Dense(64, 64, activation=tf.nn.relu)
        self.predictions = Dense(64, classes)

    def __call__(self, x, training=False):
        return self.predictions(self.dense_2(self.dense_1(x)))


def loss_fn(labels, logits):
    """`keras.losses.SparseCategoricalCrossentropy(from_logits=True)`."""
    return tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))


class SparseCategoricalAccuracy(tf.Module):
    """`keras.metrics.SparseCategoricalAccuracy`: the share of argmax(logits) == label
    over the batches given to `update_state` since the last `reset_state`."""

    def __init__(self, name=None):
        super().__init__(name=name)
        self.matches = tf.Variable(0.0, trainable=False)
        self.count = tf.Variable(0.0, trainable=False)

    def update_state(self, y_true, y_pred):
        predicted = tf.argmax(y_pred, axis=-1)
        matches = tf.cast(tf.equal(tf.cast(y_true, predicted.dtype), predicted), tf.float32)
        self.matches.assign_add(tf.reduce_sum(matches))
        self.count.assign_add(tf.cast(tf.size(matches), tf.float32))

    def result(self):
        return self.matches / self.count

    def reset_state(self):
        self.matches.assign(0.0)
        self.count.assign(0.0)


def make_rings(rng, n):
    """n points of the standard normal in the plane, labelled 0, 1, 2 by the ring they fall
    in: the radii of equal probability (|x|^2 is chi-squared with 2 degrees of freedom)."""
    x = rng.normal(size=(n, 2)).astype("float32")
    radius = np.linalg.norm(x, axis=1)
    y = np.digitize(radius, np.sqrt(2 * np.log([1.5, 3.0]))).astype("int64")
    return x, y


model = MLP(in_features=2, classes=3)

# Instantiate an optimizer.
optimizer = tf.optimizers.Adam(learning_rate=1e-3)

# Prepare the training dataset.
batch_size = 32
rng = np.random.default_rng(0)
x_train, y_train = make_rings(rng, 4000)
# Reserve 1,000 samples for validation.
x_val, y_val = make_rings(rng, 1000)

train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_dataset = train_dataset.shuffle(buffer_size=1024).batch(batch_size)

val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val))
val_dataset = val_dataset.batch(batch_size)

# Prepare the metrics.
train_acc_metric = SparseCategoricalAccuracy()
val_acc_metric = SparseCategoricalAccuracy()


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_acc_metric.update_state(y, logits)
    return loss_value


@tf.function
def test_step(x, y):
    val_logits = model(x, training=False)
    val_acc_metric.update_state(y, val_logits)


epochs = 5
for epoch in range(epochs):
    print(f"\nStart of epoch {epoch}")
    start_time = time.time()

    # Iterate over the batches of the dataset.
    for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
        loss_value = train_step(x_batch_train, y_batch_train)

        # Log every 50 batches.
        if step % 50 == 0:
            print(f"Training loss (for 1 batch) at step {step}: {float(loss_value):.4f}")
            print(f"Seen so far: {(step + 1) * batch_size} samples")

    # Display metrics at the end of each epoch.
    train_acc = train_acc_metric.result()
    print(f"Training acc over epoch: {float(train_acc):.4f}")

    # Reset training metrics at the end of each epoch
    train_acc_metric.reset_state()

    # Run a validation loop at the end of each epoch.
    for x_batch_val, y_batch_val in val_dataset:
        test_step(x_batch_val, y_batch_val)

    val_acc = val_acc_metric.result()
    val_acc_metric.reset_state()
    print(f"Validation acc: {float(val_acc):.4f}")
    print(f"Time taken: {time.time() - start_time:.2f}s")
