"""Loading a directory from a stranger: crafted, corrupt and foreign directories are each
refused by a SavedModelError (a ValueError) naming what is wrong, and nothing in them
runs (a pickled payload is never unpickled)."""

import json
import os
import zipfile

import numpy as np
import pytest

import autograph_py as ag
from tests.saved_model.models import Counter


@pytest.fixture
def export(tmp_path):
    path = str(tmp_path / "model")
    ag.saved_model.save(Counter(), path)
    return path


def _edit_json(export, name, edit):
    path = os.path.join(export, name)
    with open(path) as f:
        data = json.load(f)
    edit(data)
    with open(path, "w") as f:
        json.dump(data, f)


def _ops(data):
    return data["graphs"][0]["graph"]["ops"]


def _refused(export, pattern):
    with pytest.raises(ag.saved_model.SavedModelError, match=pattern):
        ag.saved_model.load(export)


def test_the_untouched_directory_loads(export):
    assert ag.saved_model.contains_saved_model(export)
    assert ag.saved_model.load(export).scale.numpy() == 2.0


def test_an_unknown_op_is_refused_by_name(export):
    def edit(data):
        _ops(data)[-1]["type"] = "ShellExec"
    _edit_json(export, "graphs.json", edit)
    _refused(export, r"graph #0: op 'Identity' has unknown op type 'ShellExec'")


def test_a_cycle_is_refused_and_named(export):
    def edit(data):
        ops = _ops(data)
        first = next(op for op in ops if op["inputs"])
        last = ops[-1]
        first["inputs"][0] = last["name"] + ":0"  # the last op depends on the first
    _edit_json(export, "graphs.json", edit)
    _refused(export, r"the graph has a cycle: .* -> .*")


def test_a_constant_of_a_trillion_elements_is_refused_before_allocating(export):
    def edit(data):
        const = next(op for op in _ops(data) if op["type"] == "Const")
        const["attrs"]["value"]["shape"] = [10**6, 10**6]
        const["outputs"][0]["shape"] = [10**6, 10**6]
    _edit_json(export, "graphs.json", edit)
    _refused(export, r"declares 1000000000000 elements, more than 2147483647")


def test_a_constant_whose_values_do_not_fill_its_shape_is_refused(export):
    def edit(data):
        const = next(op for op in _ops(data) if op["type"] == "Const")
        const["attrs"]["value"]["shape"] = [3]
    _edit_json(export, "graphs.json", edit)
    _refused(export, r"do not fill its declared shape \[3\]")


def test_a_lie_about_an_output_dtype_is_refused(export):
    def edit(data):
        _ops(data)[-1]["outputs"][0]["dtype"] = "int64"
    _edit_json(export, "graphs.json", edit)
    _refused(export, r"graph #0: cannot be rebuilt .*int64")


class _Payload:
    """Unpickling this makes a directory: the test sees whether it ever ran."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (self.marker,)


def test_a_pickled_array_is_refused_and_never_unpickled(export, tmp_path):
    marker = str(tmp_path / "unpickled")
    payload = np.array([_Payload(marker)], dtype=object)
    path = os.path.join(export, "variables.npz")
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            if name == "v0.npy":
                with archive.open(name, "w") as f:
                    np.lib.format.write_array(f, payload, allow_pickle=True)
            else:
                archive.writestr(name, data)
    _refused(export, r"variables.npz: Variable 'v0' holds Python objects \(a pickle\)")
    assert not os.path.exists(marker)


@pytest.mark.parametrize("name, pattern", [
    ("graphs.json", r"graphs.json in .* is corrupt or truncated"),
    ("saved_model.json", r"saved_model.json in .* is corrupt or truncated"),
    ("variables.npz", r"variables.npz.* (corrupt or truncated|truncated)"),
])
def test_a_truncated_file_is_refused_by_name(export, name, pattern):
    path = os.path.join(export, name)
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:len(data) // 2])
    _refused(export, pattern)


def test_another_format_version_is_refused_naming_both(export):
    _edit_json(export, "saved_model.json", lambda data: data.update(version=99))
    _refused(export, r"saved-model format version 99 .*reads version 1")


def test_another_graph_format_version_is_refused(export):
    _edit_json(export, "graphs.json", lambda data: data["graphs"][0].update(version=7))
    _refused(export, r"graph format version 7; this autograph_py reads version 1")


def test_a_missing_file_or_directory_is_refused(export, tmp_path):
    _refused(str(tmp_path / "nowhere"), "not a directory")
    os.remove(os.path.join(export, "variables.npz"))
    _refused(export, "variables.npz is missing")
    os.remove(os.path.join(export, "saved_model.json"))
    assert not ag.saved_model.contains_saved_model(export)
    _refused(export, "is not a saved model: saved_model.json is missing")


def test_a_variable_of_another_shape_than_the_manifest_says_is_refused(export):
    _edit_json(export, "saved_model.json",
               lambda data: data["variables"][0].update(shape=[10**7]))
    _refused(export, r"Variable 'v0' is float32\[\] but the manifest says float32\[10000000\]")


def test_a_manifest_field_of_the_wrong_type_is_refused(export):
    _edit_json(export, "saved_model.json", lambda data: data.update(functions={"f": 1}))
    _refused(export, r"saved_model.json: 'functions' is missing or not a list")


def test_a_print_to_a_file_is_refused(tmp_path):
    # A loaded graph may print to stdout or stderr; a crafted PrintV2 writing to a path
    # would let a stranger's directory write files when its function is called.
    @ag.function(input_signature=[ag.TensorSpec([], ag.float32)])
    def shout(x):
        ag.print("x is", x)
        return x + 1.0

    path = str(tmp_path / "printer")
    ag.saved_model.save(shout, path)
    assert ag.saved_model.load(path)(ag.constant(1.0)).numpy() == 2.0

    def edit(data):
        [print_op] = [op for graph in data["graphs"] for op in graph["graph"]["ops"]
                      if op["type"] == "PrintV2"]
        print_op["attrs"]["stream"] = "file://" + str(tmp_path / "written.txt")
    _edit_json(path, "graphs.json", edit)
    _refused(path, r"\(PrintV2\) writes to 'file://.*'; a loaded graph may print to "
                   r"stdout or stderr only")
    assert not (tmp_path / "written.txt").exists()
