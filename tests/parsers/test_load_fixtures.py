"""Every fixture reads back node for node as TensorFlow's own classes read it (the .tf.json)."""

import os
import shutil
from pathlib import Path

import pytest

import parsers
from parsers_testing import FIXTURES, tf_json
from inspector.cmd_info import timeline_op


def nodes_as_tf_json(graph_def):
    return [
        {
            "name": node.name,
            "op": node.op,
            "inputs": list(node.input),
            "device": node.device,
            "attr_keys": sorted(node.attr),
        }
        for node in graph_def.node
    ]


def assert_graph_matches(graph_def, expected):
    want = [{key: node[key] for key in ("name", "op", "inputs", "device", "attr_keys")} for node in expected["nodes"]]
    assert nodes_as_tf_json(graph_def) == want
    assert [f.signature.name for f in graph_def.library.function] == expected.get("functions", [])


def fixture_params(directory, suffixes):
    params = []
    for spec in sorted((FIXTURES / directory).glob("*.tf.json")):
        stem = spec.name[: -len(".tf.json")]
        for suffix in suffixes:
            path = spec.parent / (stem + suffix)
            if path.exists():
                params.append(pytest.param(path, spec, id=path.name))
    return params


# ---- graphs/: GraphDef .pb and .pbtxt --------------------------------------------------------


@pytest.mark.parametrize("path,spec", fixture_params("graphs", [".pb", ".pbtxt"]))
def test_graph_fixture_reads_back(path, spec):
    loaded = parsers.load(path)
    assert loaded.kind == "graphdef"
    assert [g.label for g in loaded.graphs] == [path.name]
    assert_graph_matches(loaded.graphs[0].graph_def, tf_json(spec))


# ---- runs/: FULL_TRACE RunMetadata -----------------------------------------------------------


@pytest.mark.parametrize("path,spec", fixture_params("runs", [".pb", ".pbtxt"]))
def test_run_metadata_fixture_reads_back(path, spec):
    expected = tf_json(spec)
    loaded = parsers.load(path)
    assert loaded.kind == "run_metadata"
    (run,) = loaded.run_metadata
    dev_stats = run.run_metadata.step_stats.dev_stats
    assert [d.device for d in dev_stats] == [d["device"] for d in expected["devices"]]
    for got, want in zip(dev_stats, expected["devices"]):
        assert [n.node_name for n in got.node_stats] == [n["node_name"] for n in want["nodes"]]
        assert [n.timeline_label for n in got.node_stats] == [n.get("timeline_label", "") for n in want["nodes"]]
    partitions = expected["partition_graphs"]
    assert len(loaded.graphs) == len(partitions)
    for labeled, want in zip(loaded.graphs, partitions):
        assert labeled.label.startswith("partition ")
        assert_graph_matches(labeled.graph_def, want)


def test_timeline_labels_give_the_op():
    spec = FIXTURES / "parsers" / "run_metadata.pbtxt"
    run = parsers.load(spec).run_metadata[0].run_metadata
    ops = {n.node_name: timeline_op(n.timeline_label) for d in run.step_stats.dev_stats for n in d.node_stats}
    assert ops["_SOURCE"] == "NoOp"
    assert ops["total"] == "Sum"


# ---- containers/: .meta, SavedModel, events, dump directory ----------------------------------


@pytest.mark.parametrize("name", ["mlp.meta", "mlp.meta.pbtxt"])
def test_meta_graph_fixture(name):
    path = FIXTURES / "containers" / name
    if not path.exists():
        pytest.skip(f"containers/{name} not generated yet")
    expected = tf_json(FIXTURES / "containers" / "mlp.meta.tf.json")
    loaded = parsers.load(path)
    assert loaded.kind == "metagraph"
    (meta,) = loaded.meta_graphs
    assert list(meta.tags) == expected["tags"]
    assert sorted(meta.meta_graph_def.signature_def) == sorted(expected["signatures"])
    assert sorted(meta.meta_graph_def.collection_def) == sorted(expected["collections"])
    assert sorted(op.name for op in meta.meta_graph_def.meta_info_def.stripped_op_list.op) == sorted(
        expected["stripped_ops"]
    )
    assert_graph_matches(loaded.graphs[0].graph_def, expected)


def saved_model_params():
    params = []
    for directory in ("containers", "parsers"):
        for spec in sorted((FIXTURES / directory).glob("saved_model*.tf.json")):
            path = spec.parent / spec.name[: -len(".tf.json")]
            if path.is_dir():
                params.append(pytest.param(path, spec, id=path.name))
    return params


@pytest.mark.parametrize("path,spec", saved_model_params())
@pytest.mark.parametrize("as_file", [False, True], ids=["directory", "saved_model.pb"])
def test_saved_model_fixture(path, spec, as_file):
    expected = tf_json(spec)
    loaded = parsers.load(path / "saved_model.pb" if as_file else path)
    assert loaded.kind == "saved_model"
    assert [list(m.tags) for m in loaded.meta_graphs] == [m["tags"] for m in expected["meta_graphs"]]
    for meta, want in zip(loaded.meta_graphs, expected["meta_graphs"]):
        signatures = meta.meta_graph_def.signature_def
        assert sorted(signatures) == sorted(want["signatures"])
        for key, want_sig in (want.get("signature_defs") or want["signatures"]).items():
            if not isinstance(want_sig, dict):
                continue
            assert {k: v.name for k, v in signatures[key].inputs.items()} == want_sig["inputs"]
            assert {k: v.name for k, v in signatures[key].outputs.items()} == want_sig["outputs"]
            assert signatures[key].method_name == want_sig["method_name"]
        if "nodes" in want:
            assert_graph_matches(meta.meta_graph_def.graph_def, want)
    if "graphs" in expected:
        assert len(loaded.graphs) == len(expected["graphs"])
        for labeled, want in zip(loaded.graphs, expected["graphs"]):
            assert labeled.label == want["label"]
            assert_graph_matches(labeled.graph_def, want)
    assert [(s.meta_graph, s.key) for s in loaded.signatures] == [
        (m.label, key) for m in loaded.meta_graphs for key in sorted(m.meta_graph_def.signature_def)
    ]


def test_events_fixture():
    spec = FIXTURES / "containers" / "events.tf.json"
    if not spec.exists():
        pytest.skip("containers/events not generated yet")
    expected = tf_json(spec)
    path = FIXTURES / "containers" / expected["file"]
    for target in (path, path.parent):
        loaded = parsers.load(target)
        assert loaded.kind == "events"
        kinds = [event["what"] for event in expected["events"]]
        assert loaded.event_counts == {kind: kinds.count(kind) for kind in set(kinds)}
        graphs = [event["graph"] for event in expected["events"] if "graph" in event]
        graph_labels = [g for g in loaded.graphs if ": graph, step" in g.label]
        assert len(graph_labels) == len(graphs)
        for labeled, want in zip(graph_labels, graphs):
            assert_graph_matches(labeled.graph_def, want)
        tags = [event["tag"] for event in expected["events"] if event["what"] == "tagged_run_metadata"]
        assert [run.tag for run in loaded.run_metadata] == tags
        runs = [event["run_metadata"] for event in expected["events"] if event["what"] == "tagged_run_metadata"]
        for run, want in zip(loaded.run_metadata, runs):
            dev_stats = run.run_metadata.step_stats.dev_stats
            assert [d.device for d in dev_stats] == [d["device"] for d in want["devices"]]
            for got, want_dev in zip(dev_stats, want["devices"]):
                assert [n.node_name for n in got.node_stats] == [n["node_name"] for n in want_dev["nodes"]]
        assert len(loaded.meta_graphs) == kinds.count("meta_graph_def")


def test_events_directory_with_two_files():
    expected = tf_json(FIXTURES / "parsers" / "events_dir.tf.json")
    loaded = parsers.load(FIXTURES / "parsers" / "events_dir")
    assert loaded.kind == "events"
    assert [Path(f).name for f in loaded.files] == [f["file"] for f in expected["files"]]
    kinds = [kind for f in expected["files"] for kind in f["events"]]
    assert loaded.event_counts == {kind: kinds.count(kind) for kind in set(kinds)}
    # Graphs: graph_def events and meta graphs' graphs, in file and record order.
    assert len(loaded.graphs) - sum(len(r.run_metadata.partition_graphs) for r in loaded.run_metadata) == len(
        expected["graphs"]
    )
    event_graphs = [g for g in loaded.graphs if "partition" not in g.label]
    for labeled, want in zip(event_graphs, expected["graphs"]):
        assert labeled.label.startswith(want["label"].split(":")[0])
        assert_graph_matches(labeled.graph_def, want)
    assert [r.tag for r in loaded.run_metadata] == [r["tag"] for r in expected["run_metadata"]]
    for run, want in zip(loaded.run_metadata, expected["run_metadata"]):
        got = {}
        for dev in run.run_metadata.step_stats.dev_stats:
            got.setdefault(dev.device, []).extend(n.node_name for n in dev.node_stats)
        assert got == want["devices"]


def test_our_run_metadata_fixtures():
    expected = tf_json(FIXTURES / "parsers" / "run_metadata.tf.json")
    for name in ("run_metadata.pb", "run_metadata.pbtxt"):
        loaded = parsers.load(FIXTURES / "parsers" / name)
        assert loaded.kind == "run_metadata"
        for labeled, want in zip(loaded.graphs, expected["graphs"], strict=True):
            assert_graph_matches(labeled.graph_def, want)
        (run,) = loaded.run_metadata
        got = {}
        for dev in run.run_metadata.step_stats.dev_stats:
            got.setdefault(dev.device, []).extend(n.node_name for n in dev.node_stats)
        assert got == expected["run_metadata"][0]["devices"]
        assert len(run.run_metadata.partition_graphs) == expected["run_metadata"][0]["partition_graphs"]


@pytest.mark.parametrize("name", ["functions.pb", "debug_info.pbtxt"])
def test_function_library_and_debug_info(name):
    spec = FIXTURES / "parsers" / (name.split(".")[0] + ".tf.json")
    (want,) = tf_json(spec)["graphs"]
    loaded = parsers.load(FIXTURES / "parsers" / name)
    assert loaded.kind == "graphdef"
    graph_def = loaded.graphs[0].graph_def
    assert_graph_matches(graph_def, want)
    if "debug_info_traces" in want:
        assert sorted(graph_def.debug_info.traces) == want["debug_info_traces"]
        assert graph_def.debug_info.files  # where each node was made: real file names
    else:
        assert want["functions"], "the function-library fixture must hold functions"


def copy_dump_dir(source, order, target):
    """A dump directory as TensorFlow leaves it: files written one after another, in `order`."""
    target.mkdir()
    for index, name in enumerate(order):
        shutil.copyfile(source / name, target / name)
        os.utime(target / name, ns=(10**18 + index * 10**6, 10**18 + index * 10**6))


def test_dump_dir_in_pass_order(tmp_path):
    expected = tf_json(FIXTURES / "parsers" / "dump_dir.tf.json")
    order = expected["files_in_order"]
    copy_dump_dir(FIXTURES / "parsers" / "dump_dir", order, tmp_path / "dump")
    loaded = parsers.load(tmp_path / "dump")
    assert loaded.kind == "dump_dir"
    assert [Path(f).name for f in loaded.files] == order
    assert loaded.graphs[0].label == "unknown_graph #0 main before_opt_group_pre_placement"
    assert loaded.graphs[1].label == "encapsulate_xla_computations_before"
    for labeled, want in zip(loaded.graphs, expected["graphs"], strict=True):
        assert_graph_matches(labeled.graph_def, want)


def test_dump_dir_fresh_checkout_keeps_numbered_passes_in_order():
    # Git gives every file the checkout time; numbered dumps still come out in sequence.
    loaded = parsers.load(FIXTURES / "parsers" / "dump_dir")
    names = [Path(f).name for f in loaded.files]
    numbered = [n for n in names if n.startswith("unknown_graph.")]
    assert numbered == sorted(numbered)
    for stem in ("encapsulate_xla_computations", "forward_type_inference", "encapsulate_subgraphs"):
        phases = [n for n in names if n.startswith(stem)]
        assert phases == sorted(phases, key=lambda n: ("before" not in n, "halfway" not in n))


def test_dump_dir_of_the_fixture_maker():
    spec = FIXTURES / "containers" / "dump_dir.tf.json"
    if not spec.exists():
        pytest.skip("containers/dump_dir not generated yet")
    expected = tf_json(spec)
    loaded = parsers.load(FIXTURES / "containers" / "dump_dir")
    assert loaded.kind == "dump_dir"
    by_file = {Path(g.source).name: g.graph_def for g in loaded.graphs}
    assert sorted(by_file) == sorted(kept["file"] for kept in expected["kept"])
    for kept in expected["kept"]:
        assert_graph_matches(by_file[kept["file"]], kept)
