"""The TF2 SavedModel fixtures' signatures run as TensorFlow 2.21 runs them: calls inlined,
While/If lowered, Grappler's passes, node for node the graph TensorFlow's RunMetadata shows.

tests/fixtures/tf2/reference/<model>/run_metadata_<signature>.pb is TensorFlow's FULL_TRACE
RunMetadata of a tf.compat.v1 Session.run of each signature (tools/make_tf2_fixtures.py).
Two checks per signature:
- the optimizer alone (no kernels needed): the SavedModel's graph through
  engine.optimizer.optimize, placed on the CPU as a session places it, is TensorFlow's
  partition graph node for node (names, ops, inputs), the feeds and fetches aside;
- a session run (where this build has every kernel the run needs; else skipped, naming the
  missing ones): the outputs are TensorFlow's, its step stats name TensorFlow's nodes, and its
  partition graphs are TensorFlow's.
"""

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine import kernels, optimizer
from engine.proto import config_pb2
from engine.runtime.placer import CLIENT_DEVICE
from engine.savedmodel.loader import parse_saved_model

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tf2"
MODELS = ("while_cond", "train_step", "text_model", "keras_cnn", "transformer", "while_scalar")
SIGNATURES = [(model, signature) for model in MODELS for signature in json.loads(
    (FIXTURES / "reference" / model / "run_metadata.json").read_text())]
# Nodes TensorFlow merges into others that the engine keeps, and why. A lowered tf.while_loop
# starting from a constant 0: TensorFlow's partition-time CSE (common_runtime/optimizer_cse.cc,
# after Grappler) merges the loop counter's Enter into the equal Enter of `i`; it keeps the
# one first in the order its toposorts (the model pruner's, tfg-toposort, Grappler's
# TopologicalSort) leave, which the engine's passes do not reproduce, so the engine runs one
# Enter more. Every pass before it is TensorFlow's, node for
# node (checked against TensorFlow's per-pass dumps, TF_CPP_VMODULE=meta_optimizer=4).
MERGED_BY_TENSORFLOW = {
    ("while_cond", "serving_default"): {"PartitionedCall/PartitionedCall/while/enter/_9":
                                        "PartitionedCall/PartitionedCall/while/enter/_11"},
    ("while_scalar", "serving_default"): {"PartitionedCall/PartitionedCall/while/enter/_7":
                                          "PartitionedCall/PartitionedCall/while/enter/_9"},
}


def reference(model, signature):
    folder = FIXTURES / "reference" / model
    manifest = json.loads((folder / "run_metadata.json").read_text())[signature]
    metadata = config_pb2.RunMetadata.FromString(
        (folder / f"run_metadata_{signature}.pb").read_bytes())
    return manifest, metadata, np.load(folder / "expected.npz")


def nodes(graph_defs, merged=None):
    """name -> (op, data inputs, sorted control inputs); a node of `merged` (name -> the
    node TensorFlow merged it into) left out, its readers reading the other."""
    merged = merged or {}
    table = {}
    for graph_def in graph_defs:
        for node in graph_def.node:
            if node.name in merged:
                continue
            data = [merged.get(i, i) for i in node.input if not i.startswith("^")]
            controls = sorted({"^" + merged.get(i[1:], i[1:]) for i in node.input
                               if i.startswith("^")})
            table[node.name] = (node.op, data, controls)
    return table


def without_feeds_and_fetches(table, feeds):
    """TensorFlow's partition graph with its _Arg read as the fed Placeholder, no _Retval."""
    args = {f"_arg_{name.split(':')[0]}_0_{k}": name.split(":")[0]
            for k, name in enumerate(sorted(feeds))}
    result = {}
    for name, (op, data, controls) in table.items():
        if op in ("_Arg", "_Retval"):
            continue
        result[name] = (op, [args.get(i, i) for i in data],
                        sorted("^" + args.get(c[1:], c[1:]) for c in controls))
    return result


@pytest.mark.parametrize("model,signature", SIGNATURES)
def test_the_optimized_graph_is_tensorflows_partition_graph(model, signature):
    manifest, metadata, _ = reference(model, signature)
    graph_def = parse_saved_model(FIXTURES / model).meta_graphs[0].graph_def
    for node in graph_def.node:
        node.device = CLIENT_DEVICE  # placed, as a session places it before the optimizer
    result = optimizer.optimize(graph_def, fetches=list(manifest["fetches"]),
                                feeds=list(manifest["feeds"]))
    ours = nodes([result.graph_def], MERGED_BY_TENSORFLOW.get((model, signature)))
    for feed in manifest["feeds"]:
        ours.pop(feed.split(":")[0])
    theirs = without_feeds_and_fetches(nodes(metadata.partition_graphs), manifest["feeds"])
    assert set(ours) ^ set(theirs) == set()
    assert {name: ours[name] for name in theirs if ours[name] != theirs[name]} == {}


def missing_kernels(metadata):
    ops = {node.op for graph in metadata.partition_graphs for node in graph.node}
    return sorted(op for op in ops if op not in ("_Arg", "_Retval")
                  and not kernels.has_kernel(op, "CPU"))


@pytest.mark.parametrize("model,signature", SIGNATURES)
def test_a_traced_signature_run_is_tensorflows_node_for_node(model, signature):
    manifest, metadata, expected = reference(model, signature)
    missing = missing_kernels(metadata)
    if missing:
        pytest.skip(f"no CPU kernel yet for {', '.join(missing)}")
    run_metadata = tf.RunMetadata()
    with tf.Graph().as_default() as graph, tf.Session(graph=graph) as sess:
        tf.saved_model.loader.load(sess, ["serve"], str(FIXTURES / model))
        got = sess.run(list(manifest["fetches"]),
                       {name: expected[key] for name, key in manifest["feeds"].items()},
                       options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE,
                                             output_partition_graphs=True),
                       run_metadata=run_metadata)
    for value, key in zip(got, manifest["fetches"].values()):
        np.testing.assert_allclose(value, expected[key], rtol=1e-5, atol=1e-6, err_msg=key)
    merged = MERGED_BY_TENSORFLOW.get((model, signature), {})
    step_stats = Counter(n.node_name for d in run_metadata.step_stats.dev_stats
                         for n in d.node_stats if n.node_name not in merged)
    assert step_stats == Counter(n.node_name for d in metadata.step_stats.dev_stats
                                 for n in d.node_stats)
    ours, theirs = nodes(run_metadata.partition_graphs, merged), nodes(metadata.partition_graphs)
    assert set(ours) ^ set(theirs) == set()
    assert {name: ours[name] for name in theirs if ours[name] != theirs[name]} == {}
