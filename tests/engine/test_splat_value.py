"""tensor_util.splat_value, and the optimizer passes that use it on constants a file may
claim to be of any size: read from what is stored, never materialised."""

import numpy as np
import pytest

import engine as tf
from engine.framework import tensor_util
from engine.optimizer import optimize
from engine.proto import tensor_pb2, types_pb2

HUGE = 10 ** 12  # elements no machine holds: a materialising read would fail or swap


# about the optimizer's passes
pytestmark = pytest.mark.usefixtures("optimizer_on")


def _tensor(dims, dtype=types_pb2.DT_FLOAT, **stored):
    tensor = tensor_pb2.TensorProto(dtype=dtype)
    for d in dims:
        tensor.tensor_shape.dim.add(size=d)
    for field, values in stored.items():
        if field == "tensor_content":
            tensor.tensor_content = values
        else:
            getattr(tensor, field).extend(values)
    return tensor


def test_splat_values_read_from_what_is_stored():
    assert tensor_util.splat_value(_tensor([HUGE], float_val=[2.0])) == 2.0
    assert tensor_util.splat_value(_tensor([3], float_val=[1.0, 1.0])) == 1.0
    assert tensor_util.splat_value(_tensor([3], float_val=[1.0, 2.0])) is None
    assert tensor_util.splat_value(_tensor([2], float_val=[np.nan])) is None
    assert tensor_util.splat_value(_tensor([4], types_pb2.DT_INT64)) == 0  # nothing stored
    assert tensor_util.splat_value(_tensor([0], float_val=[1.0])) is None
    content = np.full(5, 7, np.int32).tobytes()
    assert tensor_util.splat_value(_tensor([5], types_pb2.DT_INT32, tensor_content=content)) == 7
    assert tensor_util.splat_value(_tensor([6], types_pb2.DT_INT32, tensor_content=content)) \
        is None  # content of the wrong length: not a value at all
    assert tensor_util.splat_value(_tensor([1], types_pb2.DT_STRING, string_val=[b"a"])) is None


def test_passes_over_constants_claiming_a_huge_size():
    """Pow by a [10^12] constant of 2s becomes a Square; a chain over a [10^12] constant of
    ones is neither folded nor fails a pass: nothing reads more than the stored values."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        tf.identity(tf.pow(x, 2.0, name="p") + 1.0, name="out")
        tf.identity(tf.sqrt(tf.abs(tf.constant(1.0, shape=[2], name="big")) + 1.0),
                    name="splat_out")
    graph_def = graph.as_graph_def()
    nodes = {n.name: n for n in graph_def.node}
    nodes["p/y"].attr["value"].tensor.tensor_shape.dim.add(size=HUGE)
    nodes["big"].attr["value"].tensor.tensor_shape.dim[0].size = HUGE
    result = optimize(graph_def, fetches=["out", "splat_out"])
    assert [stage.report.error for stage in result.stages if stage.report.error] == []
    ops = {n.name: n.op for n in result.graph_def.node}
    assert ops["p"] == "Square"
    # not folded (too big to read), the chain over it fused, the constant read in place
    assert ops["big"] == "Const" and ops["Sqrt"] == "_FusedElementwise"


def test_a_random_ops_shape_claiming_a_billion_dims_is_not_read():
    from engine.optimizer.static_size import StaticSizes
    graph = tf.Graph()
    with graph.as_default():
        tf.random_uniform([4, 4], name="r")
    nodes = {n.name: n for n in graph.as_graph_def().node}
    assert StaticSizes(nodes).elements("r/RandomUniform") == 16
    nodes["r/shape"].attr["value"].tensor.tensor_shape.dim[0].size = 10 ** 9
    assert StaticSizes(nodes).elements("r/RandomUniform") is None


def test_make_ndarray_cuts_stored_values_to_an_empty_shape():
    """tf.zeros([2, 0], tf.string) stores one "" for no elements, as TensorFlow writes it;
    Tensor::FromProto copies only what the shape holds (the engine failed to reshape)."""
    strings = tensor_util.MakeNdarray(_tensor([2, 0], types_pb2.DT_STRING, string_val=[b""]))
    assert strings.shape == (2, 0) and strings.dtype == object
    floats = tensor_util.MakeNdarray(_tensor([0, 3], float_val=[1.5]))
    assert floats.shape == (0, 3) and floats.dtype == np.float32
    with tf.Graph().as_default(), tf.Session() as sess:
        assert sess.run(tf.zeros([2, 0], tf.string)).shape == (2, 0)
