"""Where the command line writes its results, and how: atomically.

Contract:
- `prepare_outputs(inputs, output)` returns one destination path per input argument.
  One file: `output` is the file to write, or an existing directory that receives the
  input's base name. Several inputs, or a folder among them: `output` is a directory
  (created when missing) that receives each input's base name (a folder's own name:
  `pkg/ -o out` is `out/pkg`). Raises `UsageError` (exit status 2) for several inputs
  into a file, standard input into a directory, two inputs with one base name, a
  destination that is one of the inputs (inputs are never modified), a folder's
  destination that is that folder or inside it, a destination whose directory does not
  exist, and an existing destination that is not writable.
- `check_destination(source, destination)`: those checks for one file.
- `write_output(path, content, new_mode=None)` writes `content` (str as UTF-8, bytes
  as they are, or a binary file object copied) without ever turning something that is
  not a regular file into one; a file it creates gets `new_mode` (default: what any
  new file gets, 0o666 less the umask):
  - a regular file, or a path that does not exist yet, is written atomically: to a
    temporary file next to it, renamed over it (readers, and an interrupted run, see the
    old file or the whole new one). An existing file keeps its permissions.
  - a symbolic link is followed: its final target gets the same treatment, and the link
    stays a link.
  - a character device (`/dev/null`, a terminal) or a FIFO is written through, as the
    shell's `>` would (a rename would replace the device node with a file).
  - anything else (a block device, a socket) raises `UsageError`; `prepare_outputs`
    refuses these before anything is converted.
"""

import os
import shutil
import stat
import tempfile

from autograph_py.cli.source import STDIN, UsageError


def prepare_outputs(inputs, output):
    if len(inputs) == 1 and not os.path.isdir(output) and not os.path.isdir(inputs[0]):
        destinations = [output]
    else:
        destinations = _into_directory(inputs, output)
    for source, destination in zip(inputs, destinations):
        if source != STDIN and os.path.isdir(source):
            _check_folder_destination(source, destination)
        else:
            check_destination(source, destination)
    return destinations


def _into_directory(inputs, directory):
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise UsageError(f"{directory}: several inputs or a folder need an output "
                         "directory, and this is a file")
    if STDIN in inputs:
        raise UsageError(f"{directory}: standard input has no file name to write into a "
                         "directory; give -o a file path")
    # A folder's own name, however it is spelled (`pkg/`, `.`).
    names = [os.path.basename(os.path.abspath(path)) for path in inputs]
    if "" in names:
        raise UsageError(f"{directory}: the root folder has no name to write it under")
    clashes = sorted({name for name in names if names.count(name) > 1})
    if clashes:
        raise UsageError(f"{directory}: several inputs would be written to "
                         f"{', '.join(clashes)}; convert them separately")
    os.makedirs(directory, exist_ok=True)
    return [os.path.join(directory, name) for name in names]


def _check_folder_destination(source, destination):
    if os.path.exists(destination) and not os.path.isdir(destination):
        raise UsageError(f"{destination}: is a file; the converted folder {source} would "
                         "go there")
    inside = os.path.realpath(destination)
    folder = os.path.realpath(source)
    if inside == folder or inside.startswith(folder.rstrip(os.sep) + os.sep):
        raise UsageError(f"{destination}: is inside the input folder {source}; autograph "
                         "never writes into its input")


def check_destination(source, destination):
    parent = os.path.dirname(destination) or "."
    if not os.path.isdir(parent):
        raise UsageError(f"{destination}: directory {parent} does not exist")
    if not os.path.exists(destination):
        return
    if os.path.isdir(destination):
        raise UsageError(f"{destination}: is a directory")
    _writable_kind(destination)
    if source != STDIN and os.path.exists(source) and os.path.samefile(source, destination):
        raise UsageError(f"{destination}: is the input file; autograph never modifies its "
                         "input")
    # A file without any write bit was made read-only on purpose: respect that even
    # when os.access says yes (as it always does for root).
    if not os.access(destination, os.W_OK) or not os.stat(destination).st_mode & 0o222:
        raise UsageError(f"{destination}: output file is not writable")


def write_output(path, content, new_mode=None):
    # Decided on what the path reaches (stat follows links): /dev/stdout is a link to a
    # pipe whose "real path" names no file at all.
    if _writable_kind(path) == "through":
        with open(path, "wb") as f:
            _fill(f, content.encode("utf-8") if isinstance(content, str) else content)
    else:
        # A symlink's final target is replaced; the link itself stays.
        write_atomically(os.path.realpath(path), content, new_mode)


def _fill(f, content):
    if hasattr(content, "read"):
        shutil.copyfileobj(content, f)
    else:
        f.write(content)


def _writable_kind(path):
    """"atomic" for a regular file or a new path, "through" for a node written in place,
    else `UsageError`."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "atomic"
    if stat.S_ISREG(mode):
        return "atomic"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "through"
    raise UsageError(f"{path}: is not a regular file, a character device or a FIFO; "
                     "autograph writes only to those")


def write_atomically(path, text, new_mode=None):
    directory = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.",
                                     suffix=".tmp")
    try:
        with (os.fdopen(fd, "w", encoding="utf-8", newline="") if isinstance(text, str)
              else os.fdopen(fd, "wb")) as f:
            _fill(f, text)
        os.chmod(temporary, _mode_for(path, new_mode))
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _mode_for(path, new_mode):
    # mkstemp creates files readable by their owner only; a new output file should get
    # the permissions any other new file gets (or `new_mode`, as `cp` gives a copy its
    # source's, less the umask).
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return (0o666 if new_mode is None else new_mode) & ~umask
