"""Lists the packages to install: autograph_py and every package folder under it, and
every package folder under converters/ and runtime/, installed under `autograph_py`
(pyproject.toml's package-dir maps the folders), so a new subpackage can never be left
out of a wheel. Everything else lives in pyproject.toml."""

from setuptools import find_packages, setup

setup(packages=find_packages(include=["autograph_py", "autograph_py.*"]) + [
    f"autograph_py.{name}"
    for name in find_packages(include=["converters", "converters.*", "runtime", "runtime.*"])
])
