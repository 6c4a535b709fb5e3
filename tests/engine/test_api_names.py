"""No engine package has a submodule named like a name its __init__ binds.

Importing a submodule rebinds the package's attribute to the module, so a package that imports
`histogram` (a function) and also holds `histogram.py` answers `tf.summary.histogram(...)` with
"'module' object is not callable" once anything imports the submodule.
"""

import ast
import pkgutil
from pathlib import Path

import engine

ENGINE = Path(engine.__file__).parent


def _bound_names(module_file, package):
    """Names a module binds at its top level, other than by importing `package`'s submodule."""
    names = set()
    for node in ast.parse(module_file.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                bound = alias.asname or alias.name
                if node.module != package and not (node.level == 1 and node.module is None):
                    names.add(bound)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _api_parts():
    """The modules engine/api/__init__.py star-imports: together they bind the tf namespace."""
    tree = ast.parse((ENGINE / "api" / "__init__.py").read_text(encoding="utf-8"))
    return [node.module.rpartition(".")[2] for node in tree.body
            if isinstance(node, ast.ImportFrom) and [a.name for a in node.names] == ["*"]]


def _packages():
    yield "engine", ENGINE
    for info in pkgutil.walk_packages([str(ENGINE)], "engine."):
        if info.ispkg and ".proto" not in info.name:
            yield info.name, ENGINE.joinpath(*info.name.split(".")[1:])


def test_the_api_parts_are_found():
    assert _api_parts() == ["core", "math_and_nn", "training", "input_output", "platform",
                            "special_math", "elementary_math", "image_and_spatial",
                            "feature_columns", "signal_and_audio", "sparse_and_metrics",
                            "fake_quant_and_quantize", "image_io_and_quantized",
                            "specs_and_sessions",
                            "functions_and_modules", "random_gen_math",
                            "ragged_tensors"]


def test_no_submodule_shadows_a_name_its_package_binds():
    clashes = []
    for package, folder in _packages():
        bound = _bound_names(folder / "__init__.py", package)
        if package in ("engine", "engine.api"):
            # engine/api/__init__.py star-imports its parts; the lazy top level hands out the
            # names they bind.
            for part in _api_parts():
                bound |= _bound_names(ENGINE / "api" / f"{part}.py", package)
        submodules = {info.name for info in pkgutil.iter_modules([str(folder)])}
        clashes += [f"{package}.{name}" for name in sorted(bound & submodules)]
    assert clashes == []
