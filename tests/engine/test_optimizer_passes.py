"""Each optimizer pass on its own: the rewrite it promises happens, values stay the same.

Every graph here is run by the engine unoptimized and optimized (the pass alone); the
fetched values must agree (exactly for integers), and the optimized GraphDef must show the
rewrite.
"""

import numpy as np
import pytest

import engine as tf
from engine import optimizer
from engine.proto.rewriter_config_pb2 import RewriterConfig


# these tests are about the optimizer
pytestmark = pytest.mark.usefixtures("optimizer_on")


OFF = tf.ConfigProto(graph_options=tf.GraphOptions(
    rewrite_options=RewriterConfig(disable_meta_optimizer=True)))


def run_graph_def(graph_def, fetches, feeds):
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    with tf.Session(graph=graph, config=OFF) as sess:
        return sess.run(fetches, feeds)


def optimized(graph, passes, fetches, feeds=()):
    graph_def = graph.as_graph_def()
    result = optimizer.optimize(graph_def, fetches=fetches, feeds=feeds, passes=passes,
                                rewrite_options=RewriterConfig(min_graph_nodes=-1))
    return graph_def, result


def same_values(before, after, fetches, feeds):
    for got, want in zip(run_graph_def(after, fetches, feeds),
                         run_graph_def(before, fetches, feeds)):
        got, want = np.asarray(got), np.asarray(want)
        assert got.dtype == want.dtype and got.shape == want.shape
        if want.dtype.kind in "fc":
            np.testing.assert_allclose(got, want, rtol=1e-6)
        else:
            np.testing.assert_array_equal(got, want)


def ops(graph_def):
    return {n.name: n.op for n in graph_def.node}


def test_common_subgraph_elimination_merges_commutative_twins_not_random_ones():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.int32, [3], name="x")
        y = tf.placeholder(tf.int32, [3], name="y")
        a = tf.add(x, y, name="a")
        b = tf.add(y, x, name="b")
        r1 = tf.random_uniform([3], seed=1, name="r1")
        r2 = tf.random_uniform([3], seed=1, name="r2")
        out = tf.multiply(a, b, name="out")
        noise = tf.subtract(r1, r2, name="noise")
    before, result = optimized(graph, ["common_subgraph_elimination"], ["out", "noise"])
    after = ops(result.graph_def)
    assert "b" not in after and "a" in after  # the later twin goes
    assert "r1/RandomUniform" in after and "r2/RandomUniform" in after
    same_values(before, result.graph_def, ["out:0"], {"x:0": [1, 2, 3], "y:0": [4, 5, 6]})


def test_constant_folding_respects_the_size_limit():
    graph = tf.Graph()
    with graph.as_default():
        small = tf.add(tf.zeros([4]), 1.0, name="small")
        big = tf.add(tf.zeros([2000, 2000]), 1.0, name="big")  # 16 MB of float32
    _, result = optimized(graph, ["constant_folding"], ["small", "big"])
    after = ops(result.graph_def)
    assert after["small"] == "Const" and after["big"] == "AddV2"


def test_arithmetic_removes_casts_transposes_and_negations_that_cancel():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.int32, [2, 3], name="x")
        back = tf.cast(tf.cast(x, tf.int64, name="wide"), tf.int32, name="back")
        lossy = tf.cast(tf.cast(x, tf.int8, name="narrow"), tf.int32, name="lossy")
        turned = tf.transpose(tf.transpose(x, name="t0"), name="t1")
        negated = tf.negative(tf.negative(x, name="n0"), name="n1")
        out = tf.add_n([back, lossy, turned, negated], name="out")
    before, result = optimized(graph, ["arithmetic_optimization"], ["out"], ["x"])
    after = ops(result.graph_def)
    assert after["back"] == after["t1"] == after["n1"] == "Identity"
    assert after["lossy"] == "Cast"  # int8 loses values: not removed
    assert not {"wide", "t0", "n0"} & set(after)
    same_values(before, result.graph_def, ["out:0"],
                {"x:0": [[1, 200, -3], [4, 5, 300]]})


def test_mul_by_itself_becomes_square_named_as_tensorflow_names_it():
    """TensorFlow 2.21's partition graph of this program, node for node (name, op, inputs):
    a kept (fetched) Mul stays, a control reader of a squared Mul waits for the Square."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [4], name="x")
        with tf.name_scope("scope"):
            square = tf.multiply(x, x, name="mul")
        z = tf.add(square, 1.0, name="z")
        fetched = tf.multiply(x, x, name="fetched_mul")
        i = tf.placeholder(tf.int32, [4], name="i")
        total = tf.multiply(i, i, name="imul") + 1
        with tf.control_dependencies([square]):
            after = tf.identity(x, name="after")
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.remapping = RewriterConfig.OFF
    with tf.Session(graph=graph, config=config) as sess:
        metadata = tf.RunMetadata()
        values = sess.run([z, fetched, total, after], {x: [1, 2, 3, 4], i: [1, 2, 3, 4]},
                          options=tf.RunOptions(output_partition_graphs=True),
                          run_metadata=metadata)
    assert [v.tolist() for v in values] == [[2, 5, 10, 17], [1, 4, 9, 16], [2, 5, 10, 17],
                                            [1, 2, 3, 4]]
    square_x, square_i = ("scope/ArithmeticOptimizer/ReplaceMulWithSquare_mul",
                          "ArithmeticOptimizer/ReplaceMulWithSquare_imul")
    assert sorted((n.name, n.op, tuple(n.input))
                  for g in metadata.partition_graphs for n in g.node) == [
        (square_i, "Square", ("_arg_i_0_0",)), ("_arg_i_0_0", "_Arg", ()),
        ("_arg_x_0_1", "_Arg", ()), ("_retval_add_0_0", "_Retval", ("add",)),
        ("_retval_after_0_1", "_Retval", ("after",)),
        ("_retval_fetched_mul_0_2", "_Retval", ("fetched_mul",)),
        ("_retval_z_0_3", "_Retval", ("z",)), ("add", "AddV2", (square_i, "add/y")),
        ("add/y", "Const", ()), ("after", "Identity", ("_arg_x_0_1", "^" + square_x)),
        ("fetched_mul", "Mul", ("_arg_x_0_1", "_arg_x_0_1")),
        (square_x, "Square", ("_arg_x_0_1",)), ("z", "AddV2", (square_x, "z/y")),
        ("z/y", "Const", ())]


def test_pow_by_constants_and_canonical_input_order_as_tensorflow():
    """TensorFlow 2.21's partition graph of this program, node for node: ConvertPow (2, 3,
    0.5, -0.5, -1; 4 stays a Pow), the exponent constants gone with their control edges, the
    Square of x*x merged with Pow(x, 2)'s, and commutative inputs sorted."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [4], name="x")
        powers = [("p2", 2.0), ("p3", 3.0), ("ph", 0.5), ("pmh", -0.5), ("pm1", -1.0),
                  ("p4", 4.0)]
        outs = [tf.add(tf.pow(x, e, name=n), 10.0 + k, name="out_" + n)
                for k, (n, e) in enumerate(powers)]
        outs.append(tf.add(7.0, tf.multiply(x, x, name="sq"), name="out_sq"))
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.remapping = RewriterConfig.OFF
    with tf.Session(graph=graph, config=config) as sess:
        metadata = tf.RunMetadata()
        values = sess.run(outs, {x: [1.0, 4.0, 9.0, 0.25]},
                          options=tf.RunOptions(output_partition_graphs=True),
                          run_metadata=metadata)
    np.testing.assert_array_equal(values, np.float32([  # TensorFlow's values
        [11, 26, 91, 10.0625], [12, 75, 740, 11.015625], [13, 14, 15, 12.5],
        [14, 13.5, 13.333333015441895, 15], [15, 14.25, 14.11111068725586, 18],
        [16, 271, 6576, 15.00390625], [8, 23, 88, 7.0625]]))
    got = sorted((n.name, n.op, tuple(n.input)) for g in metadata.partition_graphs for n in g.node)
    arg = "_arg_x_0_0"
    retvals = [(f"_retval_out_{n}_0_{k}", "_Retval", (f"out_{n}",))
               for k, n in enumerate(["p2", "p3", "p4", "ph", "pm1", "pmh", "sq"])]
    adds = [(f"out_{n}", "AddV2", (f"out_{n}/y", n)) for n in ["p2", "p3", "p4", "ph", "pm1", "pmh"]]
    consts = [(f"out_{n}/y", "Const", ()) for n in ["p2", "p3", "p4", "ph", "pm1", "pmh"]]
    assert got == sorted([(arg, "_Arg", ())] + retvals + adds + consts + [
        ("out_sq", "AddV2", ("out_sq/x", "p2")), ("out_sq/x", "Const", ()),
        ("p2", "Square", (arg,)), ("p3", "Mul", ("p2", arg)),
        ("p4", "Pow", (arg, "p4/y")), ("p4/y", "Const", ()), ("ph", "Sqrt", (arg,)),
        ("pm1", "Reciprocal", (arg,)), ("pmh", "Rsqrt", (arg,))])


def test_dependency_optimization_bypasses_identity_and_noop_and_keeps_effects():
    graph = tf.Graph()
    with graph.as_default():
        v = tf.Variable(0, name="v")
        x = tf.placeholder(tf.int32, [], name="x")
        bump = tf.assign_add(v, 1, name="bump")
        with tf.control_dependencies([bump]):
            gate = tf.no_op(name="gate")
        with tf.control_dependencies([gate]):
            y = tf.identity(tf.identity(x, name="inner") * 2, name="y")
        tf.identity(v.op.outputs[0], name="read")  # reads the reference
    graph_def = graph.as_graph_def()
    result = optimizer.optimize(graph_def, fetches=["y"], feeds=["x"],
                                passes=["dependency_optimization"])
    after = {n.name: n for n in result.graph_def.node}
    assert "inner" not in after and "gate" not in after
    assert "read" in after  # an Identity of a variable's reference stays
    # the NoOp's control input moved to what it gated: mul's constant (made under the same
    # control_dependencies) waits for bump, and so mul does, through it (the direct edge
    # bump -> mul is then redundant: transitive reduction drops it)
    assert "^bump" in after["mul/y"].input and "mul/y" in after["mul"].input
    assert "^bump" not in after["mul"].input
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(result.graph_def, name="")
    with tf.Session(graph=g2, config=OFF) as sess:
        sess.run("v/Assign")
        assert sess.run("y:0", {"x:0": 5}) == 10
        assert sess.run("v:0") == 1  # the control dependency still ran bump


@pytest.mark.parametrize("predicate", [True, False])
def test_dead_branch_removal_keeps_the_live_branch(predicate):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        with tf.control_dependencies(None):
            flag = tf.constant(predicate, name="flag")
        out = tf.cond(flag, lambda: tf.sqrt(x), lambda: tf.exp(x), name="c")
        y = tf.multiply(out, 3.0, name="y")
    before = graph.as_graph_def()
    result = optimizer.optimize(before, fetches=["y"], feeds=["x"])
    kinds = {n.op for n in result.graph_def.node}
    # what remapping fused still counts: the ops inside each _FusedElementwise
    kinds |= {op.decode() for n in result.graph_def.node if "fused_ops" in n.attr
              for op in n.attr["fused_ops"].list.s}
    assert "Switch" not in kinds and "Merge" not in kinds
    assert ("Sqrt" in kinds) == predicate and ("Exp" in kinds) != predicate
    same_values(before, result.graph_def, ["y:0"], {"x:0": [4.0, 9.0]})


def test_model_pruning_drops_what_the_fetches_do_not_need():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        tf.sin(x, name="unused")
        tf.cos(x, name="wanted")
    _, result = optimized(graph, ["pruning"], ["wanted"])
    assert set(ops(result.graph_def)) == {"x", "wanted"}


def test_gradients_nobody_applies_are_pruned_as_tensorflow_prunes_them():
    """The classic linear regression's training step. tf.gradients builds both gradients of
    Pow, Sub, Mul and RealDiv and joins each pair in a tuple (group_deps); only the ones
    reaching a variable are applied. TensorFlow 2.21's partition graph of the step holds none
    of the others (tools/partition_diff.py on tests/programs/linear_regression.py): the
    dependency optimizer makes what is only waited on a NoOp and drops it."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder("float", name="X")
        y = tf.placeholder("float", name="Y")
        w = tf.Variable([0.5], name="weight")
        b = tf.Variable([0.1], name="bias")
        cost = tf.reduce_sum(tf.pow(tf.add(tf.multiply(x, w), b) - y, 2)) / 34
        train = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
        init = tf.global_variables_initializer()
    with tf.Session(graph=graph) as sess:
        sess.run(init)
        metadata = tf.RunMetadata()
        sess.run(train, {x: 2.0, y: 1.5}, options=tf.RunOptions(output_partition_graphs=True),
                 run_metadata=metadata)
        assert sess.run(w)[0] == pytest.approx(0.5 - 0.01 * 2 * (2.0 * 0.5 + 0.1 - 1.5) * 2 / 34)
    names = {n.name for g in metadata.partition_graphs for n in g.node}
    dead = {"gradients/Pow_grad/" + n for n in ("Greater", "Log", "Select", "Select_1",
                                                "mul_2", "mul_3", "Sum_1", "Reshape_1")}
    dead |= {"gradients/sub_grad/Neg", "gradients/sub_grad/Sum_1", "gradients/Mul_grad/Mul",
             "gradients/Mul_grad/Sum", "gradients/truediv_grad/Neg",
             "gradients/truediv_grad/RealDiv_1", "gradients/truediv_grad/RealDiv_2"}
    assert not dead & names
    assert {"gradients/Pow_grad/Pow", "gradients/Mul_grad/Mul_1",
            "GradientDescent/update_weight/ApplyGradientDescent",
            "GradientDescent/update_bias/ApplyGradientDescent"} <= names


def test_a_cond_in_map_fn_keeps_its_branch_constant_in_the_loop():
    # tf.cond inside tf.map_fn: the cond's Switch of its predicate on itself is simplified
    # once, as TensorFlow's SimplifySwitch decides (exactly two readers, one not an Identity
    # read only as a control input); a second pass had rewired its own anchor to wait on
    # itself, and the branch's constant (`mul/y`) lost its frame: "Retval[0] does not have
    # value".
    x = np.arange(6, dtype=np.float32).reshape(3, 2) / 6
    graph = tf.Graph()
    with graph.as_default():
        rows = tf.placeholder(tf.float32, [3, 2])
        out = tf.map_fn(lambda r: tf.cond(r[0] < 0.5, lambda: r * 2, lambda: r), rows)
        result = optimizer.optimize(graph.as_graph_def(), fetches=[out.name],
                                    feeds=[rows.name])
        for node in result.graph_def.node:
            assert "^" + node.name not in node.input, f"{node.name} waits on itself"
        with tf.Session(graph=graph) as sess:
            got = sess.run(out, {rows: x})
    np.testing.assert_array_equal(got, np.where(x[:, :1] < 0.5, x * 2, x))
