"""IndexedSlices: the sparse gradient of a gather (rows `indices` of a dense tensor), and how
one becomes a Tensor (UnsortedSegmentSum into its dense shape)."""

import collections

from engine.ops.convert import convert_to_tensor, register_tensor_conversion_function
from engine.ops.op_def_library import apply_op


class IndexedSlicesValue(collections.namedtuple("IndexedSlicesValue",
                                                 ["values", "indices", "dense_shape"])):
    """A fetched IndexedSlices: NumPy values, indices and dense_shape (None where the
    IndexedSlices has none)."""


class IndexedSlices:
    """values[i] belongs at row indices[i] of a dense tensor of dense_shape."""

    def __init__(self, values, indices, dense_shape=None):
        self.values, self.indices, self.dense_shape = values, indices, dense_shape

    dtype = property(lambda self: self.values.dtype)
    op = property(lambda self: self.values.op)
    graph = property(lambda self: self.values.graph)
    device = property(lambda self: self.values.device)
    name = property(lambda self: self.values.name)

    def _feed_components(self):
        """The tensors a feed of this key feeds (engine/runtime/session_feeds.py)."""
        tensors = (self.values, self.indices)
        return tensors + ((self.dense_shape,) if self.dense_shape is not None else ()), \
            "IndexedSlicesValue"

    def __repr__(self):
        dense_shape = "" if self.dense_shape is None else f", dense_shape={self.dense_shape}"
        return f"IndexedSlices(indices={self.indices}, values={self.values}{dense_shape})"


def _indexed_slices_to_tensor(value, dtype=None, name=None, as_ref=False):
    if dtype is not None and not dtype.is_compatible_with(value.dtype):
        raise ValueError(f"Tensor conversion requested dtype {dtype.name} for IndexedSlices "
                         f"with dtype {value.dtype.name}")
    if value.dense_shape is None:
        raise ValueError(f"Tensor conversion requested for IndexedSlices without "
                         f"dense_shape: {value}")
    return apply_op("UnsortedSegmentSum", data=value.values, segment_ids=value.indices,
                    num_segments=value.dense_shape[0], name=name)


register_tensor_conversion_function(IndexedSlices, _indexed_slices_to_tensor, 100)


def dense(grad):
    """A gradient as a Tensor (IndexedSlices summed into their dense shape)."""
    return convert_to_tensor(grad) if isinstance(grad, IndexedSlices) else grad
