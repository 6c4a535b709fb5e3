"""The import rules, checked over the source with ast (nothing is imported):
- the layers (docs/ARCHITECTURE.md): inspector -> views -> parsers -> engine; inside the engine,
  engine.framework (what a graph is) imports nothing of engine.runtime (what runs it), and
  nothing but engine.api itself imports engine.api (the TF1 namespace);
- no `from x import _private` across packages;
- no import circle between modules outside the graph core (graph, operation, tensor,
  default_graph may import each other and, inside functions, what is built over them)."""

import ast
import functools
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "parsers", "views", "inspector", "bench")
PRIVATE_CHECKED = PACKAGES + ("tools", "tests")
GRAPH_CORE = {"engine.framework.graph", "engine.framework.operation", "engine.framework.tensor",
              "engine.framework.default_graph"}
# (importer, what it must not import): a module under the first never imports one under the
# second, at any depth, unless it is under the second itself. Imports inside functions count.
LAYER_RULES = (
    ("engine.framework", "engine.runtime"),
    ("engine", "engine.api"),
    ("engine", "parsers"), ("engine", "views"), ("engine", "inspector"),
    ("parsers", "views"), ("parsers", "inspector"),
    ("views", "inspector"),
)
# None is left: a circle found fails. One listed here would need its reason and an owner to cut it.
KNOWN_CIRCLES = []


def _modules(root, tops):
    """{dotted module name: path} of the .py files under root/<top> for each top."""
    found = {}
    for top in tops:
        for directory, subdirs, files in os.walk(root / top):
            subdirs[:] = sorted(d for d in subdirs if d != "__pycache__" and d != "fixtures")
            for name in files:
                if name.endswith(".py"):
                    path = Path(directory) / name
                    dotted = ".".join(path.relative_to(root).with_suffix("").parts)
                    found[dotted.removesuffix(".__init__")] = path
    return found


def _package(module, path):
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


@functools.lru_cache(maxsize=None)
def _imports(module, path):
    """[(line, imported module, names)] for every import statement, at any depth."""
    return list(_each_import(module, path))


def _each_import(module, path):
    package = _package(module, path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(parts + ([node.module] if node.module else []))
            else:
                target = node.module
            yield node.lineno, target, tuple(alias.name for alias in node.names)


def private_imports_across_packages(root, tops=PRIVATE_CHECKED):
    """`path:line: from x import _name` where x's package is not the importer's."""
    modules = _modules(root, tops)
    found = []
    for module, path in modules.items():
        package = _package(module, path)
        for line, target, names in _imports(module, path):
            for name in names:
                if not name.startswith("_") or name.startswith("__"):
                    continue
                # `from pkg import _mod` names a module of pkg; `from pkg.mod import _f` a name
                # of pkg.mod: either way the private thing belongs to the package below.
                owner = target if (root / target.replace(".", "/")).is_dir() else \
                    target.rpartition(".")[0]
                beside = path.parent / target.split(".")[0]
                if beside.is_dir() or beside.with_suffix(".py").is_file():
                    owner = package  # a module beside the importer (test helpers)
                if owner != package:
                    found.append(f"{path.relative_to(root)}:{line}: from {target} import {name}")
    return found


def _under(module, prefix):
    return module == prefix or module.startswith(prefix + ".")


def layer_violations(root, tops=PACKAGES, rules=LAYER_RULES):
    """`path:line: importer imports target (importer -> forbidden)` for each import that crosses
    a layer the wrong way."""
    modules = _modules(root, tops)
    found = []
    for module, path in sorted(modules.items()):
        for line, target, names in _imports(module, path):
            targets = [f"{target}.{name}" for name in names if name != "*"] + [target]
            for importer, forbidden in rules:
                if not _under(module, importer) or _under(module, forbidden):
                    continue
                crossing = next((t for t in targets if _under(t, forbidden)), None)
                if crossing:
                    found.append(f"{path.relative_to(root)}:{line}: {module} imports {crossing}"
                                 f" ({importer} must not import {forbidden})")
    return found


def import_circles(root, tops=PACKAGES, core=GRAPH_CORE):
    """The sets of modules outside `core` that import each other in a loop (imports inside
    functions count; importing a.b.c counts as importing the packages a and a.b too)."""
    modules = _modules(root, tops)
    edges = {module: set() for module in modules}
    for module, path in modules.items():
        for _, target, names in _imports(module, path):
            targets = [f"{target}.{name}" if f"{target}.{name}" in modules else target
                       for name in names] or [target]
            for dotted in targets:
                parts = dotted.split(".")
                for k in range(1, len(parts) + 1):
                    prefix = ".".join(parts[:k])
                    if prefix in modules and prefix != module and \
                            not module.startswith(prefix + "."):
                        edges[module].add(prefix)
    return _strongly_connected([m for m in modules if m not in core],
                               {m: edges[m] - core for m in modules})


def _strongly_connected(nodes, edges):
    """Tarjan's algorithm, iterative; the components of more than one node."""
    index, low, on_stack, stack, circles = {}, {}, set(), [], []
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def test_no_import_crosses_a_layer_the_wrong_way():
    assert layer_violations(ROOT) == []


def test_no_private_import_across_packages():
    assert private_imports_across_packages(ROOT) == []


def test_no_import_circle_outside_the_graph_core():
    assert [c for c in import_circles(ROOT) if c not in KNOWN_CIRCLES] == []


def _plant(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_checks_catch_planted_violations(tmp_path):
    _plant(tmp_path, {
        "engine/__init__.py": "",
        "engine/framework/graph.py": "from engine.ops import helpers\n",
        "engine/ops/__init__.py": "",
        "engine/ops/helpers.py": "def f():\n    from engine.framework.graph import Graph\n",
        "engine/kernels/__init__.py": "",
        "engine/kernels/cpu/__init__.py": "",
        "engine/kernels/cpu/nn.py": "from engine.kernels.cpu import _impl\nfrom . import _impl\n",
        "engine/kernels/cpu/_impl.py": "def _geometry():\n    pass\n",
        "engine/kernels/cuda/__init__.py": "",
        "engine/kernels/cuda/nn.py": "from engine.kernels.cpu.nn import _geometry\n"
                                     "from ..cpu import _impl\n",
        "engine/a.py": "def f():\n    from engine.b import g\n",
        "engine/b.py": "import engine.c\n",
        "engine/c.py": "from engine import a\n",
        "engine/summary/__init__.py": "from engine.training import hooks\n",
        "engine/summary/writer.py": "",
        "engine/training/__init__.py": "",
        "engine/training/hooks.py": "from engine.summary.writer import x\n",
    })
    assert private_imports_across_packages(tmp_path, ("engine",)) == [
        "engine/kernels/cuda/nn.py:1: from engine.kernels.cpu.nn import _geometry",
        "engine/kernels/cuda/nn.py:2: from engine.kernels.cpu import _impl",
    ]
    # graph <-> ops.helpers passes through the graph core: allowed.
    assert sorted(import_circles(tmp_path, ("engine",))) == [
        ["engine.a", "engine.b", "engine.c"],
        ["engine.summary", "engine.training.hooks"],
    ]


def test_the_layer_check_catches_planted_crossings(tmp_path):
    _plant(tmp_path, {
        "engine/__init__.py": "",
        "engine/framework/__init__.py": "",
        "engine/framework/tensor.py": "def f():\n    from engine.runtime import session\n",
        "engine/framework/graph.py": "from engine.framework import tensor\nimport engine.ops\n",
        "engine/runtime/__init__.py": "",
        "engine/runtime/session.py": "from engine.framework.graph import Graph\n",
        "engine/ops/__init__.py": "from engine import api\n",
        "engine/api/__init__.py": "from engine.api.core import *\n",
        "engine/api/core.py": "from engine.runtime.session import Session\nimport engine.ops\n",
        "parsers/__init__.py": "",
        "parsers/reader.py": "import engine.framework\nfrom views import drawing\n",
        "views/__init__.py": "",
        "views/drawing.py": "from parsers import reader\n",
    })
    assert layer_violations(tmp_path, ("engine", "parsers", "views")) == [
        "engine/framework/tensor.py:2: engine.framework.tensor imports engine.runtime.session"
        " (engine.framework must not import engine.runtime)",
        "engine/ops/__init__.py:1: engine.ops imports engine.api"
        " (engine must not import engine.api)",
        "parsers/reader.py:2: parsers.reader imports views.drawing"
        " (parsers must not import views)",
    ]
