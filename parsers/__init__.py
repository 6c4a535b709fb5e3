"""Readers for every graph container TensorFlow writes: `load(path)` tells what it holds by content.

>>> import parsers
>>> loaded = parsers.load("tests/fixtures/parsers/functions.pb")  # doctest: +SKIP
>>> loaded.kind, [g.label for g in loaded.graphs]                  # doctest: +SKIP
('graphdef', ['functions.pb'])
"""

from __future__ import annotations

import importlib
import os

from parsers.errors import InputError

__all__ = ["load", "InputError", "Loaded", "LabeledGraph", "TaggedRun", "MetaGraph", "Signature",
           "KINDS"]

# The readers and their messages load on first use (PEP 562), so a command that needs none of
# them (`vlog`, `--help`) starts without importing protobuf and every container reader.
_LAZY = {"detect": "parsers.detect", **{name: "parsers.loaded" for name in (
    "KINDS", "LabeledGraph", "Loaded", "MetaGraph", "Signature", "TaggedRun")}}


def __getattr__(name):
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'parsers' has no attribute {name!r}")
    module = importlib.import_module(module_name)
    value = module if name == "detect" else getattr(module, name)
    globals()[name] = value
    return value


def load(path, progress=None) -> Loaded:
    """Everything in `path` (a file or directory), or InputError saying what is wrong and where.

    Files: GraphDef, MetaGraphDef, SavedModel or RunMetadata (binary or text), a TensorBoard
    events file. Directories: a SavedModel, a log directory of events files, a
    TF_DUMP_GRAPH_PREFIX dump. A VLOG log is recognised and refused (its reader is `vlog`).
    progress(done, total) is called now and then while a big file is parsed (for a text
    proto: characters).
    """
    detect = __getattr__("detect")
    path = os.fspath(path)
    if os.path.isdir(path):
        return detect.load_directory(path)
    if not os.path.exists(path):
        raise InputError(path, "no such file or directory")
    return detect.load_file(path, progress)
