"""Graphs on a GPU, end to end: placement, partitions, transfers, fetches, feeds, step stats.

Runs on the simulated GPU everywhere (engine/kernels/cuda/simulated.py: NumPy behind CuPy's
API, arrays that refuse implicit host conversion) and, for the tests parametrized over
cuda_twin.BACKENDS, on CuPy where a CUDA GPU is present (marked `cuda`). Every GPU result is
checked against the same program run on the CPU alone.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import engine as tf
from engine import kernels
from engine.runtime import observers
from engine.framework import errors
from engine.kernels.cuda import backend
from engine.proto.rewriter_config_pb2 import RewriterConfig
from engine.runtime.step_stats import STREAM_ALL
from tests.engine.cuda_twin import BACKENDS, gpu_backend

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"
GPU_CONFIG = dict(device_count={"GPU": 1})
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
X = np.array([[1, 2, 3], [4, 5, 6], [-1, 0, 1], [0.5, 0.25, 2]], np.float32)


@pytest.fixture
def simulated_gpu():
    with backend.simulated_gpus(1) as current:
        yield current


@pytest.fixture
def no_gpu():
    previous = backend.use(None)
    try:
        yield
    finally:
        backend.use(previous)


def _model(device):
    """A tiny regression: matmul, add, a reduction, two variables and a gradient step."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [4, 3], name="x")
        with tf.device(device):
            w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 10, name="w")
            b = tf.Variable(np.ones(2, np.float32), name="b")
            y = tf.add(tf.matmul(x, w), b, name="y")
            loss = tf.reduce_sum(tf.square(y), name="loss")
            train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
        init = tf.global_variables_initializer()
    return graph, dict(x=x, w=w, b=b, y=y, loss=loss, train=train, init=init)


def _train(device, config=None, steps=3):
    graph, t = _model(device)
    with tf.Session(graph=graph, config=tf.ConfigProto(**(config or {}))) as sess:
        sess.run(t["init"])
        runs = [sess.run([t["y"], t["loss"], t["train"]], {t["x"]: X}) for _ in range(steps)]
        final = sess.run([t["w"], t["b"]])
    return runs, final


def _assert_host(value):
    assert not backend.is_device_array(value), type(value)
    assert isinstance(value, (np.ndarray, np.generic)), type(value)


def _assert_same_runs(got, want):
    (got_runs, got_final), (want_runs, want_final) = got, want
    for got_run, want_run in zip(got_runs, want_runs):
        for g, w in zip(got_run[:2], want_run[:2]):
            _assert_host(g)
            np.testing.assert_allclose(g, w, rtol=1e-5)
        assert got_run[2] is None and want_run[2] is None
    for g, w in zip(got_final, want_final):
        _assert_host(g)
        np.testing.assert_allclose(g, w, rtol=1e-5)


# The main end-to-end test: on the simulated GPU, and on CuPy where there is a GPU -----------

@pytest.mark.parametrize("backend_name", BACKENDS)
def test_training_on_gpu_fetches_what_the_cpu_computes(backend_name):
    with gpu_backend(backend_name):
        on_gpu = _train("/gpu:0", GPU_CONFIG)
    on_cpu = _train("/cpu:0")
    _assert_same_runs(on_gpu, on_cpu)


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_gpu_partition_holds_device_arrays_and_the_client_host_ones(backend_name):
    """What each executor's nodes output: device arrays on the GPU, but int32 tensors, which
    TensorFlow's GPU kernels keep in host memory (HostMemory int32 registrations); NumPy on
    the CPU."""
    seen = {}

    class Types:
        def __init__(self, device):
            self.device = device


        def node_finished(self, node, outputs, info=None):
            for value in outputs:
                value = getattr(value, "value", value)  # a ref variable's buffer
                if value is not None and getattr(value, "dtype", None) != object \
                        and hasattr(value, "dtype"):
                    seen.setdefault(self.device, set()).add(
                        (str(value.dtype) == "int32", backend.is_device_array(value)))

    with gpu_backend(backend_name):
        graph, t = _model("/gpu:0")
        with tf.Session(graph=graph, config=tf.ConfigProto(**GPU_CONFIG)) as sess:
            sess.run(t["init"])
            with observers.observe_runs(
                    lambda device, step, plan: observers.Tee([Types(device)])):
                loss, _ = sess.run([t["loss"], t["train"]], {t["x"]: X})
    _assert_host(loss)
    assert seen[GPU0] == {(False, True), (True, False)}  # int32 on the host, the rest not
    assert {on_device for _, on_device in seen[CPU0]} == {False}


# Partitions, placement, logging ----------------------------------------------------------------

def _traced_run(sess, fetches, feeds=None):
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE, output_partition_graphs=True)
    metadata = tf.RunMetadata()
    values = sess.run(fetches, feeds, options=options, run_metadata=metadata)
    return values, metadata


def test_partition_graphs_cut_between_cpu_and_gpu(simulated_gpu):
    graph, t = _model("/gpu:0")
    with tf.Session(graph=graph, config=tf.ConfigProto(**GPU_CONFIG)) as sess:
        sess.run(t["init"])
        _, metadata = _traced_run(sess, [t["loss"], t["train"]], {t["x"]: X})
    by_device = {g.node[0].device: g for g in metadata.partition_graphs}
    assert set(by_device) == {CPU0, GPU0}
    gpu_nodes = {n.name: n for n in by_device[GPU0].node}
    assert all(n.device == GPU0 for n in gpu_nodes.values())
    assert {"MatMul", "Sum", "ApplyGradientDescent"} <= {n.op for n in gpu_nodes.values()}
    recv = next(n for n in gpu_nodes.values() if n.op == "_Recv")  # the feed of x
    assert recv.attr["send_device"].s.decode() == CPU0
    assert recv.attr["recv_device"].s.decode() == GPU0
    assert recv.attr["client_terminated"].b is False
    send = next(n for n in gpu_nodes.values() if n.op == "_Send")  # the fetch of loss
    assert send.attr["send_device"].s.decode() == GPU0
    assert send.attr["recv_device"].s.decode() == CPU0
    assert send.attr["tensor_name"].s.decode().startswith("edge_")
    cpu_ops = [n.op for n in by_device[CPU0].node]
    assert "_Arg" in cpu_ops and "_Retval" in cpu_ops and "_Recv" in cpu_ops


def test_log_device_placement_lists_gpu0(simulated_gpu, capsys):
    graph, t = _model("/gpu:0")
    config = tf.ConfigProto(log_device_placement=True, **GPU_CONFIG)
    with tf.Session(graph=graph, config=config) as sess:
        sess.run(t["init"])
    out, err = capsys.readouterr()
    assert f"{GPU0} -> device: 0, name: simulated GPU (NumPy)" in err
    assert f"w: (VariableV2): {GPU0}" in out
    assert f"MatMul: (MatMul): {GPU0}" in out


def test_variable_ops_are_colocated_with_a_gpu_variable(simulated_gpu):
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/gpu:0"):
            v = tf.Variable(np.zeros(3, np.float32), name="v")
        with tf.device("/cpu:0"):  # a ref edge keeps the assign with its variable
            assign = tf.assign(v, [1.0, 2.0, 3.0], name="assign")
        with tf.device(None):
            doubled = tf.multiply(v, 2.0, name="doubled")
        with tf.device("/gpu:0"):
            r = tf.get_variable("r", initializer=np.full(2, 5, np.float32), use_resource=True)
            r_plus = tf.add(r, 1.0, name="r_plus")
        init = tf.global_variables_initializer()
    with tf.Session(graph=graph, config=tf.ConfigProto(**GPU_CONFIG)) as sess:
        sess.run(init)
        _, assigned = _traced_run(sess, assign)
        values, metadata = _traced_run(sess, [doubled, r_plus, v])
    assert {n.device for g in assigned.partition_graphs for n in g.node
            if n.name == "assign"} == {GPU0}
    placed = {n.name: n.device for g in metadata.partition_graphs for n in g.node}
    assert placed["v"] == placed["doubled"] == placed["r_plus"] == GPU0
    assert {n.device for g in metadata.partition_graphs for n in g.node
            if n.op in ("ReadVariableOp", "VarHandleOp")} == {GPU0}
    np.testing.assert_array_equal(values[0], [2, 4, 6])
    np.testing.assert_array_equal(values[1], [6, 6])
    np.testing.assert_array_equal(values[2], [1, 2, 3])
    for value in values:
        _assert_host(value)


def test_an_op_without_a_gpu_kernel_soft_places_on_the_cpu(simulated_gpu):
    op_type, build = _cpu_only_op()
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/gpu:0"):
            a = tf.constant([0.5, -1.0], name="a")
            out = tf.add(build(a), 1.0, name="out")
    # The optimizer off: it would fold the op of constants away before placement shows.
    config = tf.ConfigProto(allow_soft_placement=True, **GPU_CONFIG, graph_options=tf.GraphOptions(
        rewrite_options=RewriterConfig(disable_meta_optimizer=True)))
    with tf.Session(graph=graph, config=config) as sess:
        value, metadata = _traced_run(sess, out)
    placed = {n.op: n.device for g in metadata.partition_graphs for n in g.node}
    assert placed[op_type] == CPU0
    assert placed["AddV2"] == GPU0
    with tf.Session(graph=graph, config=tf.ConfigProto(allow_soft_placement=True,
                                                       device_count={"GPU": 0})) as sess:
        want = sess.run(out)
    np.testing.assert_allclose(value, want, rtol=1e-6)


def _cpu_only_op():
    for op_type, build in (("Erf", tf.erf), ("Erfc", tf.erfc)):
        if not kernels.has_kernel(op_type, "GPU"):
            return op_type, build
    pytest.skip("every candidate op has a GPU kernel now")


# Without a GPU ---------------------------------------------------------------------------------

def test_without_a_gpu_soft_placement_runs_the_program_on_the_cpu(no_gpu):
    config = dict(allow_soft_placement=True, **GPU_CONFIG)
    on_cpu = _train("/gpu:0", config)
    _assert_same_runs(on_cpu, _train("/cpu:0"))
    graph, t = _model("/gpu:0")
    with tf.Session(graph=graph, config=tf.ConfigProto(**config)) as sess:
        sess.run(t["init"])
        _, metadata = _traced_run(sess, t["loss"], {t["x"]: X})
    assert {n.device for g in metadata.partition_graphs for n in g.node} <= {CPU0, ""}
    assert [d.device for d in metadata.step_stats.dev_stats] == [CPU0]


def test_without_a_gpu_an_explicit_gpu_device_is_refused(no_gpu):
    graph, t = _model("/gpu:0")
    with tf.Session(graph=graph, config=tf.ConfigProto(**GPU_CONFIG)) as sess:
        with pytest.raises(errors.InvalidArgumentError) as caught:
            sess.run(t["init"])
    message = caught.value.message
    assert "Cannot assign a device for operation" in message
    assert "was explicitly assigned to /device:GPU:0 but available devices are " \
           f"[ {CPU0} ]" in message
    assert "The requested device appears to be a GPU, but CUDA is not enabled." in message


# Step stats ------------------------------------------------------------------------------------

def test_full_trace_has_the_gpu_its_stream_and_its_allocator(simulated_gpu):
    graph, t = _model("/gpu:0")
    with tf.Session(graph=graph, config=tf.ConfigProto(**GPU_CONFIG)) as sess:
        sess.run(t["init"])
        (loss, _), metadata = _traced_run(sess, [t["loss"], t["train"]], {t["x"]: X})
    devices = [d.device for d in metadata.step_stats.dev_stats]
    assert devices == [CPU0, GPU0, GPU0 + STREAM_ALL]
    cpu, gpu, stream = metadata.step_stats.dev_stats
    assert [s.node_name for s in cpu.node_stats][0] == "_SOURCE"
    assert all(not s.memory for s in cpu.node_stats)
    by_name = {s.node_name: s for s in gpu.node_stats}
    matmul = by_name["MatMul"]
    (output,) = matmul.output
    allocation = output.tensor_description.allocation_description
    assert allocation.allocator_name == "GPU_0_bfc"
    assert allocation.allocated_bytes == allocation.requested_bytes == 4 * 2 * 4
    (memory,) = matmul.memory
    assert memory.allocator_name == "GPU_0_bfc"
    assert memory.total_bytes >= 32 and memory.peak_bytes >= memory.total_bytes
    assert memory.allocator_bytes_in_use >= memory.live_bytes > 0
    assert not any(s.node_name.startswith(("_Send", "_Recv")) or "/_" in s.node_name
                   for s in gpu.node_stats)
    # One stream:all record per kernel the GPU executor ran, in TF's `name:Op` form.
    ran = [s for s in gpu.node_stats if s.node_name != "_SOURCE" and s.op_start_rel_nanos]
    stream_names = [s.node_name for s in stream.node_stats]
    assert "MatMul:MatMul" in stream_names
    assert len(stream_names) == len(set(stream_names)) == len(ran)
    for record in stream.node_stats:
        host = by_name[record.node_name.split(":")[0]]
        assert record.all_start_micros == record.all_start_nanos // 1000
        assert record.all_end_rel_nanos == record.op_end_rel_nanos >= 0
        # On the host clock, within the host-side span of the node that launched it.
        assert host.all_start_nanos <= record.all_start_nanos
        assert record.all_start_nanos <= host.all_start_nanos + host.all_end_rel_nanos


def test_a_gpu_trace_reads_back_as_a_timeline(simulated_gpu):
    from views.timeline import TraceRun, trace_events
    graph, t = _model("/gpu:0")
    with tf.Session(graph=graph, config=tf.ConfigProto(**GPU_CONFIG)) as sess:
        sess.run(t["init"])
        _, metadata = _traced_run(sess, [t["loss"], t["train"]], {t["x"]: X})
    events = trace_events([TraceRun.of_run_metadata(metadata, "step", step=1)])
    names = {e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "process_name"}
    assert {CPU0, GPU0, GPU0 + STREAM_ALL} <= names
    stream = next(e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"
                  and e["args"]["name"] == GPU0 + STREAM_ALL)
    # The stream's `name:Op` records read as the node and its op, as on the host lanes.
    assert any(e["ph"] == "X" and e["pid"] == stream and e["name"] == "MatMul"
               and e["args"]["op"] == "MatMul" for e in events)
    assert any(e["ph"] == "C" and "GPU_0_bfc" in e["name"] for e in events)


# Control flow, CLI -----------------------------------------------------------------------------

def _loop_graph(device):
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(device):
            start = tf.constant(np.array([1.0, 2.0], np.float32), name="start")
            _, result = tf.while_loop(lambda i, x: tf.less(i, 5),
                                      lambda i, x: (tf.add(i, 1), tf.multiply(x, 2.0)),
                                      [tf.constant(0), start])
    return graph, result


def test_a_while_loop_runs_entirely_on_the_gpu(simulated_gpu):
    graph, result = _loop_graph("/gpu:0")
    with tf.Session(graph=graph, config=tf.ConfigProto(**GPU_CONFIG)) as sess:
        value, metadata = _traced_run(sess, result)
    _assert_host(value)
    np.testing.assert_array_equal(value, [32.0, 64.0])
    placed = {n.name: (n.op, n.device) for g in metadata.partition_graphs for n in g.node}
    loop_ops = {op for op, device in placed.values() if device == GPU0}
    assert {"Enter", "Merge", "Switch", "LoopCond", "NextIteration", "Exit"} <= loop_ops
    graph, result = _loop_graph("/cpu:0")
    with tf.Session(graph=graph) as sess:
        np.testing.assert_array_equal(sess.run(result), value)


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_a_loop_placed_by_default_across_gpu_and_cpu(backend_name):
    """No tf.device: ops with a GPU kernel go to the GPU, the int32 counter's to the CPU, so
    the loop's cycle (NextIteration -> Merge) crosses partitions. Ordering the partitions'
    transfers once failed on that cycle (TypeError), on the first while_loop run with a GPU."""
    def build():
        graph = tf.Graph()
        with graph.as_default():
            x = tf.placeholder(tf.float32, shape=[2], name="x")
            _, doubled = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2.0),
                                       [tf.constant(0), x])
            result = tf.cond(tf.reduce_sum(doubled) > 0, lambda: doubled + 1.0,
                             lambda: doubled - 1.0)
        return graph, x, result

    feed = np.array([1.0, 2.0], np.float32)
    with gpu_backend(backend_name):
        graph, x, result = build()
        with tf.Session(graph=graph, config=tf.ConfigProto(**GPU_CONFIG)) as sess:
            on_gpu, metadata = sess.run(result, {x: feed}), tf.RunMetadata()
            sess.run(result, {x: feed}, options=tf.RunOptions(output_partition_graphs=True),
                     run_metadata=metadata)
    devices = {n.device for g in metadata.partition_graphs for n in g.node}
    assert GPU0 in devices and len(metadata.partition_graphs) >= 2
    np.testing.assert_array_equal(on_gpu, [9.0, 17.0])


def test_cli_runs_a_gpu_placed_graph_on_the_simulated_gpu(tmp_path):
    graph, t = _model("/device:GPU:0")
    path = tmp_path / "model.pbtxt"
    path.write_text(str(graph.as_graph_def()))
    trace = tmp_path / "trace.pbtxt"
    x_path = tmp_path / "x.npy"
    np.save(x_path, X)
    env = dict(os.environ, **{backend.SIMULATED_ENV: "1"})
    result = subprocess.run(
        [sys.executable, "-m", "inspector", "run", str(path), "--before", t["init"].name,
         "--feed", f"x:0={x_path}", "--fetch", "loss:0", "--trace", str(trace)],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    printed = result.stdout.strip()
    assert printed.startswith("loss:0 = ")
    runs, _ = _train("/cpu:0", steps=1)
    np.testing.assert_allclose(float(printed.split("= ")[1]), runs[0][1], rtol=1e-5)
    text = trace.read_text()
    assert GPU0 + STREAM_ALL in text and "GPU_0_bfc" in text


# Variables' errors and updates, as on the CPU ------------------------------------------------

def _variable_program(device):
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(device):
            v = tf.Variable(np.zeros(2, np.float32), name="v")
            r = tf.get_variable("r", initializer=np.ones(2, np.float32), use_resource=True)
            fed = tf.placeholder(tf.float32, [None], name="fed")
            assign = tf.assign(v, fed, validate_shape=True)
            add = tf.assign_add(v, [1.0, 1.0])
            r_add = r.assign_add(fed)
            read = tf.identity(v, name="read")
        init = tf.global_variables_initializer()
    return graph, dict(v=v, r=r, fed=fed, assign=assign, add=add, r_add=r_add, read=read,
                       init=init)


def _variable_outcomes(device, config=None):
    graph, t = _variable_program(device)
    outcomes = []
    with tf.Session(graph=graph, config=tf.ConfigProto(**(config or {}))) as sess:
        for fetches, feeds in ((t["read"], None), (t["init"], None),
                               (t["assign"], {t["fed"]: [3.0, 4.0]}), (t["add"], None),
                               (t["assign"], {t["fed"]: [1.0, 2.0, 3.0]}),
                               (t["r_add"], {t["fed"]: [5.0, 6.0]}),
                               ([t["v"], t["r"].value()], None)):
            try:
                outcomes.append(sess.run(fetches, feeds))
            except errors.OpError as error:
                outcomes.append((type(error), error.message.splitlines()[-2:]))
    return outcomes


def test_gpu_variables_fail_and_update_as_cpu_ones(simulated_gpu):
    on_gpu = _variable_outcomes("/gpu:0", GPU_CONFIG)
    on_cpu = _variable_outcomes("/cpu:0")
    assert on_gpu[0][0] is errors.FailedPreconditionError
    assert "Attempting to use uninitialized value v" in on_gpu[0][1][0]
    assert on_gpu[4][0] is errors.InvalidArgumentError
    assert "Assign requires shapes of both tensors to match" in on_gpu[4][1][0]
    for got, want in zip(on_gpu, on_cpu):
        if isinstance(want, tuple):
            assert got == want
        elif want is None:
            assert got is None
        else:
            for g, w in zip(got if isinstance(got, list) else [got],
                            want if isinstance(want, list) else [want]):
                _assert_host(g)
                np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(on_gpu[-1][0], [4.0, 5.0])
    np.testing.assert_array_equal(on_gpu[-1][1], [6.0, 7.0])


# Control flow, int32 and fetched variables across CPU and GPU ----------------------------------

def _control_flow_graph(body_op):
    """A cond and a while loop whose bodies apply `body_op`, and an int32 shape sum."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [4, 3], name="x")
        picked = tf.cond(tf.reduce_sum(x) > 0, lambda: body_op(x) * 2.0, lambda: x - 1.0)
        _, looped = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, body_op(v) + 1.0),
                                  [tf.constant(0), x])
        sizes = tf.shape(x) + tf.shape(picked)  # int32 arithmetic on the GPU
        total = tf.reduce_sum(picked) + tf.reduce_sum(looped) + tf.cast(
            tf.reduce_sum(sizes), tf.float32)
    return graph, x, total


def _devices_of(metadata):
    return {n.name: n.device for g in metadata.partition_graphs for n in g.node}


@pytest.mark.parametrize("body_op, where", [(tf.tanh, GPU0), (tf.erf, CPU0)])
def test_a_cond_and_a_while_loop_are_placed_whole(simulated_gpu, body_op, where):
    """Each on the GPU where all its ops have GPU kernels, else on the CPU (Erf has none):
    the partitioner cuts no control flow across devices. Values as on the CPU alone."""
    graph, x, total = _control_flow_graph(body_op)
    with tf.Session(graph=graph, config=tf.ConfigProto(**GPU_CONFIG)) as sess:
        value, metadata = _traced_run(sess, total, {x: X})
    devices = _devices_of(metadata)
    # cond/pred_id (the pred's Identity, built before the branches) is live: it may go anywhere.
    loop_and_cond = {n: d for n, d in devices.items() if n.startswith(("cond/", "while/"))
                     and "/_" not in n and n != "cond/pred_id"}
    assert loop_and_cond and set(loop_and_cond.values()) == {where}
    previous = backend.use(None)  # the same graph on the CPU alone
    try:
        graph, x, total = _control_flow_graph(body_op)
        with tf.Session(graph=graph) as sess:
            expected = sess.run(total, {x: X})
    finally:
        backend.use(previous)
    np.testing.assert_allclose(value, expected, rtol=1e-6)


def test_a_fetched_gpu_variable_shows_the_value_the_run_left(simulated_gpu):
    """A ref fetched from another device is read once the run has finished, as on one
    device: the step counter fetched with the step that increments it is the new count."""
    graph = tf.Graph()
    with graph.as_default(), tf.device("/gpu:0"):
        step = tf.Variable(np.int64(0), name="step")
        increment = tf.assign_add(step, np.int64(1))
    with tf.Session(graph=graph, config=tf.ConfigProto(**GPU_CONFIG)) as sess:
        sess.run(step.initializer)
        fetched = [sess.run([increment.op, step])[1] for _ in range(3)]
    assert fetched == [1, 2, 3]
    assert all(isinstance(v, np.integer) for v in fetched)
