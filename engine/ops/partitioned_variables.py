"""Partitioned variables as TF 1.x builds them (partitioned_variables.py, variable_scope.py's
_get_partitioned_variable, variables.py's PartitionedVariable): the partitioners, the parts
`<name>/part_<i>` sliced along one axis, each with its SaveSliceInfo, read back as one
ConcatV2 named `<name>/ConcatPartitions/concat` and an Identity named `<name>`."""

import collections.abc
import math

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor, register_tensor_conversion_function
from engine.framework.tensor import Tensor


class SaveSliceInfo:
    """Where a part sits in its full variable: what a checkpoint's slice spec records."""

    def __init__(self, full_name=None, full_shape=None, var_offset=None, var_shape=None):
        self.full_name, self.full_shape = full_name, full_shape
        self.var_offset, self.var_shape = var_offset, var_shape

    @property
    def spec(self):
        """TensorFlow's shape-and-slice string: "<full shape> <offset>,<length>:..."."""
        full_shape_str = " ".join("%d" % d for d in self.full_shape) + " "
        sl_spec = ":".join("%d,%d" % (o, s) for o, s in zip(self.var_offset, self.var_shape))
        return full_shape_str + sl_spec


class PartitionInfo:
    """What an initializer of one part is told: the full shape and the part's offset."""

    def __init__(self, full_shape, var_offset):
        self.full_shape, self.var_offset = list(full_shape), list(var_offset)


class PartitionedVariable:
    """The parts of one variable, sorted by offset; converts to their concatenation."""

    def __init__(self, name, shape, dtype, variable_list, partitions):
        self._variable_list = sorted(variable_list,
                                     key=lambda v: v._get_save_slice_info().var_offset)
        self._name, self._shape, self._dtype = name, shape, dtype
        self._partitions = partitions

    def __iter__(self):
        return iter(self._variable_list)

    def __len__(self):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise ValueError("Cannot get a length for %d > 1 partition axes" % len(axes))
        return len(self._variable_list)

    def _partition_axes(self):
        if all(p == 1 for p in self._partitions):
            return [0]
        return [i for i, p in enumerate(self._partitions) if p > 1]

    def _concat(self):
        graph = get_default_graph()
        if len(self._variable_list) == 1:
            with graph.name_scope(None):
                return array_ops.identity(self._variable_list[0], name=self._name)
        with name_scope(self._name + "/ConcatPartitions/"):
            concatenated = array_ops.concat(self._variable_list, self._partition_axes()[0])
        with graph.name_scope(None):
            return array_ops.identity(concatenated, name=self._name)

    def as_tensor(self):
        with get_default_graph().control_dependencies(None):
            return self._concat()

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    def _get_variable_list(self):
        return self._variable_list

    def _get_partitions(self):
        return self._partitions

    def _apply_assign_fn(self, assign_fn, value):
        if isinstance(value, (list, PartitionedVariable)):
            value_list = list(value)
        else:
            axis = self._partition_axes()[0]
            value_list = array_ops.split(
                value, [var.shape[axis].value for var in self._variable_list], axis=axis)
        return [assign_fn(var, part) for var, part in zip(self._variable_list, value_list)]

    def assign(self, value, use_locking=False, name=None, read_value=True):
        return self._apply_assign_fn(lambda var, part: var.assign(
            part, use_locking=use_locking, name=name, read_value=read_value), value)


def _to_tensor(value, dtype=None, name=None, as_ref=False):
    if dtype is not None and not dtype.is_compatible_with(value.dtype):
        raise ValueError("Incompatible type conversion requested to type '%s' for variable of "
                         "type '%s'" % (dtype.name, value.dtype.name))
    if as_ref:
        raise NotImplementedError("PartitionedVariable doesn't support being used as a "
                                  "reference.")
    return value.as_tensor()


register_tensor_conversion_function(PartitionedVariable, _to_tensor)


# The partitioners: (shape: TensorShape, dtype) -> partitions per axis.

def _element_size(dtype, bytes_per_string_element):
    dtype = dtypes.as_dtype(dtype)
    return bytes_per_string_element if dtype.base_dtype == dtypes.string else dtype.size


def variable_axis_size_partitioner(max_shard_bytes, axis=0, bytes_per_string_element=16,
                                   max_shards=None):
    """Shards along `axis` of at most `max_shard_bytes` each (at least one slice each)."""
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive. "
                         f"Currently, max_shard_bytes is {max_shard_bytes} and"
                         f"bytes_per_string_element is {bytes_per_string_element}")
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def _partitioner(shape, dtype):
        if not isinstance(shape, TensorShape):
            raise ValueError(f"shape is not a TensorShape: {shape}")
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        element_size = _element_size(dtype, bytes_per_string_element)
        partitions = [1] * shape.ndims
        bytes_per_slice = 1.0 * (shape.num_elements() / shape.dims[axis].value) * element_size
        slices_per_shard = max(1, math.floor(max_shard_bytes / bytes_per_slice))
        axis_shards = int(math.ceil(1.0 * shape.dims[axis].value / slices_per_shard))
        if max_shards:
            axis_shards = min(max_shards, axis_shards)
        partitions[axis] = axis_shards
        return partitions
    return _partitioner


def min_max_variable_partitioner(max_partitions=1, axis=0, min_slice_size=256 << 10,
                                 bytes_per_string_element=16):
    """As many partitions along `axis` as slices of `min_slice_size` bytes, at most
    max_partitions and at most the axis' size."""
    def _partitioner(shape, dtype):
        if axis >= len(shape):
            raise ValueError(f"Cannot partition variable along axis {axis} when shape is "
                             f"only {shape}")
        total_size_bytes = shape.num_elements() * _element_size(dtype, bytes_per_string_element)
        partitions = total_size_bytes / min_slice_size
        partitions_list = [1] * len(shape)
        partitions_list[axis] = max(1, min(shape.dims[axis].value, max_partitions,
                                           int(math.ceil(partitions))))
        return partitions_list
    return _partitioner


def fixed_size_partitioner(num_shards, axis=0):
    """`num_shards` partitions along `axis` (fewer when the axis is shorter)."""
    def _partitioner(shape, **unused_args):
        partitions_list = [1] * len(shape)
        partitions_list[axis] = min(num_shards, shape.dims[axis].value)
        return partitions_list
    return _partitioner


def call_partitioner(partitioner, shape, dtype):
    """The partitioner's list for a new variable, checked as TensorFlow checks it."""
    if not shape.is_fully_defined():
        raise ValueError("Shape of a new partitioned variable must be fully defined, but "
                         "instead was %s." % (shape,))
    if shape.ndims < 1:
        raise ValueError("A partitioned Variable must have rank at least 1, shape: %s" % shape)
    slicing = partitioner(shape=shape, dtype=dtype)
    if not isinstance(slicing, collections.abc.Sequence):
        raise ValueError("Partitioner must return a sequence, but saw: %s" % slicing)
    if len(slicing) != shape.ndims:
        raise ValueError("Partitioner returned a partition list that does not match the "
                         "Variable's rank: %s vs. %s" % (slicing, shape))
    if any(p < 1 for p in slicing):
        raise ValueError("Partitioner returned zero partitions for some axes: %s" % slicing)
    if sum(p > 1 for p in slicing) > 1:
        raise ValueError("Can only slice a variable along one dimension: shape: %s, "
                         "partitioning: %s" % (shape, slicing))
    return slicing


def slice_dim_and_num_slices(slicing):
    for slice_dim, num_slices in enumerate(slicing):
        if num_slices > 1:
            return slice_dim, num_slices
    return 0, 1


def iter_slices(full_shape, num_slices, slice_dim):
    """(offset, shape) of each part: the first `size % num_slices` parts one longer."""
    num_slices_with_excess = full_shape[slice_dim] % num_slices
    offset = [0] * len(full_shape)
    min_slice_len = full_shape[slice_dim] // num_slices
    for i in range(num_slices):
        shape = full_shape[:]
        shape[slice_dim] = min_slice_len + bool(i < num_slices_with_excess)
        yield offset[:], shape
        offset[slice_dim] += shape[slice_dim]


def slice_initializer(initializer, dtype, var_offset, var_shape):
    """A part's initial value from a tensor or value initializer: its slice."""
    if isinstance(initializer, Tensor):
        return array_ops.slice(initializer, var_offset, var_shape)
    init = convert_to_tensor(initializer, dtype=dtype)
    return array_ops.slice(init, var_offset, var_shape)

