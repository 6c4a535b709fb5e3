"""Series: sibling scopes (or ops) whose names differ only by a number and whose insides match.

block000..block399 with the same sub-structure are one series, drawn as "block[000-399] x400";
so are Const_1..Const_9 in one scope when they are all Consts.
"""

from __future__ import annotations

import re
from collections import Counter

_NUMBERED = re.compile(r"^(.*?)(\d+)$")
_DIGITS = re.compile(r"\d+")


def split_number(name):
    """A name as (base, number), or None when it does not end in a number.

    >>> split_number("block007"), split_number("layer_12"), split_number("dense")
    (('block', '007'), ('layer_', '12'), None)
    """
    match = _NUMBERED.match(name)
    if match is None or not match.group(1):
        return None
    return match.group(1), match.group(2)


def series_label(base, numbers):
    """How a folded series is labelled.

    >>> series_label("block", ["000", "001", "399"]), series_label("layer_", ["1", "2"])
    ('block[000-399] x3', 'layer_[1-2] x2')
    """
    return f"{base}[{numbers[0]}-{numbers[-1]}] x{len(numbers)}"


def shape_signatures(root, nodes):
    """What must match for two scopes to be one series, for every scope under `root`: scope
    key -> a number, equal for scopes whose nodes have the same ops under the same names once
    numbers are blanked (block7/dense_7/MatMul and block8/dense_8/MatMul are the same).

    Worked out once, deepest scopes first, each from its own nodes' short names and its
    children's numbers: the cost follows the graph's size, never its depth times its size (a
    scope 3,000 levels deep made every level re-read the full names below it).
    """
    numbers = {}  # (leaves, children) as blanked names -> its number
    signature_of = {}
    for scope in reversed(list(root.walk())):
        prefix = len(scope.name) + 1 if scope.name else 0
        leaves = Counter((_DIGITS.sub("#", nodes[key].name[prefix:]), nodes[key].op)
                         for key in scope.leaves)
        children = Counter((_DIGITS.sub("#", child.short_name), signature_of[child.key])
                           for child in scope.children.values())
        shape = (frozenset(leaves.items()), frozenset(children.items()))
        signature_of[scope.key] = numbers.setdefault(shape, len(numbers))
    return signature_of


def group_numbered(items, base_of, signature_of):
    """Group items into series: same base, same signature, at least two; the rest alone.

    items: what to group, in order; base_of(item) -> (base, number) or None;
    signature_of(item) -> hashable. Returns a list, in order of first appearance, of either a
    single item or a tuple (base, [(number, item), ...]) sorted by number.

    >>> names = ["a1", "a2", "b", "a3"]
    >>> group_numbered(names, split_number, lambda n: n[0])
    [('a', [('1', 'a1'), ('2', 'a2'), ('3', 'a3')]), 'b']
    """
    groups = {}
    order = []
    for item in items:
        parts = base_of(item)
        key = ("series", parts[0], signature_of(item)) if parts else ("single", id(item))
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((parts[1] if parts else None, item))
    result = []
    for key in order:
        members = groups[key]
        if key[0] == "series" and len(members) >= 2:
            members.sort(key=lambda member: (int(member[0]), member[0]))
            result.append((key[1], members))
        else:
            result.extend(item for _, item in members)
    return result
