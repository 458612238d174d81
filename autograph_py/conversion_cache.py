"""The conversion cache: each function is converted once, and each function object gets
one live converted copy.

Contract:
- `factory(fn, recursive, make)` returns what `make(fn, recursive)` built for `fn`'s
  code object and these options. The key is the code object's identity, not `==`:
  equal code objects can come from different files (code equality ignores the file name
  and code CPython compiles away, such as an `if False:` body), while every closure of
  one `def` shares one code object and so one conversion. Entries are held weakly: one
  dies with its code object.
- `instance(fn, recursive, make)` returns what `make(fn, recursive)` built for this
  function object, held weakly by the function; an entry made for another code object
  (`fn.__code__` was reassigned) is made again.
- Thread-safe: hits take no lock; misses build under one lock, so concurrent first uses
  of a function convert it once.
"""

import threading
import weakref


class ConversionCache:
    def __init__(self):
        self._lock = threading.RLock()  # `instance` builds through `factory`
        self._by_code = {}                                 # id(code) -> {options: entry}
        self._by_function = weakref.WeakKeyDictionary()    # fn -> {options: (code, entry)}

    def factory(self, fn, recursive, make):
        code = fn.__code__
        entry = self._by_code.get(id(code), {}).get(recursive)
        if entry is not None:
            return entry
        with self._lock:
            per_code = self._by_code.get(id(code))
            if per_code is None:
                per_code = self._by_code[id(code)] = {}
                # Forget the entries before the id can be reused by another code object.
                weakref.finalize(code, self._by_code.pop, id(code), None)
            if recursive not in per_code:
                per_code[recursive] = make(fn, recursive)
            return per_code[recursive]

    def instance(self, fn, recursive, make):
        code, entry = self._by_function.get(fn, {}).get(recursive, (None, None))
        if code is fn.__code__:
            return entry
        with self._lock:
            per_fn = self._by_function.setdefault(fn, {})
            code, entry = per_fn.get(recursive, (None, None))
            if code is not fn.__code__:
                entry = make(fn, recursive)
                per_fn[recursive] = (fn.__code__, entry)
            return entry
