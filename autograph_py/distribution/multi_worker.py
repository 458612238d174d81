"""`MultiWorkerMirroredStrategy`: one replica per device of every process, over
`jax.distributed` (runtime/xla/processes.py), CPU collectives through gloo.

Contract: `MultiWorkerMirroredStrategy(coordinator_address=None, num_processes=None,
process_id=None, local_device_ids=None)` connects this process to the cluster, then
mirrors over `jax.devices()` (every process's devices, in process order). Each value is
taken from the arguments, else the environment: `JAX_COORDINATOR_ADDRESS`,
`JAX_NUM_PROCESSES`, `JAX_PROCESS_ID`, else TensorFlow's `TF_CONFIG` (the first worker,
or the chief, is the coordinator; the task's index is the process id), else JAX's own
cluster detection (SLURM, Open MPI, Kubernetes...). Every process runs the same program
on the same data: a distributed dataset's global batch is read whole by each process,
which feeds its own devices' rows; what `run` returns is gathered to every process.
"""

import json
import os

from autograph_py.distribution.strategy import MirroredStrategy, _require_jax


def cluster_from_environment(environ=None):
    """(coordinator address, process count, process id) from the environment, each None
    where it does not say."""
    environ = os.environ if environ is None else environ
    address = environ.get("JAX_COORDINATOR_ADDRESS")
    count, index = environ.get("JAX_NUM_PROCESSES"), environ.get("JAX_PROCESS_ID")
    count = None if count is None else int(count)
    index = None if index is None else int(index)
    config = environ.get("TF_CONFIG")
    if config and None in (address, count, index):
        cluster, task = _from_tf_config(json.loads(config))
        address = address or (cluster[0] if cluster else None)
        count = count if count is not None else (len(cluster) or None)
        index = index if index is not None else task
    return address, count, index


def _from_tf_config(config):
    cluster = config.get("cluster", {})
    workers = list(cluster.get("chief", [])) + list(cluster.get("worker", []))
    for kind in cluster:
        if kind not in ("chief", "worker"):
            raise ValueError(f"TF_CONFIG names a {kind!r} task: MultiWorkerMirroredStrategy "
                             "has chief and worker tasks only (parameter servers are not "
                             "supported: docs/distribute.md)")
    task = config.get("task", {})
    index = task.get("index")
    if index is not None and task.get("type", "worker") == "worker":
        index += len(cluster.get("chief", []))
    return workers, index


class MultiWorkerMirroredStrategy(MirroredStrategy):
    def __init__(self, cluster_resolver=None, communication_options=None, *,
                 coordinator_address=None, num_processes=None, process_id=None,
                 local_device_ids=None):
        if cluster_resolver is not None:
            raise TypeError("cluster resolvers are TensorFlow's: pass coordinator_address, "
                            "num_processes and process_id, or set JAX_COORDINATOR_ADDRESS, "
                            "JAX_NUM_PROCESSES, JAX_PROCESS_ID or TF_CONFIG")
        _, processes = _require_jax(type(self).__name__)
        address, count, index = cluster_from_environment()
        processes.initialize(coordinator_address or address,
                             num_processes if num_processes is not None else count,
                             process_id if process_id is not None else index,
                             local_device_ids)
        super().__init__(devices=processes.all_devices())

    @property
    def process_id(self):
        return self._processes.process_index()

    @property
    def num_processes(self):
        return self._processes.process_count()
