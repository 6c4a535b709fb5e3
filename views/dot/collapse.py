"""What to draw: which scopes open as clusters and which fold into boxes, within a size budget.

TensorBoard's idea: open scopes breadth first while the picture stays under `budget` boxes;
a series of same-shaped scopes folds into one box. --expand opens scopes (and splits the series
holding them) whatever the budget; --focus opens the scopes around one node and nothing else.
"""

from __future__ import annotations

import heapq
from collections import Counter, deque
from dataclasses import dataclass, field

from views.dot import series as series_rules

DEFAULT_BUDGET = 120  # boxes; a few hundred is where dot pictures stop being readable
# Clusters nest at most this deep; deeper scopes fold into boxes even when forced open (a name
# can have thousands of `/` levels, and Graphviz recurses per nesting level).
MAX_NESTING = 64


@dataclass(frozen=True)
class Unit:
    """One thing an open scope shows: a node, a (sub)scope, or a series of either.

    key: the node key, the scope key, or for a series its DOT id; members: a series' units.
    """

    kind: str
    key: str
    depth: int
    scope: object = None
    members: tuple = ()
    label: str = ""


@dataclass
class Box:
    """A folded scope or series, drawn as one DOT node with id `id`."""

    id: str
    kind: str
    label: str
    device: str
    count: int
    ops: Counter
    keys: list[str]

    def dominant_ops(self, limit=3):
        return sorted(self.ops.items(), key=lambda item: (-item[1], item[0]))[:limit]


@dataclass
class Layout:
    """The plan for build.py.

    clusters: open scope key -> the Scope (root excluded), in drawing order; contents: open
    scope key ("" for the root) -> ids of what it shows (node keys, box ids, child scope keys
    prefixed "cluster:"); boxes by id; item_of: node key -> the id drawn for it.
    """

    clusters: dict = field(default_factory=dict)
    contents: dict = field(default_factory=dict)
    boxes: dict = field(default_factory=dict)
    item_of: dict = field(default_factory=dict)
    focus: set = field(default_factory=set)

    @property
    def size(self):
        return sum(1 for items in self.contents.values() for item in items
                   if not item.startswith("cluster:"))


def neighbourhood(index, key, radius):
    """Node keys within `radius` hops of `key`, over edges either way."""
    adjacency = index.neighbours()
    found = {key}
    frontier = deque([(key, 0)])
    while frontier:
        current, distance = frontier.popleft()
        if distance == radius:
            continue
        for other in adjacency[current]:
            if other not in found:
                found.add(other)
                frontier.append((other, distance + 1))
    return found


def plan(index, root, budget=DEFAULT_BUDGET, max_depth=None, expand=(), focus=()):
    """Decide what opens. expand: Scopes to open; focus: node keys to show one by one.

    With focus, only the scopes holding focus nodes open; otherwise scopes open breadth first
    (shallow, then cheap, then by name) while the box count stays within budget and the depth
    within max_depth (None: any).
    """
    focus = set(focus)
    forced = set()
    scope_of = {key: scope for scope in root.walk() for key in scope.leaves}
    for scope in expand:
        forced.add(scope.key)
    for key in focus:
        forced.add(scope_of[key].key)
    forced |= _ancestor_keys(root, forced)
    planner = _Planner(index, forced, focus, series_rules.shape_signatures(root, index.nodes))
    opened = planner.open_all(root, budget if not focus else 0, max_depth)
    layout = Layout(focus=focus)
    planner.lay_out(root, opened, layout)
    return layout


def _ancestor_keys(root, keys):
    """Keys of every scope above one of `keys` (no recursion: scopes can nest thousands deep)."""
    parent_of = {child.key: scope.key for scope in root.walk() for child in scope.children.values()}
    result = set()
    for key in keys:
        while key in parent_of and parent_of[key] not in result:
            key = parent_of[key]
            result.add(key)
    return result


class _Planner:
    def __init__(self, index, forced, focus, signatures):
        self.nodes = index.nodes
        self.signatures = signatures
        self.forced = forced
        self.focus = focus
        self.cache = {}

    def units(self, unit):
        """What an open unit shows, grouped into series where the names allow."""
        if unit.kind == "series":
            return list(unit.members)
        if unit.key in self.cache:
            return self.cache[unit.key]
        scope = unit.scope
        result = []
        prefix = scope.name + "/" if scope.name else ""
        leaves = [key for key in scope.leaves if self.nodes[key].name != scope.name]
        heads = [key for key in scope.leaves if self.nodes[key].name == scope.name]
        result += [Unit("node", key, scope.depth) for key in heads]
        result += self._grouped(
            leaves, scope, prefix,
            lambda key: series_rules.split_number(self.nodes[key].name[len(prefix):]),
            lambda key: self.nodes[key].op,
            lambda key: Unit("node", key, scope.depth),
            lambda key: key in self.focus)
        children = [scope.children[name] for name in sorted(scope.children)]
        result += self._grouped(
            children, scope, prefix,
            lambda child: series_rules.split_number(child.short_name),
            lambda child: self.signatures[child.key],
            lambda child: Unit("scope", child.key, child.depth, child),
            lambda child: child.key in self.forced)
        self.cache[unit.key] = result
        return result

    def _grouped(self, items, scope, prefix, base_of, signature_of, make_unit, is_forced):
        """Units for `items`: series where names and signatures allow; a forced item breaks
        its series in two (block[000-006] x7, block007, block[008-399] x392)."""
        result = []
        for group in series_rules.group_numbered(items, base_of, signature_of):
            if not isinstance(group, tuple):
                result.append(make_unit(group))
                continue
            base, members = group
            run = []
            for number, item in members + [(None, None)]:
                if item is not None and not is_forced(item):
                    run.append((number, item))
                    continue
                if len(run) == 1:
                    result.append(make_unit(run[0][1]))
                elif run:
                    result.append(self._series(scope, prefix, base, run, make_unit))
                run = []
                if item is not None:
                    result.append(make_unit(item))
        return result

    def _series(self, scope, prefix, base, members, make_unit):
        label = series_rules.series_label(base, [number for number, _ in members])
        device = f"{scope.device}:" if scope.device else ""
        return Unit("series", device + prefix + label.partition(" ")[0], scope.depth + 1, scope,
                    tuple(make_unit(item) for _, item in members), label)

    def open_all(self, root, budget, max_depth):
        opened = set()
        heap = []
        count = 0
        order = 0

        max_depth = MAX_NESTING if max_depth is None else min(max_depth, MAX_NESTING)

        def open_unit(unit, is_root=False):
            nonlocal count, order
            pending = [(unit, is_root)]  # forced units open at once, without recursion
            while pending:
                unit, is_root = pending.pop()
                opened.add(unit.key)
                shown = self.units(unit)
                count += len(shown) - (0 if is_root else 1)
                for child in reversed(shown):
                    if child.kind == "node":
                        continue
                    forced = child.key in self.forced or (child.kind == "scope" and child.scope.is_device)
                    if forced and child.depth <= MAX_NESTING:
                        pending.append((child, False))
                    else:
                        order += 1
                        heapq.heappush(heap, (child.depth, len(self.units(child)) - 1, order, child))

        open_unit(Unit("scope", root.key, 0, root), is_root=True)
        while heap:
            depth, cost, _, unit = heapq.heappop(heap)
            if depth > max_depth:
                continue
            if count + cost <= budget:
                open_unit(unit)
        return opened

    def lay_out(self, root, opened, layout):
        # Depth first, in the order a recursive walk would place things, with a stack of
        # (what is left to place of an open unit, the container it goes in).
        root_unit = Unit("scope", root.key, 0, root)
        stack = [(iter(self.units(root_unit)), root.key)]
        layout.contents.setdefault(root.key, [])
        while stack:
            remaining, container = stack[-1]
            child = next(remaining, None)
            if child is None:
                stack.pop()
                continue
            items = layout.contents[container]
            if child.kind == "node":
                items.append(child.key)
                layout.item_of[child.key] = child.key
            elif child.key in opened and child.kind == "series":
                stack.append((iter(self.units(child)), container))
            elif child.key in opened:
                layout.clusters[child.key] = child.scope
                items.append("cluster:" + child.key)
                layout.contents.setdefault(child.key, [])
                stack.append((iter(self.units(child)), child.key))
            else:
                box = self._box(child)
                layout.boxes[box.id] = box
                items.append(box.id)
                for key in box.keys:
                    layout.item_of[key] = box.id

    def _box(self, unit):
        if unit.kind == "scope":
            keys = [key for scope in unit.scope.walk() for key in scope.leaves]
            return Box(unit.key, "scope", unit.scope.name, unit.scope.device, unit.scope.count,
                       Counter(unit.scope.ops), keys)
        keys, ops = [], Counter()
        for member in unit.members:
            if member.kind == "node":
                keys.append(member.key)
                ops[self.nodes[member.key].op] += 1
            else:
                keys += [key for scope in member.scope.walk() for key in scope.leaves]
                ops.update(member.scope.ops)
        prefix = unit.scope.name + "/" if unit.scope.name else ""
        return Box(unit.key, "series", prefix + unit.label, unit.scope.device, len(keys), ops,
                   keys)
