"""TF 1.x's tf.batch_gather and tf.batch_scatter_update as TensorFlow 2.21 composes them:
the batch dimensions folded into flat indices for one Gather, or spelled out as full
coordinates for one ScatterNdUpdate."""

from engine.framework.default_graph import name_scope
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op


def batch_gather(params, indices, name=None):
    """params[b..., indices[b..., i], ...] for the leading batch dims b... of indices."""
    with name_scope(name, "BatchGather", [params, indices]):
        indices = convert_to_tensor(indices, name="indices")
        params = convert_to_tensor(params, name="params")
        if indices.shape.ndims is None:
            raise ValueError("batch_gather does not allow indices with unknown shape.")
        return _batch_gather(params, indices, batch_dims=indices.shape.ndims - 1)


def _batch_gather(params, indices, batch_dims):
    """array_ops._batch_gather without an axis: the batch offsets added to the indices."""
    indices_ndims = indices.shape.ndims
    if batch_dims < 0:
        batch_dims += indices_ndims
    if batch_dims < 0 or batch_dims >= indices_ndims:
        raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than "
                         f"rank(`indices`) = {indices_ndims}")
    if params.shape.ndims is not None and batch_dims >= params.shape.ndims:
        raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than "
                         f"rank(`params`) = {params.shape.ndims}")
    indices_shape = array_ops.shape(indices)
    params_shape = array_ops.shape(params)
    batch_indices = indices
    indices_dtype = indices.dtype.base_dtype
    accum_dim_value = array_ops.ones((), dtype=indices_dtype)
    casted_params_shape = apply_op("Cast", x=params_shape, DstT=indices_dtype)
    for dim in range(batch_dims, 0, -1):
        dim_value = casted_params_shape[dim - 1]
        accum_dim_value *= casted_params_shape[dim]
        start = array_ops.zeros((), dtype=indices_dtype)
        step = array_ops.ones((), dtype=indices_dtype)
        dim_indices = apply_op("Range", start=start, limit=dim_value, delta=step)
        dim_indices *= accum_dim_value
        dim_shape = array_ops.stack(
            [1] * (dim - 1) + [dim_value] + [1] * (indices_ndims - dim), axis=0)
        batch_indices += array_ops.reshape(dim_indices, dim_shape)
    flat_indices = array_ops.reshape(batch_indices, [-1])
    outer_shape = params_shape[batch_dims + 1:]
    flat_inner_shape = apply_op("Prod", input=params_shape[:batch_dims + 1],
                                reduction_indices=[0], keep_dims=False)
    flat_params = array_ops.reshape(params, array_ops.concat([[flat_inner_shape], outer_shape],
                                                             axis=0))
    flat_result = array_ops.gather(flat_params, flat_indices)
    result = array_ops.reshape(flat_result, array_ops.concat([indices_shape, outer_shape],
                                                             axis=0))
    final_shape = indices.get_shape()[:batch_dims].merge_with(params.get_shape()[:batch_dims])
    final_shape = final_shape.concatenate(indices.get_shape().dims[batch_dims:])
    final_shape = final_shape.concatenate(params.get_shape()[batch_dims + 1:])
    result.set_shape(final_shape)
    return result


def batch_scatter_update(ref, indices, updates, use_locking=True, name=None):
    """ref[b..., indices[b..., i], ...] = updates[b..., i, ...]: one ScatterNdUpdate of the
    indices completed with their batch coordinates."""
    from engine.ops.state_ops import scatter_nd_update
    with name_scope(name):
        indices = convert_to_tensor(indices, name="indices")
        indices_shape = array_ops.shape(indices)
        indices_dimensions = indices.get_shape().ndims
        if indices_dimensions is None:
            raise ValueError("batch_gather does not allow indices with unknown shape.")
        nd_indices = array_ops.expand_dims(indices, axis=-1)
        nd_indices_list = []
        for dimension in range(indices_dimensions - 1):
            dimension_size = indices_shape[dimension]
            shape_to_broadcast = [1] * (indices_dimensions + 1)
            shape_to_broadcast[dimension] = dimension_size
            dimension_range = array_ops.reshape(
                apply_op("Range", start=0, limit=dimension_size, delta=1), shape_to_broadcast)
            if dimension_range.dtype.base_dtype != nd_indices.dtype:
                dimension_range = apply_op("Cast", x=dimension_range, DstT=nd_indices.dtype)
            nd_indices_list.append(dimension_range * array_ops.ones_like(nd_indices))
        nd_indices_list.append(nd_indices)
        final_indices = array_ops.concat(nd_indices_list, axis=-1)
        return scatter_nd_update(ref, final_indices, updates, use_locking=use_locking)
