"""The cases of tests/fixtures/build_errors/cases.json (tools/make_build_error_fixtures.py):
graphs TensorFlow refuses while they are built, each an expression over `tf` (tf.compat.v1)
evaluated in a fresh graph; the answer is the error's class and whole message, or "built"
with the result's static shape."""

CASES = {
    "fill_minus_one": "tf.fill([2, -1], 1.0)",
    "fill_minus_one_int64": "tf.fill(tf.constant([-1], tf.int64), 1.0)",
    "fill_minus_three": "tf.fill([2, -3], 1.0)",
    "fill_below_minus_one_first": "tf.fill([-2, -1], 1.0)",
    "fill_zero": "tf.fill([0, 3], 1.0)",
    "scatter_nd_outer_dims": "tf.scatter_nd([[0], [1]], [1.0, 2.0, 3.0], [4])",
    "scatter_nd_inner_dims": "tf.scatter_nd([[0, 1]], [[1.0, 2.0]], [4, 4])",
    "scatter_nd_inner_size": "tf.scatter_nd([[0]], [[1.0, 2.0]], [4, 3])",
    "scatter_nd_ok": "tf.scatter_nd([[0], [2]], [[1.0, 2.0], [3.0, 4.0]], [4, 2])",
    "scatter_nd_empty_output": "tf.scatter_nd([[0]], [1.0], [0])",
    "scatter_nd_unknown_index_depth": "tf.scatter_nd(tf.placeholder(tf.int32, [2, None]), "
                                      "[1.0, 2.0, 3.0], [4])",
    "invert_permutation_scalar": "tf.invert_permutation(tf.constant(1))",
    "invert_permutation_matrix": "tf.invert_permutation([[0, 1]])",
    "invert_permutation_unknown": "tf.invert_permutation(tf.placeholder(tf.int32))",
}


def build(tf, expression):
    """["built", static shape as text] or ["error", class name, message]."""
    with tf.Graph().as_default():
        try:
            value = eval(expression, {"tf": tf})  # noqa: S307
        except Exception as error:  # noqa: BLE001 - the class and message are the answer
            return ["error", type(error).__name__, str(error)]
    return ["built", str(value.shape)]
