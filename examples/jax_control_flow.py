"""Plain Python control flow over JAX values, converted: run under `jax.jit`, `jax.grad`
and `jax.vmap` (docs/jax.md).

Run: `python examples/jax_control_flow.py` (needs the `[xla]` extra). Each function is
ordinary Python; `ag.to_graph` makes its `if`/`while`/`for`/`break`/`return` on traced
values into `lax.cond` / `lax.while_loop` / `lax.scan`. tests/jax/test_jax_staging.py
checks them against plain Python, and benchmarks/jax_staging.py times them against the
same functions written with `lax` by hand.
"""

import jax
import jax.numpy as jnp

import autograph_py as ag


def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def first_over(xs, threshold):
    for i, x in enumerate(xs):
        if x > threshold:
            return i
    return -1


def sum_until(xs, limit):
    total = 0.0
    for x in xs:
        if total > limit:
            break
        total += x
    return total


def piecewise(x):
    if x > 0:
        return jnp.sin(x) * x
    return x * x * x


def power_until_large(x):
    y = x
    for _ in range(20):
        if y > 1e6:
            break
        y = y * x
    return y


def main():
    print("collatz_steps(27) =", jax.jit(ag.to_graph(collatz_steps))(27))
    xs = jnp.array([0.5, 2.0, 7.0])
    print("first_over(xs, 1.0) =", ag.jax.jit(first_over)(xs, 1.0))
    print("sum_until(xs, 1.0) =", ag.jax.jit(sum_until)(xs, 1.0))
    print("d/dx power_until_large(1.5) =", ag.jax.grad(power_until_large)(1.5))
    print("vmap(piecewise) =", jax.vmap(ag.to_graph(piecewise))(jnp.array([-1.0, 2.0])))


if __name__ == "__main__":
    main()
