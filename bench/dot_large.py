"""Benchmark: a generated 20,000-node GraphDef of 400 same-shaped blocks, exported to SVG.

`run()` returns the numbers BENCHMARKS.md records: graph size, what was drawn, and seconds
for building the DOT text and for dot's layout. The series of blocks must fold into one box.
"""

from __future__ import annotations

import os
import tempfile
import time

from engine.proto import graph_pb2

BLOCKS = 400
DENSE_PER_BLOCK = 3  # 2 + 3 * 16 = 50 nodes per block
FLOAT, INT32 = 1, 3


def _add(graph, name, op, inputs=(), dtype=FLOAT, shape=None, **attrs):
    node = graph.node.add(name=name, op=op, input=list(inputs))
    node.attr["dtype" if op in ("Const", "VariableV2", "Placeholder") else "T"].type = dtype
    if shape is not None:
        output_shape = node.attr["_output_shapes"].list.shape.add()
        for size in shape:
            output_shape.dim.add(size=size)
    for key, value in attrs.items():
        node.attr[key].CopyFrom(value)
    return name


def _dense(graph, scope, inputs, width, assigns):
    """16 nodes: a kernel and bias with initializers, MatMul, BiasAdd, Relu, an activity mean."""
    kernel = _add(graph, f"{scope}/kernel", "VariableV2", shape=[width, width])
    _add(graph, f"{scope}/kernel/Initializer/shape", "Const", dtype=INT32, shape=[2])
    _add(graph, f"{scope}/kernel/Initializer/RandomStandardNormal", "RandomStandardNormal",
         [f"{scope}/kernel/Initializer/shape"], shape=[width, width])
    _add(graph, f"{scope}/kernel/Initializer/stddev", "Const", shape=[])
    _add(graph, f"{scope}/kernel/Initializer/mul", "Mul",
         [f"{scope}/kernel/Initializer/RandomStandardNormal", f"{scope}/kernel/Initializer/stddev"],
         shape=[width, width])
    assigns.append(_add(graph, f"{scope}/kernel/Assign", "Assign",
                        [kernel, f"{scope}/kernel/Initializer/mul"], shape=[width, width]))
    _add(graph, f"{scope}/kernel/read", "Identity", [kernel], shape=[width, width])
    bias = _add(graph, f"{scope}/bias", "VariableV2", shape=[width])
    _add(graph, f"{scope}/bias/Initializer/zeros", "Const", shape=[width])
    assigns.append(_add(graph, f"{scope}/bias/Assign", "Assign",
                        [bias, f"{scope}/bias/Initializer/zeros"], shape=[width]))
    _add(graph, f"{scope}/bias/read", "Identity", [bias], shape=[width])
    _add(graph, f"{scope}/MatMul", "MatMul", [inputs, f"{scope}/kernel/read"], shape=[-1, width])
    _add(graph, f"{scope}/BiasAdd", "BiasAdd", [f"{scope}/MatMul", f"{scope}/bias/read"],
         shape=[-1, width])
    out = _add(graph, f"{scope}/Relu", "Relu", [f"{scope}/BiasAdd"], shape=[-1, width])
    _add(graph, f"{scope}/activity/Const", "Const", dtype=INT32, shape=[2])
    _add(graph, f"{scope}/activity/Mean", "Mean", [out, f"{scope}/activity/Const"], shape=[])
    return out


def large_graph(blocks=BLOCKS, width=64):
    """A GraphDef of `blocks` same-shaped scopes block000..., 50 nodes each, chained, plus an
    input, a loss and an init op with control edges from every Assign."""
    graph = graph_pb2.GraphDef()
    previous = _add(graph, "x", "Placeholder", shape=[-1, width])
    assigns = []
    digits = max(3, len(str(blocks - 1)))
    for number in range(blocks):
        scope = f"block{number:0{digits}d}"
        current = _add(graph, f"{scope}/input", "Identity", [previous], shape=[-1, width])
        for layer in range(DENSE_PER_BLOCK):
            current = _dense(graph, f"{scope}/dense_{layer}", current, width, assigns)
        previous = _add(graph, f"{scope}/output", "Identity", [current], shape=[-1, width])
    _add(graph, "loss/Const", "Const", dtype=INT32, shape=[2])
    _add(graph, "loss/Mean", "Mean", [previous, "loss/Const"], shape=[])
    init = graph.node.add(name="init", op="NoOp")
    init.input.extend("^" + name for name in assigns)
    return graph


def _export(views_dot, index, options):
    """(DOT source, seconds to build it, SVG bytes, seconds dot took)."""
    started = time.perf_counter()
    source = views_dot.build(index, options).source
    built = time.perf_counter()
    svg = views_dot.render(source, "svg")
    return source, built - started, svg, time.perf_counter() - built


def _drawn_nodes(source):
    return sum(1 for line in source.splitlines()
               if line.startswith("\t") and " [" in line and " -> " not in line
               and not line.lstrip().startswith(("graph ", "node ", "edge ", "label=")))


def run():
    """Export the generated graph to SVG, folded and with one block expanded; sizes and times."""
    from views import dot as views_dot

    started = time.perf_counter()
    graph = large_graph()
    generated = time.perf_counter()
    index = views_dot.index_of(graph)
    indexed = time.perf_counter()
    source, build_s, svg, render_s = _export(views_dot, index, views_dot.DotOptions(title="large"))
    expanded, expanded_build_s, expanded_svg, expanded_render_s = _export(
        views_dot, index, views_dot.DotOptions(expand=("block200",)))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "large.svg")
        with open(path, "wb") as out:
            out.write(svg)
        svg_bytes = os.path.getsize(path)
    return {
        "nodes": len(index.nodes),
        "edges": len(index.edges),
        "series_folded": "block[000-399] x400" in source,
        "drawn_nodes": _drawn_nodes(source),
        "drawn_edges": source.count(" -> "),
        "generate_s": round(generated - started, 3),
        "index_s": round(indexed - generated, 3),
        "build_dot_s": round(build_s, 3),
        "render_svg_s": round(render_s, 3),
        "total_export_s": round(indexed - generated + build_s + render_s, 3),
        "svg_bytes": svg_bytes,
        "expanded_block200_drawn_nodes": _drawn_nodes(expanded),
        "expanded_block200_drawn_edges": expanded.count(" -> "),
        "expanded_block200_export_s": round(indexed - generated + expanded_build_s
                                            + expanded_render_s, 3),
        "expanded_block200_svg_bytes": len(expanded_svg),
    }


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key}: {value}")
