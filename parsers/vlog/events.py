"""The other lines that explain a run: passes, grappler results, dump files, memory, placement.

`classify` is the reader's cheap test (substrings only); `event_fields` parses a kept line's
text when someone asks for it.

>>> classify(b"Running optimization pass: MklLayoutRewritePass")
'pass'
>>> event_fields("pass", "Running optimization pass: MklLayoutRewritePass")
{'name': 'MklLayoutRewritePass'}
>>> event_fields("grappler", "constant_folding: Graph size after: 4 nodes (-7), 3 edges (0), time = 0.118ms.")
{'optimizer': 'constant_folding', 'nodes': 4, 'nodes_delta': -7, 'edges': 3, 'edges_delta': 0, 'time_ms': 0.118}
>>> event_fields("placement", "Add(AddV2) placed on: /job:localhost/replica:0/task:0/device:CPU:0")
{'node': 'Add', 'op': 'AddV2', 'device': '/job:localhost/replica:0/task:0/device:CPU:0'}
>>> f = event_fields("memory", '__LOG_MEMORY__ MemoryLogTensorDeallocation { allocation_id: 19 allocator_name: "mklcpu" }')
>>> f["type"], f["allocation_id"], f["allocator_name"]
('MemoryLogTensorDeallocation', 19, 'mklcpu')
"""

from __future__ import annotations

import re

# Messages that start with a marker, and markers found anywhere in the message.
STARTS = (
    (b"Running optimization pass: ", "pass"),
    (b"Running optimization phase ", "phase"),
    (b"Dumped Graph to ", "dumped_graph"),
    (b"Optimization results for grappler item: ", "grappler"),
    (b"__LOG_MEMORY__ ", "memory"),
)
INSIDE = (
    (b"Graph size after: ", "grappler"),
    (b") placed on: ", "placement"),
)
PLACEMENT_1X = re.compile(rb"\S+: \(\w+\): /\S+\s*\Z")


def classify(message: bytes, start: int = 0) -> str | None:
    """The event kind of a message (from `start` in a line), or None for any other."""
    for marker, kind in STARTS:
        if message.startswith(marker, start):
            return kind
    for marker, kind in INSIDE:
        if message.find(marker, start) >= 0:
            return kind
    if message.find(b"): /", start) >= 0 and PLACEMENT_1X.match(message, start):
        return "placement"
    return None


_SIZE = re.compile(
    r"(?:(?P<optimizer>.*?): )?Graph size after: (?P<nodes>\d+) nodes \((?P<nd>-?\d+)\), "
    r"(?P<edges>\d+) edges \((?P<ed>-?\d+)\)(?:, time = (?P<ms>[\d.]+)ms)?"
)
_PLACED = re.compile(r"(?P<node>.*)\((?P<op>[^()]*)\) placed on: (?P<device>\S+)")
_PLACED_1X = re.compile(r"(?P<node>\S+): \((?P<op>\w+)\): (?P<device>/\S+)")
_MEMORY_TYPE = re.compile(r"__LOG_MEMORY__ (\w+)")
_MEMORY_FIELD = re.compile(r'(\w+): ("(?:[^"\\]|\\.)*"|[-\w.]+)')


def _number(text: str):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def event_fields(kind: str, text: str) -> dict:
    """What an event line says, as a dict (empty where the text does not fit its kind)."""
    if kind == "pass":
        return {"name": text.split("Running optimization pass: ", 1)[-1].strip()}
    if kind == "phase":
        return {"phase": _number(text.split("Running optimization phase ", 1)[-1].strip())}
    if kind == "dumped_graph":
        return {"path": text.split("Dumped Graph to ", 1)[-1].strip()}
    if kind == "grappler":
        if "Optimization results for grappler item: " in text:
            return {"item": text.split("Optimization results for grappler item: ", 1)[-1].strip()}
        match = _SIZE.search(text)
        if match is None:
            return {}
        ms = match.group("ms")
        return {
            "optimizer": (match.group("optimizer") or "").strip(),
            "nodes": int(match.group("nodes")),
            "nodes_delta": int(match.group("nd")),
            "edges": int(match.group("edges")),
            "edges_delta": int(match.group("ed")),
            "time_ms": float(ms) if ms else None,
        }
    if kind == "placement":
        match = _PLACED.search(text) or _PLACED_1X.search(text)
        return match.groupdict() if match else {}
    if kind == "memory":
        match = _MEMORY_TYPE.search(text)
        fields = {"type": match.group(1) if match else ""}
        for key, value in _MEMORY_FIELD.findall(text):
            if key in fields:
                continue
            fields[key] = value[1:-1] if value.startswith('"') else _number(value)
        return fields
    return {}
