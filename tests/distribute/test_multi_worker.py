"""Two processes on localhost, four simulated CPU devices each, one cluster
(`jax.distributed`, gloo): both train to the single-process weights and losses."""

import json
import os
import pathlib
import socket
import subprocess
import sys

import numpy as np

import autograph_py as ag
from tests.distribute.programs import MLP, Linear, train

ROOT = pathlib.Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def start_workers(count=2, devices=4):
    port = free_port()
    workers = []
    for index in range(count):
        env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={devices}",
                   JAX_COORDINATOR_ADDRESS=f"localhost:{port}", JAX_NUM_PROCESSES=str(count),
                   JAX_PROCESS_ID=str(index), JAX_PLATFORMS="cpu")
        workers.append(subprocess.Popen(
            [sys.executable, "-m", "tests.distribute.multi_worker_program"], cwd=ROOT,
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    reports = []
    for worker in workers:
        try:
            out, err = worker.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            for w in workers:
                w.kill()
            raise
        assert worker.returncode == 0, err[-3000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports


def test_two_processes_train_to_the_single_process_weights():
    reports = start_workers()
    assert sorted(r["process_id"] for r in reports) == [0, 1]
    for report in reports:
        assert report["replicas"] == 8 and report["local"] == 4
        for name, model in (("linear", Linear), ("mlp", MLP)):
            losses, weights = train(ag.distribute.get_strategy(), model, "eager")
            np.testing.assert_allclose(report[name]["losses"], losses, rtol=1e-5, atol=1e-5)
            for got, want in zip(report[name]["weights"], weights):
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
