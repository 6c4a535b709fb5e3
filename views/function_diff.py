"""The difference between two graphs' function libraries: which function of one is which of the
other, and how each pair's bodies differ, node by node.

TensorFlow names traced functions with a counter (`__inference_serve_78`, `while_body_13`), so
the same function usually has another name in another model. Functions are paired as the
graphs call them: where both graphs have a node of the same name calling through the same attr
(`f`, `body`, `then_branch`, ...), the two callees are a pair, and so on inside the pair's
bodies; what is left pairs by equal name, then by name without its trailing number when that is
unique on both sides. A call of one function of a pair is the same call as one of the other
(graph_diff's `renamed`), so a loop body that changed shows as its changed nodes, not as a
renamed `body` attr.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parsers.functions import FunctionLibrary, function_label
from parsers.loaded import LabeledGraph
from views import graph_diff

_BEFORE, _AFTER = "before", "after"
_NUMBERED = re.compile(r"_\d+$")


@dataclass(frozen=True)
class FunctionChange:
    """A pair of functions whose bodies differ: their names, the body diff, and the two bodies
    as graphs (parsers/functions.py)."""

    before: str
    after: str
    diff: graph_diff.GraphDiff
    before_graph: object
    after_graph: object


@dataclass(frozen=True)
class LibraryDiff:
    """changed: pairs whose bodies differ, in call order; unchanged: equal pairs (before,
    after); added: functions only the second graph has; removed: only the first; renamed:
    function of the first -> its pair in the second (every pair)."""

    changed: tuple[FunctionChange, ...]
    unchanged: tuple[tuple[str, str], ...]
    added: tuple[str, ...]
    removed: tuple[str, ...]
    renamed: dict

    @property
    def empty(self):
        return not (self.changed or self.added or self.removed)

    def summary(self):
        return (f"functions: {len(self.changed)} changed, {len(self.unchanged)} unchanged,"
                f" {len(self.added)} added, {len(self.removed)} removed")

    def to_json(self):
        """The `functions` part of `diff --json`."""
        return {
            "changed": [{"before": c.before, "after": c.after, **c.diff.to_json()}
                        for c in self.changed],
            "unchanged": [{"before": a, "after": b} for a, b in self.unchanged],
            "added": list(self.added),
            "removed": list(self.removed),
        }


def diff_libraries(before, after):
    """The LibraryDiff between the libraries of GraphDefs `before` and `after`."""
    old = FunctionLibrary([LabeledGraph(_BEFORE, before, "")])
    new = FunctionLibrary([LabeledGraph(_AFTER, after, "")])
    pairs = pair_functions(old, new)
    changed, unchanged = [], []
    for name_before, name_after in pairs.items():
        body_before = old.get(name_before).graph_def
        body_after = new.get(name_after).graph_def
        found = graph_diff.diff(body_before, body_after, pairs)
        if found.empty:
            unchanged.append((name_before, name_after))
        else:
            changed.append(FunctionChange(name_before, name_after, found, body_before, body_after))
    paired_after = set(pairs.values())
    return LibraryDiff(tuple(changed), tuple(unchanged),
                       tuple(f.name for f in new if f.name not in paired_after),
                       tuple(f.name for f in old if f.name not in pairs), pairs)


def pair_functions(old, new):
    """Function name of `old` -> of `new` (two FunctionLibraries of one graph each, labelled
    "before" and "after"): by call sites from the graphs down, then by name, then by name
    without its number."""
    pairs, taken = {}, set()
    _follow_calls(old, new, [(_BEFORE, _AFTER)], pairs, taken)
    for pairing in (_same_name, _same_stem):
        found = pairing(old, new, pairs, taken)
        for name_before, name_after in found:
            pairs[name_before] = name_after
            taken.add(name_after)
        _follow_calls(old, new, [(function_label(a), function_label(b)) for a, b in found],
                      pairs, taken)
    return pairs


def _follow_calls(old, new, queue, pairs, taken):
    """Pair the callees of same-named call nodes (same attr), breadth first from `queue`."""
    while queue:
        label_before, label_after = queue.pop(0)
        calls_after = {}
        for site in new.call_sites(label_after):
            calls_after.setdefault((site.node, site.attr), site.callee)
        for site in old.call_sites(label_before):
            callee = calls_after.get((site.node, site.attr))
            if callee is None or site.callee in pairs or callee in taken:
                continue
            pairs[site.callee] = callee
            taken.add(callee)
            queue.append((function_label(site.callee), function_label(callee)))


def _same_name(old, new, pairs, taken):
    names = {f.name for f in new}
    return [(f.name, f.name) for f in old
            if f.name not in pairs and f.name in names and f.name not in taken]


def _same_stem(old, new, pairs, taken):
    def unique_stems(functions, used):
        stems = {}
        for function in functions:
            if function.name not in used:
                stems.setdefault(_NUMBERED.sub("", function.name), []).append(function.name)
        return {stem: names[0] for stem, names in stems.items() if len(names) == 1}

    before = unique_stems(old, pairs)
    after = unique_stems(new, taken)
    return [(name, after[stem]) for stem, name in before.items() if stem in after]
