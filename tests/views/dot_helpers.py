"""Reading back what the exporter wrote: drawn ids, edges and their attributes, from DOT text."""

import re
from pathlib import Path

import pytest

import parsers

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

_NODE = re.compile(r'^\t+("(?:[^"\\]|\\.)*"|[^\s\[]+) \[(.*)\]$')
_EDGE = re.compile(r'^\t+("(?:[^"\\]|\\.)*"|[^\s\[]+) -> ("(?:[^"\\]|\\.)*"|[^\s\[]+) \[(.*)\]$')
_ATTR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|<<.*>>|[^\s"]+)')


def fixture(relative):
    """The path of a committed fixture, or a skip saying which one is missing."""
    path = FIXTURES / relative
    if not path.exists():
        pytest.skip(f"fixture {relative} not made yet (tools/make_fixtures.py writes it)")
    return path


def load_graph(relative):
    return parsers.load(fixture(relative)).graphs[0].graph_def


def load_run(relative):
    return parsers.load(fixture(relative)).run_metadata[0].run_metadata


def _unquote(text):
    return text[1:-1].replace('\\"', '"') if text.startswith('"') else text


def attrs(text):
    return {key: _unquote(value) for key, value in _ATTR.findall(text)}


def drawn_nodes(source):
    """DOT node id -> its attributes (nodes only, not edges or graph defaults)."""
    found = {}
    for line in source.splitlines():
        if " -> " in line:
            continue
        match = _NODE.match(line)
        if match and match.group(1) not in ("graph", "node", "edge"):
            found[_unquote(match.group(1))] = attrs(match.group(2))
    return found


def drawn_edges(source):
    """(src, dst, attributes) for every edge line."""
    found = []
    for line in source.splitlines():
        match = _EDGE.match(line)
        if match:
            found.append((_unquote(match.group(1)), _unquote(match.group(2)),
                          attrs(match.group(3))))
    return found


def covering_item(name, ids):
    """The drawn id standing for node `name`: itself, a folded scope holding it, or a folded
    series (`block[000-399]`) holding it; None if nothing does."""
    if name in ids:
        return name
    parts = name.split("/")
    for end in range(len(parts), 0, -1):
        scope = "/".join(parts[:end])
        if scope in ids:
            return scope
        for item in ids:
            match = re.fullmatch(r"(.*?)\[(\d+)-(\d+)\]", item)
            if match and scope.startswith(match.group(1)):
                number = scope[len(match.group(1)):]
                if number.isdigit() and int(match.group(2)) <= int(number) <= int(match.group(3)):
                    return item
    return None
