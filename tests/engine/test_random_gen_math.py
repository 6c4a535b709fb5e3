"""tf.random.Generator, tf.random_index_shuffle, tf.math.sobol_sample, approximate top-k, the
N-d FFTs, tf.lookup.StaticVocabularyTable and the SDCA ops against TensorFlow 2.21
(tf.compat.v1): values bit for bit (dtype and shape too), static shapes, graphs node for node,
gradients, errors when the graph runs and while it is built
(tests/engine/random_gen_math_cases.py; fixtures by tools/make_random_gen_math_fixtures.py)."""

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import random_gen_math_cases as cases  # noqa: E402

TF = tf_fixture_set.load("random_gen_math")
API_ERRORS = json.loads((TF.folder / "api_errors.json").read_text())
GRAPHS = json.loads((TF.folder / "graphs.json").read_text())


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_are_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        np.testing.assert_array_equal(np.asarray(value), want, err_msg=key, strict=True)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    with tf.Graph().as_default() as graph:
        cases.build_case(tf, name)
    ours = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    assert ours == TF.nodes[name]


def test_draws_move_the_state_across_runs():
    """Each run of the same draw reads the state the last one left: new values each time."""
    with tf.Graph().as_default():
        generator = tf.random.Generator.from_seed(5)
        draw = generator.normal([4])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            runs = [sess.run(draw) for _ in range(3)]
            state = sess.run(generator.state)
    assert not np.array_equal(runs[0], runs[1]) and not np.array_equal(runs[1], runs[2])
    np.testing.assert_array_equal(state, [5 + 3 * 4 * 256, 0, 0])


@pytest.mark.parametrize("name", list(cases.GRAPH_CASES))
def test_built_only_graphs_equal_tensorflows(name):
    shapes, dtypes = cases.graph_case(tf, name)
    assert shapes == GRAPHS[name]["shapes"]
    assert dtypes == GRAPHS[name]["dtypes"]
    with tf.Graph().as_default() as graph:
        cases.build_case(tf, name)
    ours = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    assert ours == GRAPHS[name]["nodes"]


def _attrs_as_set(message):
    """TensorFlow lists a NodeDef's attrs in its map's order, which changes from run to run."""
    match = re.search(r"with these attrs: \[(.*)\]", message)
    if not match:
        return message, None
    return message[:match.start()], sorted(match.group(1).split(", "))


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_run_errors_are_tensorflows(name):
    kind, message = cases.run_error_case(tf, name)
    assert kind == TF.errors[name][0]
    assert _attrs_as_set(message) == _attrs_as_set(TF.errors[name][1])


@pytest.mark.parametrize("name", cases.API_ERROR_CASES)
def test_build_errors_are_tensorflows(name):
    assert list(cases.run_api_error_case(tf, name)) == API_ERRORS[name]


def test_fftnd_has_no_gradient_as_in_tensorflow():
    assert list(cases.fftnd_gradient_error(tf)) == API_ERRORS["fftnd_gradient"]


def test_generator_split_fails_in_graph_mode_as_in_tensorflow():
    assert list(cases.generator_split_error(tf)) == API_ERRORS["generator_split"]


def test_global_and_non_deterministic_generators_are_built_as_tensorflows():
    assert cases.global_generator_structure(tf) == GRAPHS["global_generator"]


QUANTIZE = json.loads((TF.folder / "quantize_training.json").read_text())


def _graph_def(text):
    import base64
    from engine.proto import graph_pb2
    graph_def = graph_pb2.GraphDef()
    graph_def.ParseFromString(base64.b64decode(text))
    return graph_def


@pytest.mark.parametrize("name", ["matmul_with_saver", "activations", "three_inputs"])
def test_do_quantize_training_rewrites_as_tensorflow(name):
    case = QUANTIZE[name]
    graph_def = _graph_def(case["input"])
    if "error" in case:
        with pytest.raises(Exception) as caught:
            tf.train.do_quantize_training_on_graphdef(graph_def, 8)
        assert [type(caught.value).__name__, str(caught.value)] == case["error"]
        return
    ours = tf.train.do_quantize_training_on_graphdef(graph_def, 8)
    want = _graph_def(case["output"])
    assert [n.name for n in ours.node] == [n.name for n in want.node]
    for mine, theirs in zip(ours.node, want.node):
        assert mine == theirs, mine.name


def test_do_quantize_training_graph_runs_as_tensorflows():
    import base64  # noqa: F401
    graph_def = _graph_def(QUANTIZE["matmul_with_saver"]["input"])
    rewritten = tf.train.do_quantize_training_on_graphdef(graph_def, 4)
    x = np.array([[0.5, -1.25, 2.0], [3.0, 0.75, -0.5]], np.float32)
    with tf.Graph().as_default():
        tf.import_graph_def(rewritten, name="")
        with tf.Session() as sess:
            sess.run("w/Assign")
            runs = [sess.run("mm:0", {"x:0": x * scale}).tolist() for scale in (1.0, 3.0)]
            ranges = sess.run(["x/Min/Variable:0", "x/Max/Variable:0"])
    want = QUANTIZE["run_4_bits"]
    np.testing.assert_array_equal(np.array(runs, np.float32), np.array(want["mm"], np.float32))
    assert [float(v) for v in ranges] == want["x_range"]


def test_do_quantize_training_bits_out_of_range():
    graph_def = _graph_def(QUANTIZE["matmul_with_saver"]["input"])
    with pytest.raises(IndexError) as caught:
        tf.train.do_quantize_training_on_graphdef(graph_def, 0)
    assert ["IndexError", str(caught.value)] == QUANTIZE["bits_zero"]
