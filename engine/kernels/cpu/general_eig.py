"""CPU kernel of Eig (tf.linalg.eig, eigvals): a general square matrix's eigenvalues (and unit
eigenvectors), complex. TensorFlow's EigOp takes them from Eigen's ComplexEigenSolver; here
LAPACK's (NumPy's zgeev on the complex matrix) compute them: the values agree to rounding,
their order is the Schur form's as Eigen's mostly is but not always (a complex matrix's can
come reversed), and each eigenvector's phase may be another. Without compute_v, v is the
scalar 0 TensorFlow returns."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid


@register("Eig")
def eig(ctx, matrix):
    matrix = np.asarray(matrix)
    if matrix.ndim < 2:
        raise invalid(ctx, f"Input must have rank >= 2, got {matrix.ndim}")
    if matrix.shape[-1] != matrix.shape[-2]:
        raise invalid(ctx, f"Input matrices must be square, got {matrix.shape[-2]} != "
                           f"{matrix.shape[-1]}")
    out_dtype = np.dtype(ctx.output_dtypes[0].as_numpy_dtype)
    compute_v = ctx.attr("compute_v", True)
    n = matrix.shape[-1]
    batch = matrix.reshape(-1, n, n).astype(np.complex128)
    values = np.zeros((batch.shape[0], n), out_dtype)
    vectors = np.zeros((batch.shape[0], n, n), out_dtype)
    for index, one in enumerate(batch):
        if not np.all(np.isfinite(one)):
            raise invalid(ctx, "Eigen decomposition was not successful. The input might "
                               "contain NaNs or Infs.")
        values[index], vectors[index] = np.linalg.eig(one)
    values = values.reshape(matrix.shape[:-1])
    vectors = vectors.reshape(matrix.shape) if compute_v else np.zeros((), out_dtype)
    return values, vectors
