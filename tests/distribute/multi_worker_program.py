"""One worker of tests/distribute/test_multi_worker.py: joins the cluster its
environment names (JAX_COORDINATOR_ADDRESS, JAX_NUM_PROCESSES, JAX_PROCESS_ID), trains
the test programs with MultiWorkerMirroredStrategy and prints the losses and weights as
JSON on its last line."""

import json

import autograph_py as ag
from tests.distribute.programs import MLP, Linear, train


def main():
    strategy = ag.distribute.MultiWorkerMirroredStrategy()
    report = {"process_id": strategy.process_id, "replicas": strategy.num_replicas_in_sync,
              "local": len(strategy.experimental_local_results(
                  strategy.run(lambda: ag.distribute.get_replica_context()
                               .replica_id_in_sync_group)))}
    for name, model in (("linear", Linear), ("mlp", MLP)):
        losses, weights = train(strategy, model, "function")
        report[name] = {"losses": losses.tolist(), "weights": [w.tolist() for w in weights]}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
