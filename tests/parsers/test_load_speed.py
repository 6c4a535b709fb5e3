"""A 100k-node GraphDef loads, in time linear in its nodes (BENCHMARKS.md has the speed)."""

import parsers
from engine.proto import graph_pb2
from tests.scaling import assert_scales_linearly


def _write_chain(path, count):
    graph = graph_pb2.GraphDef()
    device = "/job:localhost/replica:0/task:0/device:CPU:0"
    for index in range(count):
        node = graph.node.add(name=f"layer/add_{index}", op="AddV2", device=device)
        node.input.extend([f"layer/add_{index - 1}", f"^layer/add_{index - 2}"])
        node.attr["T"].type = 1
    path.write_bytes(graph.SerializeToString())
    return path


def test_hundred_thousand_nodes(tmp_path):
    small = _write_chain(tmp_path / "small.bin", 10_000)
    large = _write_chain(tmp_path / "big.bin", 100_000)
    loaded = parsers.load(large)
    assert loaded.kind == "graphdef" and len(loaded.graphs[0].graph_def.node) == 100_000
    assert_scales_linearly(lambda count: parsers.load(small if count == 10_000 else large),
                           10_000)
