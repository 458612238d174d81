"""TensorFlow names that autograph_py refuses on purpose, with the reason.

Contract: `refuse(module, name)` is a module `__getattr__` body: for a name in
`UNSUPPORTED` it raises an `AttributeError` (so `hasattr` is False) whose message says the
feature is not supported and why; for any other name, Python's usual AttributeError.
docs/limitations.md lists the same names with the same reasons.
"""

_DENSE_ONLY = ("autograph_py has dense tensors only: every op, kernel and gradient rule "
               "works on numpy arrays of a fixed rectangular shape")

UNSUPPORTED = {
    "SparseTensor": _DENSE_ONLY + "; store the dense tensor instead (one_hot and where "
                    "build one from indices)",
    "sparse": _DENSE_ONLY,
    "RaggedTensor": _DENSE_ONLY + "; pad rows to one length (ag.pad) and keep a mask or "
                    "the lengths, or use a Python list of tensors",
    "ragged": _DENSE_ONLY,
}


def refuse(module, name):
    reason = UNSUPPORTED.get(name)
    if reason is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    raise AttributeError(f"{module}.{name} is not supported: {reason}")
