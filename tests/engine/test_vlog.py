"""engine/runtime/vlog.py: TF 2.x VLOG lines from the engine, and parsers/vlog reading them back."""

import io
import os

import pytest

import engine as tf
from engine.runtime import vlog
from parsers.vlog import read_lines, read_vlog

from tests.views.tui_conftest import ROOT

ENV = ("TF_CPP_MAX_VLOG_LEVEL", "TF_CPP_MIN_VLOG_LEVEL", "TF_CPP_VMODULE")


class _Env:
    """Sets TF_CPP_* variables and has engine/vlog read them again (it reads them once)."""

    def setenv(self, name, value):
        os.environ[name] = value
        vlog.refresh()

    def delenv(self, name):
        os.environ.pop(name, None)
        vlog.refresh()


@pytest.fixture
def vlog_env():
    saved = {name: os.environ.pop(name) for name in ENV if name in os.environ}
    vlog.refresh()
    yield _Env()
    for name in ENV:
        os.environ.pop(name, None)
    os.environ.update(saved)
    vlog.refresh()


def run_counter():
    """The seed's counter: init, then read and update three times; returns what it printed."""
    graph = tf.Graph()
    with graph.as_default():
        state = tf.Variable(0, name="counter")
        update = tf.assign(state, tf.add(state, tf.constant(1)))
        init = tf.initialize_all_variables()
        with tf.Session() as sess:
            sess.run(init)
            printed = [sess.run(state)]
            for _ in range(3):
                sess.run(update)
                printed.append(sess.run(state))
    return printed


def logged(capsys):
    err = capsys.readouterr().err
    return err, read_lines(io.BytesIO(err.encode()).readlines()) if err else None


def test_settings(vlog_env):
    assert vlog.vlog_level("executor") == 0
    vlog_env.setenv("TF_CPP_MAX_VLOG_LEVEL", "2")
    assert vlog.vlog_level("executor") == vlog.vlog_level("function_utils") == 2
    vlog_env.setenv("TF_CPP_VMODULE", "exec*=1,function_utils=5")
    assert (vlog.vlog_level("executor"), vlog.vlog_level("function_utils"),
            vlog.vlog_level("placer")) == (1, 5, 2)
    vlog_env.delenv("TF_CPP_MAX_VLOG_LEVEL")
    vlog_env.setenv("TF_CPP_MIN_VLOG_LEVEL", "3")
    assert vlog.vlog_level("placer") == 3


def test_settings_are_read_once_until_refreshed(vlog_env, capsys):
    run_counter()
    os.environ["TF_CPP_MAX_VLOG_LEVEL"] = "1"  # as TensorFlow: too late for this process
    run_counter()
    assert capsys.readouterr().err == ""
    vlog.refresh()
    run_counter()
    assert "Process node: " in capsys.readouterr().err


def test_nothing_is_written_unless_asked(vlog_env, capsys):
    assert run_counter() == [0, 1, 2, 3]
    assert capsys.readouterr().err == ""


def test_executor_lines_read_back_as_executions(vlog_env, capsys, optimizer_on):
    vlog_env.setenv("TF_CPP_VMODULE", "executor=2")
    assert run_counter() == [0, 1, 2, 3]
    err, log = logged(capsys)
    assert log.unparsed_lines == 0 and not log.graphs
    assert log.steps() == [1, 2, 3, 4, 5, 6, 7, 8]
    by_step = {e.step: e for e in log.executions}
    assert [n.name for n in by_step[1].nodes] == [
        "_SOURCE", "counter/initial_value", "counter", "counter/Assign", "init"]
    update = by_step[3]
    assert {n.name: n.op for n in update.nodes} == {
        "_SOURCE": "NoOp", "Const": "Const", "counter": "VariableV2", "counter/read": "Identity",
        "Add": "AddV2", "Assign": "Assign", "_retval_Assign_0_0": "_Retval"}
    add = next(n for n in update.nodes if n.name == "Add")
    # a commutative op's inputs in Grappler's canonical (sorted) order, as TensorFlow's
    assert add.inputs == ("Const", "counter/read") and add.end_us >= add.start_us
    assert update.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert "Synchronous kernel done: " in err


def test_level_one_has_no_kernel_done_lines(vlog_env, capsys):
    vlog_env.setenv("TF_CPP_MAX_VLOG_LEVEL", "1")
    run_counter()
    err, log = logged(capsys)
    assert "Process node: " in err and "kernel done" not in err and "|| " not in err
    assert len(log.steps()) == 8


def test_graph_dumps_read_back_with_real_names(vlog_env, capsys):
    vlog_env.setenv("TF_CPP_VMODULE", "function_utils=5,executor=1")
    run_counter()
    err, log = logged(capsys)
    assert log.unparsed_lines == 0
    assert err.count("|| }") == len(log.graphs) == 3  # one per plan: init, read, update
    init = log.graphs[0]
    assert init.label == "Executor" and init.complete
    assert [(init.rename(n.name), n.op) for n in init.nodes] == [
        ("counter/initial_value", "Const"), ("counter", "VariableV2"),
        ("counter/Assign", "Assign"), ("init", "NoOp")]
    assign = init.nodes[2]
    assert [init.rename(i) for i in assign.inputs] == ["counter", "counter/initial_value"]
    assert [init.rename(c) for c in init.nodes[3].control_inputs] == ["counter/Assign"]
    assert dict(init.nodes[0].attrs)["value"] == "Tensor<type: int32 shape: [] values: 0>"
    assert dict(assign.attrs)["T"] == "int32"
    graph_def = init.graph_def()
    assert {n.op for n in graph_def.node} >= {"Const", "VariableV2", "Assign", "NoOp"}


def test_a_traced_run_writes_lines_and_step_stats(vlog_env, capsys):
    vlog_env.setenv("TF_CPP_VMODULE", "executor=2")
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, name="x")
        y = tf.square(x, name="y")
        with tf.Session() as sess:
            metadata = tf.RunMetadata()
            assert sess.run(y, {x: 3.0}, options=tf.RunOptions(
                trace_level=tf.RunOptions.FULL_TRACE), run_metadata=metadata) == 9.0
    _, log = logged(capsys)
    (execution,) = log.executions
    assert [n.name for n in execution.nodes] == [
        n.node_name for n in metadata.step_stats.dev_stats[0].node_stats]


def test_the_engine_sample_log_reads_back():
    """sample_logs/engine_counter.log (tools/make_engine_logs.py): graphs and executions."""
    path = ROOT / "sample_logs" / "engine_counter.log"
    log = read_vlog(path)
    text = path.read_text()
    assert log.unparsed_lines == text.count("\n") - sum(
        1 for line in text.splitlines() if line.startswith("I0000 "))  # the program's prints
    assert len(log.graphs) == text.count("|| () -> (") == 3
    assert [len(g.nodes) for g in log.graphs] == [4, 1, 5]
    assert all(g.real_names and g.names_from for g in log.graphs)
    assert log.steps() == list(range(1, 9))
    for execution in log.executions:
        step_lines = [line for line in text.splitlines()
                      if f"] Process node: " in line and f" step {execution.step} " in line]
        assert [n.name for n in execution.nodes] == [
            line.split("{{node ")[1].split("}}")[0] for line in step_lines]
        assert all(n.end_us is not None for n in execution.nodes)


def test_attr_values_as_tensorflow_prints_them():
    from engine.proto import attr_value_pb2, tensor_shape_pb2
    from engine.framework.tensor_util import make_tensor_proto
    import numpy as np

    shape = tensor_shape_pb2.TensorShapeProto(dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=2),
                                                   tensor_shape_pb2.TensorShapeProto.Dim(size=-1)])
    assert vlog.attr_text(attr_value_pb2.AttrValue(shape=shape)) == "[2,?]"
    tensor = make_tensor_proto(np.arange(12, dtype=np.float32))
    assert vlog.attr_text(attr_value_pb2.AttrValue(tensor=tensor)) == (
        "Tensor<type: float shape: [12] values: 0 1 2 3 4 5 6 7 8 9 ...>")
    listed = attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(type=[1, 3]))
    assert vlog.attr_text(listed, "dump") == "[float, int32]"
    assert vlog.attr_text(listed, "executor") == "[DT_FLOAT, DT_INT32]"
    assert vlog.attr_text(attr_value_pb2.AttrValue(s=b"a\nb\x01")) == '"a\\nb\\001"'



def test_attr_values_print_floats_and_long_strings_as_tensorflow():
    # TensorFlow 2.21's own executor lines (TF_CPP_VMODULE=executor=1) for LeakyRelu with
    # alpha=0.123456789 and 1e-7, and StringFormat with template 'a{}' + 'b' * 100 + '\n':
    # `alpha=0.123456791`, `alpha=1e-07`, `template="a{}bbbbbbb...bbbbbbbb\n"`.
    from engine.proto import attr_value_pb2

    assert vlog.attr_text(attr_value_pb2.AttrValue(f=0.123456789)) == "0.123456791"
    assert vlog.attr_text(attr_value_pb2.AttrValue(f=1e-7)) == "1e-07"
    template = ("a{}" + "b" * 100 + "\n").encode()
    assert vlog.attr_text(attr_value_pb2.AttrValue(s=template)) == '"a{}bbbbbbb...bbbbbbbb\\n"'
