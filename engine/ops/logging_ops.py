"""tf.Assert (tensorflow/python/ops/control_flow_assert.py) and tf.print (logging_ops.py) as
TF 1.x builds them.

When every data tensor is a string or int32 the Assert node is built directly
(`<scope>/Assert`); otherwise it is wrapped in `cond(condition, no_op, true_assert,
name="AssertGuard")` and the guard cond's Merge op is returned. As in TensorFlow, `data` is
converted once up front (`<scope>/Const`, ... for Python values, used only to pick the path)
and the raw `data` is handed to the Assert op, which converts Python values again
(`<scope>/Assert/data_0`, ...).

tf.print writes its inputs into one template, Python values as pprint.pformat writes them and
each tensor as a placeholder, formats it with StringFormat and prints the result with PrintV2;
in a TF1 graph the PrintV2 op is returned, to be run or used as a control dependency.
"""

import collections
import logging
import os
import pprint
import random
import sys

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.ops.control_flow.cond import cond
from engine.ops.control_flow.ops import no_op
from engine.ops.convert import convert_n_to_tensor, convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops import nest
from engine.ops.string_ops import string_format
from engine.framework.sparse_tensor import SparseTensor
from engine.framework.tensor import Tensor
from engine.ops.variables import Variable
from engine.platform import tf_logging


def _assert(condition, data, summarize, name):
    kwargs = {} if summarize is None else {"summarize": summarize}
    return apply_op("Assert", condition=condition, data=list(data), name=name, **kwargs)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802  (TensorFlow's name)
    """An Operation that raises InvalidArgumentError when run with `condition` false."""
    with get_default_graph().name_scope(name or "Assert"):
        xs = convert_n_to_tensor(data)
        if all(x.dtype in (dtypes.string, dtypes.int32) for x in xs):
            return _assert(condition, data, summarize, name="Assert")
        condition = convert_to_tensor(condition, name="Condition")

        def true_assert():
            return _assert(condition, data, summarize, name="Assert")
        guarded_assert = cond(condition, no_op, true_assert, name="AssertGuard")
        return guarded_assert.op


def _is_tf_type(value):
    return isinstance(value, (Tensor, SparseTensor, Variable))


def _stream_constant(output_stream):
    """The PrintV2 output_stream of tf.print's `output_stream` (TensorFlow's
    output_stream_to_constant: the streams, a "file://" path and the logging levels)."""
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    return {
        sys.stdout: "stdout", sys.stderr: "stderr",
        tf_logging.INFO: "log(info)", tf_logging.info: "log(info)",
        tf_logging.WARN: "log(warning)", tf_logging.warning: "log(warning)",
        tf_logging.warn: "log(warning)",
        tf_logging.ERROR: "log(error)", tf_logging.error: "log(error)",
        logging.INFO: "log(info)", logging.info: "log(info)",
        logging.WARNING: "log(warning)", logging.WARN: "log(warning)",
        logging.warning: "log(warning)", logging.warn: "log(warning)",
        logging.ERROR: "log(error)", logging.error: "log(error)",
    }.get(output_stream)


def _generate_placeholder_string(text, default_placeholder="{}"):
    """A placeholder that does not appear in `text` (TensorFlow's, from random.Random(5))."""
    placeholder = default_placeholder
    rng = random.Random(5)
    while placeholder in text:
        placeholder = placeholder + str(rng.randint(0, 9))
    return placeholder


def _pack_as(structure, flat):
    """nest.pack_sequence_as with TensorFlow's dict order: values taken in sorted key order,
    the mapping rebuilt in the structure's own key order."""
    flat = iter(list(flat))

    def pack(s):
        if isinstance(s, dict):
            packed = {key: pack(s[key]) for key in sorted(s)}
            return type(s)((key, packed[key]) for key in s)
        if isinstance(s, tuple) and hasattr(s, "_fields"):
            return type(s)(*[pack(item) for item in s])
        if isinstance(s, (list, tuple)):
            return type(s)(pack(item) for item in s)
        return next(flat)
    return pack(structure)


def print_v2(*inputs, **kwargs):
    """tf.print: the inputs (tensors, SparseTensors, Python values and structures of them)
    formatted into one string and printed to `output_stream` when the returned op runs."""
    output_stream = kwargs.pop("output_stream", sys.stderr)
    name = kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", os.linesep)
    if kwargs:
        raise ValueError("Unrecognized keyword arguments for tf.print: %s" % kwargs)
    format_name = name + "_format" if name else None
    output_stream_string = _stream_constant(output_stream)
    if not output_stream_string:
        raise ValueError("Unsupported output stream, logging level, or file." +
                         str(output_stream) +
                         ". Supported streams are sys.stdout, "
                         "sys.stderr, tf.logging.info, "
                         "tf.logging.warning, tf.logging.error. " +
                         "File needs to be in the form of 'file://<filepath>'.")
    if (len(inputs) == 1 and _is_tf_type(inputs[0])
            and not isinstance(inputs[0], SparseTensor)
            and inputs[0].shape.ndims == 0 and inputs[0].dtype == dtypes.string):
        formatted_string = inputs[0]
    else:
        sorted_inputs = [collections.OrderedDict(sorted(x.items()))
                         if isinstance(x, collections.OrderedDict) else x for x in inputs]
        tensor_free = _pack_as(sorted_inputs, ["" if _is_tf_type(x) else x
                                               for x in nest.flatten(sorted_inputs)])
        placeholder = _generate_placeholder_string(" ".join(pprint.pformat(x)
                                                            for x in tensor_free))
        templates, tensors = [], []
        for input_ in inputs:
            placeholders = []
            for x in nest.flatten(input_):
                if isinstance(x, SparseTensor):
                    tensors.extend([x.indices, x.values, x.dense_shape])
                    placeholders.append("SparseTensor(indices={}, values={}, shape={})".format(
                        placeholder, placeholder, placeholder))
                elif _is_tf_type(x):
                    tensors.append(x)
                    placeholders.append(placeholder)
                else:
                    placeholders.append(x)
            if isinstance(input_, str):
                templates.append(input_)
            else:
                templates.append(pprint.pformat(_pack_as(input_, placeholders)))
        template = sep.join(templates).replace("'" + placeholder + "'", placeholder)
        formatted_string = string_format(inputs=tensors, template=template,
                                         placeholder=placeholder, summarize=summarize,
                                         name=format_name)
    return apply_op("PrintV2", input=formatted_string, output_stream=output_stream_string,
                    end=end, name=name)


__all__ = ["Assert", "print_v2"]
