"""`ag.saved_model`: TensorFlow's `tf.saved_model.save` / `load` (docs/export.md).

- `save(obj, export_dir, signatures=None)`: write `obj` (an `ag.Module`, any object with
  `ag.function` attributes, or one `ag.function`) with its traced functions, Variables
  and signatures (`writing.py`).
- `load(export_dir)`: the saved object back, its functions runnable without the source
  that defined them, its Variables restored (`loading.py`); a directory from a stranger
  is checked and never runs code.
- `contains_saved_model(export_dir)`: whether the directory holds a saved model's
  manifest.

The package holds the objects' side (what to save, what a loaded object is); the files
and their checks are `runtime/saved_model/`.
"""

import os as _os

from autograph_py.runtime.saved_model.format import MANIFEST as _MANIFEST
from autograph_py.runtime.saved_model.format import SavedModelError
from autograph_py.saved_model.loading import load
from autograph_py.saved_model.writing import save


def contains_saved_model(export_dir):
    return _os.path.isfile(_os.path.join(_os.fspath(export_dir), _MANIFEST))


__all__ = ["save", "load", "contains_saved_model", "SavedModelError"]
