"""The saved-model directory: its files, its version, its limits, its one error.

Contract:
- A saved model is a directory holding `saved_model.json` (the manifest: format name and
  version, variables, functions, signatures, the object tree), `graphs.json` (one
  serialized graph per traced function, `runtime/views/serialization.py`'s format with
  its own version), `variables.npz` (Variable values, one `.npy` member per Variable)
  and `README.md` (what is inside, for people; never read back).
- `VERSION` is the manifest's format version: a directory written with another one is
  refused with a `SavedModelError` naming both versions.
- `read_json(path)` refuses a missing file, one larger than `MAX_FILE_BYTES` (before
  reading it), invalid or truncated JSON and nesting too deep for the parser, each a
  `SavedModelError` naming the file; it never runs code (JSON only).
- `write_json` / `write_text` write a file aside and rename it, so a reader never meets
  half of one.
- `MAX_ELEMENTS` bounds every tensor a loaded graph declares or a file holds, checked
  before anything is allocated.
"""

import json
import os

FORMAT = "autograph_py.saved_model"
VERSION = 1
MANIFEST = "saved_model.json"
GRAPHS = "graphs.json"
VARIABLES = "variables.npz"
README = "README.md"

MAX_FILE_BYTES = 2**31           # a JSON file larger than this is refused unread
MAX_ELEMENTS = 2**31 - 1         # elements of one tensor (TensorFlow's int32 sizes)
MAX_GRAPH_DEPTH = 64             # branches and loops nested in one another


class SavedModelError(ValueError):
    """A directory that is not a saved model this version reads, or not a sound one."""


def read_json(export_dir, filename):
    path = os.path.join(export_dir, filename)
    if not os.path.isfile(path):
        raise SavedModelError(f"{export_dir!r} is not a saved model: {filename} is missing")
    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        raise SavedModelError(f"{filename} in {export_dir!r} has {size} bytes, more than "
                              f"the {MAX_FILE_BYTES} a saved model may hold")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (ValueError, UnicodeDecodeError) as e:  # JSONDecodeError is a ValueError
        raise SavedModelError(f"{filename} in {export_dir!r} is corrupt or truncated: "
                              f"not valid JSON ({e})") from None
    except RecursionError:
        raise SavedModelError(f"{filename} in {export_dir!r} nests too deeply to be read "
                              "(corrupt or crafted)") from None


def write_json(export_dir, filename, data):
    write_text(export_dir, filename, json.dumps(data, separators=(",", ":")))


def write_text(export_dir, filename, text):
    path = os.path.join(export_dir, filename)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def element_count(dims):
    """The number of elements of a shape with known dims."""
    count = 1
    for d in dims:
        count *= d
    return count
