"""TF_DUMP_GRAPH_PREFIX directories: one graph per file, labelled by pass, in the order written.

TensorFlow writes two kinds of names there: `<pass>.pbtxt` (with `_1`, `_2` when a name repeats)
from DumpGraphToFile, and `<graph>.<NNNN>.<group>.<pass>.pbtxt` from its debug data dumper,
numbered per graph. Order is by modification time; within one graph's numbered dumps the number
wins, and names break ties (a fresh checkout gives every file the same time).
"""

from __future__ import annotations

import re
from pathlib import Path

_NUMBERED = re.compile(r"^(?P<graph>.+)\.(?P<seq>\d{4,})\.(?P<group>[^.]+)\.(?P<pass>[^.]+)$")
_REPEAT = re.compile(r"^(?P<base>.+)_(?P<n>\d+)$")
_PHASES = {"before": 0, "halfway": 1, "after": 2}
_EXTENSIONS = (".pbtxt", ".pb", ".txt")


def pass_label(file_name):
    """The pass a dump file is named after.

    >>> pass_label("unknown_graph.0003.main.after_opt_group_post_placement.pbtxt")
    'unknown_graph #3 main after_opt_group_post_placement'
    >>> pass_label("encapsulate_subgraphs_before.pbtxt")
    'encapsulate_subgraphs_before'
    """
    stem = _stem(file_name)
    numbered = _NUMBERED.match(stem)
    if numbered:
        return f"{numbered['graph']} #{int(numbered['seq'])} {numbered['group']} {numbered['pass']}"
    return stem


def _stem(file_name):
    for extension in _EXTENSIONS:
        if file_name.endswith(extension):
            return file_name[: -len(extension)]
    return file_name


def _name_key(file_name):
    """Sort key among files written in the same instant: before < halfway < after, _1 after base.

    >>> names = ["x_after.pbtxt", "x_before.pbtxt", "x_halfway.pbtxt", "a_1.pbtxt", "a.pbtxt"]
    >>> sorted(names, key=_name_key)
    ['a.pbtxt', 'a_1.pbtxt', 'x_before.pbtxt', 'x_halfway.pbtxt', 'x_after.pbtxt']
    """
    stem = _stem(file_name)
    numbered = _NUMBERED.match(stem)
    if numbered:
        return (numbered["graph"], int(numbered["seq"]), 0, "")
    repeat = _REPEAT.match(stem)
    count = 0
    if repeat and not repeat["n"].startswith("0"):
        stem, count = repeat["base"], int(repeat["n"])
    words = stem.split("_")
    phase = next((_PHASES[w] for w in (words[0], words[-1]) if w in _PHASES), 1)
    core = "_".join(w for i, w in enumerate(words) if not (w in _PHASES and i in (0, len(words) - 1)))
    return (core, count, phase, stem)


def pass_order(paths):
    """Dump files in the order their passes wrote them."""
    paths = [Path(p) for p in paths]
    ordered = sorted(paths, key=lambda p: (p.stat().st_mtime_ns, _name_key(p.name)))
    # A graph's numbered dumps keep their numbering even where mtimes disagree (coarse clocks).
    # So do one pass's before/halfway/after dumps (a fresh checkout writes them in name order).
    slots = {}
    for position, path in enumerate(ordered):
        numbered = _NUMBERED.match(_stem(path.name))
        if numbered:
            slots.setdefault(numbered["graph"], []).append(position)
        else:
            core, count, _, _ = _name_key(path.name)
            slots.setdefault(("phases", core, count), []).append(position)
    for positions in slots.values():
        files = sorted((ordered[i] for i in positions), key=lambda p: _name_key(p.name))
        for position, path in zip(positions, files):
            ordered[position] = path
    return ordered
