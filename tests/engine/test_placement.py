"""Placement as TensorFlow 2.21 places: requested devices, colocation, generators following
their consumers, soft placement, its InvalidArgumentError, log_device_placement lines."""

import numpy as np
import pytest

import engine as tf
from engine.runtime import placer
from engine.runtime.plan import nodes_from_graph_def

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
CPU1 = "/job:localhost/replica:0/task:0/device:CPU:1"
TWO_CPUS = [CPU0, CPU1]


def placed(graph, devices=TWO_CPUS, soft=False):
    nodes, order = nodes_from_graph_def(graph.as_graph_def())
    return placer.Placer(devices, soft).place(nodes, order)


def two_cpu_session(graph, **kwargs):
    return tf.Session(graph=graph, config=tf.ConfigProto(device_count={"CPU": 2}, **kwargs))


def test_requested_devices_and_defaults():
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/cpu:0"):
            a = tf.constant(1.0, name="a")
        with tf.device("/cpu:1"):
            b = tf.add(a, 2.0, name="b")
        tf.multiply(b, 3.0, name="c")
    devices = placed(graph)
    # b/y has no device of its own, yet follows its only consumer (TF's generator heuristic).
    assert devices == {"a": CPU0, "b/y": CPU1, "b": CPU1, "c/y": CPU0, "c": CPU0}


def test_log_device_placement_prints_tensorflows_lines(capsys):
    """TF 2.21 printed exactly these lines on stdout (nodes with inputs, then generators)."""
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/cpu:0"):
            a = tf.constant(1.0, name="a")
        with tf.device("/cpu:1"):
            b = tf.add(a, 2.0, name="b")
        c = tf.multiply(b, 3.0, name="c")
    with two_cpu_session(graph, log_device_placement=True) as sess:
        assert sess.run(c) == 9.0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"b: (AddV2): {CPU1}", f"c: (Mul): {CPU0}", f"a: (Const): {CPU0}",
        f"b/y: (Const): {CPU1}", f"c/y: (Const): {CPU0}"]
    assert "Device mapping: no known devices." in err


def test_colocate_with_and_ref_edges():
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/cpu:1"):
            v = tf.Variable(1.0, name="v", use_resource=False)
        with tf.device("/cpu:0"):
            step = tf.assign_add(v, 2.0, name="step")  # a ref input: stays with v
            with tf.colocate_with(v.op):
                c = tf.identity(v, name="c")
            plain = tf.identity(v, name="plain")
    devices = placed(graph)
    assert devices["v"] == devices["step"] == devices["c"] == CPU1
    assert devices["plain"] == CPU0
    with two_cpu_session(graph) as sess:
        sess.run(v.initializer)
        assert sess.run(step) == 3.0
        assert sess.run([c, plain]) == [3.0, 3.0]


def test_class_attr_colocation_from_graph_def():
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/cpu:1"):
            x = tf.constant([1.0, 2.0], name="x")
        y = tf.negative(x, name="y")
    graph_def = graph.as_graph_def()
    node = next(n for n in graph_def.node if n.name == "y")
    node.attr["_class"].list.s.append(b"loc:@x")
    nodes, order = nodes_from_graph_def(graph_def)
    assert placer.Placer(TWO_CPUS).place(nodes, order)["y"] == CPU1


def test_missing_device_without_soft_placement_is_tensorflows_error():
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/device:GPU:0"):
            a = tf.constant(1.0, name="a")
            b = tf.add(a, a, name="b")
    with two_cpu_session(graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as caught:
            sess.run(b)
    message = caught.value.message
    assert ("Cannot assign a device for operation b: {{node b}} was explicitly assigned to "
            "/device:GPU:0 but available devices are [ /job:localhost/replica:0/task:0/device:"
            "CPU:0, /job:localhost/replica:0/task:0/device:CPU:1 ]. Make sure the device "
            "specification refers to a valid device. The requested device appears to be a GPU, "
            "but CUDA is not enabled.\n\t [[b]]") in message
    assert message.startswith("Graph execution error:\n\nDetected at node 'b'")


@pytest.mark.parametrize("spec,shown", [("/cpu:5", "/device:CPU:5"),
                                        ("/job:worker/task:1", "/job:worker/task:1")])
def test_missing_cpu_or_job(spec, shown):
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(spec):
            a = tf.constant(1.0, name="a")
    with two_cpu_session(graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=f"operation a: {{{{node a}}}} was explicitly assigned to "
                                 f"{shown} but available devices"):
            sess.run(a)


def test_soft_placement_puts_missing_devices_on_the_cpu():
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/device:GPU:0"):
            a = tf.constant(1.0, name="a")
            b = tf.add(a, a, name="b")
        with tf.device("/cpu:5"):
            c = tf.multiply(b, 3.0, name="c")
    assert set(placed(graph, soft=True).values()) == {CPU0}
    with two_cpu_session(graph, allow_soft_placement=True) as sess:
        assert sess.run(c) == 6.0


def test_soft_placement_when_a_device_lacks_the_kernel():
    """An op with no GPU kernel asked onto a GPU goes to the CPU (the CUDA session's case)."""
    gpu0 = "/job:localhost/replica:0/task:0/device:GPU:0"
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/gpu:0"):
            a = tf.constant(1.0, name="a")
            tf.add(a, a, name="b")
    nodes, order = nodes_from_graph_def(graph.as_graph_def())

    def kernels(op_type, device_type):
        return device_type == "CPU" or op_type == "Const"
    devices = placer.Placer([CPU0, gpu0], True, kernels).place(nodes, order)
    assert devices == {"a": gpu0, "b": CPU0}
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="no supported kernel for GPU devices"):
        placer.Placer([CPU0, gpu0], False, kernels).place(nodes, order)


def test_unconstrained_nodes_prefer_a_gpu_where_it_has_kernels():
    gpu0 = "/job:localhost/replica:0/task:0/device:GPU:0"
    graph = tf.Graph()
    with graph.as_default():
        a = tf.constant(1.0, name="a")
        tf.add(a, a, name="b")
    nodes, order = nodes_from_graph_def(graph.as_graph_def())
    devices = placer.Placer([CPU0, gpu0], False, lambda op, t: True).place(nodes, order)
    assert devices == {"a": gpu0, "b": gpu0}


def test_single_device_runs_keep_the_one_executor_path():
    graph = tf.Graph()
    with graph.as_default():
        a = tf.constant(np.arange(4.0), name="a")
        b = tf.reduce_sum(a, name="b")
    with two_cpu_session(graph) as sess:
        assert sess.run(b) == 6.0
        (entry,) = sess._entries.values()
        assert entry.parts is None
