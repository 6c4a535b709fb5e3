"""tf.nn, tf.losses, tf.linalg, tf.math and tf.metrics: the namespaces of layers' math."""

from engine.framework.api_namespace import Namespace as _Namespace

from engine.ops import nn  # noqa: F401
from engine.ops import linalg_ops as _linalg, losses as _losses, metrics as _metrics
from engine.ops import nn_conv_norm_ops as _nn_conv_norm, nn_extra_ops as _nn_extra
from engine.ops import ctc_ops as _ctc, segment_ops as _segment
from engine.ops import nn_conv_wrappers as _conv_wrappers, window_argmax_ops as _window_argmax
from engine.ops import einsum_ops as _einsum, least_squares as _least_squares
from engine.ops import matrix_functions as _matrix_functions
from engine.ops import math_ops as _math, norm_ops as _norm
from engine.ops import stateless_random_ops as _stateless_random
from engine.ops import tridiagonal_ops as _tridiagonal

# tf.nn is the module engine.ops.nn; these members live in other op modules.
for _name, _value in {
        "top_k": _segment.top_k, "xw_plus_b": _nn_extra.xw_plus_b,
        "conv1d": _nn_extra.conv1d, "conv2d_transpose": _nn_extra.conv2d_transpose,
        "crelu": _nn_extra.crelu,
        "weighted_cross_entropy_with_logits": _nn_extra.weighted_cross_entropy_with_logits,
        **{name: getattr(_nn_conv_norm, name) for name in (
            "depthwise_conv2d", "depthwise_conv2d_native", "lrn",
            "local_response_normalization")},
        **{name: getattr(_ctc, name) for name in (
            "ctc_loss", "ctc_loss_v2", "ctc_greedy_decoder", "ctc_beam_search_decoder",
            "ctc_beam_search_decoder_v2", "ctc_unique_labels", "collapse_repeated")},
        **{name: getattr(_conv_wrappers, name) for name in (
            "conv2d_backprop_filter", "conv2d_backprop_input", "conv3d_transpose",
            "conv1d_transpose", "conv_transpose", "atrous_conv2d_transpose", "max_pool1d",
            "max_pool2d", "max_pool_v2", "avg_pool1d", "avg_pool_v2",
            "depthwise_conv2d_native_backprop_filter", "depthwise_conv2d_native_backprop_input",
            "relu_layer", "batch_norm_with_global_normalization", "compute_average_loss",
            "scale_regularization_loss", "convolution", "pool")},
        **{name: getattr(_window_argmax, name) for name in (
            "max_pool_with_argmax", "dilation2d", "erosion2d", "fractional_max_pool",
            "fractional_avg_pool")},
        "conv3d_backprop_filter": _conv_wrappers.conv3d_backprop_filter_v2,
        "conv3d_backprop_filter_v2": _conv_wrappers.conv3d_backprop_filter_v2,
        "depthwise_conv2d_backprop_filter": _conv_wrappers.depthwise_conv2d_native_backprop_filter,
        "depthwise_conv2d_backprop_input": _conv_wrappers.depthwise_conv2d_native_backprop_input,
        }.items():
    setattr(nn, _name, _value)
nn.experimental = _Namespace("tf.nn.experimental",
                             stateless_dropout=_stateless_random.stateless_dropout)

losses = _Namespace("tf.losses", Reduction=_losses.Reduction,
                    compute_weighted_loss=_losses.compute_weighted_loss,
                    mean_squared_error=_losses.mean_squared_error,
                    softmax_cross_entropy=_losses.softmax_cross_entropy,
                    sparse_softmax_cross_entropy=_losses.sparse_softmax_cross_entropy,
                    get_losses=_losses.get_losses, add_loss=_losses.add_loss,
                    huber_loss=_nn_extra.huber_loss,
                    get_total_loss=_nn_extra.get_total_loss,
                    get_regularization_losses=_nn_extra.get_regularization_losses,
                    **{name: getattr(_losses, name) for name in (
                        "absolute_difference", "cosine_distance", "hinge_loss", "log_loss",
                        "mean_pairwise_squared_error", "sigmoid_cross_entropy",
                        "get_regularization_loss")})
linalg = _Namespace("tf.linalg", inv=_linalg.matrix_inverse, det=_linalg.matrix_determinant,
                    cholesky=_linalg.cholesky, einsum=_einsum.einsum,
                    tensordot=_linalg.tensordot, trace=_linalg.trace,
                    diag=_linalg.matrix_diag, diag_part=_linalg.matrix_diag_part,
                    set_diag=_linalg.matrix_set_diag, band_part=_linalg.matrix_band_part,
                    eigh=_linalg.self_adjoint_eig, eigvalsh=_linalg.self_adjoint_eigvals,
                    svd=_linalg.svd, qr=_linalg.qr, cross=_linalg.cross,
                    solve=_linalg.matrix_solve, triangular_solve=_linalg.matrix_triangular_solve,
                    cholesky_solve=_linalg.cholesky_solve, lstsq=_least_squares.matrix_solve_ls,
                    pinv=_matrix_functions.pinv, expm=_matrix_functions.matrix_exponential,
                    lu=_matrix_functions.lu, lu_solve=_matrix_functions.lu_solve,
                    lu_matrix_inverse=_matrix_functions.lu_matrix_inverse,
                    lu_reconstruct=_matrix_functions.lu_reconstruct,
                    slogdet=_linalg.log_matrix_determinant, logdet=_linalg.logdet,
                    eye=_linalg.eye, matrix_transpose=_linalg.matrix_transpose,
                    transpose=_linalg.matrix_transpose, adjoint=_linalg.adjoint,
                    norm=_norm.norm, matmul=_math.matmul,
                    matvec=_matrix_functions.matvec, normalize=_matrix_functions.normalize,
                    matrix_rank=_matrix_functions.matrix_rank,
                    sqrtm=_matrix_functions.matrix_square_root,
                    logm=_matrix_functions.matrix_logarithm,
                    tridiagonal_matmul=_tridiagonal.tridiagonal_matmul,
                    tridiagonal_solve=_tridiagonal.tridiagonal_solve,
                    eigh_tridiagonal=_tridiagonal.eigh_tridiagonal)
# tf.math: only the ops the engine has under no other name yet.
math = _Namespace("tf.math", in_top_k=nn.in_top_k)
metrics = _Namespace("tf.metrics", **{name: getattr(_metrics, name) for name in _metrics.METRICS})
