"""tf.extract_image_patches, tf.image.extract_patches and tf.extract_volume_patches, and their
gradients as TensorFlow 2.21's array_grad.py builds them (each input position's index pushed
through the same op, then the gradient summed back by index)."""

from engine.framework import dtypes
from engine.framework.deprecation import deprecated_argument_lookup
from engine.framework.sparse_tensor import SparseTensor
from engine.ops import array_ops, math_ops
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.indexed_slices import dense
from engine.ops.op_def_library import apply_op


def _int_list(values):
    return [int(v) for v in values] if isinstance(values, (list, tuple)) else values


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """tf.image.extract_patches: each sizes window of the [batch, rows, cols, depth] images,
    its samples `rates` apart, along the depth of [batch, out_rows, out_cols, ...]."""
    return apply_op("ExtractImagePatches", images=images, ksizes=_int_list(sizes),
                    strides=_int_list(strides), rates=_int_list(rates), padding=padding,
                    name=name)


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None,
                          name=None, sizes=None):
    """TF 1.x's tf.extract_image_patches (ksizes, or sizes)."""
    ksizes = deprecated_argument_lookup("sizes", sizes, "ksizes", ksizes)
    return extract_patches(images, ksizes, strides, rates, padding, name)


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002
    return apply_op("ExtractVolumePatches", input=input, ksizes=ksizes, strides=strides,
                    padding=padding, name=name)


@RegisterGradient("ExtractImagePatches")
def _extract_image_patches_grad(op, grad):
    input_bhwc = array_ops.shape(op.inputs[0], out_type=dtypes.int64)
    batch_size, rows_in, cols_in, channels = array_ops.unstack(input_bhwc)
    output_bhwc = array_ops.shape(op.outputs[0], out_type=dtypes.int64)
    rows_out, cols_out = array_ops.unstack(output_bhwc[1:3])
    _, ksize_r, ksize_c, _ = op.get_attr("ksizes")
    input_indices_num = rows_in * cols_in
    input_idx = array_ops.reshape(
        math_ops.range(1, input_indices_num + 1, dtype=dtypes.float32),
        (1, rows_in, cols_in, 1))
    input_idx_patched = apply_op("ExtractImagePatches", images=input_idx,
                                 ksizes=op.get_attr("ksizes"), strides=op.get_attr("strides"),
                                 rates=op.get_attr("rates"), padding=op.get_attr("padding"))
    input_idx_patched = math_ops.cast(input_idx_patched, dtypes.int64)
    grad_expanded = array_ops.transpose(
        array_ops.reshape(dense(grad),
                          (batch_size, rows_out, cols_out, ksize_r, ksize_c, channels)),
        (1, 2, 3, 4, 0, 5))
    grad_flat = array_ops.reshape(grad_expanded, (-1, batch_size * channels))
    segment_ids = array_ops.reshape(input_idx_patched, [-1]) - 1
    grad_out = apply_op("UnsortedSegmentSum", data=grad_flat, segment_ids=segment_ids,
                        num_segments=input_indices_num)
    grad_out = array_ops.reshape(grad_out, (rows_in, cols_in, batch_size, channels))
    return [array_ops.transpose(grad_out, (2, 0, 1, 3))]


@RegisterGradient("ExtractVolumePatches")
def _extract_volume_patches_grad(op, grad):
    from engine.ops.manip_ops import sparse_tensor_dense_matmul
    from engine.ops.sparse_ops import sparse_slice
    batch_size, planes_in, rows_in, cols_in, channels = [
        dim.value for dim in op.inputs[0].shape.dims]
    input_bphwc = array_ops.shape(op.inputs[0])
    batch_size = input_bphwc[0]
    channels = input_bphwc[4]
    input_indices_num = 1 + planes_in * rows_in * cols_in
    input_idx = array_ops.reshape(math_ops.range(1, input_indices_num, dtype=dtypes.int64),
                                  (1, planes_in, rows_in, cols_in, 1))
    input_idx_patched = apply_op("ExtractVolumePatches", input=input_idx,
                                 ksizes=op.get_attr("ksizes"), strides=op.get_attr("strides"),
                                 padding=op.get_attr("padding"))
    _, planes_out, rows_out, cols_out, _ = [dim.value for dim in op.outputs[0].shape.dims]
    _, ksize_p, ksize_r, ksize_c, _ = op.get_attr("ksizes")
    prc_indices_num = planes_out * rows_out * cols_out
    output_indices_num = prc_indices_num * ksize_p * ksize_r * ksize_c
    output_idx = array_ops.reshape(
        math_ops.range(output_indices_num, dtype=dtypes.int64),
        (1, planes_out, rows_out, cols_out, ksize_p * ksize_r * ksize_c))
    idx_matrix = array_ops.concat([array_ops.expand_dims(input_idx_patched, axis=-1),
                                   array_ops.expand_dims(output_idx, axis=-1)], axis=-1)
    idx_map = array_ops.reshape(idx_matrix, (-1, 2))
    sp_shape = (input_indices_num, output_indices_num)
    sp_mat_full = SparseTensor(idx_map, array_ops.ones([output_indices_num], dtype=grad.dtype),
                               sp_shape)
    sp_mat = sparse_slice(sp_mat_full, (1, 0), (input_indices_num - 1, output_indices_num))
    grad_expanded = array_ops.transpose(
        array_ops.reshape(dense(grad), (batch_size, planes_out, rows_out, cols_out, ksize_p,
                                        ksize_r, ksize_c, channels)),
        (1, 2, 3, 4, 5, 6, 0, 7))
    grad_flat = array_ops.reshape(grad_expanded, (-1, batch_size * channels))
    jac = sparse_tensor_dense_matmul(sp_mat, grad_flat)
    grad_out = array_ops.reshape(jac, (planes_in, rows_in, cols_in, batch_size, channels))
    return [array_ops.transpose(grad_out, (3, 0, 1, 2, 4))]
