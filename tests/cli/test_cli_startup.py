"""The `autograph` command imports only what converting needs: never the runtime nor
numpy (the package's API loads on first use), while `import autograph_py as ag` still
gives the whole API with the runtime's hooks connected."""

import subprocess
import sys

_HEAVY = ("numpy", "autograph_py.runtime", "autograph_py.api")


def _loaded_after(code):
    """Which of `_HEAVY` a fresh interpreter has imported after running `code`."""
    probe = f"{code}\nimport sys\nprint([m for m in {_HEAVY!r} if m in sys.modules])"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=120).stdout.strip()


def test_the_command_starts_without_the_runtime():
    assert _loaded_after("import autograph_py.cli") == "[]"


def test_converting_a_file_needs_no_runtime(tmp_path):
    source = tmp_path / "model.py"
    source.write_text("def f(x):\n    if x > 0:\n        x = -x\n    return x\n")
    code = (f"from autograph_py.cli import main\n"
            f"assert main(['convert', {str(source)!r}, '-o', {str(tmp_path / 'out.py')!r}]) == 0")
    assert _loaded_after(code) == "[]"
    assert "__ag__.if_stmt" in (tmp_path / "out.py").read_text()


def test_the_first_name_read_loads_the_api_and_its_hooks():
    code = ("import autograph_py as ag\nfrom autograph_py.runtime import errors\n"
            "assert ag.to_code is ag.conversion.to_code and callable(ag.function)\n"
            "assert errors._resolvers, 'the source map resolver is connected'")
    assert _loaded_after(code) == str(list(_HEAVY))


def test_dir_lists_the_api_before_any_name_was_read():
    code = ("import autograph_py as ag\nnames = dir(ag)\n"
            "assert {'function', 'to_code', 'constant', 'Session'} <= set(names), names\n"
            "assert not {'loader', 'fast_path', 'runtime', 'api'} & set(names), names")
    assert _loaded_after(code) == str(list(_HEAVY))
