"""String ops of the TF1 API: tf.string_join (tf.strings.join) and tf.strings.format."""

from engine.framework.sparse_tensor import SparseTensor
from engine.framework.tensor import Tensor
from engine.ops.op_def_library import apply_op
from engine.ops.variables import Variable


def string_join(inputs, separator="", name=None):
    """Joins the strings of `inputs` element by element with `separator`: the non-scalar
    inputs share one shape, scalars join every element (TensorFlow's StringJoin)."""
    return apply_op("StringJoin", inputs=list(inputs), separator=separator, name=name)


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """tf.strings.format: `template` with each placeholder replaced by the next input, as
    Tensor::SummarizeValue(summarize, print_v2) writes it (TensorFlow's StringFormat)."""
    if isinstance(inputs, (Tensor, SparseTensor, Variable)):
        inputs = [inputs]
    if template.count(placeholder) != len(inputs):
        raise ValueError(f"The template expects {template.count(placeholder)} "
                         f"tensors, but the inputs only has {len(inputs)}. "
                         "Please ensure the number of placeholders in template "
                         "matches inputs length.")
    return apply_op("StringFormat", inputs=list(inputs), template=template,
                    placeholder=placeholder, summarize=summarize, name=name)
