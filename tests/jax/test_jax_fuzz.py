"""Generated programs (the differential fuzzer's, tests/fuzz) under `jax.jit(ag.to_graph(f))`
give plain Python's answers, or fail with a documented JAX rejection (docs/jax.md): a
Python list whose length would depend on traced data. Any other error, or any other
answer, fails the test and names the program to reproduce it (longer runs:
`python -m tests.jax.campaign --seed S --count N`)."""

import pytest

from tests.fuzz.generator import generate
from tests.jax.campaign import outcome

SEED, COUNT = 400_000, 40


@pytest.mark.parametrize("index", range(COUNT))
def test_generated_program_under_jax_jit(index):
    program = generate(SEED, index)
    kind, detail = outcome(program)
    assert kind in ("match", "rejected", "python_only"), (
        f"seed {SEED + index}: {detail}\n{program.source}")
