"""Helpers of the tf.linalg.LinearOperator family (TensorFlow 2.21's linear_operator_util.py and
property_hint_util.py), and the TensorFlow-internal modules the operators call (array_ops,
math_ops, linalg, ...) as lookups into the engine's modules, so the operator classes read as
TensorFlow's do and build the same ops under the same name scopes.

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_util.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

import numpy as np

from engine.framework import dtypes
from engine.framework import tensor_shape as _tensor_shape
from engine.framework import tensor_util as _tensor_util
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.ops import (array_ops as _array_ops, check_ops as _check_ops, complex_ops,
                        distributions as _distributions, fft_ops as _fft_ops, fill_ops,
                        linalg_ops as _linalg_ops, manip_ops, math_ops as _math_ops, nest,
                        segment_ops, sort_ops as _sort_ops, tridiagonal_ops)
from engine.ops import variables as _variables
from engine.ops.control_flow import ops as _control_flow_ops
from engine.ops.convert import convert_to_tensor
from engine.platform import tf_logging as logging  # noqa: F401  (the operators' warnings)


class _Lookup:
    """One of TensorFlow's module names over the engine modules holding its functions (the
    first that has a name wins), plus the functions the engine keeps under other names."""

    def __init__(self, *modules, **extra):
        self._modules = modules
        self.__dict__.update(extra)

    def __getattr__(self, name):
        for module in self._modules:
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(name)


def _dimension_at_index(shape, index):
    shape = _tensor_shape.as_shape(shape)
    if shape.rank is None:
        return _tensor_shape.Dimension(None)
    return shape.dims[index]


def _broadcast_static_shape(shape_x, shape_y):
    """TensorFlow's array_ops.broadcast_static_shape: of TensorShapes only (a tuple has no
    `ndims`, so TensorFlow fails on one with an AttributeError, as here)."""
    shape_x.ndims, shape_y.ndims  # noqa: B018  (TensorFlow's AttributeError for a tuple)
    return _distributions.broadcast_static_shape(shape_x, shape_y)


ops = _Lookup(name_scope=name_scope, convert_to_tensor=convert_to_tensor)
tensor_shape = _Lookup(_tensor_shape, dimension_at_index=_dimension_at_index)
def _constant_value(tensor, partial=False):
    """TensorFlow 2.21's tensor_util.constant_value: a value that is no tensor is its own."""
    if not isinstance(tensor, Tensor):
        return tensor
    return _tensor_util.constant_value(tensor, partial=partial)


tensor_util = _Lookup(_tensor_util, constant_value=_constant_value,
                      is_tf_type=lambda x: isinstance(x, Tensor),
                      is_tensor=lambda x: isinstance(x, Tensor))
array_ops = _Lookup(_array_ops, fill_ops, _linalg_ops, segment_ops,
                    broadcast_static_shape=_broadcast_static_shape,
                    broadcast_dynamic_shape=_distributions.broadcast_dynamic_shape)
array_ops_stack = array_ops
gen_array_ops = _Lookup(matrix_diag_v3=lambda diagonal, k, num_rows, num_cols, padding_value,
                        align="RIGHT_LEFT", name=None: _linalg_ops.matrix_diag(
                            diagonal, k=k, num_rows=num_rows, num_cols=num_cols,
                            padding_value=padding_value, align=align, name=name or "MatrixDiagV3"))
def _mod(x, y, name=None):
    """TensorFlow's math_ops.mod: FloorMod under a "mod" scope (tf.mod's node is "FloorMod")."""
    with name_scope(name, "mod", [x, y]) as name:
        return _math_ops.floormod(x, y, name=name)


math_ops = _Lookup(_math_ops, complex_ops, _linalg_ops, mod=_mod)
check_ops = _check_ops
control_flow_ops = _control_flow_ops
linalg_ops = _linalg_ops
linalg = _Lookup(_linalg_ops, tridiagonal_ops, slogdet=_linalg_ops.log_matrix_determinant,
                 inv=_linalg_ops.matrix_inverse, det=_linalg_ops.matrix_determinant,
                 triangular_solve=_linalg_ops.matrix_triangular_solve,
                 solve=_linalg_ops.matrix_solve, transpose=_linalg_ops.matrix_transpose)
fft_ops = _fft_ops
sort_ops = _sort_ops


def is_ref(x):
    return isinstance(x, _variables.Variable)


def convert_nonref_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """`value` as a Tensor, a variable left as it is (its reads happen where it is used)."""
    if value is None:
        return None
    if is_ref(value):
        if dtype is None:
            return value
        dtype_base = dtypes.as_dtype(dtype).base_dtype
        value_dtype_base = dtypes.as_dtype(value.dtype).base_dtype
        if dtype_base != value_dtype_base:
            raise TypeError(f"Argument `value` must be of dtype `{dtype_base.name}` Received: "
                            f"`{value_dtype_base.name}`.")
        return value
    return convert_to_tensor(value, dtype=dtype, dtype_hint=dtype_hint, name=name)


def check_dtype(arg, dtype):
    if arg.dtype.base_dtype != dtype:
        raise TypeError(f"Expected argument to have dtype {dtype}. Found: {arg.dtype} in tensor "
                        f"{arg}.")


def assert_not_ref_type(x, arg_name):
    if is_ref(x):
        raise TypeError(f"Argument {arg_name} cannot be reference type. Found: {type(x)}.")


def assert_no_entries_with_modulus_zero(x, message=None,
                                        name="assert_no_entries_with_modulus_zero"):
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        should_be_nonzero = math_ops.abs(x)
        zero = convert_to_tensor(0, dtype=x.dtype.base_dtype.real_dtype)
        return check_ops.assert_less(zero, should_be_nonzero, message=message)


def assert_zero_imag_part(x, message=None, name="assert_zero_imag_part"):
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        dtype = x.dtype.base_dtype
        if dtype.is_floating:
            return control_flow_ops.no_op()
        zero = convert_to_tensor(0, dtype=dtype.real_dtype)
        return check_ops.assert_equal(zero, math_ops.imag(x), message=message)


def assert_compatible_matrix_dimensions(operator, x):
    return check_ops.assert_equal(
        array_ops.shape(x)[-2], operator.domain_dimension_tensor(),
        message="Dimensions are not compatible.  shape[-2] of argument to be the same as this "
                "operator")


def assert_is_batch_matrix(tensor):
    sh = tensor.shape
    if sh.ndims is not None and sh.ndims < 2:
        raise ValueError(f"Expected [batch] matrix to have at least two dimensions. Found: "
                         f"{tensor}.")


def shape_tensor(shape, name=None):
    dtype = dtypes.int32 if isinstance(shape, (tuple, list)) and not shape else None
    return convert_to_tensor(shape, dtype=dtype, name=name)


def broadcast_matrix_batch_dims(batch_matrices, name=None):
    """The matrices broadcast to one batch shape (BroadcastTo where a batch shape differs)."""
    with name_scope(name or "broadcast_matrix_batch_dims", values=batch_matrices):
        check_ops.assert_proper_iterable(batch_matrices)
        batch_matrices = list(batch_matrices)
        for i, mat in enumerate(batch_matrices):
            batch_matrices[i] = convert_to_tensor(mat)
            assert_is_batch_matrix(batch_matrices[i])
        if len(batch_matrices) < 2:
            return batch_matrices
        bcast_batch_shape = batch_matrices[0].shape[:-2]
        for mat in batch_matrices[1:]:
            bcast_batch_shape = array_ops.broadcast_static_shape(bcast_batch_shape,
                                                                 mat.shape[:-2])
        if bcast_batch_shape.is_fully_defined():
            for i, mat in enumerate(batch_matrices):
                if mat.shape[:-2] != bcast_batch_shape:
                    bcast_shape = array_ops.concat(
                        [bcast_batch_shape.as_list(), array_ops.shape(mat)[-2:]], axis=0)
                    batch_matrices[i] = array_ops.broadcast_to(mat, bcast_shape)
            return batch_matrices
        bcast_batch_shape = array_ops.shape(batch_matrices[0])[:-2]
        for mat in batch_matrices[1:]:
            bcast_batch_shape = array_ops.broadcast_dynamic_shape(
                bcast_batch_shape, array_ops.shape(mat)[:-2])
        for i, mat in enumerate(batch_matrices):
            batch_matrices[i] = array_ops.broadcast_to(
                mat, array_ops.concat([bcast_batch_shape, array_ops.shape(mat)[-2:]], axis=0))
        return batch_matrices


def matrix_solve_with_broadcast(matrix, rhs, adjoint=False, name=None):
    with name_scope(name, "MatrixSolveWithBroadcast", [matrix, rhs]):
        matrix = convert_to_tensor(matrix, name="matrix")
        rhs = convert_to_tensor(rhs, name="rhs", dtype=matrix.dtype)
        matrix, rhs, reshape_inv, still_need_to_transpose = _reshape_for_efficiency(
            matrix, rhs, adjoint_a=adjoint)
        matrix, rhs = broadcast_matrix_batch_dims([matrix, rhs])
        solution = linalg_ops.matrix_solve(matrix, rhs,
                                           adjoint=adjoint and still_need_to_transpose)
        return reshape_inv(solution)


def _reshape_for_efficiency(a, b, transpose_a=False, transpose_b=False, adjoint_a=False,
                            adjoint_b=False):
    """b's extra batch dimensions moved onto its columns where that saves work, as TF does."""
    def identity(x):
        return x
    still_need_to_transpose = True
    if a.shape.ndims is None or b.shape.ndims is None or a.shape.ndims >= b.shape.ndims:
        return a, b, identity, still_need_to_transpose
    b_extra_ndims = b.shape.ndims - a.shape.ndims
    b_extra_sh = array_ops.shape(b)[:b_extra_ndims]  # nodes TensorFlow makes, used or not
    b_main_sh = array_ops.shape(b)[b_extra_ndims:]
    a_domain_sz_ = a.shape[-2 if adjoint_a or transpose_a else -1]
    b_eq_sz_ = b.shape[-2 if adjoint_b or transpose_b else -1]
    b_extra_sz_ = (np.prod(b.shape[:b_extra_ndims].as_list())
                   if b.shape[:b_extra_ndims].is_fully_defined() else None)
    if (_tensor_shape.dimension_value(a_domain_sz_) is not None
            and _tensor_shape.dimension_value(b_eq_sz_) is not None
            and b_extra_sz_ is not None):
        if b_extra_sz_ < 2 or a_domain_sz_ <= b_eq_sz_:
            return a, b, identity, still_need_to_transpose
    if adjoint_a:
        a = array_ops.matrix_transpose(a, conjugate=True)
    elif transpose_a:
        a = array_ops.matrix_transpose(a, conjugate=False)
    if adjoint_b:
        b = array_ops.matrix_transpose(b, conjugate=True)
    elif transpose_a:
        b = array_ops.matrix_transpose(b, conjugate=False)
    still_need_to_transpose = False
    b_extra_sh = array_ops.shape(b)[:b_extra_ndims]
    b_main_sh = array_ops.shape(b)[b_extra_ndims:]
    perm = np.concatenate((np.arange(b_extra_ndims, b.shape.ndims),
                           np.arange(0, b_extra_ndims)), 0)
    b_extra_on_end = array_ops.transpose(b, perm=perm)
    b_squashed_end = array_ops.reshape(b_extra_on_end,
                                       array_ops.concat((b_main_sh[:-1], [-1]), 0))

    def reshape_inv(y):
        y_extra_shape = array_ops.concat(
            (array_ops.shape(y)[:-1], [b_main_sh[-1]], b_extra_sh), 0)
        y_extra_on_end = array_ops.reshape(y, y_extra_shape)
        return array_ops.transpose(y_extra_on_end, perm=np.argsort(perm))
    return a, b_squashed_end, reshape_inv, still_need_to_transpose


def is_adjoint_pair(x, y):
    if x is y:
        if x.is_self_adjoint is False:
            return False
        if x.is_self_adjoint:
            return True
    return x.H is y or y.H is x


def is_aat_form(operators):
    operators = list(operators)
    if not operators:
        raise ValueError("AAT form is undefined for empty operators")
    if len(operators) % 2:
        return False
    return all(is_adjoint_pair(operators[i], operators[-1 - i])
               for i in range(len(operators) // 2))


def use_operator_or_provided_hint_unless_contradicting(operator, hint_attr_name,
                                                       provided_hint_value, message):
    op_hint = getattr(operator, hint_attr_name)
    if op_hint is False and provided_hint_value:
        raise ValueError(message)
    if op_hint and provided_hint_value is False:
        raise ValueError(message)
    if op_hint or provided_hint_value:
        return True
    if op_hint is False or provided_hint_value is False:
        return False
    return None


def arg_is_blockwise(block_dimensions, arg, arg_split_dim):
    """Whether `arg` is a list of one tensor a block (rather than one tensor to split)."""
    if not (isinstance(arg, (tuple, list)) and len(arg) == len(block_dimensions)):
        return False
    if not any(nest.is_nested(x) for x in arg):
        return True
    arg_dims = [convert_to_tensor(x).shape[arg_split_dim] for x in arg]
    self_dims = [dim.value for dim in block_dimensions]
    if all(self_d is None for self_d in self_dims):
        if len(arg_dims) == 1:
            return False
        if any(dim != arg_dims[0] for dim in arg_dims):
            return True
        raise ValueError("Parsing of the input structure is ambiguous. Please input a "
                         "blockwise iterable of `Tensor`s or a single `Tensor`.")
    if all(self_d == arg_d or self_d is None for self_d, arg_d in zip(self_dims, arg_dims)):
        return True
    self_dim = sum(self_d for self_d in self_dims if self_d is not None)
    if all(s == arg_dims[0] for s in arg_dims) and arg_dims[0] >= self_dim:
        return False
    raise ValueError("Input dimension does not match operator dimension.")


def split_arg_into_blocks(block_dims, block_dims_fn, arg, axis=-1):
    block_sizes = [dim.value for dim in block_dims]
    if any(d is None for d in block_sizes):
        block_sizes = block_dims_fn()
    return array_ops.split(arg, block_sizes, axis=axis)


# property_hint_util: the hints of a product of two operators.

def combined_commuting_self_adjoint_hint(operator_a, operator_b):
    if operator_a.is_self_adjoint and operator_b.is_self_adjoint:
        return True
    if ((operator_a.is_self_adjoint is True and operator_b.is_self_adjoint is False)
            or (operator_a.is_self_adjoint is False and operator_b.is_self_adjoint is True)):
        return False
    return None


def is_square(operator_a, operator_b):
    if operator_a.is_square and operator_b.is_square:
        return True
    if operator_a.is_square is False and operator_b.is_square is False:
        m = operator_a.range_dimension
        l = operator_b.domain_dimension  # noqa: E741  (TensorFlow's name)
        if m is not None and l is not None:
            return m == l
    if (operator_a.is_square != operator_b.is_square
            and operator_a.is_square is not None and operator_b.is_square is not None):
        return False
    return None


def combined_commuting_positive_definite_hint(operator_a, operator_b):
    if (operator_a.is_positive_definite is True and operator_a.is_self_adjoint is True
            and operator_b.is_positive_definite is True and operator_b.is_self_adjoint is True):
        return True
    return None


def combined_non_singular_hint(operator_a, operator_b):
    if operator_a.is_non_singular is False or operator_b.is_non_singular is False:
        return False
    return operator_a.is_non_singular and operator_b.is_non_singular


def rotate_transpose(x, shift, name="rotate_transpose"):
    """x's dimensions rotated by `shift` (TensorFlow's distributions/util.py), for a known rank
    and shift: the circulant operators' only use."""
    with name_scope(name, values=[x, shift]):
        x = convert_to_tensor(x, name="x")
        shift = convert_to_tensor(shift, name="shift")
        check_ops.assert_integer(shift)
        shift_value_static = _tensor_util.constant_value(shift)
        ndims = x.get_shape().ndims
        if ndims is None or shift_value_static is None:
            raise NotImplementedError("rotate_transpose of an unknown rank or shift is not "
                                      "supported by the engine yet")
        if ndims < 2:
            return x
        shift_value_static = np.sign(shift_value_static) * (abs(shift_value_static) % ndims)
        if shift_value_static == 0:
            return x
        perm = np.roll(np.arange(ndims), shift_value_static)
        return array_ops.transpose(x, perm=perm)
