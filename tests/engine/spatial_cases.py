"""tf.nn.separable_conv2d, tf.nn.atrous_conv2d, tf.layers.conv2d_transpose /
Conv2DTranspose, conv3d_transpose / Conv3DTranspose and tf.layers.separable_conv1d /
SeparableConv1D, separable_conv2d / SeparableConv2D, built the same way by real
TensorFlow (tf.compat.v1 with tf_keras's legacy layers) and the engine, in
tests/engine/layers_cases.py's form: each builder returns the tensors to fetch by key
(outputs, the loss, "grad:<variable or input>"), the feeds and the update ops.
tools/make_spatial_fixtures.py writes TensorFlow's values and graphs to
tests/fixtures/spatial/; tests/engine/test_spatial_ops.py compares the engine's.
"""

import numpy as np

from layers_cases import _with_gradients


def _random(seed, shape, dtype=np.float32):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, shape).astype(dtype)


def build_separable(tf):
    """tf.nn.separable_conv2d: SAME with strides, and VALID with a rate (SpaceToBatchND)."""
    images = tf.constant(_random(0, [2, 7, 8, 3]), name="images")
    depthwise = tf.constant(_random(1, [3, 3, 3, 2]), name="depthwise")
    pointwise = tf.constant(_random(2, [1, 1, 6, 4]), name="pointwise")
    same = tf.nn.separable_conv2d(images, depthwise, pointwise, [1, 2, 2, 1], "SAME")
    dilated = tf.nn.separable_conv2d(images, depthwise, pointwise, [1, 1, 1, 1], "VALID",
                                     rate=[2, 2], name="dilated")
    loss = tf.reduce_sum(tf.square(same)) + tf.reduce_sum(tf.square(dilated))
    out = {"same": same, "dilated": dilated}
    return _with_gradients(tf, out, loss, {"images": images, "depthwise": depthwise,
                                           "pointwise": pointwise}), {}, []


def build_atrous(tf):
    """tf.nn.atrous_conv2d at rates 1, 2 (SAME) and 3 (VALID)."""
    images = tf.constant(_random(3, [2, 9, 8, 3]), name="images")
    filters = tf.constant(_random(4, [3, 3, 3, 4]), name="filters")
    plain = tf.nn.atrous_conv2d(images, filters, 1, "SAME")
    same = tf.nn.atrous_conv2d(images, filters, 2, "SAME")
    valid = tf.nn.atrous_conv2d(images, filters, 3, "VALID", name="atrous_valid")
    loss = tf.add_n([tf.reduce_sum(tf.square(t)) for t in (plain, same, valid)])
    out = {"plain": plain, "same": same, "valid": valid}
    return _with_gradients(tf, out, loss, {"images": images, "filters": filters}), {}, []


def build_dilated_unknown_size(tf):
    """separable_conv2d and atrous_conv2d at rate 2 over images whose height and width are
    unknown while building: the paddings computed in the graph from their Shape."""
    images = tf.constant(_random(6, [2, 7, 8, 3]), name="images")
    held = tf.placeholder_with_default(images, [None, None, None, 3])
    depthwise = tf.constant(_random(7, [3, 3, 3, 2]), name="depthwise")
    pointwise = tf.constant(_random(8, [1, 1, 6, 4]), name="pointwise")
    filters = tf.constant(_random(9, [3, 3, 3, 4]), name="filters")
    separable = tf.nn.separable_conv2d(held, depthwise, pointwise, [1, 1, 1, 1], "SAME",
                                       rate=[2, 2])
    atrous = tf.nn.atrous_conv2d(held, filters, 2, "VALID")
    loss = tf.reduce_sum(tf.square(separable)) + tf.reduce_sum(tf.square(atrous))
    out = {"separable": separable, "atrous": atrous}
    return _with_gradients(tf, out, loss, {"images": images, "depthwise": depthwise,
                                           "filters": filters}), {}, []


def build_conv2d_transpose(tf):
    """tf.layers.conv2d_transpose (same, stride 2), Conv2DTranspose (valid, an activation,
    no bias), as a DCGAN generator upsamples."""
    tf.set_random_seed(7)
    codes = tf.constant(_random(5, [2, 3, 4, 5]), name="codes")
    up = tf.layers.conv2d_transpose(codes, 4, 3, strides=2, padding="same")
    layer = tf.layers.Conv2DTranspose(2, [2, 3], strides=(2, 1), activation=tf.nn.tanh,
                                      use_bias=False, name="to_image")
    image = layer(tf.nn.relu(up))
    loss = tf.reduce_mean(tf.square(image))
    out = {"up": up, "image": image}
    return _with_gradients(tf, out, loss, {"codes": codes}), {}, []


def build_separable_layers(tf):
    """tf.layers.separable_conv2d (depth multiplier 2, relu), SeparableConv2D (strides,
    same padding, a dilation rate), as MobileNet-style nets stack them."""
    tf.set_random_seed(8)
    images = tf.constant(_random(6, [2, 8, 8, 3]), name="images")
    first = tf.layers.separable_conv2d(images, 4, 3, depth_multiplier=2,
                                       activation=tf.nn.relu)
    second = tf.layers.SeparableConv2D(5, 3, padding="same", dilation_rate=2,
                                       name="dilated")(first)
    third = tf.layers.SeparableConv2D(3, 2, strides=2, name="strided")(second)
    loss = tf.reduce_mean(tf.square(third))
    out = {"first": first, "second": second, "third": third}
    return _with_gradients(tf, out, loss, {"images": images}), {}, []


def build_conv3d_transpose(tf):
    """tf.layers.conv3d_transpose (same, stride 2, relu) and Conv3DTranspose (valid, uneven
    strides, output_padding, no bias), as a volumetric decoder upsamples."""
    tf.set_random_seed(9)
    volumes = tf.constant(_random(7, [2, 2, 3, 2, 3]), name="volumes")
    up = tf.layers.conv3d_transpose(volumes, 2, 3, strides=2, padding="same",
                                    activation=tf.nn.relu)
    layer = tf.layers.Conv3DTranspose(3, (2, 3, 2), strides=(1, 2, 2), output_padding=(0, 1, 1),
                                      use_bias=False, name="decoded")
    decoded = layer(up)
    loss = tf.reduce_mean(tf.square(decoded))
    out = {"up": up, "decoded": decoded,
           "static_shapes": tf.constant([up.shape.as_list(), decoded.shape.as_list()])}
    return _with_gradients(tf, out, loss, {"volumes": volumes}), {}, []


def build_separable_conv1d(tf):
    """tf.layers.separable_conv1d (depth multiplier 2, tanh) and SeparableConv1D (same
    padding with a dilation rate; strides, valid), over sequences of unknown batch."""
    tf.set_random_seed(10)
    sequences = tf.placeholder(tf.float32, [None, 9, 3], name="sequences")
    first = tf.layers.separable_conv1d(sequences, 4, 3, depth_multiplier=2,
                                       activation=tf.nn.tanh)
    second = tf.layers.SeparableConv1D(5, 3, padding="same", dilation_rate=2,
                                       name="dilated")(first)
    third = tf.layers.SeparableConv1D(2, 2, strides=2, use_bias=False, name="strided")(second)
    loss = tf.reduce_mean(tf.square(third))
    out = {"first": first, "second": second, "third": third,
           "static_shapes": tf.constant([[-1 if d is None else d for d in t.shape.as_list()]
                                         for t in (first, second, third)])}
    return (_with_gradients(tf, out, loss, {"sequences": sequences}),
            {"sequences": _random(8, [2, 9, 3])}, [])


CASES = {
    "separable": build_separable,
    "atrous": build_atrous,
    "dilated_unknown_size": build_dilated_unknown_size,
    "conv2d_transpose": build_conv2d_transpose,
    "separable_layers": build_separable_layers,
    "conv3d_transpose": build_conv3d_transpose,
    "separable_conv1d": build_separable_conv1d,
}
