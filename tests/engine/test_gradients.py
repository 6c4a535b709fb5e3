"""tf.gradients against numeric gradients: every op with a registered gradient, in float64.

Each case builds f(inputs) on placeholders, differentiates sum(f * w) for a fixed random w,
and compares with central finite differences of the same graph run by the engine. A last
test checks that the cases cover every op type the gradient registry differentiates.
"""

import numpy as np
import pytest

import engine as tf
from engine.ops import gradient_registry
from tests.engine.breadth_grad_cases import CASES as BREADTH_CASES
from tests.engine.linalg_grad_cases import CASES as LINALG_CASES
from tests.engine.special_math_grad_cases import CASES as SPECIAL_MATH_CASES
from tests.engine.special_math_grad_cases import EXEMPT as SPECIAL_MATH_EXEMPT
from tests.engine.image_grad_cases import CASES as IMAGE_CASES, EXEMPT as IMAGE_EXEMPT
from tests.engine.elementary_math_grad_cases import CASES as ELEMENTARY_MATH_CASES
from tests.engine.sparse_math_grad_cases import CASES as SPARSE_MATH_CASES
from tests.engine.sparse_math_grad_cases import EXEMPT as SPARSE_MATH_EXEMPT
from tests.engine.tf_grad_cases import make_cases as make_tf_grad_cases
from tests.engine.signal_grad_cases import CASES as SIGNAL_CASES

RNG = np.random.RandomState(7)
EPS = 1e-6


def rand(*shape, low=-1.0, high=1.0):
    return RNG.uniform(low, high, size=shape)


def positive(*shape):
    return rand(*shape, low=0.5, high=2.0)


def apart(*shape):
    """Values far enough apart (and from zero) that max/min/relu kinks stay out of reach."""
    values = RNG.permutation(np.prod(shape, dtype=int)).reshape(shape) * 0.1 - 0.33
    return values + np.sign(values) * 0.05


def one_hot(rows, cols):
    return np.eye(cols)[RNG.randint(0, cols, size=rows)]


def op(op_type, **inputs):
    from engine.ops.op_def_library import apply_op
    return apply_op(op_type, **inputs)


def _asserted_square(a):
    """A body with a stateful op (an Assert): its call is a StatefulPartitionedCall."""
    with tf.control_dependencies([tf.Assert(True, [a])]):
        return tf.square(a) * 0.5 + tf.exp(a)


# name: (function of the input tensors, input values, placeholder shapes or None for static)
CASES = {
    "Add": (lambda x, y: tf.add(x, y), [rand(3, 4), rand(3, 4)]),
    "PartitionedCall": (lambda x, y: tf.function(lambda a, b: tf.sin(a) * b + a)(x, y),
                        [rand(3), rand(3)]),
    "StatefulPartitionedCall": (lambda x: tf.function(_asserted_square)(x), [rand(2, 3)]),
    "Add_broadcast": (lambda x, y: x + y, [rand(3, 4), rand(4)]),
    "AddV2_unknown": (lambda x, y: x + y, [rand(3, 4), rand(1, 4)], [[None, 4], [None, 4]]),
    "AddLegacy": (lambda x, y: op("Add", x=x, y=y), [rand(2, 3), rand(2, 1)]),
    "Sub": (lambda x, y: x - y, [rand(2, 3), rand(3)]),
    "ReverseSequence": (lambda x: tf.reverse_sequence(x, [2, 4, 1], seq_axis=1, batch_axis=0),
                        [rand(3, 4)]),
    "Sub_same": (lambda x, y: x - y, [rand(2, 3), rand(2, 3)]),
    "Mul": (lambda x, y: x * y, [rand(2, 3, 4), rand(3, 1)]),
    "Mul_same": (lambda x, y: x * y, [rand(2, 3), rand(2, 3)]),
    "RealDiv": (lambda x, y: x / y, [rand(3, 4), positive(4)]),
    "Div": (lambda x, y: op("Div", x=x, y=y), [rand(3, 4), positive(3, 1)]),
    "DivNoNan": (lambda x, y: tf.div_no_nan(x, y), [rand(3, 4), positive(3, 4)]),
    "FloorMod": (lambda x, y: tf.floormod(x, y), [positive(3, 4), positive(3, 4) + 2.3]),
    "Maximum": (lambda x, y: tf.maximum(x, y), [apart(3, 4), apart(3, 4) + 0.02]),
    "Minimum": (lambda x, y: tf.minimum(x, y), [apart(3, 4), apart(4) + 0.02]),
    "Neg": (lambda x: -x, [rand(3, 2)]),
    "Abs": (lambda x: tf.abs(x), [apart(3, 2)]),
    "Square": (lambda x: tf.square(x), [rand(3, 2)]),
    "Sqrt": (lambda x: tf.sqrt(x), [positive(3, 2)]),
    "Rsqrt": (lambda x: tf.rsqrt(x), [positive(3, 2)]),
    "Exp": (lambda x: tf.exp(x), [rand(3, 2)]),
    "Expm1": (lambda x: tf.expm1(x), [rand(3, 2)]),
    "Log": (lambda x: tf.log(x), [positive(3, 2)]),
    "Log1p": (lambda x: tf.log1p(x), [positive(3, 2)]),
    "Pow": (lambda x, y: tf.pow(x, y), [positive(3, 2), rand(3, 2)]),
    "Tanh": (lambda x: tf.tanh(x), [rand(3, 2)]),
    "Sigmoid": (lambda x: tf.sigmoid(x), [rand(3, 2)]),
    "Reciprocal": (lambda x: tf.reciprocal(x), [positive(3, 2)]),
    "Inv": (lambda x: op("Inv", x=x), [positive(3, 2)]),
    "Sin": (lambda x: tf.sin(x), [rand(3, 2)]),
    "Cos": (lambda x: tf.cos(x), [rand(3, 2)]),
    "Sinh": (lambda x: tf.sinh(x), [rand(3, 2)]),
    "Cosh": (lambda x: tf.cosh(x), [rand(3, 2)]),
    "SquaredDifference": (lambda x, y: tf.squared_difference(x, y), [rand(3, 4), rand(4)]),
    "SquaredDifference_same": (lambda x, y: tf.squared_difference(x, y),
                               [rand(3, 4), rand(3, 4)]),
    "AddN": (lambda x, y: tf.add_n([x, y, x]), [rand(2, 3), rand(2, 3)]),
    "MatMul": (lambda a, b: tf.matmul(a, b), [rand(3, 4), rand(4, 2)]),
    "MatMul_ta": (lambda a, b: tf.matmul(a, b, transpose_a=True), [rand(4, 3), rand(4, 2)]),
    "MatMul_tb": (lambda a, b: tf.matmul(a, b, transpose_b=True), [rand(3, 4), rand(2, 4)]),
    "MatMul_tab": (lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
                   [rand(4, 3), rand(2, 4)]),
    "BatchMatMulV2": (lambda a, b: op("BatchMatMulV2", x=a, y=b), [rand(2, 3, 4), rand(2, 4, 2)]),
    "BatchMatMulV2_adj": (lambda a, b: op("BatchMatMulV2", x=a, y=b, adj_x=True, adj_y=True),
                          [rand(2, 4, 3), rand(2, 2, 4)]),
    "BatchMatMulV2_broadcast": (lambda a, b: op("BatchMatMulV2", x=a, y=b),
                                [rand(2, 3, 4), rand(4, 2)]),
    "BatchMatMulV3": (lambda a, b: op("BatchMatMulV3", x=a, y=b, adj_x=True, Tout=tf.float64), [rand(2, 4, 3),
                                                                   rand(1, 4, 2)]),
    "BatchMatMul": (lambda a, b: op("BatchMatMul", x=a, y=b, adj_y=True),
                    [rand(2, 3, 4), rand(2, 2, 4)]),
    "BiasAdd": (lambda x, b: tf.nn.bias_add(x, b), [rand(2, 3, 4), rand(4)]),
    "BiasAddV1": (lambda x, b: op("BiasAddV1", value=x, bias=b), [rand(2, 4), rand(4)]),
    "Softmax": (lambda x: tf.nn.softmax(x), [rand(3, 5)]),
    "LogSoftmax": (lambda x: tf.nn.log_softmax(x), [rand(3, 5)]),
    "SoftmaxCrossEntropyWithLogits_v2": (
        lambda logits, labels: tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels,
                                                                          logits=logits),
        [rand(4, 3), one_hot(4, 3) * 0.7 + 0.1], [[None, 3], [None, 3]]),
    "SoftmaxCrossEntropyWithLogits_v1": (
        lambda logits: tf.nn.softmax_cross_entropy_with_logits(labels=one_hot(4, 3),
                                                               logits=logits),
        [rand(4, 3)]),
    "SparseSoftmaxCrossEntropyWithLogits": (
        lambda logits: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=np.array([0, 2, 1, 2], np.int32), logits=logits), [rand(4, 3)]),
    "SparseSoftmaxCrossEntropyWithLogits_rank3": (
        lambda logits: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=np.array([[0, 2], [1, 2]], np.int64), logits=logits), [rand(2, 2, 3)]),
    "Relu": (lambda x: tf.nn.relu(x), [apart(3, 4)]),
    "Relu6": (lambda x: tf.nn.relu6(x * 10), [apart(3, 4)]),
    "Elu": (lambda x: tf.nn.elu(x), [apart(3, 4)]),
    "Selu": (lambda x: tf.nn.selu(x), [apart(3, 4)]),
    "Softplus": (lambda x: tf.nn.softplus(x), [rand(3, 4)]),
    "Softsign": (lambda x: tf.nn.softsign(x), [rand(3, 4)]),
    "LeakyRelu": (lambda x: tf.nn.leaky_relu(x, alpha=0.1), [apart(3, 4)]),
    "Conv2D_same": (lambda x, w: tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME"),
                    [rand(2, 5, 5, 2), rand(3, 3, 2, 3)]),
    "Conv2D_valid_stride2": (lambda x, w: tf.nn.conv2d(x, w, strides=[1, 2, 2, 1],
                                                       padding="VALID"),
                             [rand(1, 7, 6, 2), rand(3, 2, 2, 2)]),
    "Conv2D_same_stride2": (lambda x, w: tf.nn.conv2d(x, w, strides=[1, 2, 2, 1],
                                                      padding="SAME"),
                            [rand(1, 6, 5, 1), rand(2, 3, 1, 2)]),
    "MaxPool": (lambda x: tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
                [apart(2, 4, 4, 2)]),
    "MaxPool_same": (lambda x: tf.nn.max_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
                     [apart(1, 5, 5, 2)]),
    "AvgPool": (lambda x: tf.nn.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
                [rand(2, 4, 4, 2)]),
    "AvgPool_same": (lambda x: tf.nn.avg_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
                     [rand(1, 5, 5, 2)]),
    "Reshape": (lambda x: tf.reshape(x, [3, 4]), [rand(2, 6)]),
    "Reshape_unknown": (lambda x: tf.reshape(x, [-1]), [rand(2, 6)], [[None, 6]]),
    "Transpose": (lambda x: tf.transpose(x, [2, 0, 1]), [rand(2, 3, 4)]),
    "ConjugateTranspose": (lambda x: tf.raw_ops.ConjugateTranspose(x=x, perm=[2, 0, 1]),
                           [rand(2, 3, 4)]),
    "ConcatV2": (lambda x, y: tf.concat([x, y, x], 1), [rand(2, 3), rand(2, 2)]),
    "ConcatV2_two": (lambda x, y: tf.concat([x, y], 0), [rand(2, 3), rand(1, 3)]),
    "Slice": (lambda x: tf.slice(x, [1, 0], [2, 2]), [rand(3, 4)]),
    "StridedSlice": (lambda x: x[1:, ::2], [rand(3, 5)]),
    "StridedSlice_shrink": (lambda x: x[:, 1], [rand(3, 5)]),
    "GatherV2": (lambda x: tf.gather(x, [2, 0, 2]), [rand(4, 3)]),
    "GatherV2_axis1": (lambda x: tf.gather(x, [1, 1, 0], axis=1), [rand(2, 3, 2)]),
    "Pack": (lambda x, y: tf.stack([x, y], axis=1), [rand(2, 3), rand(2, 3)]),
    "Unpack": (lambda x: tf.unstack(x, axis=1)[1] * 2 + tf.unstack(x, axis=1)[0], [rand(2, 3)]),
    "Split": (lambda x: tf.split(x, 3, axis=1)[2] * 3 + tf.split(x, 3, axis=1)[0],
              [rand(2, 6)]),
    "SplitV": (lambda x: tf.split(x, [1, 3], axis=1)[1], [rand(2, 4)]),
    "ExpandDims": (lambda x: tf.expand_dims(x, 1), [rand(3, 2)]),
    "Squeeze": (lambda x: tf.squeeze(x, [1]), [rand(3, 1, 2)]),
    "Tile": (lambda x: tf.tile(x, [2, 3]), [rand(2, 3)]),
    "Pad": (lambda x: tf.pad(x, [[1, 0], [2, 1]]), [rand(2, 3)]),
    "PadV2": (lambda x: tf.pad(x, [[1, 0], [2, 1]], constant_values=1.5), [rand(2, 3)]),
    "Sum_all": (lambda x: tf.reduce_sum(x), [rand(3, 4)]),
    "Sum_axis": (lambda x: tf.reduce_sum(x, axis=1), [rand(3, 4, 2)]),
    "Sum_unknown": (lambda x: tf.reduce_sum(x, axis=[0, 2], keepdims=False), [rand(3, 4, 2)],
                    [[None, 4, None]]),
    "Sum_keepdims_unknown": (lambda x: tf.reduce_sum(x, axis=1, keepdims=True), [rand(3, 4)],
                             [[None, None]]),
    "Mean": (lambda x: tf.reduce_mean(x, axis=0), [rand(3, 4)]),
    "Mean_unknown": (lambda x: tf.reduce_mean(x, axis=-1), [rand(3, 4)], [[None, 4]]),
    "Max": (lambda x: tf.reduce_max(x, axis=1), [apart(3, 4)]),
    "Min": (lambda x: tf.reduce_min(x, axis=[0, 1], keepdims=True), [apart(3, 4)]),
    "Prod": (lambda x: tf.reduce_prod(x, axis=1), [rand(3, 4)]),
    "Prod_all": (lambda x: tf.reduce_prod(x), [positive(2, 3)]),
    "Cast": (lambda x: op("Cast", x=x, DstT=tf.float64) * 2.0, [rand(3, 2)]),
    "Identity": (lambda x: tf.identity(x), [rand(3, 2)]),
    "L2Loss": (lambda x: tf.nn.l2_loss(x), [rand(3, 2)]),
    "Select": (lambda x, y: op("Select", condition=np.array([True, False, True]), t=x, e=y),
               [rand(3, 2), rand(3, 2)]),
    "SelectV2": (lambda x, y: tf.where_v2(np.array([[True], [False], [True]]), x, y),
                 [rand(3, 2), rand(2)]),
    "BroadcastTo": (lambda x: tf.broadcast_to(x, [3, 2, 4]), [rand(2, 1)]),
    "ReverseV2": (lambda x: tf.reverse(x, [1]), [rand(2, 3)]),
    "Cumsum": (lambda x: tf.cumsum(x, axis=1), [rand(2, 3)]),
    "Fill": (lambda x: tf.fill([2, 3], x), [rand()]),
    "cond_true": (lambda x, y: tf.cond(tf.constant(True), lambda: tf.square(x) * y,
                                       lambda: tf.sin(x)) * x, [rand(3), rand(3)]),
    "cond_false": (lambda x, y: tf.cond(tf.constant(False), lambda: tf.square(x) * y,
                                        lambda: tf.sin(x) + y), [rand(3), rand(3)]),
    "cond_unused_output": (lambda x: tf.cond(tf.constant(False), lambda: tf.exp(x),
                                             lambda: x * 2.0), [rand(2, 2)]),
    "while_loop": (lambda x, y: tf.while_loop(lambda i, v: i < 3,
                                              lambda i, v: (i + 1, v * x + y), [0, x])[1],
                   [rand(3), rand(3)]),
    "while_loop_seed": (  # tests/programs/while_loop.py's loop of 1000 iterations
        lambda a: tf.while_loop(lambda i, a: tf.less(i, 1000),
                                lambda i, a: (tf.add(i, 1), tf.add(a, 1.0)),
                                [tf.constant(0), a])[1] * a, [rand(3)]),
    "ReadVariableOp": None,  # through resource variables in test_resource_variable_gradient
    "TanhGrad": (lambda x: tf.gradients(tf.tanh(x), x)[0], [rand(3, 2)]),
    "SigmoidGrad": (lambda x: tf.gradients(tf.sigmoid(x), x)[0], [rand(3, 2)]),
    "SoftplusGrad": (lambda x: op("SoftplusGrad", gradients=x * x, features=x), [rand(3, 2)]),
    "ReluGrad": (lambda x: tf.gradients(tf.nn.relu(x) * x, x)[0], [apart(3, 2)]),
    "Relu6Grad": (lambda x: op("Relu6Grad", gradients=x * x, features=x * 3), [apart(3, 2)]),
    "Conv2DBackpropInput": (
        lambda w, dy: op("Conv2DBackpropInput", input_sizes=[1, 4, 4, 2], filter=w,
                         out_backprop=dy, strides=[1, 1, 1, 1], padding="SAME"),
        [rand(3, 3, 2, 3), rand(1, 4, 4, 3)]),
    "DepthwiseConv2dNative": (
        lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"),
        [rand(1, 5, 4, 2), rand(2, 3, 2, 2)]),
    "DepthwiseConv2dNativeBackpropInput": (
        lambda w, dy: op("DepthwiseConv2dNativeBackpropInput", input_sizes=[1, 4, 4, 2],
                         filter=w, out_backprop=dy, strides=[1, 1, 1, 1], padding="SAME"),
        [rand(3, 3, 2, 2), rand(1, 4, 4, 4)]),
    "DepthwiseConv2dNativeBackpropFilter": (
        lambda x, dy: op("DepthwiseConv2dNativeBackpropFilter", input=x,
                         filter_sizes=[2, 2, 2, 1], out_backprop=dy, strides=[1, 1, 1, 1],
                         padding="VALID"),
        [rand(1, 4, 3, 2), rand(1, 3, 2, 2)]),
    "SpaceToBatchND": (lambda x: tf.space_to_batch_nd(x, [2, 3], [[1, 0], [2, 1]]),
                       [rand(2, 3, 3, 2)]),
    "BatchToSpaceND": (lambda x: tf.batch_to_space_nd(x, [2, 2], [[0, 1], [1, 0]]),
                       [rand(8, 2, 3, 1)]),
}
CASES.update(BREADTH_CASES)
CASES.update(LINALG_CASES)
CASES.update(SPECIAL_MATH_CASES)
CASES.update(IMAGE_CASES)
CASES.update(SIGNAL_CASES)
CASES.update(ELEMENTARY_MATH_CASES)
CASES.update(SPARSE_MATH_CASES)
CASES.update(make_tf_grad_cases(tf))


def _build(case):
    fn, values = case[0], case[1]
    shapes = case[2] if len(case) > 2 else [v.shape for v in values]
    graph = tf.Graph()
    with graph.as_default():
        inputs = [tf.placeholder(tf.float64, shape=s, name=f"in{i}")
                  for i, s in enumerate(shapes)]
        out = fn(*inputs)
        weights = tf.placeholder(tf.float64, shape=out.shape, name="w")
        loss = tf.reduce_sum(out * weights)
        grads = [None if g is None else tf.convert_to_tensor(g)
                 for g in tf.gradients(loss, inputs)]
    return graph, inputs, out, weights, loss, grads


def numeric_gradient(sess, loss, inputs, values, feed):
    result = []
    for i, value in enumerate(values):
        grad = np.zeros_like(value)
        flat = grad.reshape(-1)
        for j in range(value.size):
            plus, minus = value.copy(), value.copy()
            plus.reshape(-1)[j] += EPS
            minus.reshape(-1)[j] -= EPS
            up = sess.run(loss, {**feed, inputs[i]: plus})
            down = sess.run(loss, {**feed, inputs[i]: minus})
            flat[j] = (up - down) / (2 * EPS)
        result.append(grad)
    return result


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c is not None])
def test_gradient_matches_finite_differences(name):
    case = CASES[name]
    values = [np.asarray(v, np.float64) for v in case[1]]
    graph, inputs, out, weights, loss, grads = _build(case)
    with tf.Session(graph=graph) as sess:
        out_value = sess.run(out, dict(zip(inputs, values)))
        w = np.random.RandomState(3).uniform(0.5, 1.5, size=np.shape(out_value))
        feed = {**dict(zip(inputs, values)), weights: w}
        symbolic = sess.run([g for g in grads if g is not None], feed)
        numeric = numeric_gradient(sess, loss, inputs, values, feed)
    symbolic = iter(symbolic)
    for x, g, n in zip(inputs, grads, numeric):
        assert g is not None, f"{name}: no gradient for {x.name}"
        got = next(symbolic)
        assert got.shape == n.shape, name
        np.testing.assert_allclose(got, n, rtol=1e-5, atol=1e-6, err_msg=name)


def test_every_differentiable_op_is_covered():
    covered = set()
    for case in CASES.values():
        if case is not None:
            graph = _build(case)[0]
            covered.update(op.type for op in graph.get_operations())
    covered.add("ReadVariableOp")
    registered = {t for t in gradient_registry.registered_gradients()
                  if gradient_registry.gradient_status(t) == gradient_registry.REGISTERED}
    # Pass-through and failing gradients, checked by the structural tests below.
    exempt = {"PlaceholderWithDefault", "RefIdentity", "Snapshot", "EnsureShape", "IdentityN",
              "CheckNumerics", "CheckNumericsV2", "PreventGradient", "Concat", "RefSwitch", "RefMerge",
              "RefEnter", "RefExit", "RefNextIteration"}
    # float32-only ops (no float64 finite differences): their gradients equal TensorFlow's
    # in tests/engine/test_layers.py.
    exempt |= {"FusedBatchNormV3"}
    # Fake quantization takes float32 only: its gradients (straight-through, and min's and
    # max's sums) equal TensorFlow's tf.gradients bit for bit in tests/engine/test_quantization.py.
    exempt |= {"FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVars",
               "FakeQuantWithMinMaxVarsPerChannel"}
    # Quantize-and-dequantize is piecewise constant: its straight-through gradients (which
    # finite differences cannot see) equal TensorFlow's there too.
    exempt |= {"QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4",
               "QuantizeAndDequantizeV4Grad"}
    exempt |= SPECIAL_MATH_EXEMPT  # (see special_math_grad_cases.py)
    exempt |= SPARSE_MATH_EXEMPT  # (see sparse_math_grad_cases.py)
    # LRN takes float32 and narrower only: its gradient equals TensorFlow's in
    # tests/engine/test_conv_norm_ops.py.
    exempt |= {"LRN"}
    # Gradients through a TensorArray resource (no single input to perturb): they equal
    # TensorFlow's in tests/engine/test_rnn_loops.py.
    exempt |= {f"TensorArray{kind}V3" for kind in ("Read", "Write", "Gather", "Scatter",
                                                   "Concat", "Split")}
    # Through a TensorList (a variant; no single input to perturb) or a resource variable:
    # equal to TensorFlow's in test_tensor_lists.py and test_resource_gather.py.
    exempt |= {op for op in registered if op.startswith("TensorList")} | {"ResourceGather"}
    # float32 only or float32 outputs: equal to TensorFlow's in test_image_ops.py and
    # test_volumetric_ops.py (tests/engine/image_grad_cases.py).
    exempt |= IMAGE_EXEMPT
    # Argmax- and region-routed gradients (a perturbation can move the argmax or the maximum
    # a value routes to) and CTC's float-kernel loss: each equals TensorFlow's tf.gradients in
    # test_conv_wrappers.py, test_fractional_pool.py and test_ctc.py.
    exempt |= {"MaxPoolWithArgmax", "Dilation2D", "FractionalMaxPool", "FractionalAvgPool",
               "CTCLoss"}
    # The per-call gradients tf.custom_gradient registers (CustomGradient-<n>), if a test in
    # this process made any: TensorFlow's nodes and values in
    # tests/programs/hessians_and_custom_gradient.py.
    exempt |= {name for name in registered if name.startswith("CustomGradient-")}
    # Implicit reparameterisation gradients of samples (not the derivative of the sampler's
    # path, which finite differences would see): TensorFlow's values and nodes in
    # tests/engine/test_stateless_random.py.
    exempt |= {"StatelessRandomGammaV2", "StatelessRandomGammaV3",
               "StatelessParameterizedTruncatedNormal"}
    # ApproxTopK takes float32 and narrower only: its gradient (a ScatterNd to the top-k
    # indices) equals TensorFlow's in tests/engine/test_random_gen_math.py.
    exempt |= {"ApproxTopK"}
    # The ragged ops' gradients route values by row partitions: TensorFlow's values and
    # nodes in tests/engine/test_ragged.py (its gradients group; to_tensor's also by finite
    # differences there).
    exempt |= {"RaggedTensorToTensor", "RaggedTensorToSparse", "RaggedGather",
               "RaggedFillEmptyRows"}
    # ScaleAndTranslate's gradient (ScaleAndTranslateGrad, the spans' adjoint) against
    # TensorFlow's in tests/engine/test_scale_and_translate.py.
    exempt |= {"ScaleAndTranslate"}
    # ImageProjectiveTransformV2/V3's gradient is the output's gradient mapped back through
    # the inverse transform (TensorFlow's image_ops.py), not the op's adjoint, which finite
    # differences would see: TensorFlow's values in tests/engine/test_projective_transform.py.
    exempt |= {"ImageProjectiveTransformV2", "ImageProjectiveTransformV3"}
    assert registered - exempt - covered == set()


def test_unconnected_and_stopped_gradients_are_none():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2])
        y = tf.placeholder(tf.float32, [2])
        z = x * 2 + tf.stop_gradient(y) + tf.floor_div(x, 3.0)
        gx, gy = tf.gradients(z, [x, y])
        assert gy is None and gx is not None
        a, b = tf.gradients(x * y, [x, y], stop_gradients=[y])
        assert a is not None and b is not None
        (zero,) = tf.gradients(z, [y], unconnected_gradients="zero")
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(zero), [0, 0])
            np.testing.assert_array_equal(sess.run(gx, {x: [1, 2], y: [0, 0]}), [2, 2])


def test_grad_ys_and_several_ys():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        (g,) = tf.gradients([x * x, 3 * x], x, grad_ys=[tf.constant([1.0, 0.5]), None])
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run(g), [2 + 3, 2 + 3])


def test_prevent_gradient_and_missing_gradient_raise_lookup_error():
    with tf.Graph().as_default():
        x = tf.constant([1.0])
        with pytest.raises(LookupError, match="Gradient explicitly disabled. Reason: b'no'"):
            tf.gradients(tf.prevent_gradient(x, message="no"), x)
        y = tf.raw_ops.Mod(x=x, y=tf.constant([2.0]))  # TensorFlow has none for Mod either
        with pytest.raises(LookupError, match="No gradient defined for operation'Mod'"):
            tf.gradients(y, x)


def test_register_gradient_and_override_map():
    @tf.RegisterGradient("TestDoubleGrad")
    def _double(op, grad):
        return grad * 2.0

    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant([1.0, 3.0])
        with graph.gradient_override_map({"Identity": "TestDoubleGrad"}):
            y = tf.identity(x)
        (g,) = tf.gradients(y, x)
        assert y.op.get_attr("_gradient_op_type") == b"TestDoubleGrad"
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run(g), [2.0, 2.0])
    with pytest.raises(KeyError, match="Registering two gradient with name 'TestDoubleGrad'"):
        tf.RegisterGradient("TestDoubleGrad")(_double)
    tf.no_gradient("TestNoGradOp")
    assert gradient_registry.gradient_status("TestNoGradOp") == gradient_registry.NOT_DIFFERENTIABLE


def test_resource_variable_gradient():
    with tf.Graph().as_default():
        v = tf.Variable([[1.0, 2.0]], use_resource=True)
        loss = tf.reduce_sum(tf.square(v))
        (g,) = tf.gradients(loss, v)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_allclose(sess.run(g), [[2.0, 4.0]])


def test_aggregation_sums_with_add_n():
    with tf.Graph().as_default() as graph:
        x = tf.constant(2.0)
        y = x * 3.0 + x * x
        (g,) = tf.gradients(y, x)
        assert g.op.type == "AddN" and g.op.name == "gradients/AddN"
        (t,) = tf.gradients(y, x, aggregation_method=tf.AggregationMethod.EXPERIMENTAL_TREE)
        with tf.Session(graph=graph) as sess:
            assert sess.run(g) == pytest.approx(7.0)
            assert sess.run(t) == pytest.approx(7.0)


def test_cond_gradient_graph_is_tensorflows():
    """The nodes TF 2.21 (control flow v1) built for this cond's gradient, in order."""
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float64, [3], name="x")
        p = tf.placeholder(tf.bool, [], name="p")
        y = tf.cond(p, lambda: tf.square(x) * 3.0, lambda: tf.sin(x))
        tf.gradients(tf.reduce_sum(y * x), x)
    names = [op.name for op in graph.get_operations() if op.name.startswith("gradients/")]
    assert names[11:16] == [
        "gradients/cond/Merge_grad/cond_grad", "gradients/cond/Sin_grad/Cos",
        "gradients/cond/Sin_grad/mul", "gradients/cond/mul_grad/Mul",
        "gradients/cond/mul_grad/Mul_1"]
    assert names[-16:] == [
        "gradients/Switch", "gradients/Identity", "gradients/Shape_1", "gradients/zeros/Const",
        "gradients/zeros", "gradients/cond/Sin/Switch_grad/cond_grad",
        "gradients/cond/Square_grad/Const", "gradients/cond/Square_grad/Mul",
        "gradients/cond/Square_grad/Mul_1", "gradients/Switch_1", "gradients/Identity_1",
        "gradients/Shape_2", "gradients/zeros_1/Const", "gradients/zeros_1",
        "gradients/cond/Square/Switch_grad/cond_grad", "gradients/AddN"]
