"""A folder given to `autograph convert` (a package): the files in it, and what becomes
of each, so that the output folder is a drop-in copy of the package.

Contract of `walk_folder(folder, copies=True) -> (entries, problems)`:
- `entries`: `(path, relative path, kind)` for the folder's contents, top-down with
  names sorted (so the output and the messages are the same on every run): kind
  "convert" for a `.py` file, "copy" for any other regular file (data files, `.pyi`
  stubs, `py.typed`, compiled extensions: the package needs them as they are), and
  "folder" for each folder below it (mirrored even when empty). A symbolic link to a
  file counts as that file. With `copies` False (nothing is written), only the "convert"
  entries, and the problems that concern them.
- Left out without a word: `__pycache__` folders (bytecode of the originals; Python
  writes the converted modules' own) and names starting with "." (version control and
  tool caches: `.git`, `.mypy_cache`).
- `problems`: `(path, message)` for what is neither copied nor entered: a symbolic link
  to a folder (it may lead out of the package, or loop) and anything that is not a
  regular file or a folder (a FIFO, a socket, a dangling link), and a folder that
  cannot be read.
It only lists: nothing is read, imported or run.
"""

import os
import stat

CONVERTED_SUFFIX = ".py"
_SKIPPED_FOLDERS = {"__pycache__"}


def walk_folder(folder, copies=True):
    entries, problems = [], []
    def unreadable(error):
        problems.append((error.filename, f"cannot read: {error.strerror or error}"))

    for root, folders, files in os.walk(folder, onerror=unreadable):
        kept = []
        for name in sorted(folders):
            path = os.path.join(root, name)
            if name in _SKIPPED_FOLDERS or name.startswith("."):
                continue
            if os.path.islink(path):
                problems.append((path, "not entered: a symbolic link to a folder; give "
                                       "its target separately"))
                continue
            kept.append(name)
        folders[:] = kept  # what os.walk enters next, in this order
        for name in sorted(files):
            path = os.path.join(root, name)
            if name.startswith(".") or not (copies or name.endswith(CONVERTED_SUFFIX)):
                continue
            kind = _file_kind(path, name)
            if kind is None:
                done = "converted" if name.endswith(CONVERTED_SUFFIX) else "copied"
                problems.append((path, f"not {done}: not a regular file"))
            else:
                entries.append((path, os.path.relpath(path, folder), kind))
        if copies:
            entries += [(os.path.join(root, name),
                         os.path.relpath(os.path.join(root, name), folder), "folder")
                        for name in kept]
    return _top_down(entries), problems


def _file_kind(path, name):
    try:
        mode = os.stat(path).st_mode  # follows a link to its file
    except OSError:
        return None  # a dangling link
    if not stat.S_ISREG(mode):
        return None
    return "convert" if name.endswith(CONVERTED_SUFFIX) else "copy"


def _top_down(entries):
    """Each folder before what is in it, files of a folder before its subfolders'."""
    return sorted(entries, key=lambda entry: _parts(entry[1], entry[2]))


def _parts(relative, kind):
    parts = relative.split(os.sep)
    # A folder sorts as its own contents do (its path), ahead of them; files of a folder
    # ahead of its subfolders.
    return [(1, part) for part in parts[:-1]] + [(1, parts[-1]) if kind == "folder"
                                                 else (0, parts[-1])]
