"""tf.nn's convolution and pooling wrappers over ops the engine already has (the backprop ops
by name, transposed convolutions of 1-3 dimensions, atrous_conv2d_transpose, pools of any
rank), relu_layer, batch_norm_with_global_normalization, compute_average_loss and
scale_regularization_loss, built the same way by real TensorFlow and the engine: values, the
gradient of the sum of squares to the first input where TensorFlow has one, static shapes and
nodes. tools/make_conv_wrapper_fixtures.py writes TensorFlow's to
tests/fixtures/conv_wrappers/; tests/engine/test_conv_wrappers.py compares the engine's."""

import numpy as np

_R = np.random.RandomState(11)


def _array(*shape):
    return _R.uniform(-1.0, 1.0, shape).astype(np.float32)


IMAGES = _array(2, 5, 5, 3)
OUT_SAME = _array(2, 5, 5, 4)
OUT_STRIDE2 = _array(2, 3, 3, 4)
FILTER = _array(3, 3, 3, 4)
VOLUME = _array(1, 4, 4, 4, 2)
OUT_3D = _array(1, 3, 3, 3, 3)
FILTER_3D = _array(2, 2, 2, 2, 3)
SEQUENCE = _array(2, 5, 4)
FILTER_1D = _array(3, 2, 4)
DEPTHWISE = _array(3, 3, 3, 2)
OUT_DEPTHWISE = _array(2, 5, 5, 6)
ATROUS_FILTER = _array(3, 3, 2, 3)
SMALL = _array(1, 5, 5, 3)
MATRIX, WEIGHTS, BIASES = _array(4, 3), _array(3, 5), _array(5)
LOSSES = _R.uniform(0.0, 2.0, (6,)).astype(np.float32)


def _with_grad(out, x, tf):
    return {"out": out, "grad": tf.gradients(tf.reduce_sum(out * out), x)[0]}


def _case(fn, first):
    """fn(tf, x) with x a constant of `first`; its output and d(sum out^2)/dx."""
    def build(tf):
        x = tf.constant(first)
        return _with_grad(fn(tf, x), x, tf)
    return build


def _argmax_pool(grad=True, **kwargs):
    def build(tf):
        x = tf.constant(TIED_IMAGES)
        out, argmax = tf.nn.max_pool_with_argmax(x, **kwargs)
        if not grad:  # TensorFlow's CPU MaxPoolGradWithArgmax takes int64 argmax only
            return {"out": out, "argmax": argmax}
        return {"out": out, "argmax": argmax, "grad": tf.gradients(tf.reduce_sum(out * out),
                                                                   x)[0]}
    return build


def _morphology(erosion=False, **kwargs):
    def build(tf):
        x, kernel = tf.constant(IMAGES), tf.constant(MORPH_FILTER)
        if erosion:
            out = tf.nn.erosion2d(x, kernel, **kwargs)
        else:
            out = tf.nn.dilation2d(x, kernel, **kwargs)
        grad_x, grad_kernel = tf.gradients(tf.reduce_sum(out * out), [x, kernel])
        return {"out": out, "grad": grad_x, "grad_filter": grad_kernel}
    return build


# Values on a coarse grid, so that windows hold equal maxima (the first wins).
TIED_IMAGES = np.round(_array(2, 5, 6, 3) * 2.0) / 2.0
MORPH_FILTER = _array(3, 2, 3)

CASES = {
    "max_pool_with_argmax_same": _argmax_pool(ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
                                              padding="SAME"),
    "max_pool_with_argmax_valid_batch": _argmax_pool(ksize=[1, 2, 2, 1], strides=[1, 1, 2, 1],
                                                     padding="VALID",
                                                     include_batch_in_index=True),
    "max_pool_with_argmax_int32": _argmax_pool(ksize=[1, 2, 3, 1], strides=[1, 2, 1, 1],
                                               padding="SAME", output_dtype=np.int32, grad=False),
    "dilation2d_same": _morphology(strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="SAME"),
    "dilation2d_valid_rates": _morphology(strides=[1, 2, 1, 1], rates=[1, 1, 2, 1],
                                          padding="VALID"),
    "dilation2d_dilations": lambda tf: {"out": tf.nn.dilation2d(
        tf.constant(IMAGES), filters=tf.constant(MORPH_FILTER), strides=[1, 1, 1, 1],
        dilations=[1, 2, 2, 1], padding="SAME", name="morph")},
    "erosion2d": _morphology(erosion=True, strides=[1, 1, 2, 1], rates=[1, 2, 1, 1],
                             padding="SAME"),
    "conv2d_backprop_filter": _case(lambda tf, x: tf.nn.conv2d_backprop_filter(
        x, [3, 3, 3, 4], tf.constant(OUT_SAME), [1, 1, 1, 1], "SAME"), IMAGES),
    "conv2d_backprop_filter_explicit": _case(lambda tf, x: tf.nn.conv2d_backprop_filter(
        x, [3, 3, 3, 4], tf.constant(OUT_SAME), [1, 1, 1, 1],
        [[0, 0], [1, 1], [0, 2], [0, 0]], name="filter_grad"), IMAGES),
    "conv2d_backprop_input": _case(lambda tf, x: tf.nn.conv2d_backprop_input(
        [2, 5, 5, 3], x, tf.constant(OUT_STRIDE2), [1, 2, 2, 1], "SAME"), FILTER),
    "conv2d_backprop_input_filters": _case(lambda tf, x: tf.nn.conv2d_backprop_input(
        [2, 5, 5, 3], filters=tf.constant(FILTER), out_backprop=x, strides=[1, 1, 1, 1],
        padding="SAME"), OUT_SAME),
    "conv3d_backprop_filter": _case(lambda tf, x: tf.nn.conv3d_backprop_filter(
        x, [2, 2, 2, 2, 3], tf.constant(OUT_3D), [1, 1, 1, 1, 1], "VALID"), VOLUME),
    "conv3d_backprop_filter_v2": _case(lambda tf, x: tf.nn.conv3d_backprop_filter_v2(
        x, [2, 2, 2, 2, 3], tf.constant(OUT_3D), [1, 1, 1, 1, 1], "VALID"), VOLUME),
    "conv3d_transpose": _case(lambda tf, x: tf.nn.conv3d_transpose(
        x, tf.constant(FILTER_3D), [1, 4, 4, 4, 2], [1, 1, 1, 1, 1], "VALID"), OUT_3D),
    "conv1d_transpose": _case(lambda tf, x: tf.nn.conv1d_transpose(
        x, tf.constant(FILTER_1D), [2, 10, 2], 2), SEQUENCE),
    "conv_transpose_2d": _case(lambda tf, x: tf.nn.conv_transpose(
        x, tf.constant(FILTER), [2, 10, 10, 3], [2, 2]), OUT_SAME),
    "conv_transpose_1d": _case(lambda tf, x: tf.nn.conv_transpose(
        x, tf.constant(FILTER_1D), [2, 5, 2], 1, padding="SAME"), SEQUENCE),
    "atrous_conv2d_transpose_same": _case(lambda tf, x: tf.nn.atrous_conv2d_transpose(
        x, tf.constant(ATROUS_FILTER), [1, 5, 5, 2], 2, "SAME"), SMALL),
    "atrous_conv2d_transpose_valid": _case(lambda tf, x: tf.nn.atrous_conv2d_transpose(
        x, tf.constant(ATROUS_FILTER), [1, 9, 9, 2], 2, "VALID"), SMALL),
    "atrous_conv2d_transpose_rate1": _case(lambda tf, x: tf.nn.atrous_conv2d_transpose(
        x, tf.constant(ATROUS_FILTER), [1, 5, 5, 2], 1, "SAME"), SMALL),
    "depthwise_backprop_filter": _case(lambda tf, x: tf.nn.depthwise_conv2d_backprop_filter(
        x, [3, 3, 3, 2], tf.constant(OUT_DEPTHWISE), [1, 1, 1, 1], "SAME"), IMAGES),
    "depthwise_native_backprop_input": _case(
        lambda tf, x: tf.nn.depthwise_conv2d_native_backprop_input(
            [2, 5, 5, 3], x, tf.constant(OUT_DEPTHWISE), [1, 1, 1, 1], "SAME"), DEPTHWISE),
    "max_pool1d": _case(lambda tf, x: tf.nn.max_pool1d(x, 2, 2, "VALID"), SEQUENCE),
    "max_pool2d": _case(lambda tf, x: tf.nn.max_pool2d(x, 3, 2, "SAME"), IMAGES),
    "max_pool_v2_rank3": _case(lambda tf, x: tf.nn.max_pool_v2(x, 3, 1, "SAME"), SEQUENCE),
    "max_pool_v2_rank4": _case(lambda tf, x: tf.nn.max_pool_v2(x, [2, 2], [1, 2], "VALID"),
                               IMAGES),
    "max_pool_v2_rank5": _case(lambda tf, x: tf.nn.max_pool_v2(x, 2, 2, "VALID"), VOLUME),
    "avg_pool1d": _case(lambda tf, x: tf.nn.avg_pool1d(x, 3, 2, "SAME"), SEQUENCE),
    "avg_pool_v2_rank3": _case(lambda tf, x: tf.nn.avg_pool_v2(x, 2, 1, "VALID"), SEQUENCE),
    "avg_pool_v2_rank4": _case(lambda tf, x: tf.nn.avg_pool_v2(x, 3, 2, "SAME"), IMAGES),
    "avg_pool_v2_rank5": _case(lambda tf, x: tf.nn.avg_pool_v2(x, 2, 1, "SAME"), VOLUME),
    "convolution_2d": _case(lambda tf, x: tf.nn.convolution(
        x, tf.constant(FILTER), "SAME", strides=[2, 2]), IMAGES),
    "convolution_1d": _case(lambda tf, x: tf.nn.convolution(
        x, FILTER_1D.transpose(0, 2, 1).copy(), "VALID", name="conv"), SEQUENCE),
    "convolution_3d": _case(lambda tf, x: tf.nn.convolution(
        x, tf.constant(FILTER_3D), padding="VALID"), VOLUME),
    "convolution_dilated": _case(lambda tf, x: tf.nn.convolution(
        x, tf.constant(FILTER), "VALID", dilation_rate=[2, 1]), IMAGES),
    "pool_max_2d": _case(lambda tf, x: tf.nn.pool(x, [3, 2], "MAX", "SAME", strides=[2, 1]),
                         IMAGES),
    "pool_avg_1d": _case(lambda tf, x: tf.nn.pool(x, [2], "AVG", "VALID", strides=[2]),
                         SEQUENCE),
    "convolution_dilated_same": _case(lambda tf, x: tf.nn.convolution(
        x, tf.constant(FILTER), "SAME", dilation_rate=[2, 2]), IMAGES),
    "convolution_1d_dilated": _case(lambda tf, x: tf.nn.convolution(
        x, FILTER_1D.transpose(0, 2, 1).copy(), "SAME", dilations=[2]), SEQUENCE),
    "pool_avg_dilated": _case(lambda tf, x: tf.nn.pool(x, [2, 2], "AVG", "VALID",
                                                       dilation_rate=[2, 3]), IMAGES),
    "pool_max_1d_dilated": _case(lambda tf, x: tf.nn.pool(x, [2], "MAX", "VALID",
                                                          dilation_rate=[2]), SEQUENCE),
    # a constant output_shape over an input of unknown batch: the static batch stays unknown
    # (Conv2DBackpropInput's shape function takes it from out_backprop)
    "conv2d_transpose_unknown_batch": _case(lambda tf, x: tf.nn.conv2d_transpose(
        tf.placeholder_with_default(x, [None, 3, 3, 4]), tf.constant(FILTER), [2, 5, 5, 3],
        [1, 2, 2, 1], "SAME"), OUT_STRIDE2),
    # a spatial shape unknown while building: the paddings computed in the graph from Shape
    "convolution_1d_dilated_unknown_length": _case(lambda tf, x: tf.nn.convolution(
        tf.placeholder_with_default(x, [2, None, 4]), FILTER_1D.transpose(0, 2, 1).copy(),
        "VALID", dilation_rate=[2]), SEQUENCE),
    "convolution_dilated_same_unknown_size": _case(lambda tf, x: tf.nn.convolution(
        tf.placeholder_with_default(x, [None, None, None, 3]), tf.constant(FILTER), "SAME",
        dilation_rate=[2, 3]), IMAGES),
    "pool_avg_dilated_unknown_size": _case(lambda tf, x: tf.nn.pool(
        tf.placeholder_with_default(x, [2, None, 5, 3]), [2, 2], "AVG", "VALID",
        dilation_rate=[2, 2]), IMAGES),
    "pool_max_3d": _case(lambda tf, x: tf.nn.pool(x, [2, 2, 2], "MAX", "VALID",
                                                  name="pool3d"), VOLUME),
    "relu_layer": _case(lambda tf, x: tf.nn.relu_layer(x, WEIGHTS, BIASES), MATRIX),
    "batch_norm_global_scaled": _case(
        lambda tf, x: tf.nn.batch_norm_with_global_normalization(
            x, BIASES * 0.1, BIASES * BIASES + 0.5, BIASES, BIASES * 2.0, 0.001, True),
        np.tile(BIASES, (4, 1))),
    "batch_norm_global_unscaled": _case(
        lambda tf, x: tf.nn.batch_norm_with_global_normalization(
            input=x, mean=BIASES * 0.1, variance=BIASES * BIASES + 0.5, beta=BIASES,
            gamma=BIASES * 2.0, variance_epsilon=0.001, scale_after_normalization=False),
        np.tile(BIASES, (4, 1))),
    "compute_average_loss": _case(lambda tf, x: tf.nn.compute_average_loss(x), LOSSES),
    "compute_average_loss_weighted": _case(lambda tf, x: tf.nn.compute_average_loss(
        x, sample_weight=np.arange(6, dtype=np.float32), global_batch_size=12), LOSSES),
    "compute_average_loss_zero_batch": _case(lambda tf, x: tf.nn.compute_average_loss(
        x, global_batch_size=0), LOSSES),
    "scale_regularization_loss": _case(
        lambda tf, x: tf.nn.scale_regularization_loss(x), LOSSES),
}


def _static(tensor):
    shape = tensor.shape
    return None if shape.ndims is None else shape.as_list()


def build_case(tf, name):
    return CASES[name](tf)


def run_case(tf, name):
    with tf.Graph().as_default():
        outputs = build_case(tf, name)
        shapes = {key: _static(t) for key, t in outputs.items()}
        with tf.Session() as sess:
            values = sess.run(outputs)
    return values, shapes


_DILATION = dict(strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="SAME")
ERROR_CASES = {
    "dilation2d_input_rank": ("Dilation2D", dict(input=IMAGES[0], filter=MORPH_FILTER),
                              _DILATION),
    "dilation2d_filter_rank": ("Dilation2D", dict(input=IMAGES, filter=MORPH_FILTER[0]),
                               _DILATION),
    "dilation2d_depth": ("Dilation2D", dict(input=IMAGES, filter=MORPH_FILTER[:, :, :2]),
                         _DILATION),
}


def run_error_case(tf, name):
    import image_cases
    return image_cases.run_error_case(tf, name, ERROR_CASES)
