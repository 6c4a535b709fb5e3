"""The TF 1.x initializers (he/lecun, orthogonal, identity, uniform_unit_scaling) and the small
core names (tf.op_scope, variable_op_scope, no_regularizer, numpy_function, assert_near,
assert_same_float_dtype, assert_proper_iterable, UnconnectedGradients, VariableAggregation,
VariableSynchronization, the v1 switches, is_symbolic_tensor, log device placement), built
and run the same way by real TensorFlow and the engine. Each case gives JSON: float32 values
as Python floats (exact), node lists, errors as [class, message].
tools/make_core_misc_fixtures.py writes TensorFlow's to tests/fixtures/core_misc/cases.json.gz;
tests/engine/test_core_misc.py compares the engine's."""

import os
import tempfile

import numpy as np


def _nodes(graph):
    return [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]


def _error(call):
    try:
        call()
    except Exception as error:  # noqa: BLE001  (the class is what is compared)
        return [type(error).__name__, _without_stacks(str(error))]
    return None


def _without_stacks(message):
    """A run error's first line and its lines from "Node:" to the next blank line: the
    Python stacks around them name each side's own files."""
    lines = message.split("\n")
    if "Node:" not in message:
        return message
    start = next(i for i, line in enumerate(lines) if line.startswith("Node:"))
    end = lines.index("", start) if "" in lines[start:] else len(lines)
    return "\n".join(lines[:1] + lines[start:end])


def _initialized(tf, build):
    """Values and nodes of the variables `build(tf)` makes in a seeded graph."""
    with tf.Graph().as_default() as graph:
        tf.set_random_seed(7)
        variables = build(tf)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = {v.op.name: np.asarray(sess.run(v)).tolist() for v in variables}
        return {"values": values, "shapes": {v.op.name: v.shape.as_list() for v in variables},
                "nodes": _nodes(graph)}


def variance_scaling_family(tf):
    def build(tf):
        init = tf.initializers
        return [tf.get_variable("he_normal", [4, 6], initializer=init.he_normal(seed=1)),
                tf.get_variable("he_uniform", [3, 3, 2, 5], initializer=init.he_uniform(seed=2)),
                tf.get_variable("lecun_normal", [5, 3], initializer=init.lecun_normal(seed=3)),
                tf.get_variable("lecun_uniform", [7], initializer=init.lecun_uniform()),
                tf.get_variable("he_double", [3, 2], tf.float64, init.he_normal(seed=4))]
    return _initialized(tf, build)


def uniform_unit_scaling(tf):
    def build(tf):
        return [tf.get_variable("u", [4, 5], initializer=tf.uniform_unit_scaling_initializer(
                    factor=1.43, seed=5)),
                tf.get_variable("conv", [2, 2, 3, 4],
                                initializer=tf.initializers.uniform_unit_scaling(seed=6)),
                tf.get_variable("vector", [6], initializer=tf.uniform_unit_scaling_initializer())]
    return _initialized(tf, build)


def orthogonal(tf):
    def build(tf):
        return [tf.get_variable("tall", [5, 3], initializer=tf.orthogonal_initializer(seed=8)),
                tf.get_variable("wide", [3, 5], initializer=tf.orthogonal_initializer(
                    gain=2.0, seed=9)),
                tf.get_variable("conv", [2, 2, 3, 4],
                                initializer=tf.initializers.orthogonal(seed=10)),
                tf.get_variable("square_unseeded", [4, 4],
                                initializer=tf.initializers.orthogonal())]
    return _initialized(tf, build)


def identity(tf):
    def build(tf):
        return [tf.get_variable("eye", [3, 4], initializer=tf.initializers.identity(gain=0.5)),
                tf.get_variable("eye64", [2, 2], tf.float64, tf.initializers.identity())]
    return _initialized(tf, build)


def initializer_errors(tf):
    with tf.Graph().as_default():
        return {
            "orthogonal_rank_1": _error(lambda: tf.orthogonal_initializer()([3])),
            "identity_rank_3": _error(lambda: tf.initializers.identity()([2, 2, 2])),
            "orthogonal_int": _error(lambda: tf.orthogonal_initializer(dtype=tf.int32)),
            "identity_int": _error(lambda: tf.initializers.identity(dtype=tf.int32)),
            "unit_scaling_int": _error(lambda: tf.uniform_unit_scaling_initializer(
                dtype=tf.int32)),
            "configs": [tf.orthogonal_initializer(2.0, 3).get_config(),
                        tf.initializers.identity(0.5).get_config(),
                        tf.uniform_unit_scaling_initializer(1.5, 4).get_config()]}


def scopes(tf):
    with tf.Graph().as_default() as graph:
        a = tf.constant(1.0, name="a")
        with tf.op_scope([a], "outer", "default") as outer:
            b = tf.identity(a, name="b")
        with tf.op_scope([a], None, "fallback") as fallback:
            c = tf.identity(a)
        with tf.variable_op_scope([a], "vs", regularizer=tf.no_regularizer) as vs:
            w = tf.get_variable("w", [2], initializer=tf.zeros_initializer())
            d = tf.identity(a)
        with tf.variable_op_scope([a], None, "default_vs") as dvs:
            u = tf.get_variable("u", [1])
        regularized = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        return {"scopes": [outer, fallback, vs.name, dvs.name],
                "names": [t.name for t in (b, c, w, d, u)],
                "regularization_losses": len(regularized),
                "no_regularizer": tf.no_regularizer(tf.constant(2.0)),
                "nodes": _nodes(graph)}


def numpy_function(tf):
    with tf.Graph().as_default() as graph:
        x = tf.constant([1.0, 2.0, 3.0])
        calls = []

        def sinh(v):
            calls.append(1)
            return np.sinh(v)

        stateful = tf.numpy_function(sinh, [x], tf.float32)
        stateless = tf.numpy_function(lambda v, k: (v * k).astype(np.float32), [x, 2.0],
                                      tf.float32, stateful=False, name="twice")
        pair = tf.numpy_function(lambda v: (v, v.sum()), [x], [tf.float32, tf.float32])
        with tf.Session() as sess:
            values = sess.run([stateful, stateless, pair])
        return {"values": [np.asarray(v).tolist() for v in values[:2]]
                + [[np.asarray(v).tolist() for v in values[2]]],
                "types": [stateful.op.type, stateless.op.type, pair[0].op.type],
                "shapes": [str(t.shape) for t in (stateful, stateless, pair[0])],
                "calls": len(calls),
                "nodes": [[n[0], n[1]] for n in _nodes(graph)]}  # PyFunc's token differs


def assert_near(tf):
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [3], name="x")
        near = tf.assert_near(x, [1.0, 2.0, 3.0], rtol=0.01, atol=0.001)
        with tf.control_dependencies([near]):
            out = tf.identity(x)
        loose = tf.debugging.assert_near(x, np.array([1.0, 2.0, 3.0], np.float32),
                                         message="loose", name="loose")
        default_tol = tf.assert_near(tf.constant(1.0, tf.float64), 1.0 + 1e-16)
        result = {"nodes": _nodes(graph)}
        with tf.Session() as sess:
            result["pass"] = sess.run(out, {x: [1.0, 2.001, 3.0]}).tolist()
            sess.run(default_tol)
            result["fail"] = _error(lambda: sess.run(out, {x: [1.0, 2.5, 3.0]}))
            result["fail_message"] = _error(lambda: sess.run(loose, {x: [1.0, 2.0, 4.0]}))
        return result


def float_dtypes(tf):
    with tf.Graph().as_default():
        f32 = tf.constant(1.0, name="f32")
        f64 = tf.constant(1.0, tf.float64, name="f64")
        i32 = tf.constant(1, name="i32")
        same = tf.assert_same_float_dtype
        return {
            "none": same().name, "dtype_only": same(dtype=tf.float64).name,
            "tensors": same([f32, None, f32]).name,
            "with_dtype": same([f64], tf.float64).name,
            "int": _error(lambda: same([i32])),
            "int_dtype": _error(lambda: same(dtype=tf.int32)),
            "mixed": _error(lambda: same([f32, f64])),
            "mixed_dtype": _error(lambda: same([f64], tf.float32)),
            "debugging": tf.debugging.assert_same_float_dtype([f64]).name,
            "iterables": [tf.assert_proper_iterable(v) for v in ([1], (2,), {3: 4}, range(2))],
            # TensorFlow's graph tensor class is SymbolicTensor, the engine's Tensor.
            "not_proper_tensor": _error(lambda: tf.assert_proper_iterable(f32))[1].split(
                "Found:")[0],
            "not_proper": [_error(lambda v=v: tf.debugging.assert_proper_iterable(v))
                           for v in (np.zeros(2), "abc", b"ab", 3)]}


def unconnected_gradients(tf):
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [2], name="x")
        c = tf.constant([[1.0, 2.0]], name="c")
        y = tf.reduce_sum(x * 3.0)
        zero = tf.gradients(y, [x, c], unconnected_gradients=tf.UnconnectedGradients.ZERO)
        text = tf.gradients(y, [c], unconnected_gradients="zero")
        none = tf.gradients(y, [x, c], unconnected_gradients=tf.UnconnectedGradients.NONE)
        with tf.Session() as sess:
            values = sess.run(zero + text, {x: [1.0, 2.0]})
        return {"values": [v.tolist() for v in values], "none": [g is None for g in none],
                "members": [[m.name, m.value] for m in tf.UnconnectedGradients],
                "bad": _error(lambda: tf.gradients(y, [x], unconnected_gradients="nan")),
                "nodes": _nodes(graph)}


def variable_enums(tf):
    return {"aggregation": [[m.name, m.value] for m in tf.VariableAggregation],
            "synchronization": [[m.name, m.value] for m in tf.VariableSynchronization],
            "only_first_tower": tf.VariableAggregation.ONLY_FIRST_TOWER.name,
            "by_value": tf.VariableAggregation(2).name}


def switches(tf):
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        c = tf.constant([1.0, 2.0])
        tf.disable_v2_tensorshape()
        tf.disable_control_flow_v2()
        result = {
            "control_flow_v2_enabled": tf.control_flow_v2_enabled(),
            "executing_eagerly_outside_functions": tf.executing_eagerly_outside_functions(),
            "symbolic": [tf.is_symbolic_tensor(t) for t in (c, v, v.value(), 1.0, np.ones(2))],
            "dimension": type(c.shape[0]).__name__,
            "logger": tf.get_logger().name,
            "log_device_placement": [tf.debugging.get_log_device_placement()]}
        tf.debugging.set_log_device_placement(True)
        result["log_device_placement"].append(tf.debugging.get_log_device_placement())
        tf.debugging.set_log_device_placement(False)
        result["log_device_placement"].append(tf.debugging.get_log_device_placement())
        return result


def partitioners(tf):
    def shape(dims):
        return tf.TensorShape(dims)
    axis_size = tf.variable_axis_size_partitioner
    min_max = tf.min_max_variable_partitioner
    return {
        "fixed": [tf.fixed_size_partitioner(3)(shape([10, 4])),
                  tf.fixed_size_partitioner(5, axis=1)(shape([10, 4]), dtype=tf.float32)],
        "axis_size": [axis_size(64)(shape([10, 4]), tf.float32),
                      axis_size(100, axis=1)(shape([6, 20]), tf.float64),
                      axis_size(48, max_shards=2)(shape([10, 4]), tf.float32),
                      axis_size(40, bytes_per_string_element=8)(shape([10]), tf.string),
                      axis_size(1)(shape([3, 5]), tf.int32)],
        "min_max": [min_max(4, min_slice_size=64)(shape([10, 4]), tf.float32),
                    min_max(8, axis=1, min_slice_size=16)(shape([2, 3]), tf.float32),
                    min_max()(shape([1000, 1000]), tf.float32),
                    min_max(10, min_slice_size=32)(shape([12]), tf.string)],
        "errors": [_error(lambda: axis_size(0)),
                   _error(lambda: axis_size(10, max_shards=-1)),
                   _error(lambda: axis_size(10)([10, 4], tf.float32)),
                   _error(lambda: axis_size(10)(shape([None, 4]), tf.float32)),
                   _error(lambda: min_max(2, axis=2)(shape([3, 4]), tf.float32))]}


def _parts(variable):
    return [[v.op.name, v.shape.as_list(), v._get_save_slice_info().full_name,
             v._get_save_slice_info().full_shape, v._get_save_slice_info().var_offset,
             v._get_save_slice_info().var_shape, v._get_save_slice_info().spec]
            for v in variable]


def partitioned_get_variable(tf):
    with tf.Graph().as_default() as graph:
        tf.set_random_seed(11)
        w = tf.get_variable("w", [5, 3], partitioner=tf.fixed_size_partitioner(2))
        with tf.variable_scope("scope", partitioner=tf.min_max_variable_partitioner(
                3, min_slice_size=16)):
            e = tf.get_variable("e", [4, 6], initializer=tf.initializers.he_normal(seed=2),
                                regularizer=lambda v: 0.5 * tf.reduce_sum(v))
            eye = tf.get_variable("eye", [4, 4], initializer=tf.initializers.identity(2.0))
            value = tf.get_variable("value", [6, 2], initializer=np.arange(12, dtype=np.float32)
                                    .reshape(6, 2), partitioner=tf.fixed_size_partitioner(4))
        with tf.variable_scope("scope", reuse=True):
            again = tf.get_variable("e", [4, 6])
        y = tf.matmul(tf.ones([1, 5]), w)
        read = tf.convert_to_tensor(e)
        reads = [tf.convert_to_tensor(v) for v in (eye, value, w)]
        losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        result = {
            "types": [type(v).__name__ for v in (w, e, eye, value)],
            "names": [v.name for v in (w, e, eye, value)],
            "lengths": [len(v) for v in (w, e, eye, value)],
            "partitions": [v._get_partitions() for v in (w, e, eye, value)],
            "shapes": [v.get_shape().as_list() for v in (w, e, eye, value)],
            "parts": [_parts(v) for v in (w, e, eye, value)],
            "reused": again is e, "read": [read.name, read.shape.as_list()],
            "losses": [loss.name for loss in losses],
            "global_variables": [v.op.name for v in tf.global_variables()],
            "trainable": [v.op.name for v in tf.trainable_variables()],
            "nodes": _nodes(graph)}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            # y's nodes are compared, not its value: the engine's small MatMul sums in
            # another order than Eigen's (1 ulp apart); the concatenation is read itself.
            fetched = sess.run([reads[2], read] + reads[:2] + losses)
            result["values"] = [np.asarray(v).tolist() for v in fetched]
            sess.run(w.assign(np.full([5, 3], 2.0, np.float32)))
            result["assigned"] = sess.run(reads[2]).tolist()
        result["errors"] = {
            "unpartitioned_exists": _error(lambda: _unpartitioned_then_partitioned(tf)),
            "other_partitions": _error(lambda: _reuse_other_partitions(tf)),
            "rank_0": _error(lambda: tf.get_variable("s", [], partitioner=
                                                     tf.fixed_size_partitioner(2))),
            "two_axes": _error(lambda: tf.get_variable("t", [4, 4],
                                                       partitioner=lambda **_: [2, 2]))}
        return result


def _unpartitioned_then_partitioned(tf):
    with tf.Graph().as_default():
        tf.get_variable("v", [4])
        tf.get_variable("v", [4], partitioner=tf.fixed_size_partitioner(2))


def _reuse_other_partitions(tf):
    with tf.Graph().as_default():
        tf.get_variable("v", [4], partitioner=tf.fixed_size_partitioner(2))
        with tf.variable_scope(tf.get_variable_scope(), reuse=True):
            tf.get_variable("v", [4], partitioner=tf.fixed_size_partitioner(4))


def create_partitioned(tf):
    with tf.Graph().as_default() as graph:
        tf.set_random_seed(5)
        parts = tf.create_partitioned_variables(
            [7, 2], [3, 1], tf.random_uniform_initializer(-1.0, 1.0, seed=4))
        named = tf.create_partitioned_variables(
            [2, 5], [1, 2], np.arange(10, dtype=np.float32).reshape(2, 5), name="named")
        result = {"names": [v.op.name for v in parts + named],
                  "shapes": [v.shape.as_list() for v in parts + named],
                  "specs": [v._get_save_slice_info().spec for v in parts + named],
                  "nodes": _nodes(graph),
                  "errors": [_error(lambda: tf.create_partitioned_variables([2], [1, 1], None)),
                             _error(lambda: tf.create_partitioned_variables([], [], None))]}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            result["values"] = [v.tolist() for v in sess.run(parts + named)]
        return result


def save_partitioned(tf, directory):
    """A checkpoint `directory`/model of w (5x3 in 2 parts) and v: the SaveV2 node's names and
    slice specs, and the values saved."""
    with tf.Graph().as_default() as graph:
        tf.set_random_seed(13)
        w = tf.get_variable("w", [5, 3], partitioner=tf.fixed_size_partitioner(2))
        v = tf.get_variable("v", [4], initializer=tf.ones_initializer())
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, os.path.join(directory, "model"), write_meta_graph=False)
            names, specs = sess.run([graph.get_tensor_by_name("save/SaveV2/tensor_names:0"),
                                     graph.get_tensor_by_name("save/SaveV2/shape_and_slices:0")])
            return {"tensor_names": [n.decode() for n in names],
                    "shape_and_slices": [n.decode() for n in specs],
                    "saved": sess.run(tf.convert_to_tensor(w)).tolist(),
                    "saved_v": sess.run(v).tolist()}


def restore_partitioned(tf, prefix, num_shards):
    """w restored from `prefix` into `num_shards` parts (another partitioning than saved),
    through a Saver of all variables and one of a dict of w's parts."""
    with tf.Graph().as_default():
        w = tf.get_variable("w", [5, 3], partitioner=tf.fixed_size_partitioner(num_shards))
        v = tf.get_variable("v", [4])
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, prefix)
            restored = [sess.run(tf.convert_to_tensor(w)).tolist(), sess.run(v).tolist()]
            sess.run(tf.global_variables_initializer())
            tf.train.Saver({"w": list(w)}).restore(sess, prefix)
            restored.append(sess.run(tf.convert_to_tensor(w)).tolist())
            return restored


def partitioned_checkpoint(tf):
    with tempfile.TemporaryDirectory() as directory:
        result = save_partitioned(tf, directory)
        prefix = os.path.join(directory, "model")
        result["listed"] = tf.train.list_variables(prefix)
        result["loaded"] = tf.train.load_variable(prefix, "w").tolist()
        result["restored"] = restore_partitioned(tf, prefix, 3)
        return result


def assert_shapes(tf):
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        y = tf.placeholder(tf.float32, [None, None], name="y")
        z = tf.placeholder(tf.float32, None, name="z")
        check = tf.debugging.assert_shapes([(x, ("N", "Q")), (y, ("N", 3)), (1.0, ()),
                                            (z, (..., "Q")), (x, None)])
        named = tf.debugging.assert_shapes({z: (".", None), x: ["*", 3]}, message="named",
                                           name="named")
        with tf.control_dependencies([check]):
            out = tf.identity(x)
        c = tf.constant(np.zeros([2, 3], np.float32), name="c")
        result = {"nodes": _nodes(graph),
                  "static": [
                      _error(lambda: tf.debugging.assert_shapes([(c, ("N", 4))])),
                      _error(lambda: tf.debugging.assert_shapes([(c, ("N", "Q")),
                                                                 (x, ("Q", "N"))])),
                      _error(lambda: tf.debugging.assert_shapes([(c, 3)])),
                      _error(lambda: tf.debugging.assert_shapes([(c, ("N", ...))])),
                      _error(lambda: tf.debugging.assert_shapes([(c, ("A", "B", "C"))],
                                                                message="rank"))]}
        feeds = {x: [[1, 2, 3]], y: [[1, 2, 3]], z: [5, 6, 7]}
        with tf.Session() as sess:
            result["pass"] = sess.run(out, feeds).tolist()
            sess.run(named, {x: np.zeros([4, 3]), z: np.zeros([1, 1])})
            result["fail_size"] = _error(lambda: sess.run(out, {**feeds, y: [[1, 2, 3]] * 2}))
            result["fail_inner"] = _error(lambda: sess.run(out, {**feeds, z: [[1, 2]]}))
            result["fail_rank"] = _error(lambda: sess.run(named, {x: np.zeros([4, 3]),
                                                                  z: np.zeros([2])}))
        return result


def partitioned_training(tf):
    """Three Adam steps on a loss of two partitioned variables: each part its own slots."""
    with tf.Graph().as_default() as graph:
        tf.set_random_seed(3)
        w = tf.get_variable("w", [5, 3], partitioner=tf.fixed_size_partitioner(3))
        e = tf.get_variable("e", [6, 2], partitioner=tf.fixed_size_partitioner(2))
        loss = tf.reduce_sum(tf.square(tf.matmul(tf.ones([2, 5]), w))) + tf.reduce_sum(
            tf.square(e))
        step = tf.train.AdamOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(step)
            values = [sess.run(v).tolist() for v in list(w) + list(e)]
        return {"values": values,
                "global_variables": [v.op.name for v in tf.global_variables()],
                "nodes": [[n[0], n[1]] for n in _nodes(graph)]}


def partitioned_embedding(tf):
    """embedding_lookup over a partitioned table, both strategies, and a gradient step. The
    ids are fed: TensorFlow's shape refiner would evaluate a constant ids' DynamicPartition
    and know the stitched size, which the engine's shape inference does not."""
    result = {}
    for strategy in ("mod", "div"):
        with tf.Graph().as_default() as graph:
            tf.set_random_seed(3)
            e = tf.get_variable("e", [7, 2], partitioner=tf.fixed_size_partitioner(3))
            ids = tf.placeholder(tf.int32, [3, 2], name="ids")
            rows = tf.nn.embedding_lookup(e, ids, partition_strategy=strategy)
            step = tf.train.GradientDescentOptimizer(0.1).minimize(
                tf.reduce_sum(tf.square(rows)))
            feed = {ids: [[0, 6], [3, 4], [5, 1]]}
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                looked_up = sess.run(rows, feed).tolist()
                sess.run(step, feed)
                result[strategy] = {"rows": looked_up, "shape": rows.shape.as_list(),
                                    "trained": [v.tolist() for v in sess.run(list(e))],
                                    "nodes": _nodes(graph)}
    with tf.Graph().as_default():
        e = tf.get_variable("e", [7, 2], partitioner=tf.fixed_size_partitioner(3))
        result["bad_strategy"] = _error(lambda: tf.nn.embedding_lookup(
            e, [1], partition_strategy="rows"))
    return result


CASES = {name: globals()[name] for name in (
    "partitioned_embedding",
    "partitioned_training",
    "assert_shapes",
    "partitioned_checkpoint", "partitioners", "partitioned_get_variable", "create_partitioned",
    "variance_scaling_family", "uniform_unit_scaling", "orthogonal", "identity",
    "initializer_errors", "scopes", "numpy_function", "assert_near", "float_dtypes",
    "unconnected_gradients", "variable_enums", "switches")}
