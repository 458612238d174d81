"""Checks that staged code makes on the host when the compiled program runs (a failed
`assert`, a read of a variable that a loop which ran no iteration never assigned), and
how their failures reach the user.

Contract:
- `fail(exc)` is called by such a check, inside a JAX host callback, with the error the
  code as written would raise (an AssertionError, an UnboundLocalError), whose message
  ends with the user's file:line (`located`); it raises `exc` after remembering it (the
  last few failures, under a lock: callbacks may run on another thread).
- JAX logs an exception a callback raises, with its traceback, to stderr, before turning
  it into its own error: `quiet_callback_logs()` (called when the JAX staging backend
  loads) filters those records on the loggers `jax_internals.CALLBACK_LOGGERS` when they
  carry one of our failures, so a failed `assert` prints nothing. JAX's other records
  pass.
- `Reraising(fn)` wraps a function that JAX transformed (`ag.jax.jit`, `ag.jax.grad`): a
  call failing with JAX's runtime error that carries one of our failures (or with the
  failure itself, raised while JAX evaluates eagerly) raises a fresh copy of that
  failure instead, with no chained context: the user's error, type, message and
  file:line, without JAX's callback traceback. Everything else is JAX's (attributes such
  as `lower`, binding as a method). `jax.jit(ag.to_graph(f))` keeps JAX's error, whose
  message quotes ours.
"""

import collections
import functools
import logging
import threading
import types

from autograph_py.runtime import errors
from autograph_py.runtime.xla import jax_internals

_MARK = "_autograph_host_check"
_recent = collections.deque(maxlen=32)  # failures not yet claimed by a Reraising call
_lock = threading.Lock()


def located(message, what):
    """`message` followed by where the user wrote `what` (looked up while tracing)."""
    return f"{message}\n  ({what} at {errors.format_location(errors.user_location())})"


def fail(exc):
    setattr(exc, _MARK, True)
    with _lock:
        _recent.append(exc)
    raise exc


def _is_ours(exc):
    return getattr(exc, _MARK, False)


class _DropOurFailures(logging.Filter):
    def filter(self, record):
        return not (record.exc_info and _is_ours(record.exc_info[1]))


_FILTER = _DropOurFailures()


def quiet_callback_logs():
    for name in jax_internals.CALLBACK_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


def _claim(error):
    """Our failure that `error` (raised by a call) is or carries, removed from the
    remembered ones; None when it is not ours."""
    with _lock:
        if _is_ours(error):
            found = error
        else:
            text = str(error)
            found = next((f for f in reversed(_recent)
                          if f"{type(f).__name__}: {f}" in text), None)
        if found is not None and found in _recent:
            _recent.remove(found)
    return found


class Reraising:
    """`fn` whose calls raise our host checks' failures as themselves."""

    def __init__(self, fn):
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        try:
            return self.__wrapped__(*args, **kwargs)
        except Exception as e:  # noqa: BLE001  (re-raised unless it carries our failure)
            failure = _claim(e)
            if failure is None:
                raise
        raise type(failure)(*failure.args)  # outside the `except`: no JAX context

    def __get__(self, instance, owner=None):
        return self if instance is None else types.MethodType(self, instance)

    def __getattr__(self, name):  # JAX's own attributes: lower, trace, eval_shape...
        try:
            wrapped = self.__dict__["__wrapped__"]
        except KeyError:  # not made yet (copy, pickle)
            raise AttributeError(name) from None
        return getattr(wrapped, name)

    def __repr__(self):
        return repr(self.__wrapped__)
