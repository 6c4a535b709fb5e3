"""tf.compat.v1.ragged.RaggedTensorValue: what Session.run gives for a RaggedTensor
(ragged_tensor_value.py), NumPy row splits over NumPy values or another RaggedTensorValue."""

import numpy as np


class RaggedTensorValue:
    """A fetched RaggedTensor."""

    def __init__(self, values, row_splits):
        if not (isinstance(row_splits, (np.ndarray, np.generic))
                and row_splits.dtype in (np.int64, np.int32) and row_splits.ndim == 1):
            raise TypeError("row_splits must be a 1D int32 or int64 numpy array")
        if not isinstance(values, (np.ndarray, np.generic, RaggedTensorValue)):
            raise TypeError("values must be a numpy array or a RaggedTensorValue")
        if isinstance(values, RaggedTensorValue) and row_splits.dtype != values.row_splits.dtype:
            raise ValueError("row_splits and values.row_splits must have the same dtype")
        self._values = values
        self._row_splits = row_splits

    row_splits = property(lambda self: self._row_splits)
    values = property(lambda self: self._values)
    dtype = property(lambda self: self._values.dtype)

    @property
    def flat_values(self):
        values = self._values
        while isinstance(values, RaggedTensorValue):
            values = values.values
        return values

    @property
    def nested_row_splits(self):
        splits = [self._row_splits]
        values = self._values
        while isinstance(values, RaggedTensorValue):
            splits.append(values.row_splits)
            values = values.values
        return tuple(splits)

    @property
    def ragged_rank(self):
        if isinstance(self._values, RaggedTensorValue):
            return self._values.ragged_rank + 1
        return 1

    @property
    def shape(self):
        return (self._row_splits.shape[0] - 1,) + (None,) + self._values.shape[1:]

    def __str__(self):
        return "<tf.RaggedTensorValue %s>" % self.to_list()

    def __repr__(self):
        return "tf.RaggedTensorValue(values=%r, row_splits=%r)" % (self._values,
                                                                   self._row_splits)

    def to_list(self):
        if isinstance(self._values, RaggedTensorValue):
            values = self._values.to_list()
        else:
            values = self._values.tolist()
        return [values[self._row_splits[i]:self._row_splits[i + 1]]
                for i in range(len(self._row_splits) - 1)]
