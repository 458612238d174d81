"""Generated programs (the differential fuzzer's, tests/fuzz) under `jax.jit(ag.to_graph(f))`
give plain Python's answers, or fail with a documented JAX rejection (docs/jax.md): a
Python list whose length would depend on traced data. Any other error, or any other
answer, fails the test and names the program to reproduce it."""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph_py as ag
from tests.fuzz import runner
from tests.fuzz.generator import generate

SEED, COUNT = 400_000, 40

# The rejections docs/jax.md documents: JAX arrays have static shapes.
DOCUMENTED = re.compile(r"is a Python list that (one branch of the `if`|the loop) resizes")


def _jax_answers(fn, inputs):
    converted = ag.to_graph(fn)
    jitted = jax.jit(lambda a, b, xs: converted(a, b, xs))
    return [runner.normalize(jax.tree_util.tree_map(
        np.asarray, jitted(jnp.int32(a), jnp.int32(b), jnp.asarray(xs, jnp.int32))))
        for a, b, xs in inputs]


@pytest.mark.parametrize("index", range(COUNT))
def test_generated_program_under_jax_jit(index):
    program = generate(SEED, index)
    fn = runner.load(program.source)
    expected = runner.oracle(fn, program.inputs)
    try:
        answers = _jax_answers(fn, program.inputs)
    except ValueError as e:
        assert DOCUMENTED.search(str(e)), f"seed {SEED + index}:\n{program.source}\n{e}"
        return
    for args, want, got in zip(program.inputs, expected, answers):
        assert runner.same(want, got), (
            f"seed {SEED + index}: f{args!r} is {want!r} in Python, {got!r} under jax.jit\n"
            f"{program.source}")
