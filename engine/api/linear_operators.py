"""tf.linalg's LinearOperator family (engine/ops/linear_operator*.py): the base class and its
twenty subclasses, put on the tf.linalg namespace of engine/api/math_and_nn.py."""

from engine.api import math_and_nn as _math_and_nn
from engine.ops import (linear_operator, linear_operator_adjoint, linear_operator_block_diag,
                        linear_operator_block_lower_triangular, linear_operator_circulant,
                        linear_operator_composition, linear_operator_diag,
                        linear_operator_full_matrix, linear_operator_householder,
                        linear_operator_identity, linear_operator_inversion,
                        linear_operator_kronecker, linear_operator_low_rank_update,
                        linear_operator_lower_triangular, linear_operator_permutation,
                        linear_operator_toeplitz, linear_operator_tridiag,
                        linear_operator_zeros)

LINEAR_OPERATORS = {
    "LinearOperator": linear_operator.LinearOperator,
    "LinearOperatorAdjoint": linear_operator_adjoint.LinearOperatorAdjoint,
    "LinearOperatorBlockDiag": linear_operator_block_diag.LinearOperatorBlockDiag,
    "LinearOperatorBlockLowerTriangular":
        linear_operator_block_lower_triangular.LinearOperatorBlockLowerTriangular,
    "LinearOperatorCirculant": linear_operator_circulant.LinearOperatorCirculant,
    "LinearOperatorCirculant2D": linear_operator_circulant.LinearOperatorCirculant2D,
    "LinearOperatorCirculant3D": linear_operator_circulant.LinearOperatorCirculant3D,
    "LinearOperatorComposition": linear_operator_composition.LinearOperatorComposition,
    "LinearOperatorDiag": linear_operator_diag.LinearOperatorDiag,
    "LinearOperatorFullMatrix": linear_operator_full_matrix.LinearOperatorFullMatrix,
    "LinearOperatorHouseholder": linear_operator_householder.LinearOperatorHouseholder,
    "LinearOperatorIdentity": linear_operator_identity.LinearOperatorIdentity,
    "LinearOperatorInversion": linear_operator_inversion.LinearOperatorInversion,
    "LinearOperatorKronecker": linear_operator_kronecker.LinearOperatorKronecker,
    "LinearOperatorLowRankUpdate": linear_operator_low_rank_update.LinearOperatorLowRankUpdate,
    "LinearOperatorLowerTriangular":
        linear_operator_lower_triangular.LinearOperatorLowerTriangular,
    "LinearOperatorPermutation": linear_operator_permutation.LinearOperatorPermutation,
    "LinearOperatorScaledIdentity": linear_operator_identity.LinearOperatorScaledIdentity,
    "LinearOperatorToeplitz": linear_operator_toeplitz.LinearOperatorToeplitz,
    "LinearOperatorTridiag": linear_operator_tridiag.LinearOperatorTridiag,
    "LinearOperatorZeros": linear_operator_zeros.LinearOperatorZeros,
}
for _name, _cls in LINEAR_OPERATORS.items():
    setattr(_math_and_nn.linalg, _name, _cls)
