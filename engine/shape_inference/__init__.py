"""Static shape inference: TensorFlow's shape functions for the ops the engine runs.

`infer_shapes(op_def, attrs, inputs)` gives the TensorShape of each output from the inputs'
static shapes and, where known, their constant values (a Const feeding Reshape's shape).
One table maps op types to shape functions; ops without one get unknown shapes. Shapes are
handled as lists of int-or-None (None for the whole list when the rank is unknown).
Incompatible static shapes raise ShapeError (a ValueError), as TensorFlow's graph building.

The shape functions live by kind of op: elementwise, reductions, nn (products, convolutions,
pools), array; dims holds the helpers on dims lists and partial_values InputInfo and the
shapes given as tensors. The gradient and training ops' functions are merged in from
engine.shape_inference.training, control flow's and the unknown-output rule from
engine.shape_inference.control_flow. Every name is also importable from here, as before the
split.
"""

from engine.framework import op_families
from engine.kernels import slicing
from engine.shape_inference.array import (  # noqa: F401  (the shape functions, re-exported)
    _concat, _unknown_slice_dims, broadcast_args, broadcast_to, concat_offset, const,
    dynamic_partition, dynamic_stitch, ensure_shape, expand_dims, fill, fingerprint,
    parallel_concat, gather_v2, identity_n, list_diff, one_hot,
    pack, pad, placeholder_with_default, random, range_, reshape, shape_of, slice_, split,
    split_v, squeeze, strided_slice, tile, top_k, transpose, unpack, where)
from engine.shape_inference.control_flow import (  # noqa: F401
    enter, if_or_case, merge_op, switch, switch_n, unknown, while_)
from engine.shape_inference.io import (parse_example_v2, parse_sequence_example_v2,  # noqa: F401
                                       restore_v2, string_join)
from engine.shape_inference.dims import (  # noqa: F401
    ShapeError, _attr_shape, _dims, _unknown, broadcast, merge, merge_dim, with_rank)
from engine.shape_inference.elementwise import CHECKED_SHAPE_FUNCTIONS as _CHECKED_ELEMENTWISE
from engine.shape_inference.elementwise import (  # noqa: F401
    BINARY, SCALARS, UNARY, add_n, binary, fused_elementwise, scalar, select, select_v2,
    unchanged)
from engine.shape_inference.nn import (  # noqa: F401
    _from_nhwc, _hw, _nhwc, _spatial, batch_mat_mul, batch_to_space_nd, conv2d,
    depthwise_conv2d, fused_batch_norm, fused_batch_norm_grad, in_top_k, lrn, mat_mul,
    space_to_batch_nd, max_pool_v2, pool, softmax_cross_entropy,
    sparse_softmax_cross_entropy)
from engine.shape_inference.partial_values import (  # noqa: F401
    InputInfo, _from_value, _from_value_rank, _ints, _value)
from engine.shape_inference.reductions import REDUCTIONS, arg_reduction, reduction  # noqa: F401
from engine.shape_inference.sampling import (candidate_sampler,  # noqa: F401
                                             compute_accidental_hits, sparse_to_dense)
from engine.shape_inference.tensor_array import SHAPE_FUNCTIONS as _TENSOR_ARRAY
from engine.shape_inference.training import SHAPE_FUNCTIONS as _TRAINING
from engine.shape_inference.data import SHAPE_FUNCTIONS as _DATA
from engine.shape_inference.linalg import SHAPE_FUNCTIONS as _LINALG
from engine.shape_inference.image import SHAPE_FUNCTIONS as _IMAGE
from engine.shape_inference.lists import SHAPE_FUNCTIONS as _LISTS_AND_TABLES
from engine.shape_inference.special_math import SHAPE_FUNCTIONS as _SPECIAL_MATH
from engine.shape_inference.sparse import SHAPE_FUNCTIONS as _SPARSE
from engine.shape_inference.ctc import SHAPE_FUNCTIONS as _CTC
from engine.shape_inference.sparse_math import SHAPE_FUNCTIONS as _SPARSE_MATH
from engine.shape_inference.spectral import SHAPE_FUNCTIONS as _SPECTRAL
from engine.shape_inference.stateless_random import SHAPE_FUNCTIONS as _STATELESS_RANDOM
from engine.shape_inference.strings import SHAPE_FUNCTIONS as _STRINGS
from engine.shape_inference.window_argmax import SHAPE_FUNCTIONS as _WINDOW_ARGMAX
from engine.shape_inference.quantization import SHAPE_FUNCTIONS as _QUANTIZATION
from engine.shape_inference.image_io_and_quantized import SHAPE_FUNCTIONS as _IMAGE_IO_AND_QUANTIZED
from engine.shape_inference.checkpoint_remap import SHAPE_FUNCTIONS as _CHECKPOINT_REMAP
from engine.shape_inference.session_handles import SHAPE_FUNCTIONS as _SESSION_HANDLES
from engine.shape_inference.approx_top_k import SHAPE_FUNCTIONS as _APPROX_TOP_K
from engine.shape_inference.stateful_random import SHAPE_FUNCTIONS as _STATEFUL_RANDOM
from engine.shape_inference.sdca import SHAPE_FUNCTIONS as _SDCA
from engine.shape_inference.ragged import SHAPE_FUNCTIONS as _RAGGED
from engine.framework.tensor_shape import TensorShape


def num_outputs(op_def, attrs):
    count = 0
    for arg in op_def.output_arg:
        if arg.number_attr:
            count += int(attrs.get(arg.number_attr, 0))
        elif arg.type_list_attr:
            count += len(attrs.get(arg.type_list_attr) or ())
        else:
            count += 1
    return count


def infer_shapes(op_def, attrs, inputs):
    """The static output shapes of a node of `op_def` with decoded `attrs` and InputInfos."""
    count = num_outputs(op_def, attrs)
    fn = SHAPE_FUNCTIONS.get(op_def.name)
    if fn is None:
        return [TensorShape(None) for _ in range(count)]
    try:
        result = fn(attrs, list(inputs))
    except slicing.SliceError as error:
        raise ShapeError(str(error)) from None
    if count == 1 or not isinstance(result, tuple):
        result = (result,) * count if isinstance(result, (list, type(None))) else result
    return [TensorShape(dims) for dims in result][:count] if count else []


SHAPE_FUNCTIONS = {
    **{op: unchanged for op in UNARY},
    **{op: binary for op in BINARY},
    **{op: reduction for op in REDUCTIONS},
    **{op: scalar for op in SCALARS},
    # (a permutation is a vector: TensorFlow's WithRank(x, 1) refuses a scalar or a matrix)
    "InvertPermutation": lambda attrs, inputs: with_rank(inputs[0], 1, fill_unknown=True),
    "AddN": add_n, "Select": select, "SelectV2": select_v2, "_FusedElementwise": fused_elementwise,
    "ArgMax": arg_reduction, "ArgMin": arg_reduction,
    "MatMul": mat_mul, "_FusedMatMul": mat_mul, "BatchMatMul": batch_mat_mul,
    "BatchMatMulV2": batch_mat_mul, "BatchMatMulV3": batch_mat_mul,
    "Conv2D": conv2d, "_FusedConv2D": conv2d, "MaxPool": pool, "AvgPool": pool,
    "DepthwiseConv2dNative": depthwise_conv2d, "LRN": lrn, "LRNGrad": lrn,
    "SpaceToBatchND": space_to_batch_nd, "BatchToSpaceND": batch_to_space_nd,
    "Shape": shape_of, "ShapeN": lambda attrs, inputs: tuple(shape_of(attrs, [i])
                                                             for i in inputs),
    "Reshape": reshape, "Transpose": transpose, "ConjugateTranspose": transpose,
    "ConcatV2": lambda attrs, inputs: _concat(inputs[:-1], inputs[-1]),
    "Concat": lambda attrs, inputs: _concat(inputs[1:], inputs[0]),
    "Pack": pack, "Unpack": unpack, "Split": split, "SplitV": split_v,
    "Slice": slice_, "StridedSlice": strided_slice, "Squeeze": squeeze,
    "ExpandDims": expand_dims, "Tile": tile, "Pad": pad, "PadV2": pad, "MirrorPad": pad,
    "Fill": fill, "Range": range_, "GatherV2": gather_v2,
    "Gather": lambda attrs, inputs: gather_v2(attrs, inputs + [InputInfo(None, [], 0)]),
    "OneHot": one_hot, "Const": const,
    "Placeholder": lambda attrs, inputs: _attr_shape(attrs),
    "PlaceholderV2": lambda attrs, inputs: _attr_shape(attrs),
    "PlaceholderWithDefault": placeholder_with_default,
    "Variable": lambda attrs, inputs: _attr_shape(attrs),
    "VariableV2": lambda attrs, inputs: _attr_shape(attrs),
    "RandomUniform": random, "RandomStandardNormal": random, "TruncatedNormal": random,
    "RandomUniformInt": random, "IdentityN": identity_n, "Where": where,
    "BroadcastTo": broadcast_to, "SoftmaxCrossEntropyWithLogits": softmax_cross_entropy,
    "SparseSoftmaxCrossEntropyWithLogits": sparse_softmax_cross_entropy,
    "StackV2": lambda attrs, inputs: [2],  # TensorFlow's TwoElementOutput, from the ref Stack
    "StackPushV2": lambda attrs, inputs: _dims(inputs[1]),
    "TemporaryVariable": lambda attrs, inputs: _attr_shape(attrs),
    "BroadcastArgs": broadcast_args, "ConcatOffset": concat_offset,
    "DynamicStitch": dynamic_stitch, "ParallelDynamicStitch": dynamic_stitch,
    "DynamicPartition": dynamic_partition,
    "EnsureShape": ensure_shape, "ListDiff": list_diff, "TopKV2": top_k,
    "ParallelConcat": parallel_concat, "Fingerprint": fingerprint, "GuaranteeConst": unchanged,
    "Timestamp": scalar,
    "MaxPoolV2": max_pool_v2, "InTopKV2": in_top_k,
    "FusedBatchNormV3": fused_batch_norm, "FusedBatchNormGradV3": fused_batch_norm_grad,
    "LogUniformCandidateSampler": candidate_sampler,
    "UniformCandidateSampler": candidate_sampler,
    **{f"{kind}CandidateSampler": candidate_sampler
       for kind in ("All", "FixedUnigram", "LearnedUnigram")},
    "ComputeAccidentalHits": compute_accidental_hits, "SparseToDense": sparse_to_dense,
    # Ref updates: the variable's shape.
    "ScatterAdd": unchanged, "ScatterSub": unchanged,
    **{op: unchanged for op in ("ScatterUpdate", "ScatterMul", "ScatterDiv", "ScatterMin",
                                "ScatterMax", "ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub",
                                "TensorScatterUpdate", "TensorScatterAdd",
                                "TensorScatterSub", "TensorScatterMax",
                                "TensorScatterMin")}, "ReverseSequence": unchanged,
    **{op: switch for op in op_families.SWITCH}, "_SwitchN": switch_n,
    **{op: merge_op for op in op_families.MERGE},
    **{op: enter for op in op_families.ENTER},
    **{op: unchanged for op in op_families.EXIT | op_families.NEXT_ITERATION | {"LoopCond"}},
    "If": if_or_case, "StatelessIf": if_or_case, "Case": if_or_case,
    "StatelessCase": if_or_case, "While": while_, "StatelessWhile": while_,
    # TensorFlow's own shape function leaves these outputs unknown (UnknownShape, or a
    # resource's handle data the engine does not track).
    **{op: unknown for op in op_families.RECV | {"PartitionedCall", "StatefulPartitionedCall",
                                                 "ReadVariableOp", "StackPopV2"}},
    # Checkpoints (io.py); SaveV2 and MergeV2Checkpoints have no outputs to shape.
    "RestoreV2": restore_v2, "StringJoin": string_join, "ShardedFilename": scalar,
    "ParseExampleV2": parse_example_v2, "ParseSequenceExampleV2": parse_sequence_example_v2,
    "StaticRegexFullMatch": unchanged,
    # Debug ops (kernels/cpu/debug.py, script.py): Print passes its input on; a PyFunc's
    # outputs are whatever the Python function returns (TensorFlow's UnknownShape).
    "Print": unchanged, "PyFunc": unknown, "PyFuncStateless": unknown,
    "EagerPyFunc": unknown,
    **_TRAINING,
    **_TENSOR_ARRAY,
    **_DATA,
    **_LINALG,
    **_LISTS_AND_TABLES,
    **_SPECIAL_MATH,
    **_SPECTRAL,
    **_SPARSE,
    **_STRINGS,
    **_STATELESS_RANDOM,
    **_SPARSE_MATH,
    **_CTC,
    **_WINDOW_ARGMAX,
    **_QUANTIZATION,
    **_CHECKPOINT_REMAP,
    **_SESSION_HANDLES,
    **_APPROX_TOP_K,
    **_STATEFUL_RANDOM,
    **_SDCA,
    **_RAGGED,
    **_IMAGE,
    **_IMAGE_IO_AND_QUANTIZED,
    **_CHECKED_ELEMENTWISE,
}
