"""A fixture set written by one of tools/make_*_fixtures.py (conv_norm, functional, ...):
TensorFlow's values (values.npz), static shapes (shapes.json), graph nodes (nodes.json.gz) and,
where the set has them, its errors (errors.json), read once for a test module; and the checks
the test modules of such sets share, over a cases module's build_case, run_case and
run_error_case (tools/fixture_common.py writes the sets from the same functions)."""

import gzip
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def load(name):
    """The set tests/fixtures/NAME/ as .values, .shapes, .nodes, .errors (None if absent)."""
    folder = FIXTURES / name
    errors = folder / "errors.json"
    return SimpleNamespace(
        folder=folder,
        values=np.load(folder / "values.npz"),
        shapes=json.loads((folder / "shapes.json").read_text()),
        nodes=json.loads(gzip.decompress((folder / "nodes.json.gz").read_bytes())),
        errors=json.loads(errors.read_text()) if errors.exists() else None)


def assert_values_equal(tf, cases, fixture, name):
    """The case's values, bit for bit with their dtypes and shapes, and its static shapes are
    TensorFlow's."""
    values, shapes = cases.run_case(tf, name)
    for key, value in values.items():
        want = fixture.values[f"{name}__{key}"]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == fixture.shapes[name]


def assert_graph_equal(tf, cases, fixture, name):
    """The case's graph is TensorFlow's node for node: names, op types and inputs in order."""
    with tf.Graph().as_default() as graph:
        cases.build_case(tf, name)
    ours = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    assert ours == fixture.nodes[name]


def assert_error_equal(tf, cases, fixture, name):
    """The error case's error class and message are TensorFlow's."""
    assert list(cases.run_error_case(tf, name)) == fixture.errors[name]
