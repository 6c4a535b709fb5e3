"""The TensorList cases on a GPU (the simulated one everywhere, CuPy where a CUDA GPU is
present): placed there, they give TensorFlow's values (tests/fixtures/lists/), their elements
in device memory and their shapes and indices read in host memory."""

from pathlib import Path

import numpy as np
import pytest

import engine as tf
import tensor_list_cases
from tests.engine.cuda_twin import BACKENDS, gpu_backend

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lists"
LIST_OPS = ("TensorListReserve", "TensorListSetItem", "TensorListGetItem", "TensorListStack",
            "TensorListGather", "TensorListFromTensor", "TensorListPushBack",
            "TensorListPopBack", "TensorListScatterV2", "TensorListScatterIntoExistingList",
            "TensorListConcatV2", "TensorListSplit", "TensorListResize", "EmptyTensorList")
# String elements have no GPU kernels (TensorFlow's list kernels take numbers on a GPU).
ON_GPU = sorted(set(tensor_list_cases.CASES) - {"list_strings_and_ints"})


def _key(name):
    return name.replace("__", ":").replace("--", "/")


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("name", ON_GPU)
def test_list_cases_on_a_gpu_give_tensorflows_values(backend_name, name):
    with gpu_backend(backend_name):
        graph = tf.Graph()
        with graph.as_default(), tf.device("/device:GPU:0"):
            fetches, feeds, _ = tensor_list_cases.CASES[name](tf)
        config = tf.ConfigProto(device_count={"GPU": 1}, allow_soft_placement=True)
        options = tf.RunOptions(output_partition_graphs=True)
        metadata = tf.RunMetadata()
        with tf.Session(graph=graph, config=config) as sess:
            feed_dict = {graph.get_tensor_by_name(k + ":0"): v for k, v in feeds.items()}
            values = sess.run(fetches, feed_dict, options=options, run_metadata=metadata)
    on_gpu = {node.op for partition in metadata.partition_graphs for node in partition.node
              if "GPU" in node.device}
    assert on_gpu & set(LIST_OPS), on_gpu
    expected = np.load(FIXTURES / f"{name}.npz")
    for key in expected.files:
        got = np.asarray(values[_key(key)])
        np.testing.assert_allclose(got, expected[key], rtol=2e-6, atol=1e-7,
                                   err_msg=f"{name} {key}")


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_resource_gather_and_variable_shape_on_a_gpu_agree_with_the_cpu(backend_name):
    """int32 and int64 indices, a batch dimension, and the gradient's sparse update."""
    def run(device):
        graph = tf.Graph()
        with graph.as_default(), tf.device(device):
            table = tf.Variable(np.arange(24, dtype=np.float32).reshape(4, 6) / 7.0,
                                use_resource=True, name="table")
            rows = tf.gather(table, tf.constant([[3, 0], [1, 3]], tf.int32))
            more = tf.gather(table, tf.constant([2], tf.int64))
            batched = tf.raw_ops.ResourceGather(resource=table.handle, dtype=tf.float32,
                                                indices=tf.constant([[1], [5], [0], [2]]),
                                                batch_dims=1)
            shape = tf.raw_ops.VariableShape(input=table.handle, out_type=tf.int64)
            loss = tf.reduce_sum(rows * rows) + tf.reduce_sum(more)
            step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        config = tf.ConfigProto(device_count={"GPU": 1}, allow_soft_placement=True)
        with tf.Session(graph=graph, config=config) as sess:
            sess.run(tf.variables_initializer([table]))
            values = sess.run([rows, more, batched, shape])
            sess.run(step)
            return values + [sess.run(table.value())]

    cpu = run("/device:CPU:0")
    with gpu_backend(backend_name):
        gpu = run("/device:GPU:0")
    for want, got in zip(cpu, gpu):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
