"""The neighbourhood picture: a node, its inputs and consumers to a depth, as boxes and edges.

Layout comes from Graphviz (`dot -Tplain`: positions in inches, boxes sized in characters at
10 per inch); without dot, a layered layout by distance from the selected node. Drawing is
plain characters on a grid, so the same picture shows in any terminal. A box can carry notes
under its name and op (a call node's folded body: `▸ while_body_13 · 21 nodes`); boxes of a
body drawn open inside the picture have round corners.

>>> from engine.proto import graph_pb2
>>> from views.graph_index import GraphIndex
>>> index = GraphIndex.of_graph(graph_pb2.GraphDef(node=[{"name": "x", "op": "Placeholder"},
...     {"name": "y", "op": "Neg", "input": ["x"]}, {"name": "z", "op": "Neg", "input": ["y"]}]))
>>> sorted(neighbourhood(index, "y", 1).items())
[('x', -1), ('y', 0), ('z', 1)]
>>> print(draw(index, "y", 1, use_dot=False).text)
 ┌───────────┐
 │x          │
 │Placeholder│
 └───────────┘
   ╭───╯
   ▼
 ╔═══╗
 ║y  ║
 ║Neg║
 ╚═══╝
   │
   ▼
 ┌───┐
 │z  │
 │Neg│
 └───┘
"""

from __future__ import annotations

import shutil
import subprocess
from collections import deque
from dataclasses import dataclass, field

MAX_BOXES = 60
LABEL_WIDTH = 28
BOX_HEIGHT = 4
_PER_INCH = 10        # characters per inch, across and down, in dot's coordinates
_ROW_GAP = 2


@dataclass
class Picture:
    text: str
    focus_box: tuple = ()        # (x, y, width, height) of the selected node's box
    nodes: list = field(default_factory=list)
    truncated: int = 0           # boxes left out past MAX_BOXES
    boxes: dict = field(default_factory=dict)   # key -> (x, y, width, height) of its box


def neighbourhood(index, key, depth):
    """{key: signed distance}: inputs negative, consumers positive, up to `depth` hops."""
    found = {key: 0}
    for sign, step in ((-1, lambda k: [e.src for e in index.inputs(k) if e.src in index.nodes]),
                       (1, lambda k: [e.dst for e in index.consumers(k)])):
        frontier = [key]
        for hop in range(1, depth + 1):
            following = []
            for current in frontier:
                for other in step(current):
                    if other not in found:
                        found[other] = sign * hop
                        following.append(other)
            frontier = following
    return found


def draw(index, key, depth, use_dot=None, marks=None, notes=None, inner=()):
    """The Picture of `key`'s neighbourhood; dot lays it out when present (use_dot=None).
    marks: key -> a mark put before the node's name (a diff's + - ~); notes: key -> lines
    under its op; inner: keys of an opened body, drawn whatever their distance, before the
    rest of the neighbourhood when boxes run short; a dict of them (key -> the body it is
    in) keeps each body's boxes together."""
    near, keys = pictured(index, key, depth, inner)
    shown = set(keys)
    marks, notes = marks or {}, notes or {}
    labels = {k: _label(index.nodes[k], marks.get(k), notes.get(k, ())) for k in keys}
    edges = [(e.src, e.dst, e.kind) for k in keys for e in index.inputs(k) if e.src in shown]
    if use_dot is None:
        use_dot = shutil.which("dot") is not None
    boxes = None
    if use_dot:
        groups = inner if isinstance(inner, dict) else {}
        boxes = _dot_layout(keys, labels, edges, {k: groups[k] for k in keys if k in groups})
    if boxes is None:
        boxes = _layered_layout(keys, labels, near)
    text, focus = _render(boxes, labels, edges, key, set(inner))
    return Picture(text, focus, keys, len(near) - len(keys), boxes)


def pictured(index, key, depth, inner=()):
    """(the neighbourhood: {key: signed distance}, the keys drawn of it): what the picture
    of `key` at `depth` draws (x exports the same), with an opened body's keys `inner`."""
    near = body_neighbourhood(index, key, depth, inner) if inner else \
        neighbourhood(index, key, depth)
    return near, picture_order(near, inner)[:MAX_BOXES]


def picture_order(near, inner=()):
    """The keys of a neighbourhood by priority: the selected node, an opened body's nodes,
    then by distance (inputs before consumers), then by name."""
    inner = set(inner)
    return sorted(near, key=lambda k: (near[k] != 0, k not in inner, abs(near[k]), near[k], k))


def body_neighbourhood(index, key, depth, inner):
    """{key: signed distance} for a call node whose body (`inner`: the keys of its nodes, the
    call's inputs going through its `_Arg`s and its `_Retval`s feeding it) is drawn open: the
    body's nodes, and outside it the nodes up to `depth` hops from the call (hops inside the
    body are free)."""
    inner = set(inner)
    found = {key: 0}
    for sign, step in ((-1, lambda k: [e.src for e in index.inputs(k) if e.src in index.nodes]),
                       (1, lambda k: [e.dst for e in index.consumers(k)])):
        queue = deque([(key, 0, 0)])     # (node, rank distance, hops outside the body)
        while queue:
            current, distance, hops = queue.popleft()
            for other in step(current):
                cost = 0 if other in inner else 1
                if other in found or hops + cost > depth:
                    continue
                found[other] = sign * (distance + 1)
                queue.append((other, distance + 1, hops + cost))
    for other in inner:              # body nodes that feed none of its outputs
        found.setdefault(other, -1)
    return found


def _label(node, mark=None, notes=()):
    name = node.name.rpartition("/")[2] or node.name
    if mark:
        name = f"{mark} {name}"
    return [name[:LABEL_WIDTH], node.op[:LABEL_WIDTH], *(note[:LABEL_WIDTH] for note in notes)]


def _box_height(label):
    return len(label) + 2


def _box_width(label):
    return max(len(line) for line in label) + 2


def _layered_layout(keys, labels, near):
    """Boxes (x, y, w, h) in rows by distance, left to right in name order."""
    rows = {}
    for k in keys:
        rows.setdefault(near[k], []).append(k)
    boxes, y = {}, 0
    for distance in sorted(rows):
        x = 1
        for k in rows[distance]:
            width = _box_width(labels[k])
            boxes[k] = (x, y, width, _box_height(labels[k]))
            x += width + 2
        y += max(_box_height(labels[k]) for k in rows[distance]) + _ROW_GAP
    return boxes


def _dot_layout(keys, labels, edges, groups=None):
    """Boxes laid out by dot; `groups` (key -> group) are kept together as clusters."""
    ids = {k: f"n{i}" for i, k in enumerate(keys)}
    lines = ["digraph G {", "rankdir=TB; nodesep=0.2; ranksep=0.2;",
             "node [shape=box fixedsize=true height=0.4];"]
    clusters = {}
    for k, group in (groups or {}).items():
        clusters.setdefault(group, []).append(k)
    for number, members in enumerate(clusters.values()):
        lines.append(f"subgraph cluster_{number} {{ " + " ".join(ids[k] for k in members) + " }")
    for k in keys:
        lines.append(f'{ids[k]} [width={_box_width(labels[k]) / _PER_INCH:.2f}];')
    for src, dst, _ in edges:
        lines.append(f"{ids[src]} -> {ids[dst]};")
    lines.append("}")
    try:
        plain = subprocess.run(["dot", "-Tplain"], input="\n".join(lines), capture_output=True,
                               text=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    by_id = {v: k for k, v in ids.items()}
    height = 0.0
    boxes = {}
    for line in plain.splitlines():
        parts = line.split()
        if parts and parts[0] == "graph":
            height = float(parts[3])
        elif parts and parts[0] == "node" and parts[1] in by_id:
            k = by_id[parts[1]]
            x, y = float(parts[2]), float(parts[3])
            width = _box_width(labels[k])
            # dot's y grows upwards; rows of the box's centre, 2 rows per 0.4 inch box scaled up
            column = int(round(x * _PER_INCH - width / 2)) + 1
            row = int(round((height - y) * _PER_INCH / 0.4 * (BOX_HEIGHT + _ROW_GAP) / _PER_INCH))
            boxes[k] = (max(column, 0), row, width, _box_height(labels[k]))
    if len(boxes) != len(keys):
        return None
    # rows are ranks: each rank starts below the tallest box of the one above, so boxes never
    # overlap
    tallest = {}
    for _, row, _, height in boxes.values():
        tallest[row] = max(tallest.get(row, 0), height)
    starts, y = {}, 0
    for row in sorted(tallest):
        starts[row] = y
        y += tallest[row] + _ROW_GAP
    return {k: (x, starts[y], w, h) for k, (x, y, w, h) in boxes.items()}


def _render(boxes, labels, edges, focus, inner=frozenset()):
    width = max(x + w for x, _, w, _ in boxes.values()) + 2
    height = max(y + h for _, y, _, h in boxes.values())
    grid = [[" "] * width for _ in range(height)]
    for src, dst, kind in edges:
        _edge(grid, boxes[src], boxes[dst], kind)
    for k, box in boxes.items():
        _box(grid, box, labels[k], "focus" if k == focus else "inner" if k in inner else "")
    text = "\n".join("".join(row).rstrip() for row in grid)
    return text, boxes.get(focus, ())


def _edge(grid, src, dst, kind):
    """A line from under the producer's box to an arrowhead above the consumer's."""
    sx, sy, sw, sh = src
    dx, dy, dw, _ = dst
    x0, y0 = sx + sw // 2, sy + sh
    x1, y1 = dx + dw // 2, dy - 1
    vertical = "┊" if kind == "control" else "│"
    horizontal = "┄" if kind == "control" else "─"
    if y1 <= y0:           # same row or upwards (a loop's back edge): a short stub
        _put(grid, x0, y0, "↑" if y1 < y0 else vertical)
        return
    bend = y0 + (y1 - y0) // 2
    for y in range(y0, bend):
        _put(grid, x0, y, vertical)
    for x in range(min(x0, x1), max(x0, x1) + 1):
        _put(grid, x, bend, horizontal)
    for y in range(bend, y1):
        _put(grid, x1, y, vertical)
    if x0 != x1:
        _put(grid, x0, bend, "╰" if x1 > x0 else "╯")
        _put(grid, x1, bend, "╮" if x1 > x0 else "╭")
    _put(grid, x1, y1, "▼")


_CORNERS = {"focus": ("╔", "╗", "╚", "╝", "═", "║"), "inner": ("╭", "╮", "╰", "╯", "─", "│"),
            "": ("┌", "┐", "└", "┘", "─", "│")}


def _box(grid, box, label, kind):
    x, y, w, h = box
    tl, tr, bl, br, hz, vt = _CORNERS[kind]
    _put(grid, x, y, tl + hz * (w - 2) + tr)
    for row, line in enumerate(label, start=1):
        _put(grid, x, y + row, vt + line.ljust(w - 2) + vt)
    _put(grid, x, y + h - 1, bl + hz * (w - 2) + br)


def _put(grid, x, y, text):
    if 0 <= y < len(grid):
        row = grid[y]
        for offset, ch in enumerate(text):
            if 0 <= x + offset < len(row):
                row[x + offset] = ch
