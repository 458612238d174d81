"""`ag.distribute.MirroredStrategy` step time on 1, 2, 4 and 8 simulated CPU devices for
one fixed global batch (issue 26).

Run: `python benchmarks/distribute.py [--json PATH]` (or through `benchmarks/run.py`).
Workload: one training step of an MLP (32 inputs, 256 hidden units, tanh, 1 output;
SGD), global batch 1024 split over the replicas, the step an `ag.function(jit_compile=
True)` around `strategy.run` + `strategy.reduce` (TensorFlow's custom training loop);
the reference is the same step on one device. Caveat, printed with the rows: simulated
devices (`--xla_force_host_platform_device_count`) are threads sharing this machine's
cores, so more devices add communication and scheduling but no compute; the numbers show
the overhead of the sharded step, not a speed-up, which needs real devices (GPUs: the
same program, docs/distribute.md). `measure()` runs in a subprocess of its own: JAX
reads the device count once, when it starts.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)

import numpy as np  # noqa: E402
from _harness import interleaved_stats, number_for, results_table, row, write_json  # noqa: E402

import autograph_py as ag  # noqa: E402  (imports no jax)

DEVICE_COUNTS = (1, 2, 4, 8)
FEATURES, HIDDEN, GLOBAL_BATCH = 32, 256, 1024
WORKLOAD = f"MLP training step, global batch {GLOBAL_BATCH}"
CAVEAT = "simulated devices share this machine's cores: overhead, not speed-up"


def _step_on(strategy, x, y):
    rng = np.random.default_rng(0)
    with strategy.scope():
        w1 = ag.Variable(rng.normal(0, 0.1, (FEATURES, HIDDEN)).astype(np.float32))
        w2 = ag.Variable(rng.normal(0, 0.1, (HIDDEN, 1)).astype(np.float32))
        optimizer = ag.optimizers.SGD(0.01)
    batch = next(iter(strategy.experimental_distribute_dataset(
        ag.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH))))

    def replica_step(xb, yb):
        with ag.GradientTape() as tape:
            error = ag.matmul(ag.tanh(ag.matmul(xb, w1)), w2) - yb
            loss = ag.nn.compute_average_loss(ag.reduce_sum(error * error, axis=1),
                                              global_batch_size=GLOBAL_BATCH)
        optimizer.apply_gradients(zip(tape.gradient(loss, [w1, w2]), [w1, w2]))
        return loss

    @ag.function(jit_compile=True)
    def step(batch):
        return strategy.reduce("SUM", strategy.run(replica_step, args=batch), axis=None)

    return lambda: step(batch)


def _measure_here(repeats):
    import jax  # noqa: PLC0415  (only where XLA_FLAGS asked for the devices)

    rng = np.random.default_rng(1)
    x = rng.normal(size=(GLOBAL_BATCH, FEATURES)).astype(np.float32)
    y = rng.normal(size=(GLOBAL_BATCH, 1)).astype(np.float32)
    devices = jax.devices("cpu")
    runners = {f"MirroredStrategy, {n} simulated device{'s' * (n > 1)}":
               _step_on(ag.distribute.MirroredStrategy(devices[:n]), x, y)
               for n in DEVICE_COUNTS if n <= len(devices)}
    for runner in runners.values():  # trace and compile
        for _ in range(3):
            runner()
    number = max(1, min(number_for(r) for r in runners.values()))
    stats = interleaved_stats(runners, repeats=repeats, number=number)
    reference = next(iter(runners))
    return [row(WORKLOAD, mode, seconds, spread, reference, stats[reference][0], note=CAVEAT)
            for mode, (seconds, spread) in stats.items()]


def measure(repeats=7):
    """The rows, measured in a fresh process with eight simulated devices."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "rows.json")
        env = dict(os.environ, JAX_PLATFORMS="cpu",
                   XLA_FLAGS=f"--xla_force_host_platform_device_count={max(DEVICE_COUNTS)}")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--here", "--json", path,
                        "--repeats", str(repeats)], env=env, check=True)
        with open(path) as f:
            return json.load(f)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--here", action="store_true",
                        help="measure in this process (XLA_FLAGS already set)")
    args = parser.parse_args(argv)
    rows = _measure_here(args.repeats) if args.here else measure(args.repeats)
    if args.json:
        write_json(args.json, rows)
    if not args.here:
        print(results_table(rows))
        print(f"\nCaveat: {CAVEAT}.")


if __name__ == "__main__":
    main()
