"""The package as pip sees it: licence, typing marker, and every import declared."""

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "parsers", "views", "inspector")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def requirement_names(requirements):
    return {re.split(r"[<>=!~;\[ ]", text, maxsplit=1)[0].lower().replace("_", "-")
            for text in requirements}


def test_licence_is_an_spdx_string_with_its_file():
    project = PYPROJECT["project"]
    assert project["license"] == "Apache-2.0"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text


def test_every_package_is_marked_typed():
    for package in PACKAGES:
        assert (ROOT / package / "py.typed").is_file(), package


def test_textual_has_an_upper_bound():
    (textual,) = [r for r in PYPROJECT["project"]["dependencies"] if r.startswith("textual")]
    assert "<" in textual


def third_party_imports():
    """Top-level module -> a file importing it, for modules neither ours nor the stdlib's."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.split(".")[0]
                    if top not in PACKAGES and top not in sys.stdlib_module_names:
                        found.setdefault(top, path.relative_to(ROOT))
    return found


def test_every_third_party_import_is_declared():
    runtime = requirement_names(PYPROJECT["project"]["dependencies"])
    optional = set().union(*(requirement_names(r) for r in
                             PYPROJECT["project"]["optional-dependencies"].values()))
    distributions = metadata.packages_distributions()
    # Imported only where installed (behind an ImportError fallback): an extra declares it.
    in_extras = {"cupy": "cupy-cuda12x", "cupyx": "cupy-cuda12x", "distributed": "distributed",
                 "dask": "distributed", "h5py": "h5py", "msgpack": "msgpack"}
    for module, where in third_party_imports().items():
        if module in in_extras:
            assert in_extras[module] in optional, (module, where)
            continue
        names = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
        assert names & runtime, f"{module} (imported in {where}) is not in dependencies"
