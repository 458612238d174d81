"""Variable values in `variables.npz`: written with numpy, read without trusting it.

Contract:
- `write_variables(path, arrays)` writes `{key: array}` as an uncompressed `.npz` (one
  `key.npy` member each), aside then renamed. Arrays of Python objects are refused: they
  would be pickled.
- `read_variables(path, expected)` reads the members `expected` names
  (`{key: (dtype name, shape)}`) and returns `{key: array}`. Before allocating anything it
  reads each member's `.npy` header and refuses (a `SavedModelError` naming the file and
  the Variable) a missing or extra member, an array of Python objects (a pickle: never
  unpickled), a dtype or shape other than the manifest's, more than `MAX_ELEMENTS`
  elements, and a member shorter than its header says. A truncated or corrupt zip file is
  refused too. The values are then read with `allow_pickle=False`.
"""

import os
import zipfile

import numpy as np
from autograph_py.runtime.dtypes import as_dtype
from autograph_py.runtime.saved_model.format import MAX_ELEMENTS, SavedModelError, element_count

_HEADER_READERS = {(1, 0): np.lib.format.read_array_header_1_0,
                   (2, 0): np.lib.format.read_array_header_2_0}


def write_variables(path, arrays):
    for key, array in arrays.items():
        if array.dtype.hasobject:
            raise ValueError(f"cannot save Variable {key!r}: it holds Python objects "
                             f"({array.dtype}), which only pickle could store")
    with open(path + ".tmp", "wb") as f:
        np.savez(f, **arrays)
    os.replace(path + ".tmp", path)


def read_variables(path, expected):
    where = os.path.basename(path)
    if not os.path.isfile(path):
        raise SavedModelError(f"{where} is missing")
    try:
        with zipfile.ZipFile(path) as archive:
            members = {info.filename: info for info in archive.infolist()}
            extra = sorted(set(members) - {f"{key}.npy" for key in expected})
            if extra:
                raise SavedModelError(f"{where} holds {extra}, which the manifest does not "
                                      "name")
            return {key: _read_member(archive, members, key, dtype, shape, where)
                    for key, (dtype, shape) in expected.items()}
    except (zipfile.BadZipFile, EOFError, OSError) as e:
        raise SavedModelError(f"{where} is corrupt or truncated ({e})") from None


def _read_member(archive, members, key, dtype, shape, where):
    what = f"{where}: Variable {key!r}"
    info = members.get(f"{key}.npy")
    if info is None:
        raise SavedModelError(f"{what} is missing")
    with archive.open(info) as f:
        try:
            version = np.lib.format.read_magic(f)
            stored_shape, fortran, stored_dtype = _HEADER_READERS[version](f)
        except (ValueError, KeyError) as e:
            raise SavedModelError(f"{what} is not a numpy array ({e})") from None
        header_size = f.tell()
    if stored_dtype.hasobject:
        raise SavedModelError(f"{what} holds Python objects (a pickle), which a saved model "
                              "may not: refused, never unpickled")
    if element_count(stored_shape) > MAX_ELEMENTS:
        raise SavedModelError(f"{what} has {element_count(stored_shape)} elements, more "
                              f"than {MAX_ELEMENTS}")
    try:
        expected_dtype = as_dtype(dtype).np_dtype
    except TypeError:
        raise SavedModelError(f"{what} has an unknown dtype {dtype!r} in the manifest") \
            from None
    if stored_dtype != expected_dtype or list(stored_shape) != list(shape):
        raise SavedModelError(f"{what} is {stored_dtype}{list(stored_shape)} but the manifest "
                              f"says {dtype}{list(shape)}")
    needed = header_size + element_count(stored_shape) * stored_dtype.itemsize
    if info.file_size < needed:
        raise SavedModelError(f"{what} is truncated: {info.file_size} bytes where its header "
                              f"needs {needed}")
    with archive.open(info) as f:
        try:
            array = np.lib.format.read_array(f, allow_pickle=False)
        except ValueError as e:
            raise SavedModelError(f"{what} cannot be read ({e})") from None
    return array
