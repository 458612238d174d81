"""`autograph convert --jobs`: a large file's functions converted in forked processes
give exactly the output, problems and notes of one process (`cli.parallel`)."""

import random
import subprocess
import sys
import textwrap

import pytest

from autograph_py.cli.parallel import MIN_WEIGHT_PER_JOB, shares

# Shapes a file repeats: staged control flow, a function conversion leaves unchanged,
# one it cannot convert (reported), a generator (a note), a commented method.
SHAPES = [
    '''def branch_{i}(x):
    if x > {i}:  # keep this comment
        x = x * x
    else:
        x = -x
    return x
''',
    '''def plain_{i}(a, b):
    return a + b
''',
    '''def unsupported_{i}(xs):
    for i, x in enumerate(xs):
        match x:
            case 0:
                break
    return i
''',
    '''def generator_{i}(x):
    while x > 0:
        yield x
        x -= 1
''',
    '''def find_{i}(values, target):
    for i, v in enumerate(values):
        if v == target:
            return i
    return -1
''',
    '''class Counter_{i}:
    def add(self, values):
        # a comment line
        for v in values:
            if v > 0:
                self.total = self.total + v
        return self.total
''',
]


def _big_file(lines):
    chunks, count, i = [], 0, 0
    while count < lines:
        chunk = SHAPES[i % len(SHAPES)].format(i=i) + "\n\n"
        chunks.append(chunk)
        count += chunk.count("\n")
        i += 1
    return "".join(chunks)


@pytest.mark.parametrize("seed", range(20))
def test_shares_cover_every_index_in_order_with_balanced_weights(seed):
    rng = random.Random(seed)
    weights = [rng.randint(1, 50) for _ in range(rng.randint(1, 60))]
    jobs = rng.randint(1, 6)
    ranges = shares(weights, jobs)
    assert 1 <= len(ranges) <= jobs
    assert ranges[0][0] == 0 and ranges[-1][1] == len(weights)
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))  # contiguous
    assert all(start < stop for start, stop in ranges)
    # No share is heavier than its fair part by more than one item.
    fair = sum(weights) / len(ranges)
    assert all(sum(weights[start:stop]) <= fair + max(weights) for start, stop in ranges)


def test_parallel_output_problems_and_notes_equal_one_process(run_cli, tmp_path):
    source = tmp_path / "big.py"
    source.write_text(_big_file(3 * MIN_WEIGHT_PER_JOB + 500))
    results = {jobs: run_cli("convert", source, "-j", jobs) for jobs in (1, 2, 3)}
    one = results[1]
    assert one.returncode == 1 and "unsupported_2()" in one.stderr  # a problem, reported
    assert "note:" in one.stderr and "__ag__.if_stmt" in one.stdout
    for jobs in (2, 3):
        assert (results[jobs].returncode, results[jobs].stdout, results[jobs].stderr) == (
            one.returncode, one.stdout, one.stderr)
    compile(one.stdout, str(source), "exec")


@pytest.mark.parametrize("bad", ["0", "-2", "many"])
def test_jobs_must_be_a_positive_number(run_cli, fixtures, bad):
    result = run_cli("convert", fixtures / "tabs.py", "-j", bad)
    assert result.returncode == 2 and "positive number of processes" in result.stderr


def _run_python(code):
    # In a process of its own: the test runner may hold threads (JAX's), which forking
    # in it would warn about.
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)


def test_a_failing_child_share_is_computed_again_in_the_parent():
    result = _run_python('''
        import os
        from autograph_py.cli.parallel import map_forked
        parent = os.getpid()

        def job(item):
            if os.getpid() != parent and item % 7 == 3:
                raise RuntimeError("a child's failure")
            return item * item

        def unpicklable(item):  # a child cannot send a lambda: the parent computes it
            return (lambda: item) if os.getpid() != parent else item

        items = list(range(40))
        assert map_forked(job, items, 3, [1000] * 40) == [i * i for i in items]
        assert map_forked(unpicklable, items, 2, [1000] * 40) == items
        print("ok")
    ''')
    assert (result.returncode, result.stdout.strip()) == (0, "ok"), result.stderr


def test_a_parent_error_is_raised_as_in_one_process():
    result = _run_python('''
        from autograph_py.cli.parallel import map_forked

        def job(item):
            if item == 2:
                raise ValueError(item)
            return item

        try:
            map_forked(job, range(10), 2, [1000] * 10)
        except ValueError as e:
            print("raised", e)
    ''')
    assert result.stdout.strip() == "raised 2", result.stderr


def test_an_interrupt_while_waiting_leaves_no_child_running_or_unwaited():
    result = _run_python('''
        import os, signal, time
        from autograph_py.cli.parallel import map_forked
        parent = os.getpid()

        def job(item):
            if os.getpid() != parent:
                time.sleep(2)  # the children are slow: the parent waits for them
            return item

        def interrupt(*_):
            raise KeyboardInterrupt

        signal.signal(signal.SIGALRM, interrupt)
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        try:
            map_forked(job, range(6), 3, [1000] * 6)
        except KeyboardInterrupt:
            pass
        try:
            print("left", os.waitpid(-1, os.WNOHANG))
        except ChildProcessError:
            print("no children")
    ''')
    assert result.stdout.strip() == "no children", (result.stdout, result.stderr)
