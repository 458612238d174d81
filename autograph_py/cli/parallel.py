"""Running independent jobs of one file's conversion in forked worker processes.

Contract of `map_forked(job, items, jobs, weights) -> list`: `[job(item) for item in
items]`, in order, the same results whatever `jobs` is. With `jobs` > 1, where the
platform forks (`os.fork`), the items are cut into `jobs` contiguous shares of about
equal total weight; this process computes the first share while forked children compute
the others and send their results back pickled. A child that fails (an exception, a
crash, results that do not pickle) costs nothing but time: its share is computed here
again, so what the caller sees is exactly what one process would have given, errors
included.

Why forking: a file's functions convert independently (each has its own names and
analyses), and a forked child starts with the parsed file and every module already
loaded, where a fresh interpreter would spend more time importing than a small share
takes. Only the command line asks for it (`autograph convert`, `--jobs`): a library
process may hold threads (JAX's, a test runner's), which forking does not copy.
"""

import os
import pickle
import signal
import sys

# Below this total weight (lines) one process is faster: a fork and the transfer of the
# results cost about what converting 1,000 lines does.
MIN_WEIGHT_PER_JOB = 1_000


def default_jobs():
    """The processes `autograph convert` uses by default: one per available core."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def shares(weights, jobs):
    """`jobs` (at most) contiguous (start, stop) ranges of indices, of about equal total
    weight, covering every index in order."""
    total = sum(weights)
    bounds, start, acc = [], 0, 0
    for i, weight in enumerate(weights):
        acc += weight
        if len(bounds) < jobs - 1 and acc >= total * (len(bounds) + 1) / jobs:
            bounds.append((start, i + 1))
            start = i + 1
    if start < len(weights) or not bounds:
        bounds.append((start, len(weights)))
    return bounds


def map_forked(job, items, jobs=1, weights=None):
    items = list(items)
    weights = [1] * len(items) if weights is None else list(weights)
    jobs = min(jobs, max(1, sum(weights) // MIN_WEIGHT_PER_JOB), len(items))
    if jobs <= 1 or not hasattr(os, "fork"):
        return [job(item) for item in items]
    ranges = shares(weights, jobs)
    children = [_fork(job, items[start:stop]) for start, stop in ranges[1:]]
    try:
        results = [job(item) for item in items[slice(*ranges[0])]]
        for i, ((start, stop), child) in enumerate(zip(ranges[1:], children)):
            children[i] = None  # `_collect` owns it now, and cleans up if interrupted
            share = _collect(child)
            results += share if share is not None else [
                job(item) for item in items[start:stop]]
        return results
    finally:  # an error or an interrupt: no child is left running, or unwaited for
        for child in children:
            _stop(child)


def _fork(job, share):
    """(pid, read end of the pipe) of a child computing `share`, or None if forking
    failed."""
    try:
        read, write = os.pipe()
    except OSError:
        return None
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return None
    if pid:
        os.close(write)
        return pid, read
    # The child: compute, send, and leave without running the parent's exit handlers.
    status = 1
    try:
        os.close(read)
        data = pickle.dumps([job(item) for item in share], pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write, "wb") as out:
            out.write(data)
        status = 0
    finally:
        os._exit(status)


def _stop(child):
    """Kill a child whose results are not wanted, and wait for it (no zombie)."""
    if child is not None:
        pid, read = child
        os.close(read)  # a child still writing gets SIGPIPE
        _kill(pid)


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass  # gone already


def _collect(child):
    """The results a child sent, or None if it sent none that load. Interrupted (an
    exception while waiting), it kills the child and waits for it before raising."""
    if child is None:
        return None
    pid, read = child
    try:
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
    except BaseException:
        _kill(pid)
        raise
    if status != 0:
        return None
    try:
        return pickle.loads(data)
    except Exception:  # noqa: BLE001  (a half-written result: compute it here)
        return None
