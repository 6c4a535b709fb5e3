"""tf.RaggedTensor, tf.RaggedTensorSpec, tf.ragged and the ragged dispatch of tf's ops against
TensorFlow 2.21's tf.compat.v1 in graph mode (tests/fixtures/ragged/, written by
tools/make_ragged_fixtures.py from tests/engine/ragged_cases.py and ragged_text_cases.py):
fetched values bit for bit (RaggedTensorValue, SparseTensorValue, arrays), static shapes and
dtypes, graph nodes (name and op type), gradients, run-time and Python errors."""

import gzip
import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ragged_cases as cases  # noqa: E402

import engine as tf  # noqa: E402

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ragged"
DOCUMENT = json.loads(gzip.decompress((FIXTURES / "cases.json.gz").read_bytes()))


def _array(stored):
    """An array of the fixture: [dtype, shape, flat values]."""
    dtype, shape, values = stored
    kind = np.dtype(dtype).kind
    if kind == "S":
        values = [v.encode("utf-8", "surrogateescape") for v in values]
    if kind == "f":  # stored as its bits
        bits = np.array(values, dtype=f"<u{np.dtype(dtype).itemsize}")
        return bits.view(dtype).reshape(shape)
    return np.array(values, dtype=dtype).reshape(shape)


ARRAYS = {key: _array(stored) for key, stored in DOCUMENT["arrays"].items()}
NODES = json.loads(gzip.decompress((FIXTURES / "nodes.json.gz").read_bytes()))

# Static shapes TensorFlow knows from its C++ shape refiner evaluating small constant
# subgraphs (DenseBincount's size from the segment ids, a SparseTensor's dense_shape[0]);
# the engine's shape functions fold only Const, Shape, Cast, Pack, ... as tensor_util does.
STATIC_FROM_CONSTANT_EVALUATION = {
    "from_tensor/from_sparse", "array_ops/ids_to_splits", "strings/bytes_vector",
    "strings/split_ragged_result", "strings/split_sep", "strings/split_maxsplit",
    "strings/string_split_ragged"}
# The same folding makes some shapes Const nodes in TensorFlow where the engine has Shape ops
# (two gradient shapes; the shapes inside tf.repeat of RaggedFeature's partitions).
NODES_FROM_CONSTANT_EVALUATION = {"gradients", "parsing"}


@pytest.fixture(scope="module")
def engine_runs():
    return {group: cases.run_group(tf, group) for group in cases.GROUPS}


def _stored(array):
    array = np.asarray(array)
    return array.astype(bytes) if array.dtype == object else array


def _same(ours, theirs):
    if ours.dtype != theirs.dtype or ours.shape != theirs.shape:
        return False
    if ours.dtype.kind == "f":
        return np.array_equal(ours.view(f"u{ours.itemsize}"), theirs.view(f"u{ours.itemsize}"))
    return np.array_equal(ours, theirs)


OUTPUTS = [key for key in DOCUMENT["outputs"] if not key.startswith("placeholder/")]


@pytest.mark.parametrize("key", OUTPUTS)
def test_values(engine_runs, key):
    group, name = key.split("/")
    kind, parts, as_list = engine_runs[group][0][name]
    want = DOCUMENT["outputs"][key]
    assert kind == want["kind"]
    assert sorted(parts) == want["parts"]
    for part, array in parts.items():
        theirs = ARRAYS[f"{group}__{name}__{part}"]
        assert _same(_stored(array), theirs), (part, array, theirs)
    if as_list is not None:
        assert json.loads(json.dumps(_texts(as_list))) == want["to_list"]


def _texts(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    if isinstance(value, list):
        return [_texts(v) for v in value]
    return value


@pytest.mark.parametrize("key", [k for k in OUTPUTS if k not in STATIC_FROM_CONSTANT_EVALUATION])
def test_static_shapes_and_dtypes(engine_runs, key):
    group, name = key.split("/")
    assert engine_runs[group][1][name] == DOCUMENT["outputs"][key]["static"]


@pytest.mark.parametrize("key", sorted(STATIC_FROM_CONSTANT_EVALUATION))
def test_static_shapes_tensorflow_evaluates(engine_runs, key):
    group, name = key.split("/")
    ours, theirs = engine_runs[group][1][name], DOCUMENT["outputs"][key]["static"]
    assert ours[0] == theirs[0] and ours[2:] == theirs[2:]
    assert tf.TensorShape(eval_shape(ours[1])).is_compatible_with(eval_shape(theirs[1]))


def eval_shape(text):
    dims = [d.strip() for d in text.strip("()").split(",") if d.strip()]
    return [None if d == "?" else int(d) for d in dims]


# A RaggedTensor with a dense operand of its rank: TensorFlow's DynamicRaggedShape broadcast
# (its nodes are not the engine's, engine/ops/ragged/dispatch.py); values and shapes compared.
NODES_NOT_TENSORFLOWS = {"broadcast"}


@pytest.mark.parametrize("group", sorted(set(cases.GROUPS) - NODES_FROM_CONSTANT_EVALUATION
                                         - NODES_NOT_TENSORFLOWS))
def test_graph_nodes(engine_runs, group):
    assert engine_runs[group][2] == [list(n) for n in NODES[group]]


@pytest.mark.parametrize("group", sorted(NODES_FROM_CONSTANT_EVALUATION))
def test_graph_nodes_up_to_folded_shapes(engine_runs, group):
    ours = engine_runs[group][2]
    theirs = NODES[group]
    assert len(ours) == len(theirs)
    differing = [(o, t) for o, t in zip(ours, theirs) if list(o) != list(t)]
    assert all(o[0].rsplit("/", 1)[0] == t[0].rsplit("/", 1)[0] and o[1] == "Shape"
               and t[1] == "Const" for o, t in differing), \
        differing
    assert 0 < len(differing) <= 10


def test_placeholder_fed_a_ragged_tensor_value():
    fetched = cases.run_placeholder(tf)
    for name, (kind, parts, as_list) in fetched.items():
        want = DOCUMENT["outputs"][f"placeholder/{name}"]
        assert kind == want["kind"] and as_list == want["to_list"]
        for part, array in parts.items():
            assert _same(_stored(array), ARRAYS[f"placeholder__{name}__{part}"])


@pytest.mark.parametrize("name", sorted(cases.ERROR_CASES))
def test_run_time_errors(name):
    assert list(cases.run_error(tf, name)) == DOCUMENT["errors"][name]


@pytest.mark.parametrize("name", sorted(cases.PYTHON_ERRORS))
def test_python_errors(name):
    assert list(cases.python_error(tf, name)) == DOCUMENT["python_errors"][name]


def test_ragged_tensor_spec_and_value():
    answers = cases.spec_answers(tf)
    assert json.loads(json.dumps(answers)) == DOCUMENT["spec"]


def test_fetched_value_type_is_the_compat_v1_class():
    with tf.Graph().as_default():
        rt = tf.ragged.constant([[1, 2], [3]])
        with tf.Session() as sess:
            value = sess.run(rt)
    assert isinstance(value, tf.compat.v1.ragged.RaggedTensorValue)
    assert value.to_list() == [[1, 2], [3]]


def test_to_tensor_gradient_by_finite_differences():
    """d/dv sum(to_tensor(v)^2) = 2v at each value that lands in the dense tensor; a value
    cut off by `shape` gets none."""
    values = np.array([0.5, -1.25, 2.0, 3.5], np.float64)
    with tf.Graph().as_default():
        v = tf.placeholder(tf.float64, [4])
        dense = tf.RaggedTensor.from_row_splits(v, [0, 3, 4]).to_tensor(shape=[2, 2])
        loss = tf.reduce_sum(dense * dense)
        grad = tf.gradients(loss, v)[0]
        with tf.Session() as sess:
            analytic = sess.run(tf.convert_to_tensor(grad), {v: values})
            eps = 1e-6
            numeric = []
            for i in range(4):
                bump = np.eye(4)[i] * eps
                numeric.append((sess.run(loss, {v: values + bump})
                                - sess.run(loss, {v: values - bump})) / (2 * eps))
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-6)
