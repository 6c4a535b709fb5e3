"""TF 1.x's space-to-batch API over SpaceToBatchND and BatchToSpaceND: tf.space_to_batch and
tf.batch_to_space (square blocks of block_size), tf.required_space_to_batch_paddings and
tf.nn.with_space_to_batch, as TensorFlow 2.21's array_ops.py and nn_ops.py build them."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.deprecation import deprecated_argument_lookup
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.nn_ops import convert_padding


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    return apply_op("SpaceToBatchND", input=input, block_shape=block_shape, paddings=paddings,
                    name=name)


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002
    return apply_op("BatchToSpaceND", input=input, block_shape=block_shape, crops=crops,
                    name=name)


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002
    """SpaceToBatchND of a 4-D input with a block of block_size x block_size."""
    block_size = deprecated_argument_lookup("block_shape", block_shape, "block_size",
                                            block_size)
    result = space_to_batch_nd(input, paddings=paddings,
                               block_shape=np.array([block_size, block_size], dtype=np.int64),
                               name=name)
    result.set_shape(result.get_shape().with_rank(4))
    return result


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002
    """BatchToSpaceND of a 4-D input with a block of block_size x block_size."""
    block_size = deprecated_argument_lookup("block_shape", block_shape, "block_size",
                                            block_size)
    result = batch_to_space_nd(input, crops=crops,
                               block_shape=np.array([block_size, block_size], dtype=np.int64),
                               name=name)
    result.set_shape(result.get_shape().with_rank(4))
    return result


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops) that make each padded spatial size a multiple of its block: Consts
    where every argument is known, else the same arithmetic on tensors."""
    with name_scope(name, "required_space_to_batch_paddings", [input_shape, block_shape]):
        input_shape = convert_to_tensor(input_shape, dtype=dtypes.int32, name="input_shape")
        block_shape = convert_to_tensor(block_shape, dtype=dtypes.int32, name="block_shape")
        block_shape.get_shape().assert_is_fully_defined()
        block_shape.get_shape().assert_has_rank(1)
        num_block_dims = block_shape.get_shape().dims[0].value
        if num_block_dims == 0:
            return (array_ops.zeros([0, 2], dtypes.int32),
                    array_ops.zeros([0, 2], dtypes.int32))
        input_shape.get_shape().assert_is_compatible_with([num_block_dims])
        if base_paddings is not None:
            base_paddings = convert_to_tensor(base_paddings, dtype=dtypes.int32,
                                              name="base_paddings")
            base_paddings.get_shape().assert_is_compatible_with([num_block_dims, 2])
        else:
            base_paddings = array_ops.zeros([num_block_dims, 2], dtypes.int32)
        const_block_shape = constant_value(block_shape)
        const_input_shape = constant_value(input_shape)
        const_base_paddings = constant_value(base_paddings)
        if const_block_shape is not None and const_input_shape is not None \
                and const_base_paddings is not None:
            block_shape, input_shape = const_block_shape, const_input_shape
            base_paddings = const_base_paddings
        pad_start = base_paddings[:, 0]
        orig_pad_end = base_paddings[:, 1]
        full_input_shape = input_shape + pad_start + orig_pad_end
        pad_end_extra = (block_shape - full_input_shape % block_shape) % block_shape
        pad_end = orig_pad_end + pad_end_extra
        result_paddings = array_ops.stack(
            [[pad_start[i], pad_end[i]] for i in range(num_block_dims)], name="paddings")
        result_crops = array_ops.stack(
            [[0, pad_end_extra[i]] for i in range(num_block_dims)], name="crops")
        return result_paddings, result_crops


def _base_paddings(filter_shape, num_spatial_dims, rate_or_const_rate):
    filter_spatial_shape = filter_shape[:num_spatial_dims]
    pad_extra_shape = (filter_spatial_shape - 1) * rate_or_const_rate
    pad_extra_start = pad_extra_shape // 2
    pad_extra_end = pad_extra_shape - pad_extra_start
    return array_ops.stack([[pad_extra_start[i], pad_extra_end[i]]
                            for i in range(num_spatial_dims)])


def _adjust(orig, fill_value, spatial_dims):
    """`orig` (one row per spatial dim) with fill rows for the dims between them."""
    fill_dims = orig.get_shape().as_list()[1:]
    dtype = orig.dtype.as_numpy_dtype
    parts = []
    const_orig = constant_value(orig)
    const_or_orig = const_orig if const_orig is not None else orig
    prev_spatial_dim = 0
    i = 0
    while i < len(spatial_dims):
        start_i = i
        start_spatial_dim = spatial_dims[i]
        if start_spatial_dim > 1:
            parts.append(np.full([start_spatial_dim - 1 - prev_spatial_dim] + fill_dims,
                                 fill_value, dtype=dtype))
        while i + 1 < len(spatial_dims) and spatial_dims[i + 1] == spatial_dims[i] + 1:
            i += 1
        parts.append(const_or_orig[start_i:i + 1])
        prev_spatial_dim = spatial_dims[i]
        i += 1
    if const_orig is not None:
        return np.concatenate(parts)
    return array_ops.concat(parts, 0)


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,  # noqa: A002
                        spatial_dims=None, data_format=None):
    """op(converted, num_spatial_dims, padding) on the input's blocks moved into the batch
    (SpaceToBatchND), moved back after (BatchToSpaceND); op on the input itself at rate 1."""
    input = convert_to_tensor(input, name="input")  # noqa: A001
    input_shape = input.shape
    dilation_rate = convert_to_tensor(dilation_rate, dtypes.int32, name="dilation_rate")
    if dilation_rate.shape.ndims not in (None, 1):
        raise ValueError("`dilation_rate.shape.rank` must be 1. Received: "
                         f"dilation_rate={dilation_rate} of rank {dilation_rate.shape.ndims}")
    if not dilation_rate.shape.is_fully_defined():
        raise ValueError("`dilation_rate.shape` must be fully defined. Received: "
                         f"dilation_rate={dilation_rate} with shape {dilation_rate.shape}")
    num_spatial_dims = dilation_rate.shape.dims[0].value
    channels_first = data_format is not None and data_format.startswith("NC")
    starting_spatial_dim = 2 if channels_first else 1
    if spatial_dims is None:
        spatial_dims = range(starting_spatial_dim, num_spatial_dims + starting_spatial_dim)
    orig_spatial_dims = list(spatial_dims)
    spatial_dims = sorted(set(int(x) for x in orig_spatial_dims))
    if spatial_dims != orig_spatial_dims or any(x < 1 for x in spatial_dims):
        raise ValueError("`spatial_dims` must be a monotonically increasing sequence of "
                         f"positive integers. Received: spatial_dims={orig_spatial_dims}")
    expected_input_rank = spatial_dims[-1] if channels_first else spatial_dims[-1] + 1
    try:
        input_shape.with_rank_at_least(expected_input_rank)
    except ValueError:
        raise ValueError(f"`input.shape.rank` must be at least {expected_input_rank}. "
                         f"Received: input.shape={input_shape} with rank "
                         f"{input_shape.ndims}") from None
    const_rate = constant_value(dilation_rate)
    rate_or_const_rate = dilation_rate
    if const_rate is not None:
        rate_or_const_rate = const_rate
        if np.any(const_rate < 1):
            raise ValueError(f"`dilation_rate` must be positive. Received: "
                             f"dilation_rate={const_rate}")
        if np.all(const_rate == 1):
            return op(input, num_spatial_dims, padding)
    padding, explicit_paddings = convert_padding(padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("`filter_shape` must be specified for `padding='SAME'`. "
                             f"Received: filter_shape={filter_shape} and padding={padding}")
        filter_shape = convert_to_tensor(filter_shape, name="filter_shape")
        const_filter_shape = constant_value(filter_shape)
        if const_filter_shape is None:
            raise NotImplementedError(
                "tf.nn.with_space_to_batch with padding='SAME' needs filter_shape known "
                "while the graph is built")
        base_paddings = _base_paddings(const_filter_shape, num_spatial_dims,
                                       rate_or_const_rate)
    elif padding == "VALID":
        base_paddings = np.zeros([num_spatial_dims, 2], np.int32)
    elif padding == "EXPLICIT":
        pairs = np.array(explicit_paddings).reshape([num_spatial_dims + 2, 2])
        base_paddings = pairs[2:] if channels_first else pairs[1:-1]
    else:
        raise ValueError("`padding` must be one of 'SAME' or 'VALID'. "
                         f"Received: padding={padding}")

    input_spatial_shape = None
    if input_shape.ndims is not None:
        input_shape_list = input_shape.as_list()
        input_spatial_shape = [input_shape_list[i] for i in spatial_dims]
    if input_spatial_shape is None or None in input_spatial_shape:
        input_shape_tensor = array_ops.shape(input)
        input_spatial_shape = array_ops.stack([input_shape_tensor[i] for i in spatial_dims])
    paddings, crops = required_space_to_batch_paddings(
        input_shape=input_spatial_shape, base_paddings=base_paddings,
        block_shape=dilation_rate)
    dilation_rate = _adjust(dilation_rate, 1, spatial_dims)
    paddings = _adjust(paddings, 0, spatial_dims)
    crops = _adjust(crops, 0, spatial_dims)
    input_converted = space_to_batch_nd(input=input, block_shape=dilation_rate,
                                        paddings=paddings)
    result = op(input_converted, num_spatial_dims, "VALID")
    return batch_to_space_nd(input=result, block_shape=dilation_rate, crops=crops)
