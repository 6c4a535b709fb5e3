"""Device names as TensorFlow 2.21 writes them: partial specs, nested scopes, device
functions, replica_device_setter, and a session's devices from its ConfigProto."""

import pytest

import engine as tf
from engine.runtime import placer
from engine.framework.devices import (DeviceSpec, canonical, local_name, matches, merge,
                           replica_device_setter)


@pytest.mark.parametrize("spec,expected", [
    ("/cpu:0", "/device:CPU:0"),
    ("/gpu:1", "/device:GPU:1"),
    ("/device:GPU:1", "/device:GPU:1"),
    ("/job:worker/task:1", "/job:worker/task:1"),
    ("/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:0"),
    ("/job:ps/device:CPU:*", "/job:ps/device:CPU:*"),
    ("", ""),
])
def test_partial_specs_print_as_tensorflow(spec, expected):
    assert canonical(spec) == expected


def test_bad_spec():
    with pytest.raises(ValueError, match="Unknown attribute 'bogus'"):
        DeviceSpec.from_string("/bogus:1")


def test_merge_inner_fields_win():
    assert merge("/job:worker/task:1", "/device:GPU:0") == "/job:worker/task:1/device:GPU:0"
    assert merge("/device:GPU:0", "/cpu:1") == "/device:CPU:1"


def test_nested_scopes_merge():
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:worker/task:1"):
            a = tf.constant(1.0, name="a")
            with tf.device("/gpu:0"):
                b = tf.constant(2.0, name="b")
                with tf.device("/task:2"):
                    c = tf.constant(3.0, name="c")
                with tf.device(None):
                    d = tf.constant(4.0, name="d")
    assert a.op.device == "/job:worker/task:1"
    assert b.op.device == "/job:worker/task:1/device:GPU:0"
    assert c.op.device == "/job:worker/task:2/device:GPU:0"
    assert d.op.device == ""


def test_device_function_result_kept_as_returned():
    """TensorFlow records a device function's string as it is (TF 2.21 gives '/cpu:1')."""
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(lambda op: "/cpu:1" if op.type == "Const" else "/cpu:0"):
            a = tf.constant(1.0, name="a")
            b = tf.add(a, a, name="b")
    assert (a.op.device, b.op.device) == ("/cpu:1", "/cpu:0")


def test_replica_device_setter_as_tensorflow():
    """TF 2.21's devices for the same graph (ref variables, two ps tasks)."""
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(replica_device_setter(ps_tasks=2)):
            v1 = tf.Variable(1.0, name="v1", use_resource=False)
            v2 = tf.Variable(2.0, name="v2", use_resource=False)
            with tf.device("/task:3"):
                v3 = tf.Variable(3.0, name="v3", use_resource=False)
            s = tf.add(v1, v2, name="s")
            with tf.device("/device:GPU:1"):
                m = tf.multiply(s, 2.0, name="m")
    devices = {op.name: op.device for op in graph.get_operations()}
    assert devices["v1"] == "/job:ps/task:0" and devices["v2"] == "/job:ps/task:1"
    assert devices["v3"] == "/job:ps/task:3"
    assert devices["v1/initial_value"] == "/job:worker"
    assert devices["v3/initial_value"] == "/job:worker/task:3"
    assert devices["s"] == "/job:worker"
    assert devices["m"] == "/job:worker/device:GPU:1"
    assert v3.op.device and m.op.device


def test_replica_device_setter_without_ps_is_none():
    assert replica_device_setter() is None
    chooser = replica_device_setter(cluster={"ps": ["a:1", "b:1"], "worker": ["c:1"]})
    assert chooser is not None


def test_local_names_and_matching():
    assert local_name("CPU", 1) == "/job:localhost/replica:0/task:0/device:CPU:1"
    assert matches("/cpu:1", local_name("CPU", 1))
    assert not matches("/cpu:1", local_name("CPU", 0))
    assert matches("/job:localhost", local_name("CPU", 0))
    assert not matches("/job:worker/task:1", local_name("CPU", 0))


def test_session_devices_from_config(monkeypatch):
    monkeypatch.setattr(placer, "cuda_device_count", lambda: 0)
    assert placer.session_devices(tf.ConfigProto()) == [local_name("CPU", 0)]
    assert placer.session_devices(tf.ConfigProto(device_count={"CPU": 3, "GPU": 2})) == [
        local_name("CPU", i) for i in range(3)]
    monkeypatch.setattr(placer, "cuda_device_count", lambda: 2)
    assert placer.session_devices(tf.ConfigProto(device_count={"GPU": 1}))[-1] == \
        local_name("GPU", 0)


def test_no_cupy_means_no_gpu():
    try:
        import cupy  # noqa: F401
    except ImportError:
        assert placer.cuda_device_count() == 0
