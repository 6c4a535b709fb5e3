"""The tf.nn namespace."""

from engine.ops.math_ops import bias_add, sigmoid, tanh  # noqa: F401
from engine.ops.nn_ops import (avg_pool, conv2d, elu, leaky_relu, log_softmax,  # noqa: F401
                               max_pool, relu, relu6, selu, softmax, softplus, softsign)
from engine.ops.nn_ops import (dropout, dropout_v2, l2_loss,  # noqa: F401
                               softmax_cross_entropy_with_logits,
                               softmax_cross_entropy_with_logits_v2,
                               sparse_softmax_cross_entropy_with_logits)
from engine.ops.batch_norm import batch_normalization, fused_batch_norm, moments  # noqa: F401,E402
