"""A 100k-node GraphDef loads in well under two seconds."""

import time

import parsers
from engine.proto import graph_pb2


def test_hundred_thousand_nodes(tmp_path):
    graph = graph_pb2.GraphDef()
    device = "/job:localhost/replica:0/task:0/device:CPU:0"
    for index in range(100_000):
        node = graph.node.add(name=f"layer/add_{index}", op="AddV2", device=device)
        node.input.extend([f"layer/add_{index - 1}", f"^layer/add_{index - 2}"])
        node.attr["T"].type = 1
    path = tmp_path / "big.bin"
    path.write_bytes(graph.SerializeToString())
    started = time.perf_counter()
    loaded = parsers.load(path)
    elapsed = time.perf_counter() - started
    assert loaded.kind == "graphdef" and len(loaded.graphs[0].graph_def.node) == 100_000
    assert elapsed < 2.0, f"{elapsed:.2f}s"
