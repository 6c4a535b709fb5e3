"""tf.linalg.LinearOperator, the base class: shapes, hints, matmul/solve/determinant/... and their
dense defaults, and the algebra (adjoint, inverse, cholesky, products of operators): TensorFlow
2.21's linear_operator.py on the engine's ops (the same ops under the same name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

import abc
import contextlib

import numpy as np

from engine.framework import dtypes
from engine.ops import linear_operator_util
from engine.ops.linear_operator_util import (array_ops, check_ops, linalg, linalg_ops, logging,
                                             math_ops, ops, tensor_shape, tensor_util)


# The operators the base class's algebra returns (LinearOperatorComposition, Inversion, Adjoint
# and LowerTriangular): their modules import this one, so each registers its class here.
_ALGEBRA_CLASSES = {}


def register_algebra_class(cls):
    _ALGEBRA_CLASSES[cls.__name__] = cls
    return cls


class LinearOperator(metaclass=abc.ABCMeta):

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError('A positive definite matrix is always non-singular.')
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError('A non-singular matrix is always square.')
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError('A self-adjoint matrix is always square.')
            is_square = True
        self._is_square_set_or_implied_by_hints = is_square
        if graph_parents is not None:
            self._set_graph_parents(graph_parents)
        else:
            self._graph_parents = []
        self._dtype = dtypes.as_dtype(dtype).base_dtype if dtype else dtype
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._parameters = parameters
        self._parameters_sanitized = False
        self._name = name or type(self).__name__

    @contextlib.contextmanager
    def _name_scope(self, name=None):
        full_name = self.name
        if name is not None:
            full_name += '/' + name
        with ops.name_scope(full_name) as scope:
            yield scope

    @property
    def parameters(self):
        return dict(self._parameters)

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    @property
    def graph_parents(self):
        return self._graph_parents

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        auto_square_check = self.domain_dimension == self.range_dimension
        if self._is_square_set_or_implied_by_hints is False and auto_square_check:
            raise ValueError('User set is_square hint to False, but the operator was square.')
        if self._is_square_set_or_implied_by_hints is None:
            return auto_square_check
        return self._is_square_set_or_implied_by_hints

    @abc.abstractmethod
    def _shape(self):
        raise NotImplementedError('_shape is not implemented.')

    @property
    def shape(self):
        return self._shape()

    def _shape_tensor(self):
        raise NotImplementedError('_shape_tensor is not implemented.')

    def shape_tensor(self, name='shape_tensor'):
        with self._name_scope(name):
            if self.shape.is_fully_defined():
                return linear_operator_util.shape_tensor(self.shape.as_list())
            else:
                return self._shape_tensor()

    @property
    def batch_shape(self):
        return self.shape[:-2]

    def batch_shape_tensor(self, name='batch_shape_tensor'):
        with self._name_scope(name):
            return self._batch_shape_tensor()

    def _batch_shape_tensor(self, shape=None):
        if self.batch_shape.is_fully_defined():
            return linear_operator_util.shape_tensor(
                self.batch_shape.as_list(), name='batch_shape')
        else:
            shape = self.shape_tensor() if shape is None else shape
            return shape[:-2]

    @property
    def tensor_rank(self, name='tensor_rank'):
        with self._name_scope(name):
            return self.shape.ndims

    def tensor_rank_tensor(self, name='tensor_rank_tensor'):
        with self._name_scope(name):
            return self._tensor_rank_tensor()

    def _tensor_rank_tensor(self, shape=None):
        if self.tensor_rank is not None:
            return ops.convert_to_tensor(self.tensor_rank)
        else:
            shape = self.shape_tensor() if shape is None else shape
            return array_ops.size(shape)

    @property
    def domain_dimension(self):
        if self.shape.rank is None:
            return tensor_shape.Dimension(None)
        else:
            return self.shape.dims[-1]

    def domain_dimension_tensor(self, name='domain_dimension_tensor'):
        with self._name_scope(name):
            return self._domain_dimension_tensor()

    def _domain_dimension_tensor(self, shape=None):
        dim_value = tensor_shape.dimension_value(self.domain_dimension)
        if dim_value is not None:
            return ops.convert_to_tensor(dim_value)
        else:
            shape = self.shape_tensor() if shape is None else shape
            return shape[-1]

    @property
    def range_dimension(self):
        if self.shape.dims:
            return self.shape.dims[-2]
        else:
            return tensor_shape.Dimension(None)

    def range_dimension_tensor(self, name='range_dimension_tensor'):
        with self._name_scope(name):
            return self._range_dimension_tensor()

    def _range_dimension_tensor(self, shape=None):
        dim_value = tensor_shape.dimension_value(self.range_dimension)
        if dim_value is not None:
            return ops.convert_to_tensor(dim_value)
        else:
            shape = self.shape_tensor() if shape is None else shape
            return shape[-2]

    def _assert_non_singular(self):
        logging.warning(
            'Using (possibly slow) default implementation of assert_non_singular.  Requires '
            'conversion to a dense matrix and O(N^3) operations.')
        if self._can_use_cholesky():
            return self.assert_positive_definite()
        else:
            singular_values = linalg_ops.svd(self.to_dense(), compute_uv=False)
            cond = math_ops.reduce_max(
                singular_values, axis=-1) / math_ops.reduce_min(singular_values, axis=-1)
            return check_ops.assert_less(cond, self._max_condition_number_to_be_non_singular(),
                                         message='Singular matrix up to precision epsilon.')

    def _max_condition_number_to_be_non_singular(self):
        with ops.name_scope('max_nonsingular_condition_number'):
            dtype_eps = np.finfo(self.dtype.as_numpy_dtype).eps
            eps = math_ops.cast(
                math_ops.reduce_max(
                    [100.0, math_ops.cast(self.range_dimension_tensor(), self.dtype),
                     math_ops.cast(self.domain_dimension_tensor(), self.dtype)]),
                self.dtype) * dtype_eps
            return 1.0 / eps

    def assert_non_singular(self, name='assert_non_singular'):
        with self._name_scope(name):
            return self._assert_non_singular()

    def _assert_positive_definite(self):
        logging.warning(
            'Using (possibly slow) default implementation of assert_positive_definite.  Requires '
            'conversion to a dense matrix and O(N^3) operations.')
        if self.is_self_adjoint:
            return check_ops.assert_positive(
                array_ops.matrix_diag_part(linalg_ops.cholesky(self.to_dense())),
                message='Matrix was not positive definite.')
        raise NotImplementedError('assert_positive_definite is not implemented.')

    def assert_positive_definite(self, name='assert_positive_definite'):
        with self._name_scope(name):
            return self._assert_positive_definite()

    def _assert_self_adjoint(self):
        dense = self.to_dense()
        logging.warning(
            'Using (possibly slow) default implementation of assert_self_adjoint.  Requires '
            'conversion to a dense matrix.')
        return check_ops.assert_equal(dense, linalg.adjoint(dense),
                                      message='Matrix was not equal to its adjoint.')

    def assert_self_adjoint(self, name='assert_self_adjoint'):
        with self._name_scope(name):
            return self._assert_self_adjoint()

    def _check_input_dtype(self, arg):
        if arg.dtype.base_dtype != self.dtype:
            raise TypeError(
                'Expected argument to have dtype %s.  Found: %s in tensor '
                '%s' % (self.dtype, arg.dtype, arg))

    @abc.abstractmethod
    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        raise NotImplementedError('_matmul is not implemented.')

    def matmul(self, x, adjoint=False, adjoint_arg=False, name='matmul'):
        if isinstance(x, LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = x.adjoint() if adjoint_arg else x
            if (right_operator.range_dimension is not None
                and left_operator.domain_dimension is not None
                and (right_operator.range_dimension != left_operator.domain_dimension)):
                raise ValueError(
                    'Operators are incompatible. Expected `x` to have dimension {} but got '
                    '{}.'.format(left_operator.domain_dimension, right_operator.range_dimension))
            with self._name_scope(name):
                return self._linop_matmul(left_operator, right_operator)
        with self._name_scope(name):
            x = ops.convert_to_tensor(x, name='x')
            self._check_input_dtype(x)
            self_dim = -2 if adjoint else -1
            arg_dim = -1 if adjoint_arg else -2
            tensor_shape.dimension_at_index(
                self.shape, self_dim).assert_is_compatible_with(x.shape[arg_dim])
            return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _linop_matmul(self, left_operator: 'LinearOperator',
                      right_operator: 'LinearOperator') -> 'LinearOperator':
        if hasattr(right_operator, '_ones_diag') and (not hasattr(right_operator, 'multiplier')):
            return left_operator
        elif hasattr(right_operator, '_zeros_diag'):
            if not right_operator.is_square or not left_operator.is_square:
                raise ValueError(
                    'Matmul with non-square `LinearOperator`s or non-square `LinearOperatorZeros` '
                    'not supported at this time.')
            return right_operator
        else:
            is_square = linear_operator_util.is_square(left_operator, right_operator)
            is_non_singular = None
            is_self_adjoint = None
            is_positive_definite = None
            if is_square:
                is_non_singular = linear_operator_util.combined_non_singular_hint(
                    left_operator, right_operator)
            elif is_square is False:
                is_non_singular = False
                is_self_adjoint = False
                is_positive_definite = False
            return _ALGEBRA_CLASSES[
                'LinearOperatorComposition'](operators=[left_operator, right_operator],
                                             is_non_singular=is_non_singular,
                                             is_self_adjoint=is_self_adjoint,
                                             is_positive_definite=is_positive_definite,
                                             is_square=is_square)

    def __matmul__(self, other):
        return self.matmul(other)

    def _matvec(self, x, adjoint=False):
        x_mat = array_ops.expand_dims(x, axis=-1)
        y_mat = self.matmul(x_mat, adjoint=adjoint)
        return array_ops.squeeze(y_mat, axis=-1)

    def matvec(self, x, adjoint=False, name='matvec'):
        with self._name_scope(name):
            x = ops.convert_to_tensor(x, name='x')
            self._check_input_dtype(x)
            self_dim = -2 if adjoint else -1
            tensor_shape.dimension_at_index(self.shape,
                                            self_dim).assert_is_compatible_with(x.shape[-1])
            return self._matvec(x, adjoint=adjoint)

    def _determinant(self):
        logging.warning(
            'Using (possibly slow) default implementation of determinant.  Requires conversion to '
            'a dense matrix and O(N^3) operations.')
        if self._can_use_cholesky():
            return math_ops.exp(self.log_abs_determinant())
        return linalg_ops.matrix_determinant(self.to_dense())

    def determinant(self, name='det'):
        if self.is_square is False:
            raise NotImplementedError(
                'Determinant not implemented for an operator that is expected to not be square.')
        with self._name_scope(name):
            return self._determinant()

    def _log_abs_determinant(self):
        logging.warning(
            'Using (possibly slow) default implementation of determinant.  Requires conversion to '
            'a dense matrix and O(N^3) operations.')
        if self._can_use_cholesky():
            diag = array_ops.matrix_diag_part(linalg_ops.cholesky(self.to_dense()))
            return 2 * math_ops.reduce_sum(math_ops.log(diag), axis=[-1])
        _, log_abs_det = linalg.slogdet(self.to_dense())
        return log_abs_det

    def log_abs_determinant(self, name='log_abs_det'):
        if self.is_square is False:
            raise NotImplementedError(
                'Determinant not implemented for an operator that is expected to not be square.')
        with self._name_scope(name):
            return self._log_abs_determinant()

    def _dense_solve(self, rhs, adjoint=False, adjoint_arg=False):
        if self.is_square is False:
            raise NotImplementedError('Solve is not yet implemented for non-square operators.')
        rhs = linalg.adjoint(rhs) if adjoint_arg else rhs
        if self._can_use_cholesky():
            return linalg_ops.cholesky_solve(linalg_ops.cholesky(self.to_dense()), rhs)
        return linear_operator_util.matrix_solve_with_broadcast(
            self.to_dense(), rhs, adjoint=adjoint)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        logging.warning(
            'Using (possibly slow) default implementation of solve.  Requires conversion to a '
            'dense matrix and O(N^3) operations.')
        return self._dense_solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name='solve'):
        if self.is_non_singular is False:
            raise NotImplementedError(
                'Exact solve not implemented for an operator that is expected to be singular.')
        if self.is_square is False:
            raise NotImplementedError(
                'Exact solve not implemented for an operator that is expected to not be square.')
        if isinstance(rhs, LinearOperator):
            left_operator = self.adjoint() if adjoint else self
            right_operator = rhs.adjoint() if adjoint_arg else rhs
            if (right_operator.range_dimension is not None
                and left_operator.domain_dimension is not None
                and (right_operator.range_dimension != left_operator.domain_dimension)):
                raise ValueError(
                    'Operators are incompatible. Expected `rhs` to have dimension {} but got '
                    '{}.'.format(left_operator.domain_dimension, right_operator.range_dimension))
            with self._name_scope(name):
                return self._linop_solve(left_operator, right_operator)
        with self._name_scope(name):
            rhs = ops.convert_to_tensor(rhs, name='rhs')
            self._check_input_dtype(rhs)
            self_dim = -1 if adjoint else -2
            arg_dim = -1 if adjoint_arg else -2
            tensor_shape.dimension_at_index(
                self.shape, self_dim).assert_is_compatible_with(rhs.shape[arg_dim])
            return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _linop_solve(self, left_operator: 'LinearOperator',
                     right_operator: 'LinearOperator') -> 'LinearOperator':
        if hasattr(right_operator, '_ones_diag') and (not hasattr(right_operator, 'multiplier')):
            return left_operator.inverse()
        is_square = linear_operator_util.is_square(left_operator, right_operator)
        is_non_singular = None
        is_self_adjoint = None
        is_positive_definite = None
        if is_square:
            is_non_singular = linear_operator_util.combined_non_singular_hint(
                left_operator, right_operator)
        elif is_square is False:
            is_non_singular = False
            is_self_adjoint = False
            is_positive_definite = False
        return _ALGEBRA_CLASSES[
            'LinearOperatorComposition'](
                operators=[_ALGEBRA_CLASSES['LinearOperatorInversion'](left_operator),
                           right_operator],
                is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                is_positive_definite=is_positive_definite, is_square=is_square)

    def _solvevec(self, rhs, adjoint=False):
        rhs_mat = array_ops.expand_dims(rhs, axis=-1)
        solution_mat = self.solve(rhs_mat, adjoint=adjoint)
        return array_ops.squeeze(solution_mat, axis=-1)

    def solvevec(self, rhs, adjoint=False, name='solve'):
        with self._name_scope(name):
            rhs = ops.convert_to_tensor(rhs, name='rhs')
            self._check_input_dtype(rhs)
            self_dim = -1 if adjoint else -2
            tensor_shape.dimension_at_index(self.shape,
                                            self_dim).assert_is_compatible_with(rhs.shape[-1])
            return self._solvevec(rhs, adjoint=adjoint)

    def adjoint(self, name: str='adjoint') -> 'LinearOperator':
        if self.is_self_adjoint is True:
            return self
        with self._name_scope(name):
            return self._linop_adjoint()
    H = property(adjoint, None)

    def _linop_adjoint(self) -> 'LinearOperator':
        return _ALGEBRA_CLASSES[
            'LinearOperatorAdjoint'](self, is_non_singular=self.is_non_singular,
                                     is_self_adjoint=self.is_self_adjoint,
                                     is_positive_definite=self.is_positive_definite,
                                     is_square=self.is_square)

    def inverse(self, name: str='inverse') -> 'LinearOperator':
        if self.is_square is False:
            raise ValueError(
                'Cannot take the Inverse: This operator represents a non square matrix.')
        if self.is_non_singular is False:
            raise ValueError(
                'Cannot take the Inverse: This operator represents a singular matrix.')
        with self._name_scope(name):
            return self._linop_inverse()

    def _linop_inverse(self) -> 'LinearOperator':
        return _ALGEBRA_CLASSES[
            'LinearOperatorInversion'](self, is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite,
                                       is_square=self.is_square)

    def cholesky(self, name: str='cholesky') -> 'LinearOperator':
        if not self._can_use_cholesky():
            raise ValueError(
                'Cannot take the Cholesky decomposition: Not a positive definite self adjoint '
                'matrix.')
        with self._name_scope(name):
            return self._linop_cholesky()

    def _linop_cholesky(self) -> 'LinearOperator':
        return _ALGEBRA_CLASSES[
            'LinearOperatorLowerTriangular'](linalg_ops.cholesky(self.to_dense()),
                                             is_non_singular=True, is_self_adjoint=False,
                                             is_square=True)

    def _to_dense(self):
        if self.batch_shape.is_fully_defined():
            batch_shape = self.batch_shape
        else:
            batch_shape = self.batch_shape_tensor()
        dim_value = tensor_shape.dimension_value(self.domain_dimension)
        if dim_value is not None:
            n = dim_value
        else:
            n = self.domain_dimension_tensor()
        eye = linalg_ops.eye(num_rows=n, batch_shape=batch_shape, dtype=self.dtype)
        return self.matmul(eye)

    def to_dense(self, name='to_dense'):
        with self._name_scope(name):
            return self._to_dense()

    def _diag_part(self):
        return array_ops.matrix_diag_part(self.to_dense())

    def diag_part(self, name='diag_part'):
        with self._name_scope(name):
            return self._diag_part()

    def _trace(self):
        return math_ops.reduce_sum(self.diag_part(), axis=-1)

    def trace(self, name='trace'):
        with self._name_scope(name):
            return self._trace()

    def _add_to_tensor(self, x):
        return self.to_dense() + x

    def add_to_tensor(self, x, name='add_to_tensor'):
        with self._name_scope(name):
            x = ops.convert_to_tensor(x, name='x')
            self._check_input_dtype(x)
            return self._add_to_tensor(x)

    def _eigvals(self):
        return linalg_ops.self_adjoint_eigvals(self.to_dense())

    def eigvals(self, name='eigvals'):
        if not self.is_self_adjoint:
            raise NotImplementedError('Only self-adjoint matrices are supported.')
        with self._name_scope(name):
            return self._eigvals()

    def _cond(self):
        if not self.is_self_adjoint:
            vals = linalg_ops.svd(self.to_dense(), compute_uv=False)
        else:
            vals = math_ops.abs(self._eigvals())
        return math_ops.reduce_max(vals, axis=-1) / math_ops.reduce_min(vals, axis=-1)

    def cond(self, name='cond'):
        with self._name_scope(name):
            return self._cond()

    def _can_use_cholesky(self):
        return self.is_self_adjoint and self.is_positive_definite

    def _set_graph_parents(self, graph_parents):
        graph_parents = [] if graph_parents is None else graph_parents
        for i, t in enumerate(graph_parents):
            if t is None or not (linear_operator_util.is_ref(t) or tensor_util.is_tf_type(t)):
                raise ValueError('Graph parent item %d is not a Tensor; %s.' % (i, t))
        self._graph_parents = graph_parents
