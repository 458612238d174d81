"""The layer rules of docs/architecture.md, checked on the source of every module.

- `converters/` (installed as `autograph_py.converters`) imports only the standard
  library, gast and itself.
- `runtime/` (installed as `autograph_py.runtime`) imports only the standard library,
  numpy and itself; only `runtime/xla/` (the XLA lowering) may import jax besides, and
  only `runtime/onnx/` (the ONNX export) onnx.
- Nothing imports the folders by their checkout names (`runtime`, `converters`): only
  `autograph_py` is installed.
- `autograph_py/` may import all three, but the two lower layers never reach up.
- No import cycles: among our modules every dependency points one way (a lower module
  never reaches up; a method that needs a higher module is attached by it).
Imports inside functions count as much as those at the top of a module.
"""

import ast
import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
# Import name of each folder that installs under `autograph_py`.
PACKAGES = {"autograph_py": "autograph_py", "converters": "autograph_py.converters",
            "runtime": "autograph_py.runtime"}
# What each layer may import besides the standard library.
ALLOWED = {
    "autograph_py.converters": ("gast", "autograph_py.converters"),
    "autograph_py.runtime": ("numpy", "autograph_py.runtime"),
    # jax: the optional [xla] extra, imported only by the lowering package (which nothing
    # in the numpy runtime imports), so the numpy runtime never needs it.
    "autograph_py.runtime.xla": ("numpy", "jax", "autograph_py.runtime"),
    # onnx: the optional [onnx] extra, imported lazily by the export package only.
    "autograph_py.runtime.onnx": ("numpy", "onnx", "autograph_py.runtime"),
    # threadpoolctl: the optional [perf] extra (one BLAS thread for small matrix
    # products), imported lazily by this one module; without it the switch is a no-op.
    "autograph_py.runtime.blas_threads": ("threadpoolctl", "autograph_py.runtime"),
    # tensorboard: the optional [tensorboard] extra, imported lazily by ag.summary for the
    # GraphDef/Event protobuf classes it ships (so no TensorFlow is needed).
    "autograph_py": ("gast", "numpy", "autograph_py", "tensorboard"),
}


def module_name(root, path):
    """Import name of the module at `path`, with folders mapped as pyproject.toml does."""
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGES[parts[0]], *parts[1:]])


def imported_names(tree, module, is_package):
    """Absolute names of everything `tree` imports, anywhere in it, with line numbers."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module
            yield node.lineno, name


def layer_of(module):
    return max((layer for layer in ALLOWED if module == layer or
                module.startswith(layer + ".")), key=len)


def is_allowed(layer, name):
    top = name.split(".")[0]
    if top in sys.stdlib_module_names or top == "__future__":
        return True
    return any(name == ok or name.startswith(ok + ".") for ok in ALLOWED[layer])


def violations(root):
    """`file:line: message` for every import that crosses the rules."""
    found = []
    for folder in PACKAGES:
        for path in sorted((root / folder).rglob("*.py")):
            module = module_name(root, path)
            layer = layer_of(module)
            tree = ast.parse(path.read_text(), str(path))
            for line, name in imported_names(tree, module, path.name == "__init__.py"):
                if not is_allowed(layer, name):
                    found.append(f"{path.relative_to(root)}:{line}: {layer} imports {name}")
    return found


def module_dependencies(root):
    """{module: {module it imports: first line}} over our modules. `from p import x` is
    an import of the module `p.x` when there is one, else of `p`; importing a package's
    submodule also imports the `__init__` of each package above it that Python runs then
    (not those of the importing module's own packages, which run before it)."""
    paths = {module_name(root, path): path
             for folder in PACKAGES for path in sorted((root / folder).rglob("*.py"))}

    def ours(name):  # the module `name` denotes, or the one defining it, or None
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    found = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        deps = found[module] = {}
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [ours(alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module
                if node.level:
                    parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 \
                        else package
                    base = f"{parent}.{node.module}" if node.module else parent
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths
                           else ours(base) for alias in node.names]
            else:
                continue
            own_packages = _packages_above(module) | {module}
            for target in targets:
                if target is None:
                    continue
                for runs in [target, *sorted(_packages_above(target) & set(paths))]:
                    if runs not in own_packages:
                        deps.setdefault(runs, node.lineno)
    return found


def _packages_above(module):
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def import_cycles(root):
    """The import cycles among our modules: each a sorted list of the modules that reach
    each other (strongly connected components of more than one module), sorted."""
    deps = module_dependencies(root)
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(module):  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for dep in deps[module]:
            if dep not in index:
                visit(dep)
                low[module] = min(low[module], low[dep])
            elif dep in on_stack:
                low[module] = min(low[module], index[dep])
        if low[module] == index[module]:
            component = []
            while not component or component[-1] != module:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in deps:
        if module not in index:
            visit(module)
    return sorted(cycles)




def empty_checkout(root):
    """The three folders as empty packages under `root`, to write test modules into."""
    for name in PACKAGES:
        (root / name).mkdir()
        (root / name / "__init__.py").write_text("")


def test_no_import_cycles_among_our_modules():
    assert import_cycles(ROOT) == []


def test_a_deliberate_cycle_is_reported_even_through_a_function(tmp_path):
    empty_checkout(tmp_path)
    (tmp_path / "runtime" / "low.py").write_text("def f():\n    from . import high\n")
    (tmp_path / "runtime" / "high.py").write_text("from autograph_py.runtime import low\n")
    (tmp_path / "runtime" / "other.py").write_text("from autograph_py.runtime.low import f\n")
    assert import_cycles(tmp_path) == [["autograph_py.runtime.high", "autograph_py.runtime.low"]]


def test_a_cycle_through_a_package_init_is_reported(tmp_path):
    # Importing `runtime.ops.sub` runs `runtime/ops/__init__.py`, which imports `high`:
    # the cycle Python executed between the op library and `tensor_operators`.
    empty_checkout(tmp_path)
    (tmp_path / "runtime" / "ops").mkdir()
    (tmp_path / "runtime" / "ops" / "__init__.py").write_text(
        "from autograph_py.runtime import high\n")
    (tmp_path / "runtime" / "ops" / "sub.py").write_text("X = 1\n")
    (tmp_path / "runtime" / "high.py").write_text("from autograph_py.runtime.ops.sub import X\n")
    assert import_cycles(tmp_path) == [["autograph_py.runtime.high", "autograph_py.runtime.ops"]]
    # A module's own packages run before it: `sub` importing its sibling is no cycle.
    (tmp_path / "runtime" / "ops" / "__init__.py").write_text("from . import sub\n")
    (tmp_path / "runtime" / "ops" / "other.py").write_text(
        "from autograph_py.runtime.ops.sub import X\n")
    assert import_cycles(tmp_path) == []


def test_no_module_crosses_the_layer_rules():
    assert violations(ROOT) == []


@pytest.mark.parametrize("folder, line", [
    ("converters", "import numpy as np"),
    ("converters", "from autograph_py.runtime import tensor"),
    ("runtime", "from autograph_py import conversion"),
    ("runtime", "def f():\n    from autograph_py.converters import parser\n"),
    ("runtime", "from runtime import tensor"),       # the checkout name, not installed
    ("runtime", "import jax"),                       # only runtime/xla may
    ("autograph_py", "import converters"),
])
def test_a_deliberate_crossing_is_reported(tmp_path, folder, line):
    empty_checkout(tmp_path)
    (tmp_path / folder / "bad.py").write_text(line + "\n")
    [report] = violations(tmp_path)
    assert report.startswith(f"{folder}/bad.py:")


def test_relative_imports_resolve_inside_the_layer(tmp_path):
    empty_checkout(tmp_path)
    (tmp_path / "runtime" / "ok.py").write_text("from . import tensor\nfrom .ops import x\n")
    (tmp_path / "runtime" / "bad.py").write_text("from .. import conversion\n")
    assert [r.split(":")[0] for r in violations(tmp_path)] == ["runtime/bad.py"]


def test_the_wheel_installs_one_top_level_name(tmp_path):
    # Built from a copy: a build in the checkout would leave build/ behind, whose stale
    # files later builds pick up.
    source = tmp_path / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(tmp_path), str(source)],
                   check=True, capture_output=True)
    [wheel] = tmp_path.glob("*.whl")
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"autograph_py"}
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder, package in PACKAGES.items():
        for path in (ROOT / folder).rglob("*.py"):
            inside = path.relative_to(ROOT / folder).as_posix()
            assert f"{package.replace('.', '/')}/{inside}" in names, path


def test_user_modules_named_runtime_and_converters_do_not_shadow_ours(tmp_path):
    for shadow in ("runtime", "converters"):
        (tmp_path / f"{shadow}.py").write_text(f"raise ImportError('user {shadow}.py imported')\n")
    (tmp_path / "script.py").write_text(
        "import autograph_py as ag\n"
        "def f(x):\n"
        "    while x > 1:\n"
        "        x = x // 2\n"
        "    return x\n"
        "with ag.Graph().as_default(), ag.Session() as s:\n"
        "    print(s.run(ag.to_graph(f)(ag.constant(40))))\n")
    done = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1\n"
