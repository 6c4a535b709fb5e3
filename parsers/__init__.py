"""Readers for every graph container TensorFlow writes: `load(path)` tells what it holds by content.

>>> import parsers
>>> loaded = parsers.load("tests/fixtures/parsers/functions.pb")
>>> loaded.kind, [g.label for g in loaded.graphs]
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
_MODULES = {"detect": "parsers.detect", "checkpoint": "parsers.checkpoint",
            "directories": "parsers.directories"}
_LAZY = {**_MODULES, **{name: "parsers.loaded" for name in (
    "KINDS", "LabeledGraph", "Loaded", "MetaGraph", "Signature", "TaggedRun")}}


def __getattr__(name):
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'parsers' has no attribute {name!r}")
    module = importlib.import_module(module_name)
    value = module if name in _MODULES else getattr(module, name)
    globals()[name] = value
    return value


def load(path, progress=None) -> Loaded:
    """Everything in `path` (a file or directory), or InputError saying what is wrong and where.

    Files: GraphDef, MetaGraphDef (with the checkpoint beside a .meta), SavedModel or
    RunMetadata (binary or text), a TensorBoard events file, a checkpoint (its prefix, .index
    or a .data shard). Directories: a SavedModel (with its variables), a log directory of
    events files, a checkpoint directory (its `checkpoint` file's latest; with its events when
    it has them), a TF_DUMP_GRAPH_PREFIX dump, or any mix (kind "directory", each file named,
    unreadable ones listed). A VLOG log is read too. progress(done, total) is called now and then while a big file is
    parsed (for a text proto: characters).
    """
    detect, checkpoint = __getattr__("detect"), __getattr__("checkpoint")
    path = os.fspath(path)
    if checkpoint.is_checkpoint_path(path):
        if not os.path.isdir(path):
            return load_checkpoint(path)
        try:  # a training directory: its events with its latest checkpoint
            loaded = __getattr__("directories").load_directory(path, checkpoint_dir=True)
        except InputError:
            return load_checkpoint(path)
        if loaded.kind not in ("events", "dump_dir"):  # its .meta files belong to the checkpoints
            return load_checkpoint(path)
        return _with_checkpoint(loaded, path)
    if os.path.isdir(path):
        loaded = __getattr__("directories").load_directory(path)
        if loaded.kind == "saved_model":
            if os.path.isfile(os.path.join(path, "variables", "variables.index")):
                _with_checkpoint(loaded, path)
            else:
                _note_missing_variables(loaded)
        return loaded
    detect.check_regular_file(path)
    loaded = detect.load_file(path, progress)
    if loaded.kind == "metagraph" and path.endswith(".meta") and os.path.isfile(
            checkpoint.index_path(checkpoint.prefix_of(path))):
        # A Saver's .meta sits beside the checkpoint it was written with: open both.
        _with_checkpoint(loaded, checkpoint.prefix_of(path))
    return loaded


def _note_missing_variables(loaded):
    """A SavedModel whose graph saves variables but has no variables/variables.index (lost, or
    never copied): say so, as TensorFlow's loader restores nothing then."""
    from parsers.saved_objects import holds_variables
    if any(holds_variables(meta.meta_graph_def) for meta in loaded.meta_graphs):
        loaded.notes.append("variables/variables.index is missing: the model's variables "
                            "are not read")


def _with_checkpoint(loaded, path):
    variable_names = {}
    for meta in loaded.meta_graphs:  # a SavedModel's objects name its TF2 variables
        if meta.meta_graph_def.object_graph_def.nodes:
            from parsers.saved_objects import SavedObjects
            variable_names.update(SavedObjects(meta.meta_graph_def.object_graph_def).variable_names())
    loaded.checkpoint = __getattr__("checkpoint").Checkpoint(path, variable_names)
    loaded.files.extend(loaded.checkpoint.files())
    return loaded


def load_checkpoint(path) -> Loaded:
    """A Loaded holding only a checkpoint's variables (index read; values read when asked)."""
    opened = __getattr__("checkpoint").Checkpoint(path)
    return __getattr__("Loaded")(path=os.fspath(path), kind="checkpoint", files=opened.files(),
                                 checkpoint=opened)
