"""String ops of the TF1 API: tf.string_join (tf.strings.join)."""

from engine.ops.op_def_library import apply_op


def string_join(inputs, separator="", name=None):
    """Joins the strings of `inputs` element by element with `separator`: the non-scalar
    inputs share one shape, scalars join every element (TensorFlow's StringJoin)."""
    return apply_op("StringJoin", inputs=list(inputs), separator=separator, name=name)
