"""The NumPy CPU kernels, one module per kind of op; each registers its table at import.

engine.kernels calls `load_kernels` the first time a CPU kernel is looked up. A new module
of CPU kernels is named in KERNEL_MODULES (see docs/ARCHITECTURE.md, "How to add an op").
"""

import importlib

KERNEL_MODULES = tuple(f"engine.kernels.cpu.{name}" for name in (
    "math", "reduce", "array", "nn", "state", "random", "control_flow", "functional", "grad",
    "training", "sendrecv", "stack", "asserts", "batch_norm", "summary", "candidate_sampling",
    "scatter", "reverse_sequence", "io", "tensor_array", "sparse_training", "data",
    "data_iterator", "data_combine", "debug", "script", "linalg", "segment", "gather_nd", "queues",
    "training_tf1", "shuffle", "fused", "nn_extra", "parsing", "readers", "decode_csv",
    "list_ops", "lookup_tables", "linalg_solvers", "eigen_decompositions",
    "fused_contraction", "accumulators", "special_math", "manip", "random_sampling", "strings", "sets",
    "image", "crop_and_resize", "volumetric", "sparse", "spectral", "audio", "bessel",
    "cephes_misc", "string_format", "encoding", "unicode", "string_ngrams", "stateless_random",
    "parameterized_truncated_normal", "sparse_math", "sparse_reduce", "sparse_serialize",
    "sparse_count", "ctc", "window_argmax", "fractional_pool", "image_codecs", "bounding_boxes", "distorted_crop",
    "glimpse",
    # array and shape ops, small linalg
    "array_shape", "patches", "edit_distance", "matrix_roots", "tridiagonal",
    # fake quantization
    "fake_quant", "quantize_and_dequantize", "quantize",
    # generic Conv, quantized convolution and pools, WebP, padded NMS, box proposals, protos
    "conv_generic", "quantized_nn", "proto_codec", "cpu_refusals",
    # vocabulary remapping of checkpoints (tf.train.VocabInfo)
    "checkpoint_remap",
    # dataset options, session handles, sparse accumulators, IdentityReader, Fact
    "data_options", "session_handles", "sparse_accumulators", "identity_reader", "user_ops",
    "numerics_checks", "batch_function",
    # random generators, approximate top-k, FFTND, SDCA
    "approx_top_k", "stateful_random", "sdca", "sdca_optimizer", "sobol",
    # RaggedTensor's ops
    "ragged",
    # tf.image.resize with antialias or its lanczos, gaussian and mitchellcubic methods
    "scale_and_translate",
    # tf.linalg.eig and eigvals of a general matrix
    "general_eig",
    # tf.CriticalSection's mutex
    "mutex",
    # Keras's RandomRotation, RandomZoom, RandomTranslation, RandomShear
    "projective_transform"))


def load_kernels():
    for name in KERNEL_MODULES:
        importlib.import_module(name)
