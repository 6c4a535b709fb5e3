"""tf.SparseTensor (three tensors: indices [N, rank], values [N], dense_shape [rank]) and
tf.SparseTensorValue, what Session.run gives for one (engine.runtime.fetches builds it).

SparseTensors come from tf.parse_example's VarLenFeatures, tf.string_split, the set ops and
the sparse ops of engine/ops/sparse_ops.py (the feature columns' and sparse embeddings').
"""

import collections


class SparseTensorValue(collections.namedtuple("SparseTensorValue",
                                               ["indices", "values", "dense_shape"])):
    """A fetched SparseTensor: NumPy indices, values and dense_shape."""


class SparseTensor:
    """A sparse tensor in the graph: `values[i]` sits at `indices[i]` of `dense_shape`."""

    def __init__(self, indices, values, dense_shape):
        from engine.framework import dtypes
        from engine.framework.default_graph import name_scope
        from engine.ops.convert import convert_to_tensor
        from engine.framework.tensor_util import constant_value_as_shape
        with name_scope(None, "SparseTensor", [indices, values, dense_shape]):
            self._indices = convert_to_tensor(indices, dtypes.int64, name="indices")
            self._values = convert_to_tensor(values, name="values")
            self._dense_shape = convert_to_tensor(dense_shape, dtypes.int64,
                                                  name="dense_shape")
        self._shape = constant_value_as_shape(self._dense_shape)

    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    op = property(lambda self: self._values.op)
    graph = property(lambda self: self._values.graph)
    shape = property(lambda self: self._shape)

    def get_shape(self):
        return self._shape

    def _feed_components(self):
        """The tensors a feed of this key feeds (engine/runtime/session_feeds.py)."""
        return (self._indices, self._values, self._dense_shape), "SparseTensorValue"

    def set_shape(self, shape):
        """Narrows the static dense shape (tf.sparse_placeholder's `shape`)."""
        from engine.framework.tensor_shape import as_shape
        shape = as_shape(shape)
        if not self._shape.is_compatible_with(shape):
            raise ValueError(f"Shapes {self._shape} and {shape} are incompatible")
        self._shape = self._shape.merge_with(shape)

    def __repr__(self):
        return (f"SparseTensor(indices={self._indices}, values={self._values}, "
                f"dense_shape={self._dense_shape})")
