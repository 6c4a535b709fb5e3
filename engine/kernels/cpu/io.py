"""NumPy CPU kernels of the checkpoint ops: SaveV2, RestoreV2, MergeV2Checkpoints, ShardedFilename, StringJoin.

They read and write TensorFlow's tensor bundle (engine.checkpoint), so a graph's save and
restore ops interchange checkpoints with TensorFlow's. A shape_and_slices string is
TensorFlow's "full shape, then start,length per dimension" ("10 3 0,4:0,3"; "-" for a whole
dimension); "" means the whole tensor.
"""

import re

import numpy as np

from engine.framework import dtypes
from engine.checkpoint.bundle import BundleError, BundleReader, BundleWriter, merge_bundles
from engine.framework.errors import DataLossError, InvalidArgumentError, NotFoundError
from engine.kernels import register_table
from engine.kernels.common import invalid, shape_str


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def _strings(array):
    return [_text(item) for item in np.asarray(array, dtype=object).ravel()]


def parse_shape_and_slice(ctx, spec):
    """(full shape, [(start, length)] with -1 for a whole dim), or (None, None) for ""."""
    if not spec:
        return None, None
    *shape_text, slices_text = spec.split(" ")
    try:
        shape = [int(d) for d in shape_text]
        extents = []
        for part in slices_text.split(":"):
            if part == "-":
                extents.append((0, -1))
            else:
                start, length = part.split(",")
                extents.append((int(start), int(length)))
    except ValueError:
        raise InvalidArgumentError(ctx.node_def, None, f"Invalid shape and slice spec: {spec!r}") from None
    if len(extents) != len(shape):
        raise InvalidArgumentError(ctx.node_def, None, f"Shape and slice rank differ in {spec!r}")
    return shape, extents


def _box(shape, extents):
    return tuple(slice(start, dim if length == -1 else start + length)
                 for (start, length), dim in zip(extents, shape))


def save_v2(ctx, prefix, tensor_names, shape_and_slices, *tensors):
    names, specs = _strings(tensor_names), _strings(shape_and_slices)
    if not (len(names) == len(specs) == len(tensors)):
        raise InvalidArgumentError(ctx.node_def, None,
                                   f"Got {len(names)} tensor names, {len(specs)} shape_and_slices "
                                   f"and {len(tensors)} tensors")
    writer = BundleWriter(_strings(prefix)[0])
    for name, spec, tensor, dtype in zip(names, specs, tensors, ctx.attrs["dtypes"]):
        shape, extents = parse_shape_and_slice(ctx, spec)
        enum = dtypes.as_dtype(dtype).base_dtype.as_datatype_enum
        if shape is None:
            writer.add(name, tensor, enum)
        else:
            writer.add_slice(name, shape, extents, tensor, enum)
    writer.finish()


def restore_v2(ctx, prefix, tensor_names, shape_and_slices):
    path = _strings(prefix)[0]
    try:
        reader = BundleReader(path)
    except BundleError as error:
        if error.what.startswith("no such file"):
            raise NotFoundError(ctx.node_def, None, f"Unsuccessful TensorSliceReader constructor: "
                                f"Failed to find any matching files for {path}") from None
        raise _restore_error(ctx, error) from None
    outputs = []
    for name, spec, dtype in zip(_strings(tensor_names), _strings(shape_and_slices), ctx.attrs["dtypes"]):
        if name not in reader.names:
            raise NotFoundError(ctx.node_def, None, f"Key {name} not found in checkpoint")
        stored = dtypes.as_dtype(reader.dtype(name))
        if stored != dtypes.as_dtype(dtype).base_dtype:
            raise InvalidArgumentError(ctx.node_def, None,
                                       f"tensor_name = {name}; expected dtype {dtypes.as_dtype(dtype).name} "
                                       f"does not equal original dtype {stored.name}")
        try:
            value = reader.read(name)
        except BundleError as error:
            raise _restore_error(ctx, error) from None
        shape, extents = parse_shape_and_slice(ctx, spec)
        if shape is not None:
            value = value[_box(shape, extents)]
        outputs.append(value)
    return outputs[0] if len(outputs) == 1 else outputs  # the kernel convention for one output


def _restore_error(ctx, error):
    """TensorFlow's error for a checkpoint it cannot read, in its words, followed by which
    file and entry and what is wrong there: TensorFlow's words alone ("Read less bytes than
    requested") leave a user of a SavedModel guessing which of its files is bad."""
    if not error.tf_words:
        return error.error_class(ctx.node_def, None, str(error))
    return error.error_class(ctx.node_def, None, f"{error.tf_words} (in {error})")


def merge_v2_checkpoints(ctx, checkpoint_prefixes, destination_prefix):
    try:
        merge_bundles(_strings(checkpoint_prefixes), _strings(destination_prefix)[0],
                      delete_old_dirs=ctx.attrs.get("delete_old_dirs", True))
    except BundleError as error:
        raise DataLossError(ctx.node_def, None, str(error)) from None


def sharded_filename(ctx, basename, shard, num_shards):
    """`<basename>-00000-of-00002`: TensorFlow's ShardedFilename."""
    return np.array(f"{_strings(basename)[0]}-{int(shard):05d}-of-{int(num_shards):05d}".encode(), dtype=object)


def string_join(ctx, *inputs):
    """TensorFlow's StringJoinOp: the non-scalar inputs share one shape (no other
    broadcasting), scalars join every element."""
    separator = _text(ctx.attrs.get("separator", b""))
    shapes = [np.shape(item) for item in inputs if np.ndim(item)]
    for shape in shapes[1:]:
        if shape != shapes[0]:
            raise invalid(ctx, f"Input shapes do not match: {shape_str(shapes[0])} vs. "
                               f"{shape_str(shape)}")
    arrays = np.broadcast_arrays(*[np.asarray(item, dtype=object) for item in inputs])
    out = np.empty(arrays[0].shape, dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = separator.encode().join(
            item[index] if isinstance(item[index], bytes) else str(item[index]).encode() for item in arrays)
    return out


def static_regex_full_match(ctx, value):
    pattern = re.compile(_text(ctx.attrs["pattern"]))
    array = np.asarray(value, dtype=object)
    out = np.empty(array.shape, dtype=bool)
    for index in np.ndindex(array.shape):
        out[index] = pattern.fullmatch(_text(array[index])) is not None
    return out


register_table({
    "SaveV2": save_v2, "RestoreV2": restore_v2, "MergeV2Checkpoints": merge_v2_checkpoints,
    "ShardedFilename": sharded_filename, "StringJoin": string_join,
    "StaticRegexFullMatch": static_regex_full_match,
})
