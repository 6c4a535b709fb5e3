"""The plan and executor over hand-built nodes with stand-in kernels (no graph module needed)."""

import numpy as np
import pytest

from engine.runtime import plan as plan_lib
from engine.framework import dtypes, errors
from engine.runtime.executor import Executor
from engine.runtime.plan import NodeInfo
from engine.proto import node_def_pb2
from engine.runtime.resources import Ref, ResourceMgr
from engine.runtime.step_stats import StepStatsCollector


class FakeContext:
    def __init__(self, node_def, output_dtypes, resources, device="", rng_factory=None,
                 session_state=None):
        self.name, self.node_def, self.resources = node_def.name, node_def, resources
        self.output_dtypes, self.step_id = output_dtypes, 0


def _const(ctx):
    return np.float32(ctx.node_def.attr["value"].f)


def _placeholder(ctx):
    raise errors.InvalidArgumentError(
        None, None, f"You must feed a value for placeholder tensor '{ctx.name}' with dtype float")


def _variable(ctx):
    return ctx.resources.ref(ctx.name, dtypes.float32)


def _assign(ctx, ref, value):
    ref.value = np.asarray(value)
    return ref


KERNELS = {
    "Const": _const, "Placeholder": _placeholder, "AddV2": lambda ctx, a, b: np.add(a, b),
    "Square": lambda ctx, x: np.square(x), "NoOp": lambda ctx: None,
    "Identity": lambda ctx, x: x, "VariableV2": _variable, "Assign": _assign,
    "Split2": lambda ctx, x: (x, -x),
}
REF_ARGS = {"Assign": (True, False)}


def lookup(op_type, device_type="CPU"):
    return KERNELS.get(op_type)


def node(name, op, *inputs, dtype=dtypes.float32, outputs=1, value=None):
    node_def = node_def_pb2.NodeDef(name=name, op=op, input=inputs)
    if value is not None:
        node_def.attr["value"].f = value
    data = [i for i in inputs if not i.startswith("^")]
    control = [i[1:] for i in inputs if i.startswith("^")]
    edges = [plan_lib.parse_tensor_name(i) for i in data]
    return NodeInfo(name, op, node_def, edges, control, [dtype] * outputs,
                    REF_ARGS.get(op, (False,) * len(data)), is_stateful=op == "VariableV2")


def graph(*infos):
    return {info.name: info for info in infos}, [info.name for info in infos]


def make(nodes_order, feeds=(), fetches=(), targets=(), resources=None):
    nodes, order = nodes_order
    plan = plan_lib.build(nodes, order, list(feeds), list(fetches), list(targets))
    return plan, Executor(plan, resources or ResourceMgr(), make_context=FakeContext,
                          kernel_lookup=lookup)


def chain():
    return graph(node("x", "Placeholder"), node("one", "Const", value=1.0),
                 node("y", "AddV2", "x", "one"), node("z", "Square", "y"),
                 node("unused", "Square", "one"))


def test_feed_fetch_and_pruning():
    plan, executor = make(chain(), feeds=["x:0"], fetches=["z:0"])
    assert [n.name for n in plan.kernel_nodes] == ["one", "y", "z"]
    assert executor.run([np.float32(2.0)]) == [9.0]
    assert executor.run([np.float32(3.0)]) == [16.0]


def test_feeding_an_inner_tensor_cuts_the_graph():
    plan, executor = make(chain(), feeds=["y:0"], fetches=["z:0"])
    assert [n.name for n in plan.kernel_nodes] == ["z"]
    assert executor.run([np.float32(5.0)]) == [25.0]
    assert plan.nodes[-2].timeline_label == "_arg_y_0_0 = _Arg()"
    assert plan.nodes[0].timeline_label == "z = Square(_arg_y_0_0)"


def test_fetches_are_numbered_in_sorted_order_and_a_fed_fetch_is_returned_as_fed():
    plan, executor = make(chain(), feeds=["x:0"], fetches=["z:0", "y:0", "x:0"])
    assert sorted(plan.retvals) == ["_retval_x_0_0", "_retval_y_0_1", "_retval_z_0_2"]
    fed = np.array(2.0, dtype=np.float32)
    x, y, z = executor.run([fed])
    assert x is fed and y == 3.0 and z == 9.0


def test_missing_feed_names_the_node():
    _, executor = make(chain(), fetches=["z:0"])
    with pytest.raises(errors.InvalidArgumentError) as caught:
        executor.run([])
    assert caught.value.message.startswith("Graph execution error:")
    assert "You must feed a value for placeholder tensor 'x'" in caught.value.message
    assert caught.value.message.endswith("[[{{node x}}]]")
    assert caught.value.node_def.name == "x"


def test_values_are_freed_after_their_last_use():
    plan, _ = make(chain(), feeds=["x:0"], fetches=["z:0"])
    position = {n.name: i for i, n in enumerate(plan.nodes)}
    y_slot = plan.nodes[position["y"]].output_slots[0]
    assert y_slot in plan.frees[position["z"]]
    assert plan.fetch_slots["z:0"] not in sum(plan.frees.values(), ())


def test_control_inputs_run_first_and_targets_return_nothing():
    nodes = graph(node("v", "VariableV2"), node("c", "Const", value=7.0),
                  node("init", "Assign", "v", "c"), node("after", "NoOp", "^init"))
    resources = ResourceMgr()
    plan, executor = make(nodes, targets=["after"], resources=resources)
    assert [n.name for n in plan.kernel_nodes][-1] == "after"
    assert executor.run([]) == []
    assert resources.refs["v"].value == 7.0


def test_ref_outputs_are_read_by_non_ref_consumers():
    nodes = graph(node("v", "VariableV2", dtype=dtypes.float32_ref),
                  node("read", "Identity", "v"))
    resources = ResourceMgr()
    _, executor = make(nodes, fetches=["read:0"], resources=resources)
    with pytest.raises(errors.FailedPreconditionError) as caught:
        executor.run([])
    assert "Attempting to use uninitialized value v" in caught.value.message
    assert caught.value.node_def.name == "read"
    resources.refs["v"].value = np.float32(4.0)
    assert executor.run([]) == [4.0]
    _, fetch_ref = make(nodes, fetches=["v:0"], resources=resources)
    assert fetch_ref.run([]) == [4.0]


def test_uninitialized_ref_fetch_fails_at_the_retval():
    nodes = graph(node("v", "VariableV2", dtype=dtypes.float32_ref))
    _, executor = make(nodes, fetches=["v:0"])
    with pytest.raises(errors.FailedPreconditionError) as caught:
        executor.run([])
    assert caught.value.message.endswith("[[{{node _retval_v_0_0}}]]")


def test_multiple_outputs():
    nodes = graph(node("c", "Const", value=2.0), node("s", "Split2", "c", outputs=2),
                  node("t", "AddV2", "s", "s:1"))
    _, executor = make(nodes, fetches=["s:1", "t:0"])
    assert executor.run([]) == [-2.0, 0.0]


def test_unknown_kernel_is_not_found():
    nodes = graph(node("w", "Wibble"))
    with pytest.raises(errors.NotFoundError, match="No OpKernel was registered to support "
                                                   "Op 'Wibble'"):
        make(nodes, targets=["w"])


def test_a_bfloat16_tensor_is_refused_naming_its_node_when_the_plan_is_made():
    """NumPy has no bfloat16: a node making one is UnimplementedError before anything runs
    (a Cast to bfloat16 was an InternalError `KeyError: 14`, or a traceback out of the
    elementwise chains' fusing); tests/inspector/test_tf2_models.py runs a SavedModel so."""
    import engine as tf
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2])
        y = tf.cast(tf.cast(x, tf.bfloat16), tf.float32) * 2.0
        with tf.Session() as sess, pytest.raises(tf.errors.UnimplementedError) as caught:
            sess.run(y, {x: [1.5, 2.0]})
    assert caught.value.node_name == "Cast"
    assert "Cast makes a bfloat16 tensor, a dtype the engine does not hold" in str(caught.value)


def test_traced_run_matches_tensorflows_order_and_fields():
    plan, executor = make(chain(), feeds=["x:0"], fetches=["z:0"])
    collector = StepStatsCollector(plan.device)
    assert executor.run_traced([np.float32(2.0)], collector) == [9.0]
    stats = collector.dev_stats.node_stats
    # TensorFlow 2.21: _SOURCE, c, _arg_x_0_0, y, z, _retval_z_0_0 for this graph.
    assert [s.node_name for s in stats] == ["_SOURCE", "one", "_arg_x_0_0", "y", "z",
                                            "_retval_z_0_0"]
    assert stats[3].timeline_label == "y = AddV2(_arg_x_0_0, one)"
    assert stats[3].output[0].tensor_description.allocation_description.requested_bytes == 4
    assert stats[1].memory_stats.persistent_memory_size == 4
    assert not stats[5].output
    for s in stats:
        assert s.all_start_micros == s.all_start_nanos // 1000
        assert s.op_start_rel_nanos <= s.op_end_rel_nanos <= s.all_end_rel_nanos
        assert s.scheduled_nanos <= s.all_start_nanos


def test_inexpensive_nodes_run_before_expensive_ones_made_ready_with_them():
    # TensorFlow 2.21 ran: _SOURCE, _arg_s/a_0_0, _arg_s/x_0_1, v, v/read, y, _retval_y_0_1,
    # z, _retval_z_0_2, w, _retval_w_0_0.
    nodes = graph(node("s/x", "Placeholder"), node("s/a", "Placeholder"),
                  node("v", "VariableV2", dtype=dtypes.float32_ref),
                  node("v/read", "Identity", "v"), node("y", "AddV2", "s/x", "v/read"),
                  node("z", "Square", "y"), node("w", "AddV2", "z", "s/a"))
    resources = ResourceMgr()
    resources.ref("v", dtypes.float32).value = np.float32(1.0)
    plan, _ = make(nodes, feeds=["s/x:0", "s/a:0"], fetches=["w:0", "z:0", "y:0"],
                   resources=resources)
    assert [plan.nodes[i].name for i in plan.order] == [
        "_arg_s/a_0_0", "_arg_s/x_0_1", "v", "v/read", "y", "_retval_y_0_1", "z",
        "_retval_z_0_2", "w", "_retval_w_0_0"]


def test_partition_graph_has_args_and_retvals():
    plan, _ = make(chain(), feeds=["x:0"], fetches=["z:0"])
    graph_def = plan.partition_graph()
    assert [(n.name, n.op, list(n.input)) for n in graph_def.node] == [
        ("one", "Const", []), ("y", "AddV2", ["_arg_x_0_0", "one"]), ("z", "Square", ["y"]),
        ("_arg_x_0_0", "_Arg", []), ("_retval_z_0_0", "_Retval", ["z"])]
    assert all(n.device == plan_lib.CPU0 for n in graph_def.node)
    assert graph_def.node[3].attr["index"].i == 0


def test_ref_value_isolation_on_fetch():
    nodes = graph(node("v", "VariableV2", dtype=dtypes.float32_ref))
    resources = ResourceMgr()
    ref = resources.ref("v", dtypes.float32)
    ref.value = np.array([1.0], dtype=np.float32)
    _, executor = make(nodes, fetches=["v:0"], resources=resources)
    (value,) = executor.run([])
    ref.value[0] = 5.0
    assert value[0] == 1.0 and isinstance(ref, Ref)


def test_debug_checks_catch_a_kernel_returning_the_wrong_dtype(monkeypatch):
    from engine.runtime import executor as executor_module
    monkeypatch.setattr(executor_module, "DEBUG_CHECKS", True)
    monkeypatch.setitem(KERNELS, "Square", lambda ctx, x: np.square(x).astype(np.float64))
    _, executor = make(chain(), feeds=["x:0"], fetches=["z:0"])
    with pytest.raises(errors.InternalError, match="produced float64 where the graph has "
                                                   "float32"):
        executor.run([np.float32(2.0)])


def test_a_node_error_carries_node_op_and_kernel_message_as_fields():
    import engine as tf
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, name="x")
        y = tf.add(x, tf.constant([1.0, 2.0, 3.0]), name="sum")
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError) as caught:
            sess.run(y, {x: [1.0, 2.0]})
    error = caught.value
    assert (error.node_name, error.op_type) == ("sum", "AddV2")
    assert error.kernel_message == "Incompatible shapes: [2] vs. [3]"
    assert error.message.startswith("Graph execution error:")
    assert error.message.endswith("\t [[{{node sum}}]]")
