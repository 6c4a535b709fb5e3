"""Shape functions of the special math and manipulation ops (engine/kernels/cpu/special_math.py,
manip.py): elementwise ones keep or broadcast their inputs' shapes, the rest as TensorFlow's
shape functions (core/ops/math_ops.cc, manip_ops.cc, array_ops.cc, sparse_ops.cc) give them."""

import numpy as np

from engine.shape_inference.control_flow import unknown
from engine.shape_inference.dims import _dims, broadcast, merge
from engine.shape_inference.elementwise import binary, unchanged
from engine.shape_inference.partial_values import _ints
from engine.shape_inference.reductions import reduction


def betainc(attrs, inputs):
    """a, b and x: the shape the non-scalar ones agree on ([] when all are scalars)."""
    result = []
    for info in inputs:
        dims = _dims(info)
        if dims is None:
            return None if result == [] else result
        if dims:
            result = dims if result == [] else merge(result, dims)
    return result


def bitcast(attrs, inputs):
    dims = _dims(inputs[0])
    if dims is None:
        return None
    in_size = np.dtype(inputs[0].dtype.as_numpy_dtype).itemsize
    out_size = np.dtype(attrs["type"].as_numpy_dtype).itemsize
    if in_size < out_size:
        return dims[:-1]
    if in_size > out_size:
        return dims + [in_size // out_size]
    return dims


def bound(attrs, inputs):
    return _dims(inputs[1])


def histogram_fixed_width(attrs, inputs):
    nbins = _ints(inputs[2])
    return [nbins[0] if nbins else None]


def unique_with_counts(attrs, inputs):
    return [None], _dims(inputs[0]), [None]


def sparse_tensor_dense_matmul(attrs, inputs):
    a_shape = _ints(inputs[2])
    b = _dims(inputs[3])
    rows = None
    if a_shape is not None and len(a_shape) == 2:
        rows = a_shape[1] if attrs.get("adjoint_a") else a_shape[0]
    cols = None
    if b is not None and len(b) == 2:
        cols = b[0] if attrs.get("adjoint_b") else b[1]
    return [rows, cols]


def multinomial(attrs, inputs):
    logits = _dims(inputs[0])
    samples = _ints(inputs[1])
    return [logits[0] if logits else None, samples[0] if samples else None]


def sampled_per_parameter(attrs, inputs):
    """RandomGamma, RandomPoissonV2: the shape given, then the parameters' shape."""
    shape = _ints(inputs[0])
    parameters = _dims(inputs[1])
    if shape is None or parameters is None:
        return None
    return shape + parameters


def string_split(attrs, inputs):
    return [None, 2], [None], [2]


def substr(attrs, inputs):
    return broadcast(_dims(inputs[0]), _dims(inputs[1]))


def unravel_index(attrs, inputs):
    """[len(dims)] for a scalar index, [len(dims), n] for a vector of n."""
    indices, dims = _dims(inputs[0]), _dims(inputs[1])
    rows = dims[0] if dims else None
    if indices is None:
        return None
    return [rows] if len(indices) == 0 else [rows, indices[0]]


def set_operation(attrs, inputs):
    """A SparseTensor's three parts: [n, rank], [n], [rank] (rank from the first input)."""
    if len(inputs) == 6:  # SparseToSparse: set1's dense_shape has `rank` entries
        dims = _dims(inputs[2])
        rank = dims[0] if dims else None
    else:  # set1 is dense
        first = _dims(inputs[0])
        rank = None if first is None else len(first)
    return [None, rank], [None], [rank]


SHAPE_FUNCTIONS = {
    **{op: unchanged for op in ("Lgamma", "Digamma", "BesselI0e", "BesselI1e", "Roll",
                                        "Erfinv", "Ndtri")},
    **{op: binary for op in ("Xlogy", "Xdivy", "Xlog1py", "MulNoNan", "Zeta", "Polygamma",
                             "Igamma", "Igammac", "IgammaGradA", "RandomGammaGrad")},
    "Multinomial": multinomial, "RandomGamma": sampled_per_parameter,
    "RandomPoissonV2": sampled_per_parameter,
    "StringSplit": string_split, "StringSplitV2": string_split, "Substr": substr,
    "AsString": unchanged, "StringToNumber": unchanged, "ReduceJoin": reduction,
    **{op: unchanged for op in ("StringLength", "StringLower", "StringUpper", "StringStrip",
                                "RegexReplace", "StaticRegexReplace", "RegexFullMatch",
                                "StringToHashBucketFast", "StringToHashBucketStrong",
                                "StringToHashBucket")},
    **{op: set_operation for op in ("DenseToDenseSetOperation", "DenseToSparseSetOperation",
                                    "SparseToSparseSetOperation")},
    "SetSize": unknown,  # TensorFlow's shape function leaves it unknown
    "Betainc": betainc, "Bitcast": bitcast, "LowerBound": bound, "UpperBound": bound,
    "Bucketize": unchanged,
    "UnravelIndex": unravel_index,
    "HistogramFixedWidth": histogram_fixed_width, "UniqueWithCounts": unique_with_counts,
    "SparseTensorDenseMatMul": sparse_tensor_dense_matmul,
}
