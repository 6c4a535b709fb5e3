"""The tf.nn namespace."""

from engine.ops.math_ops import bias_add, sigmoid, tanh  # noqa: F401
from engine.ops.nn_ops import (avg_pool, conv2d, elu, leaky_relu, log_softmax,  # noqa: F401
                               max_pool, relu, relu6, selu, softmax, softplus, softsign)
from engine.ops.nn_ops import (dropout, dropout_v2, in_top_k, l2_loss,  # noqa: F401
                               softmax_cross_entropy_with_logits,
                               softmax_cross_entropy_with_logits_v2,
                               sparse_softmax_cross_entropy_with_logits)
from engine.ops.batch_norm import batch_normalization, fused_batch_norm, moments  # noqa: F401,E402
from engine.ops.candidate_sampling_ops import (compute_accidental_hits,  # noqa: F401,E402
                                               log_uniform_candidate_sampler,
                                               uniform_candidate_sampler, all_candidate_sampler,
                                               fixed_unigram_candidate_sampler,
                                               learned_unigram_candidate_sampler)
from engine.ops.embedding_ops import (embedding_lookup, embedding_lookup_sparse,  # noqa: F401,E402
                                      safe_embedding_lookup_sparse)
from engine.ops.sampled_losses import (nce_loss, sampled_softmax_loss,  # noqa: F401,E402
                                       sigmoid_cross_entropy_with_logits)
from engine.ops.norm_ops import l2_normalize  # noqa: F401,E402
from engine.layers import rnn_cell  # noqa: F401,E402
from engine.layers.rnn import (static_bidirectional_rnn, static_rnn,  # noqa: F401,E402
                               static_state_saving_rnn)
from engine.layers.dynamic_rnn import bidirectional_dynamic_rnn, dynamic_rnn  # noqa: F401,E402
from engine.layers.raw_rnn import raw_rnn  # noqa: F401,E402

from engine.framework.api_namespace import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("tf.nn")
