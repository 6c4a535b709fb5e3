"""Gradients of tf.sparse's arithmetic, as TensorFlow's sparse_grad.py and math_grad.py
(SparseMatMul) register them."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.sparse_tensor import SparseTensor
from engine.ops import array_ops, math_ops
from engine.ops.cast import cast
from engine.ops.fill_ops import ones, zeros_like
from engine.ops.gradient_registry import RegisterGradient, no_gradient
from engine.ops.math_grad import reduced_shape
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import shape as _shape, size as _size
from engine.ops import sparse_math_ops

no_gradient("SparseAddGrad")
no_gradient("SparseConcat")


@RegisterGradient("SparseAdd")
def _sparse_add_grad(op, *grads):
    val_grad = grads[1]
    a_indices, b_indices, sum_indices = op.inputs[0], op.inputs[3], op.outputs[0]
    a_val_grad, b_val_grad = apply_op("SparseAddGrad", backprop_val_grad=val_grad,
                                      a_indices=a_indices, b_indices=b_indices,
                                      sum_indices=sum_indices)
    a_val_grad.set_shape(op.inputs[1].get_shape())
    b_val_grad.set_shape(op.inputs[4].get_shape())
    return (None, a_val_grad, None, None, b_val_grad, None, None)


@RegisterGradient("SparseTensorDenseAdd")
def _sparse_tensor_dense_add_grad(op, out_grad):
    sp_indices = op.inputs[0]
    return (None, array_ops.gather_nd(out_grad, sp_indices), None, out_grad)


@RegisterGradient("SparseReduceSum")
def _sparse_reduce_sum_grad(op, out_grad):
    sp_indices = op.inputs[0]
    sp_shape = op.inputs[2]
    output_shape_kept_dims = reduced_shape(sp_shape, op.inputs[3])
    out_grad_reshaped = array_ops.reshape(out_grad, output_shape_kept_dims)
    scale = sp_shape // cast(output_shape_kept_dims, dtypes.int64)
    return (None, array_ops.gather_nd(out_grad_reshaped, sp_indices // scale), None, None)


@RegisterGradient("SparseDenseCwiseAdd")
def _sparse_dense_cwise_add_grad(unused_op, unused_grad):
    raise NotImplementedError("Gradient for SparseDenseCwiseAdd is not implemented.")


def _sparse_dense_cwise_mul_or_div_grad(op, grad, is_mul):
    x_indices = op.inputs[0]
    x_shape = op.inputs[2]
    y = op.inputs[3]
    y_shape = cast(_shape(y), dtypes.int64)
    num_added_dims = array_ops.expand_dims(_size(x_shape) - _size(y_shape), 0)
    augmented_y_shape = array_ops.concat([ones(num_added_dims, dtypes.int64), y_shape], 0)
    scaling = x_shape // augmented_y_shape
    scaled_indices = x_indices // scaling
    scaled_indices = array_ops.slice(scaled_indices,
                                     array_ops.concat([[0], num_added_dims], 0), [-1, -1])
    dense_vals = array_ops.gather_nd(y, scaled_indices)
    if is_mul:
        dx = grad * dense_vals
        dy_val = grad * op.inputs[1]
    else:
        dx = grad / dense_vals
        dy_val = grad * (-op.inputs[1] / math_ops.square(dense_vals))
    dy = sparse_math_ops.sparse_add(zeros_like(y), SparseTensor(scaled_indices, dy_val, y_shape))
    return (None, dx, None, dy)


@RegisterGradient("SparseDenseCwiseMul")
def _sparse_dense_cwise_mul_grad(op, grad):
    return _sparse_dense_cwise_mul_or_div_grad(op, grad, True)


@RegisterGradient("SparseDenseCwiseDiv")
def _sparse_dense_cwise_div_grad(op, grad):
    return _sparse_dense_cwise_mul_or_div_grad(op, grad, False)


@RegisterGradient("SparseSoftmax")
def _sparse_softmax_grad(op, grad):
    indices, shape = op.inputs[0], op.inputs[2]
    out_vals = op.outputs[0]
    sp_output = SparseTensor(indices, out_vals, shape)
    sp_grad = SparseTensor(indices, grad, shape)
    sp_product = SparseTensor(indices, sp_output.values * sp_grad.values, shape)
    sum_reduced = -sparse_math_ops.sparse_reduce_sum(sp_product, [-1], keepdims=True)
    sp_sum = sparse_math_ops.sparse_dense_cwise_add(sp_grad, sum_reduced)
    grad_x = sp_sum.values * sp_output.values
    return [None, grad_x, None]


# TensorFlow's two take one output gradient of the ops' two, so tf.gradients through them is
# a TypeError naming the function, not their NotImplementedError: the same names and arity.
@RegisterGradient("SparseSparseMaximum")
def _SparseSparseMaximumGrad(unused_op, unused_grad):  # noqa: N802
    raise NotImplementedError("Gradient for SparseSparseMaximum is not implemented.")


@RegisterGradient("SparseSparseMinimum")
def _SparseSparseMinimumGrad(unused_op, unused_grad):  # noqa: N802
    raise NotImplementedError("Gradient for SparseSparseMinimum is not implemented.")


@RegisterGradient("SparseMatMul")
def _sparse_mat_mul_grad(op, grad):
    t_a = op.get_attr("transpose_a")
    t_b = op.get_attr("transpose_b")
    is_sparse = {op.inputs[0].name: op.get_attr("a_is_sparse"),
                 op.inputs[1].name: op.get_attr("b_is_sparse"),
                 grad.name: grad.op.type == "ReluGrad"}

    def product(t1, t2, out_dtype, transpose_a=False, transpose_b=False):
        t1_sparse, t2_sparse = is_sparse[t1.name], is_sparse[t2.name]
        if transpose_b:
            t2 = array_ops.transpose(t2)
            transpose_b = False
        if t1_sparse or t2_sparse:  # math_ops.matmul's sparse_matmul path, in its scope
            with name_scope(None, "MatMul", [t1, t2]) as name:
                prod = sparse_math_ops.sparse_matmul(t1, t2, transpose_a=transpose_a,
                                                     a_is_sparse=t1_sparse,
                                                     b_is_sparse=t2_sparse, name=name)
        else:
            prod = math_ops.matmul(t1, t2, transpose_a=transpose_a, transpose_b=transpose_b)
        if prod.dtype != out_dtype:
            prod = cast(prod, out_dtype)
        return prod

    dtype_a, dtype_b = op.inputs[0].dtype, op.inputs[1].dtype
    a, b = op.inputs[0], op.inputs[1]
    if not t_a and not t_b:
        return (product(grad, b, dtype_a, transpose_b=True),
                product(a, grad, dtype_b, transpose_a=True))
    if not t_a and t_b:
        return (product(grad, b, dtype_a), product(grad, a, dtype_b, transpose_a=True))
    if t_a and not t_b:
        return (product(b, grad, dtype_a, transpose_b=True), product(a, grad, dtype_b))
    return (product(b, grad, dtype_a, transpose_a=True, transpose_b=True),
            product(grad, a, dtype_b, transpose_a=True, transpose_b=True))
