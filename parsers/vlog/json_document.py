"""`vlog --json`: VlogLog.to_json() as json.dump would write it, written out as it is made.

Repeated dumps share their DumpNode objects, so each node's JSON is made once and each
repeated node list is encoded once; the executions are written by the C scanner where it
was built (native.write_executions), else by json.dumps. Bytes go out a megabyte at a time
through the stream's buffer where it has one: a 32 MB log's document is tens of megabytes,
and holding it whole would cost as much in page faults as writing it.

>>> import io
>>> from parsers.vlog.reader import read_lines
>>> out = io.StringIO()
>>> write_json(read_lines([b"x"]), out)
>>> out.getvalue()
'{"graphs": [], "executions": [], "lines": 1, "unparsed_lines": 1}'
"""

from __future__ import annotations

import json

from parsers.vlog import native

CHUNK = 1 << 20


class _Output:
    """Bytes to `out` a CHUNK at a time, from one buffer (no megabyte allocated, and faulted
    in, per chunk): through its binary buffer where it has one, every byte of each write (an
    unbuffered stdout, under PYTHONUNBUFFERED, may take part of one), else as ASCII text."""

    def __init__(self, out):
        self._binary = getattr(out, "buffer", None)
        if self._binary is not None:
            out.flush()
        self._text = out
        self._pending = bytearray(CHUNK)
        self._size = 0

    def write(self, data) -> None:
        size = len(data)
        if self._size + size > CHUNK:
            self.flush()
            if size > CHUNK:
                self.write_now(data)
                return
        self._pending[self._size:self._size + size] = data
        self._size += size

    def flush(self) -> None:
        if self._size:
            with memoryview(self._pending) as view:
                self.write_now(view[:self._size])
            self._size = 0

    def write_now(self, data) -> None:
        """All of `data` (bytes-like, not kept past the call), now."""
        if self._binary is None:
            self._text.write(str(data, "ascii"))
            return
        with memoryview(data) as view:
            while view:
                view = view[self._binary.write(view):]


def write_json(log, out) -> None:
    """Write log.to_json() to a text stream, as json.dump(log.to_json(), out) would."""
    dumps = json.dumps
    output = _Output(out)
    write = output.write
    node_texts: dict[tuple[int, int], str] = {}
    graph_texts: dict[tuple, bytes] = {}  # repeated dumps: their whole node list, once
    heads: dict[str, bytes] = {}  # label -> a graph's JSON up to its line number
    write(b'{"graphs": [')
    for index, graph in enumerate(log.graphs):
        mapping = id(graph.real_names) if graph.real_names else 0
        signature = (tuple(map(id, graph.nodes)), mapping)
        nodes_text = graph_texts.get(signature)
        if nodes_text is None:
            texts = []
            for node in graph.nodes:
                key = (id(node), mapping)
                text = node_texts.get(key)
                if text is None:
                    text = node_texts[key] = dumps(graph.node_json(node))
                texts.append(text)
            nodes_text = graph_texts[signature] = ", ".join(texts).encode()
        head = heads.get(graph.label)
        if head is None:
            head = heads[graph.label] = f'{{"label": {dumps(graph.label)}, "first_line": '.encode()
        write(b", " if index else b"")
        write(head)
        write(f'{graph.first_line}, "nodes": ['.encode())
        write(nodes_text)
        write(b"]}")
    write(b'], "executions": [')
    output.flush()
    executions = log.executions
    done = native.write_executions(executions, output.write_now)
    for index in range(done, len(executions)):  # all of them, where the scanner wrote none
        write((", " if index else "").encode() + dumps(executions[index].to_json()).encode())
    write(f'], "lines": {log.lines}, "unparsed_lines": {log.unparsed_lines}}}'.encode())
    output.flush()
    if output._binary is not None:
        output._binary.flush()
