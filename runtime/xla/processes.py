"""Several processes, one mesh: `jax.distributed` for `MultiWorkerMirroredStrategy`.

Contract: `initialize(coordinator_address, num_processes, process_id, local_device_ids)`
connects this process to the others through `jax.distributed.initialize` (None lets JAX
find the value: its own environment variables and cluster detection, SLURM, Open MPI,
Kubernetes...), once per process: a second call with the same arguments does nothing,
one with others is a ValueError. Collectives between CPU devices of different processes
go through gloo (`jax_cpu_collectives_implementation`, set unless the user chose one).
It must run before anything else uses JAX's devices (JAX's rule): else a RuntimeError
saying so. Afterwards `jax.devices()` lists every process's devices.
"""

import jax

_CONNECTED = []  # the arguments of the call that connected this process


def initialize(coordinator_address=None, num_processes=None, process_id=None,
               local_device_ids=None):
    arguments = (coordinator_address, num_processes, process_id, local_device_ids)
    if _CONNECTED:
        if _CONNECTED[0] != arguments:
            raise ValueError(f"this process is already connected to a cluster "
                             f"({_CONNECTED[0]}); a process joins one cluster only")
        return
    if jax.config.jax_cpu_collectives_implementation in (None, "", "none"):
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
    try:
        jax.distributed.initialize(coordinator_address, num_processes, process_id,
                                   local_device_ids)
    except RuntimeError as e:
        raise RuntimeError(
            f"MultiWorkerMirroredStrategy must be created before anything uses JAX's "
            f"devices in this process (jax.distributed.initialize comes first): {e}") from e
    _CONNECTED.append(arguments)


def all_devices():
    """Every process's devices, in process order."""
    return jax.devices()


def process_index():
    return jax.process_index()


def process_count():
    return jax.process_count()
