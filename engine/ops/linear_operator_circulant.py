"""tf.linalg.LinearOperatorCirculant, LinearOperatorCirculant2D, LinearOperatorCirculant3D:
TensorFlow 2.21's linear_operator_circulant.py on the engine's ops (the same ops under the same
name scopes).

Derived from TensorFlow's tensorflow/python/ops/linalg/linear_operator_circulant.py
(Copyright The TensorFlow Authors, Apache-2.0), changed to build on the engine's ops.
"""

import numpy as np

from engine.framework import dtypes
from engine.ops import linear_operator, linear_operator_util
from engine.ops.linear_operator_util import (array_ops, check_ops, fft_ops, linalg, math_ops, ops,
                                             tensor_shape)


_FFT_OP = {1: fft_ops.fft, 2: fft_ops.fft2d, 3: fft_ops.fft3d}
_IFFT_OP = {1: fft_ops.ifft, 2: fft_ops.ifft2d, 3: fft_ops.ifft3d}


def exponential_power_convolution_kernel(grid_shape, length_scale, power=None, divisor=None,
                                         zero_inflation=None):
    nd = len(grid_shape)
    length_scale = ops.convert_to_tensor(length_scale, name='length_scale')
    dtype = length_scale.dtype
    power = 2.0 if power is None else power
    power = ops.convert_to_tensor(power, name='power', dtype=dtype)
    divisor = power if divisor is None else divisor
    divisor = ops.convert_to_tensor(divisor, name='divisor', dtype=dtype)
    zero = math_ops.cast(0.0, dtype)
    one = math_ops.cast(1.0, dtype)
    ts = [math_ops.linspace(zero, one, num=n) for n in grid_shape]
    log_vals = []
    for i, x in enumerate(array_ops.meshgrid(*ts, indexing='ij')):
        midpoint = ts[i][math_ops.cast(math_ops.floor(one / 2.0 * grid_shape[i]), dtypes.int32)]
        log_vals.append(-math_ops.abs((x - midpoint) / length_scale[i]) ** power / divisor)
    kernel = math_ops.exp(fft_ops.ifftshift(sum(log_vals), axes=[-i for i in range(1, nd + 1)]))
    if zero_inflation:
        zero_inflation = ops.convert_to_tensor(zero_inflation, name='zero_inflation', dtype=dtype)
        delta = array_ops.pad(array_ops.reshape(one, [1] * nd),
                              [[0, dim - 1] for dim in grid_shape])
        kernel = (1.0 - zero_inflation) * kernel + zero_inflation * delta
    return kernel


class _BaseLinearOperatorCirculant(linear_operator.LinearOperator):

    def __init__(self, spectrum, block_depth: int, input_output_dtype=dtypes.complex64,
                 is_non_singular: bool=None, is_self_adjoint: bool=None,
                 is_positive_definite: bool=None, is_square: bool=True, parameters=None,
                 name='LinearOperatorCirculant'):
        allowed_block_depths = [1, 2, 3]
        self._name = name
        if block_depth not in allowed_block_depths:
            raise ValueError(
                f'Argument `block_depth` must be one of {allowed_block_depths}. Received: '
                f'{block_depth}.')
        self._block_depth = block_depth
        with ops.name_scope(name, values=[spectrum]):
            self._spectrum = self._check_spectrum_and_return_tensor(spectrum)
            if not self.spectrum.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError(
                        'A real spectrum always corresponds to a self-adjoint operator. Expected '
                        'argument `is_self_adjoint` to be True when `spectrum.dtype.is_complex` '
                        f'= True. Received: {is_self_adjoint}.')
                is_self_adjoint = True
            if is_square is False:
                raise ValueError(
                    'A [[nested] block] circulant operator is always square. Expected argument '
                    f'`is_square` to be True. Received: {is_square}.')
            is_square = True
            super().__init__(dtype=dtypes.as_dtype(input_output_dtype),
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    def _check_spectrum_and_return_tensor(self, spectrum):
        spectrum = linear_operator_util.convert_nonref_to_tensor(spectrum, name='spectrum')
        if spectrum.shape.ndims is not None:
            if spectrum.shape.ndims < self.block_depth:
                raise ValueError(
                    f'Argument `spectrum` must have at least {self.block_depth} dimensions. '
                    f'Received: {spectrum}.')
        return spectrum

    @property
    def block_depth(self):
        return self._block_depth

    def block_shape_tensor(self):
        return self._block_shape_tensor()

    def _block_shape_tensor(self, spectrum_shape=None):
        if self.block_shape.is_fully_defined():
            return linear_operator_util.shape_tensor(
                self.block_shape.as_list(), name='block_shape')
        spectrum_shape = (array_ops.shape(self.spectrum) if spectrum_shape is None
                          else spectrum_shape)
        return spectrum_shape[-self.block_depth:]

    def _linop_adjoint(self) -> '_BaseLinearOperatorCirculant':
        spectrum = self.spectrum
        if spectrum.dtype.is_complex:
            spectrum = math_ops.conj(spectrum)
        return _BaseLinearOperatorCirculant(spectrum=spectrum, block_depth=self.block_depth,
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite,
                                            is_square=True)

    def _linop_inverse(self) -> '_BaseLinearOperatorCirculant':
        return _BaseLinearOperatorCirculant(spectrum=1.0 / self.spectrum,
                                            block_depth=self.block_depth,
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite,
                                            is_square=True, input_output_dtype=self.dtype)

    def _linop_matmul(
        self, left_operator: '_BaseLinearOperatorCirculant',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if (not isinstance(right_operator, _BaseLinearOperatorCirculant)
            or not isinstance(left_operator, type(right_operator))):
            return super()._linop_matmul(left_operator, right_operator)
        return _BaseLinearOperatorCirculant(
            spectrum=left_operator.spectrum * right_operator.spectrum,
            block_depth=left_operator.block_depth,
            is_non_singular=linear_operator_util.combined_non_singular_hint(
                left_operator, right_operator),
            is_self_adjoint=linear_operator_util.combined_commuting_self_adjoint_hint(
                left_operator, right_operator),
            is_positive_definite=linear_operator_util.combined_commuting_positive_definite_hint(
                left_operator, right_operator),
            is_square=True)

    def _linop_solve(
        self, left_operator: '_BaseLinearOperatorCirculant',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if (not isinstance(right_operator, _BaseLinearOperatorCirculant)
            or not isinstance(left_operator, type(right_operator))):
            return super()._linop_solve(left_operator, right_operator)
        return _BaseLinearOperatorCirculant(
            spectrum=right_operator.spectrum / left_operator.spectrum,
            block_depth=left_operator.block_depth,
            is_non_singular=linear_operator_util.combined_non_singular_hint(
                left_operator, right_operator),
            is_self_adjoint=linear_operator_util.combined_commuting_self_adjoint_hint(
                left_operator, right_operator),
            is_positive_definite=linear_operator_util.combined_commuting_positive_definite_hint(
                left_operator, right_operator),
            is_square=True)

    @property
    def block_shape(self):
        return self.spectrum.shape[-self.block_depth:]

    @property
    def spectrum(self):
        return self._spectrum

    def _vectorize_then_blockify(self, matrix):
        vec = linear_operator_util.rotate_transpose(matrix, shift=1)
        if vec.shape.is_fully_defined() and self.block_shape.is_fully_defined():
            vec_leading_shape = vec.shape[:-1]
            final_shape = vec_leading_shape.concatenate(self.block_shape)
        else:
            vec_leading_shape = array_ops.shape(vec)[:-1]
            final_shape = array_ops.concat((vec_leading_shape, self.block_shape_tensor()), 0)
        return array_ops.reshape(vec, final_shape)

    def _unblockify(self, x):
        if x.shape.is_fully_defined():
            x_shape = x.shape.as_list()
            x_leading_shape = x_shape[:-self.block_depth]
            x_block_shape = x_shape[-self.block_depth:]
            flat_shape = x_leading_shape + [np.prod(x_block_shape)]
        else:
            x_shape = array_ops.shape(x)
            x_leading_shape = x_shape[:-self.block_depth]
            x_block_shape = x_shape[-self.block_depth:]
            flat_shape = array_ops.concat(
                (x_leading_shape, [math_ops.reduce_prod(x_block_shape)]), 0)
        return array_ops.reshape(x, flat_shape)

    def _unblockify_then_matricize(self, vec):
        vec_flat = self._unblockify(vec)
        matrix = linear_operator_util.rotate_transpose(vec_flat, shift=-1)
        return matrix

    def _fft(self, x):
        x_complex = _to_complex(x)
        return _FFT_OP[self.block_depth](x_complex)

    def _ifft(self, x):
        x_complex = _to_complex(x)
        return _IFFT_OP[self.block_depth](x_complex)

    def convolution_kernel(self, name='convolution_kernel'):
        with self._name_scope(name):
            h = self._ifft(_to_complex(self.spectrum))
            return math_ops.cast(h, self.dtype)

    def _shape(self):
        s_shape = self._spectrum.shape
        batch_shape = s_shape[:-self.block_depth]
        trailing_dims = s_shape[-self.block_depth:]
        if trailing_dims.is_fully_defined():
            n = np.prod(trailing_dims.as_list())
        else:
            n = None
        n_x_n = tensor_shape.TensorShape([n, n])
        return batch_shape.concatenate(n_x_n)

    def _shape_tensor(self, spectrum=None):
        spectrum = self.spectrum if spectrum is None else spectrum
        s_shape = array_ops.shape(spectrum)
        batch_shape = s_shape[:-self.block_depth]
        trailing_dims = s_shape[-self.block_depth:]
        n = math_ops.reduce_prod(trailing_dims)
        n_x_n = [n, n]
        return array_ops.concat((batch_shape, n_x_n), 0)

    def assert_hermitian_spectrum(self, name='assert_hermitian_spectrum'):
        eps = np.finfo(self.dtype.real_dtype.as_numpy_dtype).eps
        with self._name_scope(name):
            max_err = eps * self.domain_dimension_tensor()
            imag_convolution_kernel = math_ops.imag(self.convolution_kernel())
            return check_ops.assert_less(math_ops.abs(imag_convolution_kernel), max_err,
                                         message='Spectrum was not Hermitian')

    def _assert_non_singular(self):
        return linear_operator_util.assert_no_entries_with_modulus_zero(
            self.spectrum, message='Singular operator:  Spectrum contained zero values.')

    def _assert_positive_definite(self):
        message = 'Not positive definite:  Real part of spectrum was not all positive.'
        return check_ops.assert_positive(math_ops.real(self.spectrum), message=message)

    def _assert_self_adjoint(self):
        return linear_operator_util.assert_zero_imag_part(
            self.spectrum,
            message='Not self-adjoint:  The spectrum contained non-zero imaginary part.')

    def _broadcast_batch_dims(self, x, spectrum):
        spectrum = ops.convert_to_tensor(spectrum, name='spectrum')
        batch_shape = self._batch_shape_tensor(shape=self._shape_tensor(spectrum=spectrum))
        spec_mat = array_ops.reshape(spectrum, array_ops.concat((batch_shape, [-1, 1]), axis=0))
        x, spec_mat = linear_operator_util.broadcast_matrix_batch_dims((x, spec_mat))
        x_batch_shape = array_ops.shape(x)[:-2]
        spectrum_shape = array_ops.shape(spectrum)
        spectrum = array_ops.reshape(
            spec_mat,
            array_ops.concat(
                (x_batch_shape, self._block_shape_tensor(spectrum_shape=spectrum_shape)), axis=0))
        return (x, spectrum)

    def _cond(self):
        abs_singular_values = math_ops.abs(self._unblockify(self.spectrum))
        return math_ops.reduce_max(
            abs_singular_values, axis=-1) / math_ops.reduce_min(abs_singular_values, axis=-1)

    def _eigvals(self):
        return ops.convert_to_tensor(self._unblockify(self.spectrum))

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = linalg.adjoint(x) if adjoint_arg else x
        spectrum = _to_complex(self.spectrum)
        if adjoint:
            spectrum = math_ops.conj(spectrum)
        x = math_ops.cast(x, spectrum.dtype)
        x, spectrum = self._broadcast_batch_dims(x, spectrum)
        x_vb = self._vectorize_then_blockify(x)
        fft_x_vb = self._fft(x_vb)
        block_vector_result = self._ifft(spectrum * fft_x_vb)
        y = self._unblockify_then_matricize(block_vector_result)
        return math_ops.cast(y, self.dtype)

    def _determinant(self):
        axis = [-(i + 1) for i in range(self.block_depth)]
        det = math_ops.reduce_prod(self.spectrum, axis=axis)
        return math_ops.cast(det, self.dtype)

    def _log_abs_determinant(self):
        axis = [-(i + 1) for i in range(self.block_depth)]
        lad = math_ops.reduce_sum(math_ops.log(math_ops.abs(self.spectrum)), axis=axis)
        return math_ops.cast(lad, self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = linalg.adjoint(rhs) if adjoint_arg else rhs
        spectrum = _to_complex(self.spectrum)
        if adjoint:
            spectrum = math_ops.conj(spectrum)
        rhs, spectrum = self._broadcast_batch_dims(rhs, spectrum)
        rhs_vb = self._vectorize_then_blockify(rhs)
        fft_rhs_vb = self._fft(rhs_vb)
        solution_vb = self._ifft(fft_rhs_vb / spectrum)
        x = self._unblockify_then_matricize(solution_vb)
        return math_ops.cast(x, self.dtype)

    def _diag_part(self):
        if self.shape.is_fully_defined():
            diag_shape = self.shape[:-1]
            diag_size = self.domain_dimension.value
        else:
            diag_shape = self.shape_tensor()[:-1]
            diag_size = self.domain_dimension_tensor()
        ones_diag = array_ops.ones(diag_shape, dtype=self.dtype)
        diag_value = self.trace() / math_ops.cast(diag_size, self.dtype)
        return diag_value[..., array_ops.newaxis] * ones_diag

    def _trace(self):
        if self.spectrum.shape.is_fully_defined():
            spec_rank = self.spectrum.shape.ndims
            axis = np.arange(spec_rank - self.block_depth, spec_rank, dtype=np.int32)
        else:
            spec_rank = array_ops.rank(self.spectrum)
            axis = math_ops.range(spec_rank - self.block_depth, spec_rank)
        re_d_value = math_ops.reduce_sum(math_ops.real(self.spectrum), axis=axis)
        if not self.dtype.is_complex:
            return math_ops.cast(re_d_value, self.dtype)
        if self.is_self_adjoint:
            im_d_value = array_ops.zeros_like(re_d_value)
        else:
            im_d_value = math_ops.reduce_sum(math_ops.imag(self.spectrum), axis=axis)
        return math_ops.cast(math_ops.complex(re_d_value, im_d_value), self.dtype)


class LinearOperatorCirculant(_BaseLinearOperatorCirculant):
    """A circulant matrix known by its spectrum (FFT matmul, solve)."""

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular: bool=None,
                 is_self_adjoint: bool=None, is_positive_definite: bool=None, is_square: bool=True,
                 name='LinearOperatorCirculant'):
        parameters = dict(spectrum=spectrum, input_output_dtype=input_output_dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        super().__init__(spectrum, block_depth=1, input_output_dtype=input_output_dtype,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         parameters=parameters, name=name)

    def _linop_adjoint(self) -> 'LinearOperatorCirculant':
        spectrum = self.spectrum
        if spectrum.dtype.is_complex:
            spectrum = math_ops.conj(spectrum)
        return LinearOperatorCirculant(spectrum=spectrum, is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite,
                                       is_square=True)

    def _linop_inverse(self) -> 'LinearOperatorCirculant':
        return LinearOperatorCirculant(spectrum=1.0 / self.spectrum,
                                       is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite,
                                       is_square=True, input_output_dtype=self.dtype)

    def _linop_matmul(
        self, left_operator: 'LinearOperatorCirculant',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if (not isinstance(right_operator, LinearOperatorCirculant)
            or not isinstance(left_operator, type(right_operator))):
            return super()._linop_matmul(left_operator, right_operator)
        return LinearOperatorCirculant(
            spectrum=left_operator.spectrum * right_operator.spectrum,
            is_non_singular=linear_operator_util.combined_non_singular_hint(
                left_operator, right_operator),
            is_self_adjoint=linear_operator_util.combined_commuting_self_adjoint_hint(
                left_operator, right_operator),
            is_positive_definite=linear_operator_util.combined_commuting_positive_definite_hint(
                left_operator, right_operator),
            is_square=True)

    def _linop_solve(
        self, left_operator: 'LinearOperatorCirculant',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if not isinstance(right_operator, LinearOperatorCirculant):
            return super()._linop_solve(left_operator, right_operator)
        return LinearOperatorCirculant(
            spectrum=right_operator.spectrum / left_operator.spectrum,
            is_non_singular=linear_operator_util.combined_non_singular_hint(
                left_operator, right_operator),
            is_self_adjoint=linear_operator_util.combined_commuting_self_adjoint_hint(
                left_operator, right_operator),
            is_positive_definite=linear_operator_util.combined_commuting_positive_definite_hint(
                left_operator, right_operator),
            is_square=True)


class LinearOperatorCirculant2D(_BaseLinearOperatorCirculant):
    """A block circulant matrix with circulant blocks (2-D FFT)."""

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular: bool=None,
                 is_self_adjoint: bool=None, is_positive_definite: bool=None, is_square: bool=True,
                 name='LinearOperatorCirculant2D'):
        parameters = dict(spectrum=spectrum, input_output_dtype=input_output_dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        super().__init__(spectrum, block_depth=2, input_output_dtype=input_output_dtype,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         parameters=parameters, name=name)

    def _linop_adjoint(self) -> 'LinearOperatorCirculant2D':
        spectrum = self.spectrum
        if spectrum.dtype.is_complex:
            spectrum = math_ops.conj(spectrum)
        return LinearOperatorCirculant2D(spectrum=spectrum, is_non_singular=self.is_non_singular,
                                         is_self_adjoint=self.is_self_adjoint,
                                         is_positive_definite=self.is_positive_definite,
                                         is_square=True)

    def _linop_inverse(self) -> 'LinearOperatorCirculant2D':
        return LinearOperatorCirculant2D(spectrum=1.0 / self.spectrum,
                                         is_non_singular=self.is_non_singular,
                                         is_self_adjoint=self.is_self_adjoint,
                                         is_positive_definite=self.is_positive_definite,
                                         is_square=True, input_output_dtype=self.dtype)

    def _linop_matmul(
        self, left_operator: 'LinearOperatorCirculant2D',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if (not isinstance(right_operator, LinearOperatorCirculant2D)
            or not isinstance(left_operator, type(right_operator))):
            return super()._linop_matmul(left_operator, right_operator)
        return LinearOperatorCirculant2D(
            spectrum=left_operator.spectrum * right_operator.spectrum,
            is_non_singular=linear_operator_util.combined_non_singular_hint(
                left_operator, right_operator),
            is_self_adjoint=linear_operator_util.combined_commuting_self_adjoint_hint(
                left_operator, right_operator),
            is_positive_definite=linear_operator_util.combined_commuting_positive_definite_hint(
                left_operator, right_operator),
            is_square=True)

    def _linop_solve(
        self, left_operator: 'LinearOperatorCirculant2D',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if not isinstance(right_operator, LinearOperatorCirculant2D):
            return super()._linop_solve(left_operator, right_operator)
        return LinearOperatorCirculant2D(
            spectrum=right_operator.spectrum / left_operator.spectrum,
            is_non_singular=linear_operator_util.combined_non_singular_hint(
                left_operator, right_operator),
            is_self_adjoint=linear_operator_util.combined_commuting_self_adjoint_hint(
                left_operator, right_operator),
            is_positive_definite=linear_operator_util.combined_commuting_positive_definite_hint(
                left_operator, right_operator),
            is_square=True)


class LinearOperatorCirculant3D(_BaseLinearOperatorCirculant):
    """A nested block circulant matrix of depth 3 (3-D FFT)."""

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular: bool=None,
                 is_self_adjoint: bool=None, is_positive_definite: bool=None, is_square: bool=True,
                 name='LinearOperatorCirculant3D'):
        parameters = dict(spectrum=spectrum, input_output_dtype=input_output_dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          name=name)
        super().__init__(spectrum, block_depth=3, input_output_dtype=input_output_dtype,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         parameters=parameters, name=name)

    def _linop_adjoint(self) -> 'LinearOperatorCirculant3D':
        spectrum = self.spectrum
        if spectrum.dtype.is_complex:
            spectrum = math_ops.conj(spectrum)
        return LinearOperatorCirculant3D(spectrum=spectrum, is_non_singular=self.is_non_singular,
                                         is_self_adjoint=self.is_self_adjoint,
                                         is_positive_definite=self.is_positive_definite,
                                         is_square=True)

    def _linop_inverse(self) -> 'LinearOperatorCirculant3D':
        return LinearOperatorCirculant3D(spectrum=1.0 / self.spectrum,
                                         is_non_singular=self.is_non_singular,
                                         is_self_adjoint=self.is_self_adjoint,
                                         is_positive_definite=self.is_positive_definite,
                                         is_square=True, input_output_dtype=self.dtype)

    def _linop_matmul(
        self, left_operator: 'LinearOperatorCirculant3D',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if (not isinstance(right_operator, LinearOperatorCirculant3D)
            or not isinstance(left_operator, type(right_operator))):
            return super()._linop_matmul(left_operator, right_operator)
        return LinearOperatorCirculant3D(
            spectrum=left_operator.spectrum * right_operator.spectrum,
            is_non_singular=linear_operator_util.combined_non_singular_hint(
                left_operator, right_operator),
            is_self_adjoint=linear_operator_util.combined_commuting_self_adjoint_hint(
                left_operator, right_operator),
            is_positive_definite=linear_operator_util.combined_commuting_positive_definite_hint(
                left_operator, right_operator),
            is_square=True)

    def _linop_solve(
        self, left_operator: 'LinearOperatorCirculant3D',
        right_operator: linear_operator.LinearOperator) -> linear_operator.LinearOperator:
        if not isinstance(right_operator, LinearOperatorCirculant3D):
            return super()._linop_solve(left_operator, right_operator)
        return LinearOperatorCirculant3D(
            spectrum=right_operator.spectrum / left_operator.spectrum,
            is_non_singular=linear_operator_util.combined_non_singular_hint(
                left_operator, right_operator),
            is_self_adjoint=linear_operator_util.combined_commuting_self_adjoint_hint(
                left_operator, right_operator),
            is_positive_definite=linear_operator_util.combined_commuting_positive_definite_hint(
                left_operator, right_operator),
            is_square=True)


def _to_complex(x):
    if x.dtype.is_complex:
        return x
    dtype = dtypes.complex64
    if x.dtype == dtypes.float64:
        dtype = dtypes.complex128
    return math_ops.cast(x, dtype)
