"""What is known of an input's value: InputInfo, its constant value read as ints, and a shape
given as a tensor (known entries, partially known shape values, or only its length)."""

from typing import NamedTuple

import numpy as np

from engine.shape_inference.dims import _dims
from engine.framework.tensor_shape import TensorShape


class InputInfo(NamedTuple):
    dtype: object
    shape: TensorShape
    value: object = None  # the statically known NumPy value, or None
    # A 1-D shape tensor's partially known value as dims (None where unknown): TensorFlow's
    # constant_value_as_shape (Shape of a partially known tensor, Pack, ConcatV2, ...).
    shape_value: object = None


def _value(info):
    return None if info.value is None else np.asarray(info.value)


def _ints(info):
    value = _value(info)
    return None if value is None else value.reshape(-1).tolist()


def _from_value(info):
    """A shape given as a tensor (Fill's dims, Reshape's shape): known entries, -1 unknown."""
    values = _ints(info)
    if values is not None:
        return [None if v < 0 else v for v in values]
    if info.shape_value is not None:
        return list(info.shape_value)
    dims = _dims(info)
    if dims and dims[0] is not None:
        return [None] * dims[0]
    return None


def _from_value_rank(info):
    dims = _dims(info)
    return [None] * dims[0] if dims and dims[0] is not None else None
