"""How a dataset calls the user's functions (`map`, `filter`, `reduce`).

Contract: `call(fn, element)` calls `fn` with the element unpacked as TensorFlow does (a
tuple element is spread over the parameters, any other element is one argument) through
the caller installed with `set_caller`: autograph_py installs `converted_call`, so the
functions are converted like any user function (the runtime cannot import the converter).
"""

_caller = [lambda fn, *args: fn(*args)]


def set_caller(caller):
    _caller[0] = caller


def call(fn, element):
    args = element if isinstance(element, tuple) else (element,)
    return _caller[0](fn, *args)
