"""Readers for every graph container TensorFlow writes: `load(path)` decides what it holds by content.

>>> import parsers
>>> loaded = parsers.load("tests/fixtures/parsers/functions.pb")  # doctest: +SKIP
>>> loaded.kind, [g.label for g in loaded.graphs]                  # doctest: +SKIP
('graphdef', ['functions.pb'])
"""

from __future__ import annotations

import os

from parsers import detect
from parsers.errors import InputError
from parsers.loaded import KINDS, LabeledGraph, Loaded, MetaGraph, Signature, TaggedRun

__all__ = ["load", "InputError", "Loaded", "LabeledGraph", "TaggedRun", "MetaGraph", "Signature", "KINDS"]


def load(path) -> Loaded:
    """Everything in `path` (a file or directory), or InputError saying what is wrong and where.

    Files: GraphDef, MetaGraphDef, SavedModel or RunMetadata (binary or text), a TensorBoard
    events file. Directories: a SavedModel, a log directory of events files, a
    TF_DUMP_GRAPH_PREFIX dump. A VLOG log is recognised and refused (its reader is `vlog`).
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        return detect.load_directory(path)
    if not os.path.exists(path):
        raise InputError(path, "no such file or directory")
    return detect.load_file(path)
