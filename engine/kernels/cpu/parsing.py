"""NumPy CPU kernels of ParseExampleV2: serialized tf.train.Examples (a scalar or a vector)
into dense tensors (FixedLenFeature, FixedLenSequenceFeature padded to the longest), sparse
triples (VarLenFeature) and ragged values with row splits (RaggedFeature's values, as a
serving signature parsing tf.train.Examples asks), with TensorFlow's errors; and of
ParseSequenceExampleV2: tf.train.SequenceExamples, their context as an Example's features and
their feature lists as padded steps with lengths, [example, step, position] triples or ragged
values with inner (step) and outer (example) splits.

As TensorFlow's fast parser, an Example is read in two steps: its feature map, each Feature
kept as bytes (a map that does not parse: "Could not parse example input"), then each
Feature a key asks for (one that does not parse: "Can't parse serialized Example"); a
Feature no key asks for is never parsed.
"""

import numpy as np
from google.protobuf.message import DecodeError

from engine.framework import dtypes, varint
from engine.kernels import register
from engine.kernels.common import datatype_string, invalid
from engine.proto import feature_pb2
from engine.framework.tensor_shape import as_shape

# The Feature oneof field each dtype reads, and the name TensorFlow's errors give that list.
_KIND = {dtypes.float32: "float_list", dtypes.int64: "int64_list", dtypes.string: "bytes_list"}
_KIND_NAME = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}
_KIND_OF_FIELD = {1: "bytes_list", 2: "float_list", 3: "int64_list"}  # Feature's oneof


class _Malformed(Exception):
    """Wire bytes that are no protobuf message."""


def _varint(data, pos):
    try:
        return varint.decode(data, pos)
    except varint.VarintError:
        raise _Malformed() from None


def _fields(data):
    """(field number, wire type, bytes of a length-delimited value or None) of each field of
    a message's wire bytes.

    >>> list(_fields(b"\\x0a\\x01x\\x10\\x05"))
    [(1, 2, b'x'), (2, 0, None)]
    """
    pos = 0
    while pos < len(data):
        tag, pos = _varint(data, pos)
        field, wire, value = tag >> 3, tag & 7, None
        if wire == 0:
            _, pos = _varint(data, pos)
        elif wire == 1:
            pos += 8
        elif wire == 2:
            length, pos = _varint(data, pos)
            value = data[pos:pos + length]
            pos += length
        elif wire == 5:
            pos += 4
        else:
            raise _Malformed()
        if field == 0 or pos > len(data):
            raise _Malformed()
        yield field, wire, value


def _feature_map(record):
    """Example.features.feature as {key: the Feature's bytes} (a later entry of a key wins,
    as a protobuf map's)."""
    features = {}
    for field, wire, value in _fields(record):
        if field != 1:
            continue  # not Example.features: skipped, as unknown fields are
        if wire != 2:
            raise _Malformed()
        for entry_field, entry_wire, entry in _fields(value):
            if entry_field != 1:
                continue
            if entry_wire != 2:
                raise _Malformed()
            key, feature = b"", b""
            for part, part_wire, part_value in _fields(entry):
                if part in (1, 2) and part_wire != 2:
                    raise _Malformed()
                if part == 1:
                    key = part_value
                elif part == 2:
                    feature = part_value
            features[key.decode("utf-8", "replace")] = feature
    return features


def _feature_kind(feature):
    """The list a Feature's bytes hold ("int64_list", ...), None for none; _Malformed for
    bytes that do not start with a field."""
    for field, _, _ in _fields(feature):
        return _KIND_OF_FIELD.get(field)
    return None


def _strings(value):
    return [v.decode() if isinstance(v, bytes) else str(v) for v in np.reshape(value, -1)]


def _values(feature_list, dtype):
    values = list(feature_list.value) if feature_list is not None else []
    if dtype == dtypes.string:
        return np.array(values, object) if values else np.zeros(0, object)
    return np.array(values, dtype.as_numpy_dtype)


class _Where:
    """How TensorFlow's messages name an example: with its name and index in a batch."""

    def __init__(self, batched, name, index):
        self.batched, self.name, self.index = batched, name, index

    def missing(self, key, dtype):
        prefix = f"Name: {self.name}, " if self.batched else ""
        return (f"{prefix}Feature: {key} (data type: {datatype_string(dtype)}) is required "
                f"but could not be found.")

    def key(self, key):
        return (f"Name: {self.name}, Key: {key}, Index: {self.index}." if self.batched
                else f"Key: {key}.")

    def unparsable(self, key, kind):
        # The batch parser words it alone; the single-example parser says which list failed.
        suffix = f": Parsing {kind} failed." if not self.batched and kind else "."
        return f"{self.key(key)}  Can't parse serialized Example{suffix}"


def _feature_values(ctx, where, example, key, dtype, sparse=False):
    """The values of `key` in `example` (None if absent), their kind checked (TensorFlow
    words the mismatch one way for dense keys, another for sparse ones)."""
    raw = example.get(key)
    if raw is None:
        return None
    try:
        kind = _feature_kind(raw)
    except _Malformed:
        raise invalid(ctx, where.unparsable(key, None)) from None
    if kind is None:  # a Feature with no list set: no values
        return _values(None, dtype)
    if kind != _KIND[dtype]:
        if sparse:
            raise invalid(ctx, f"{where.key(key)}  Data types don't match. Expected type: "
                               f"{datatype_string(dtype)}, Actual type: {_KIND_NAME[kind]}")
        raise invalid(ctx, f"{where.key(key)}  Data types don't match. Data type: "
                           f"{_KIND_NAME[kind]} but expected type: {datatype_string(dtype)}")
    feature = feature_pb2.Feature()
    try:
        feature.ParseFromString(raw)
    except DecodeError:
        raise invalid(ctx, where.unparsable(key, kind)) from None
    return _values(getattr(feature, kind), dtype)


@register("ParseExampleV2")
def parse_example_v2(ctx, serialized, names, sparse_keys, dense_keys, ragged_keys,
                     *dense_defaults):
    attrs = ctx.attrs
    sparse_types = [dtypes.as_dtype(t) for t in attrs.get("sparse_types") or []]
    dense_types = [dtypes.as_dtype(t) for t in attrs.get("Tdense") or []]
    dense_shapes = [as_shape(s).as_list() for s in attrs.get("dense_shapes") or []]
    ragged_types = [dtypes.as_dtype(t) for t in attrs.get("ragged_value_types") or []]
    split_types = [dtypes.as_dtype(t) for t in attrs.get("ragged_split_types") or []]
    batched = np.ndim(serialized) == 1
    if np.ndim(serialized) > 1:
        raise invalid(ctx, f"Expected serialized to be a scalar or vector, got shape: "
                           f"{list(np.shape(serialized))}")
    records = list(np.reshape(serialized, -1))
    example_names = _strings(names) if np.size(names) else []
    examples = []
    for index, record in enumerate(records):
        record = bytes(record)
        try:
            example = _feature_map(record)
        except _Malformed:
            # TensorFlow puts the bytes themselves in its message.
            raise invalid(ctx, f"Could not parse example input, value: "
                               f"'{record.decode('utf-8', 'backslashreplace')}'") from None
        name = example_names[index] if example_names else "<unknown>"
        examples.append((_Where(batched, name, index), example))

    sparse_out = [_sparse(ctx, examples, key, dtype, batched)
                  for key, dtype in zip(_strings(sparse_keys), sparse_types)]
    dense_out = [_dense(ctx, examples, key, dtype, shape, default, batched)
                 for key, dtype, shape, default in zip(_strings(dense_keys), dense_types,
                                                       dense_shapes, dense_defaults)]
    ragged_out = [_ragged(ctx, examples, key, dtype, split_dtype, batched)
                  for key, dtype, split_dtype in zip(_strings(ragged_keys), ragged_types,
                                                     split_types)]
    outputs = ([s[0] for s in sparse_out] + [s[1] for s in sparse_out]
               + [s[2] for s in sparse_out] + dense_out
               + [r[0] for r in ragged_out] + [r[1] for r in ragged_out])
    return outputs[0] if len(outputs) == 1 else tuple(outputs)  # one output: the value itself


def _ragged(ctx, examples, key, dtype, split_dtype, batched):
    """A RaggedFeature: every example's values one after another, and the row splits between
    them (none for a scalar input: its values are one row)."""
    values, lengths = [], []
    for where, example in examples:
        found = _feature_values(ctx, where, example, key, dtype, sparse=True)
        found = np.zeros(0, object if dtype == dtypes.string else dtype.as_numpy_dtype) \
            if found is None else found
        values.append(found)
        lengths.append(found.size)
    value_array = (np.concatenate(values) if values
                   else np.zeros(0, object if dtype == dtypes.string else dtype.as_numpy_dtype))
    splits = np.concatenate([[0], np.cumsum(lengths)]) if batched else np.zeros(0)
    return value_array, splits.astype(split_dtype.as_numpy_dtype)


def _dense_sequence(ctx, examples, key, dtype, shape, default, batched):
    """A FixedLenSequenceFeature: each example's values as rows of shape[1:], padded with the
    scalar default to the batch's longest (absent: no rows)."""
    stride = int(np.prod(shape[1:]))
    numpy_dtype = dtype.as_numpy_dtype
    rows = []
    for where, example in examples:
        values = _feature_values(ctx, where, example, key, dtype)
        if values is None:
            values = np.zeros(0, numpy_dtype)
        if values.size % stride:
            if not batched:
                raise invalid(ctx, f"Error while parsing feature with key {key}: number of "
                                   f"elements should be divisible by {stride}, found "
                                   f"{values.size} instead")
            raise invalid(ctx, f"{where.key(key)}  Number of {_KIND[dtype][:-len('_list')]} "
                               f"values is not a multiple of stride length. Saw {values.size} "
                               f"values but output shape is: "
                               f"[{','.join('?' if d is None else str(d) for d in shape)}]")
        rows.append(np.reshape(values, [-1] + shape[1:]).astype(numpy_dtype))
    if not batched:
        return rows[0]
    longest = max([len(r) for r in rows] + [0])
    batch = np.empty([len(rows), longest] + shape[1:], numpy_dtype)
    batch[...] = np.asarray(default).reshape(()).item() if np.size(default) else (
        b"" if dtype == dtypes.string else 0)
    for i, row in enumerate(rows):
        batch[i, :len(row)] = row
    return batch


def _dense(ctx, examples, key, dtype, shape, default, batched):
    if shape and shape[0] is None:
        return _dense_sequence(ctx, examples, key, dtype, shape, default, batched)
    size = int(np.prod(shape))
    rows = []
    for where, example in examples:
        values = _feature_values(ctx, where, example, key, dtype)
        if values is None:
            if np.size(default) == 0:
                raise invalid(ctx, where.missing(key, dtype))
            values = np.reshape(np.asarray(default), -1)
        elif values.size != size:
            kind = _KIND[dtype]
            if not batched:  # TensorFlow's single-example path fails while parsing
                raise invalid(ctx, f"{where.key(key)}  Can't parse serialized Example: Some "
                                   f"{kind} slice was not parsed.")
            raise invalid(ctx, f"{where.key(key)}  Number of {kind[:-len('_list')]} values "
                               f"!= expected.  Values size: {values.size} but output shape: "
                               f"[{','.join(str(d) for d in shape)}]")
        rows.append(np.reshape(values, shape).astype(dtype.as_numpy_dtype))
    if batched:
        empty = np.zeros([0] + shape, dtype.as_numpy_dtype)
        return np.stack(rows) if rows else empty
    return rows[0]


def _sparse(ctx, examples, key, dtype, batched):
    """(indices, values, dense_shape): [example, position] per value (position alone for one
    example), dense_shape [examples, longest] (or [length])."""
    indices, values, longest = [], [], 0
    for batch, (where, example) in enumerate(examples):
        found = _feature_values(ctx, where, example, key, dtype, sparse=True)
        if found is None or found.size == 0:
            continue
        positions = np.arange(found.size, dtype=np.int64)
        indices.append(np.stack([np.full(found.size, batch, np.int64), positions], axis=1)
                       if batched else positions[:, None])
        values.append(found)
        longest = max(longest, found.size)
    width = 2 if batched else 1
    index_array = np.concatenate(indices) if indices else np.zeros((0, width), np.int64)
    value_array = (np.concatenate(values) if values
                   else np.zeros(0, object if dtype == dtypes.string else dtype.as_numpy_dtype))
    shape = [len(examples), longest] if batched else [longest]
    return index_array, value_array, np.array(shape, np.int64)


@register("DecodeRaw")
def decode_raw(ctx, data):
    """Each string's bytes as out_type numbers (little- or big-endian): one more dimension."""
    out_type = ctx.attr("out_type").as_numpy_dtype
    wire = np.dtype(out_type).newbyteorder("<" if ctx.attr("little_endian", True) else ">")
    strings = [bytes(s) for s in np.asarray(data, dtype=object).ravel()]
    size = len(strings[0]) if strings else 0
    if size % wire.itemsize:
        raise invalid(ctx, f"Input to DecodeRaw has length {size} that is not a multiple of "
                           f"{wire.itemsize}, the size of {datatype_string(ctx.attr('out_type'))}")
    for i, string in enumerate(strings):
        if len(string) != size:
            raise invalid(ctx, f"DecodeRaw requires input strings to all be the same size, "
                               f"but element {i} has size {size} != {len(string)}")
    values = np.frombuffer(b"".join(strings), wire).astype(out_type)
    return values.reshape(np.shape(data) + (size // wire.itemsize,))


def _step_values(ctx, name, key, index, feature, dtype):
    """One step of a FeatureList: its values, the kind checked."""
    kind = feature.WhichOneof("kind")
    if kind is None:
        return _values(None, dtype)
    if kind != _KIND[dtype]:
        raise invalid(ctx, f"Name: {name}, Feature list: {key}, Index: {index}.  Data types "
                           f"don't match. Expected type: {datatype_string(dtype)}")
    return _values(getattr(feature, kind), dtype)


def _list_dense(ctx, sequences, key, dtype, shape, assumed_empty, batched):
    """A FixedLenSequenceFeature of the feature lists: [steps] + shape per example, padded
    with zeros to the longest; and the lengths."""
    stride = int(np.prod(shape))
    numpy_dtype = dtype.as_numpy_dtype
    rows = []
    for name, sequence in sequences:
        if key not in sequence.feature_lists.feature_list:
            if not assumed_empty:
                raise invalid(ctx, f"Name: {name}, Feature list '{key}' is required but could "
                                   "not be found.  Did you mean to include it in "
                                   "feature_list_dense_missing_assumed_empty or "
                                   "feature_list_dense_defaults?")
            rows.append(np.zeros([0] + shape, numpy_dtype))
            continue
        steps = []
        for index, feature in enumerate(sequence.feature_lists.feature_list[key].feature):
            values = _step_values(ctx, name, key, index, feature, dtype)
            if values.size != stride:
                raise invalid(ctx, f"Name: {name}, Key: {key}, Index: {index}.  Number of "
                                   f"values != expected.  values size: {values.size} but "
                                   f"output shape: [{','.join(str(d) for d in shape)}]")
            steps.append(np.reshape(values, shape).astype(numpy_dtype))
        rows.append(np.stack(steps) if steps else np.zeros([0] + shape, numpy_dtype))
    lengths = np.array([len(r) for r in rows], np.int64)
    if not batched:
        return rows[0], lengths[0]
    longest = max([len(r) for r in rows] + [0])
    batch = np.zeros([len(rows), longest] + shape, numpy_dtype)
    if batch.dtype.kind == "O":
        batch.fill(b"")
    for i, row in enumerate(rows):
        batch[i, :len(row)] = row
    return batch, lengths


def _list_sparse(ctx, sequences, key, dtype, batched):
    """A VarLenFeature of the feature lists: indices [example, step, position] (no example
    alone), dense_shape [examples, most steps, most values]."""
    indices, values, most_steps, most_values = [], [], 0, 0
    for batch, (name, sequence) in enumerate(sequences):
        if key not in sequence.feature_lists.feature_list:
            continue
        steps = sequence.feature_lists.feature_list[key].feature
        most_steps = max(most_steps, len(steps))
        for index, feature in enumerate(steps):
            found = _step_values(ctx, name, key, index, feature, dtype)
            most_values = max(most_values, found.size)
            for position in range(found.size):
                indices.append(([batch] if batched else []) + [index, position])
            values.append(found)
    width = 3 if batched else 2
    index_array = np.array(indices, np.int64).reshape(-1, width)
    value_array = (np.concatenate(values) if values
                   else np.zeros(0, object if dtype == dtypes.string else dtype.as_numpy_dtype))
    shape = ([len(sequences)] if batched else []) + [most_steps, most_values]
    return index_array, value_array, np.array(shape, np.int64)


@register("ParseSequenceExampleV2")
def parse_sequence_example_v2(ctx, serialized, debug_name, context_sparse_keys,
                              context_dense_keys, context_ragged_keys, feature_list_sparse_keys,
                              feature_list_dense_keys, feature_list_ragged_keys,
                              missing_assumed_empty, *context_dense_defaults):
    """SequenceExamples (a scalar or a vector) into the context's features (as ParseExampleV2
    parses an Example's) and the feature lists' (dense: padded steps and their lengths;
    sparse: [example, step, position] triples)."""
    from engine.proto import example_pb2

    attrs = ctx.attrs
    if np.ndim(serialized) > 1:
        raise invalid(ctx, f"Expected serialized to be a scalar or vector, got shape: "
                           f"{list(np.shape(serialized))}")
    batched = np.ndim(serialized) == 1
    names = _strings(debug_name) if np.size(debug_name) else []
    contexts, sequences = [], []
    for index, record in enumerate(np.reshape(serialized, -1)):
        name = names[index] if names else "<unknown>"
        sequence = example_pb2.SequenceExample()
        try:
            sequence.ParseFromString(bytes(record))
        except DecodeError:
            raise invalid(ctx, f"Invalid protocol message input, example id: {name}") from None
        context = {key: feature.SerializeToString()
                   for key, feature in sequence.context.feature.items()}
        contexts.append((_Where(batched, name, index), context))
        sequences.append((name, sequence))
    context_sparse_types = [dtypes.as_dtype(t) for t in attrs.get("context_sparse_types") or []]
    context_dense_types = [dtypes.as_dtype(t) for t in attrs.get("Tcontext_dense") or []]
    context_dense_shapes = [as_shape(s).as_list()
                            for s in attrs.get("context_dense_shapes") or []]
    list_sparse_types = [dtypes.as_dtype(t) for t in attrs.get("feature_list_sparse_types") or []]
    list_dense_types = [dtypes.as_dtype(t) for t in attrs.get("feature_list_dense_types") or []]
    list_dense_shapes = [as_shape(s).as_list()
                         for s in attrs.get("feature_list_dense_shapes") or []]
    for key, default in zip(_strings(context_dense_keys), context_dense_defaults):
        if np.size(default) == 0 and any(key not in c for _, c in contexts):
            # TensorFlow's FastParseSequenceExample counts the values of a required context
            # key before it looks for missing ones.
            raise invalid(ctx, f"Inconsistent max number of elements for feature {key}: "
                               f"expected 1, but found 0")
    context_sparse = [_sparse(ctx, contexts, key, dtype, batched)
                      for key, dtype in zip(_strings(context_sparse_keys), context_sparse_types)]
    context_dense = [_dense(ctx, contexts, key, dtype, shape, default, batched)
                     for key, dtype, shape, default in zip(
                         _strings(context_dense_keys), context_dense_types,
                         context_dense_shapes, context_dense_defaults)]
    list_sparse = [_list_sparse(ctx, sequences, key, dtype, batched)
                   for key, dtype in zip(_strings(feature_list_sparse_keys), list_sparse_types)]
    empty = list(np.reshape(missing_assumed_empty, -1))
    list_dense = [_list_dense(ctx, sequences, key, dtype, shape, bool(empty[i]), batched)
                  for i, (key, dtype, shape) in enumerate(zip(
                      _strings(feature_list_dense_keys), list_dense_types, list_dense_shapes))]
    context_ragged = [
        _ragged(ctx, contexts, key, dtypes.as_dtype(dtype), dtypes.as_dtype(split), batched)
        for key, dtype, split in zip(_strings(context_ragged_keys),
                                     attrs.get("context_ragged_value_types") or [],
                                     attrs.get("context_ragged_split_types") or [])]
    if not batched:  # TensorFlow gives one SequenceExample's context splits as a scalar 0
        context_ragged = [(values, np.zeros((), splits.dtype)) for values, splits in context_ragged]
    list_ragged = [
        _list_ragged(ctx, sequences, key, dtypes.as_dtype(dtype), dtypes.as_dtype(split),
                     batched)
        for key, dtype, split in zip(_strings(feature_list_ragged_keys),
                                     attrs.get("feature_list_ragged_value_types") or [],
                                     attrs.get("feature_list_ragged_split_types") or [])]
    outputs = ([s[0] for s in context_sparse] + [s[1] for s in context_sparse]
               + [s[2] for s in context_sparse] + context_dense
               + [r[0] for r in context_ragged] + [r[1] for r in context_ragged]
               + [s[0] for s in list_sparse] + [s[1] for s in list_sparse]
               + [s[2] for s in list_sparse]
               + [d[0] for d in list_dense] + [d[1] for d in list_dense]
               + [r[0] for r in list_ragged] + [r[1] for r in list_ragged]
               + [r[2] for r in list_ragged])
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _list_ragged(ctx, sequences, key, dtype, split_dtype, batched):
    """A RaggedFeature of the feature lists: every step's values one after another, the inner
    splits between steps and the outer splits between examples (a scalar for a scalar input,
    which TensorFlow leaves uninitialized: 0 here)."""
    values, step_lengths, example_lengths = [], [], []
    for name, sequence in sequences:
        steps = (sequence.feature_lists.feature_list[key].feature
                 if key in sequence.feature_lists.feature_list else [])
        for index, feature in enumerate(steps):
            found = _step_values(ctx, name, key, index, feature, dtype)
            values.append(found)
            step_lengths.append(found.size)
        example_lengths.append(len(steps))
    value_array = (np.concatenate(values) if values
                   else np.zeros(0, object if dtype == dtypes.string else dtype.as_numpy_dtype))
    outer = np.concatenate([[0], np.cumsum(example_lengths)]) if batched else np.zeros(())
    inner = np.concatenate([[0], np.cumsum(step_lengths)])
    numpy_split = split_dtype.as_numpy_dtype
    return value_array, outer.astype(numpy_split), inner.astype(numpy_split)
