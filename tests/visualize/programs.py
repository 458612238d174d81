"""Functions drawn by the visualization tests (and by `autograph graph` in them: this file
is imported by path too, so it needs nothing but autograph_py). A `# <-- name` comment
marks the line the tests expect ops of that construct to be located at."""

import autograph_py as ag


def nested_loops(n):
    total = 0
    for i in ag.range(n):  # <-- outer loop
        j = 0
        while j < i:  # <-- inner loop
            if (i + j) % 3 == 0:  # <-- branch
                total += i * j  # <-- product
            j += 1
    return total


def noisy_countdown(n):
    while n > 0:  # <-- countdown
        ag.print("n =", n)  # <-- print
        n -= 1
    return n


def fails_to_trace(x):
    y = x * 2.0
    return ag.matmul(y, y)  # <-- bad matmul


def marker_line(fn, marker):
    """The line of `fn`'s file marked `# <-- marker`."""
    import inspect

    lines, first = inspect.getsourcelines(fn)
    matches = [first + i for i, line in enumerate(lines) if line.rstrip().endswith(
        f"# <-- {marker}")]
    assert len(matches) == 1, f"marker {marker!r} in {fn.__name__}: {matches}"
    return matches[0]
