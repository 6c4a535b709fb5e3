"""TensorFlow's tensor bundle (a checkpoint prefix: .index + .data shards), read lazily and written.

The .index table maps "" to a BundleHeaderProto and every tensor name to a BundleEntryProto
(dtype, shape, shard, offset, size, crc32c). A partitioned variable's full entry lists its
slices, each stored under its own key (slice_key). Reading takes the index at once and a
tensor's bytes only when asked; every checksum is verified and every size is checked against
the file before anything is allocated.
"""

import os

import numpy as np
from google.protobuf.message import DecodeError

from engine.checkpoint import table, tensor_bytes
from engine.framework import errors
from engine.lib_io import file_io
from engine.checkpoint.slice_key import encode_tensor_name_slice, slice_extents
from engine.proto import tensor_bundle_pb2, tensor_shape_pb2, types_pb2

BUNDLE_VERSION = 1  # kTensorBundleVersion: what TensorFlow 2.21 writes and reads
_READ_CHUNK = 16 << 20  # long reads report progress every chunk
MAX_INDEX_BYTES = 1 << 30  # an index holds ~100 bytes a tensor: a bigger one is not an index


class BundleError(Exception):
    """A checkpoint that cannot be read: the file, the entry (tensor name or None), what is wrong.

    error_class and tf_words: what TensorFlow raises reading such a checkpoint, for the
    engine's ops and readers (DataLossError and this message unless said otherwise).
    """

    def __init__(self, file, entry, what, error_class=errors.DataLossError, tf_words=None):
        self.file, self.entry, self.what = str(file), entry, " ".join(str(what).split())
        self.error_class, self.tf_words = error_class, tf_words
        super().__init__(f"{self.file}: {entry}: {self.what}" if entry is not None
                         else f"{self.file}: {self.what}")


def index_path(prefix):
    return f"{prefix}.index"


def data_path(prefix, shard, num_shards):
    """`model.ckpt.data-00000-of-00001`: TensorFlow's DataFilename."""
    return f"{prefix}.data-{shard:05d}-of-{num_shards:05d}"


def _open(path, entry):
    """A checkpoint file opened to read (a regular file only: a named pipe would block)."""
    try:
        return file_io.open_input(path)
    except errors.OpError as error:
        what = error.message.removeprefix(f"{path}; ")
        raise BundleError(path, entry, what, type(error), error.message) from None


def _read_index_file(path):
    if not os.path.lexists(path):
        raise BundleError(path, None, "no such file (not a checkpoint prefix?)",
                          errors.NotFoundError)
    try:
        with _open(path, None) as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > MAX_INDEX_BYTES:
                raise BundleError(path, None, f"{size} bytes: too big for a checkpoint index "
                                  f"(the largest read is {MAX_INDEX_BYTES})")
            return stream.read()
    except OSError as error:
        raise BundleError(path, None, error.strerror or str(error)) from None


def _name_of(key):
    return key.decode("utf-8", "backslashreplace")


class BundleReader:
    """The tensors under one checkpoint prefix; `read(name)` loads one tensor's bytes."""

    def __init__(self, prefix):
        self.prefix = str(prefix)
        self.index_file = index_path(self.prefix)
        try:
            rows = table.read_table(_read_index_file(self.index_file))
        except table.CorruptTable as error:
            raise BundleError(self.index_file, None, error) from None
        if not rows or rows[0][0] != b"":
            raise BundleError(self.index_file, None, "no bundle header (the entry under the empty key)")
        self.header = self._parse(tensor_bundle_pb2.BundleHeaderProto(), rows[0][1], "header")
        if self.header.endianness != tensor_bundle_pb2.BundleHeaderProto.LITTLE:
            raise BundleError(self.index_file, "header", "big-endian bundle: not supported")
        if self.header.version.min_consumer > BUNDLE_VERSION:
            raise BundleError(self.index_file, "header", f"needs bundle version "
                              f"{self.header.version.min_consumer}; this reader knows {BUNDLE_VERSION}")
        if not 1 <= self.header.num_shards <= 1 << 20:
            raise BundleError(self.index_file, "header", f"num_shards {self.header.num_shards} out of range")
        self._entries = {key: value for key, value in rows[1:]}
        self._parsed = {}
        self.names = sorted(_name_of(key) for key in self._entries if not key.startswith(b"\x00"))
        for name in self.names:
            self._check_entry(name, self.entry(name))

    def _parse(self, message, data, entry):
        try:
            message.ParseFromString(data)
        except (DecodeError, RuntimeError, ValueError) as error:
            raise BundleError(self.index_file, entry, f"bad {type(message).__name__}: {error}") from None
        return message

    def entry(self, name, key=None):
        """The BundleEntryProto of a tensor (or of the slice stored under `key`)."""
        key = name.encode() if key is None else key
        if key not in self._parsed:
            if key not in self._entries:
                raise BundleError(self.index_file, name, "not in this checkpoint")
            self._parsed[key] = self._parse(tensor_bundle_pb2.BundleEntryProto(), self._entries[key], name)
        return self._parsed[key]

    def _check_entry(self, name, entry):
        if entry.dtype not in types_pb2.DataType.values() or entry.dtype == types_pb2.DT_INVALID:
            raise BundleError(self.index_file, name, f"unknown dtype {entry.dtype}")
        shape = self.shape_of(name, entry)
        if entry.slices:
            for slice_proto in entry.slices:
                extents = slice_extents(slice_proto)
                if len(extents) != len(shape) or any(
                        start < 0 or (length != -1 and (length < 0 or start + length > dim))
                        for (start, length), dim in zip(extents, shape)):
                    raise BundleError(self.index_file, name, f"slice {extents} outside shape {shape}")
            return
        if not 0 <= entry.shard_id < self.header.num_shards:
            raise BundleError(self.index_file, name, f"shard {entry.shard_id} of {self.header.num_shards}")
        if entry.offset < 0 or entry.size < 0:
            raise BundleError(self.index_file, name, f"negative offset {entry.offset} or size {entry.size}")
        size = tensor_bytes.item_size(entry.dtype)
        count = int(np.prod(shape, dtype=object)) if shape else 1
        if size is not None and count * size != entry.size:
            raise BundleError(self.index_file, name, f"size {entry.size} bytes, but shape {shape} of "
                              f"{types_pb2.DataType.Name(entry.dtype)} needs {count * size}")

    def shape_of(self, name, entry=None):
        entry = entry or self.entry(name)
        shape = [dim.size for dim in entry.shape.dim]
        if entry.shape.unknown_rank or any(size < 0 for size in shape):
            raise BundleError(self.index_file, name, f"shape {shape} is not fully defined")
        return shape

    def dtype(self, name):
        """The tensor's DataType enum (types_pb2)."""
        return self.entry(name).dtype

    def nbytes(self, name):
        """Bytes the tensor's data takes in the shards (slices summed)."""
        entry = self.entry(name)
        if not entry.slices:
            return entry.size
        return sum(self._slice_entry(name, s).size for s in entry.slices)

    def _slice_entry(self, name, slice_proto):
        key = encode_tensor_name_slice(name, slice_extents(slice_proto))
        if key not in self._entries:
            raise BundleError(self.index_file, name, f"slice {slice_extents(slice_proto)} has no entry")
        return self.entry(name, key)

    def read(self, name, progress=None):
        """The tensor as a NumPy array (strings: object array of bytes; bfloat16: float32).

        progress(done_bytes, total_bytes) is called while long reads go on.
        """
        entry = self.entry(name)
        shape = self.shape_of(name, entry)
        if not entry.slices:
            return self._read_entry(name, entry, shape, progress)
        numpy_type = object if entry.dtype == types_pb2.DT_STRING else (
            np.float32 if entry.dtype == types_pb2.DT_BFLOAT16 else tensor_bytes.NUMPY_TYPES[entry.dtype])
        out = np.zeros(shape, dtype=numpy_type)
        for slice_proto in entry.slices:
            extents = slice_extents(slice_proto)
            box = tuple(slice(start, dim if length == -1 else start + length)
                        for (start, length), dim in zip(extents, shape))
            piece_shape = [s.stop - s.start for s in box]
            piece_entry = self._slice_entry(name, slice_proto)
            if piece_entry.dtype != entry.dtype:
                raise BundleError(self.index_file, name, f"slice {extents} has another dtype")
            out[box] = self._read_entry(name, piece_entry, piece_shape, progress)
        return out

    def _read_entry(self, name, entry, shape, progress):
        if not 0 <= entry.shard_id < self.header.num_shards:
            raise BundleError(self.index_file, name, f"shard {entry.shard_id} of {self.header.num_shards}")
        if entry.offset < 0 or entry.size < 0:
            raise BundleError(self.index_file, name, f"negative offset {entry.offset} or size {entry.size}")
        path = data_path(self.prefix, entry.shard_id, self.header.num_shards)
        if not os.path.lexists(path):
            raise BundleError(path, name, "data shard missing")
        try:
            with _open(path, name) as stream:
                file_size = os.fstat(stream.fileno()).st_size
                if entry.offset + entry.size > file_size:
                    # TensorFlow 2.21 reads what is there and fails as below.
                    raise BundleError(path, name, f"bytes {entry.offset}..{entry.offset + entry.size} "
                                      f"run past the end of the shard ({file_size} bytes; truncated?)",
                                      errors.OutOfRangeError, "Read less bytes than requested")
                stream.seek(entry.offset)
                data = bytearray(entry.size)
                view, done = memoryview(data), 0
                while done < entry.size:
                    count = stream.readinto(view[done:done + _READ_CHUNK])
                    if not count:
                        raise BundleError(path, name, "shard shrank while being read")
                    done += count
                    if progress is not None and entry.size > _READ_CHUNK:
                        progress(done, entry.size)
        except OSError as error:
            raise BundleError(path, name, error.strerror or str(error)) from None
        try:
            return tensor_bytes.decode(data, entry.dtype, shape, entry.crc32c, "data")
        except table.CorruptTable as error:
            raise BundleError(path, name, str(error).removeprefix("data: ")) from None


class BundleWriter:
    """Writes one prefix's .index and single .data shard, as TensorFlow's BundleWriter does."""

    def __init__(self, prefix):
        self.prefix = str(prefix)
        self._data = bytearray()
        self._entries = {}

    def add(self, name, array, dtype):
        """A whole tensor; dtype is a DataType enum (types_pb2)."""
        self._add(name.encode(), array, dtype)

    def _add(self, key, array, dtype):
        array = np.asarray(array, dtype=object if dtype == types_pb2.DT_STRING else None)
        data, crc = tensor_bytes.encode(array, dtype)
        entry = tensor_bundle_pb2.BundleEntryProto(dtype=dtype, offset=len(self._data),
                                                   size=len(data), crc32c=crc)
        entry.shape.CopyFrom(shape_proto(array.shape))
        self._data += data
        self._entries[key] = entry

    def add_slice(self, name, full_shape, extents, array, dtype):
        """One slice of a partitioned tensor: (start, length) per dimension, length -1 = all."""
        key = name.encode()
        full = self._entries.setdefault(key, tensor_bundle_pb2.BundleEntryProto(dtype=dtype))
        full.shape.CopyFrom(shape_proto(full_shape))
        slice_proto = full.slices.add()
        for start, length in extents:
            extent = slice_proto.extent.add()
            if length != -1:
                extent.start, extent.length = start, length
        self._add(encode_tensor_name_slice(name, extents), array, dtype)

    def finish(self):
        """Write .data-00000-of-00001 then .index, each through a temporary file."""
        _write_atomically(data_path(self.prefix, 0, 1), bytes(self._data))
        write_index(self.prefix, self._entries, num_shards=1)


def shape_proto(shape):
    return tensor_shape_pb2.TensorShapeProto(dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=int(size))
                                                  for size in shape])


def write_index(prefix, entries, num_shards):
    """The .index for {key bytes: BundleEntryProto}, with its header, keys sorted."""
    header = tensor_bundle_pb2.BundleHeaderProto(num_shards=num_shards)
    header.version.producer = BUNDLE_VERSION
    rows = [(b"", header.SerializeToString())]
    rows += [(key, entries[key].SerializeToString()) for key in sorted(entries)]
    _write_atomically(index_path(prefix), table.build_table(rows))


def _write_atomically(path, data):
    # A full disk leaves the old file whole, no temporary behind, and an error naming `path`.
    file_io.write_atomically(path, data)


def merge_bundles(prefixes, destination, delete_old_dirs=True):
    """MergeV2Checkpoints: one index over every prefix's shard; data files renamed into place."""
    entries, num_shards = {}, len(prefixes)
    for shard, prefix in enumerate(prefixes):
        reader = BundleReader(prefix)
        if reader.header.num_shards != 1:
            raise BundleError(reader.index_file, None, "can only merge single-shard bundles")
        for key in reader._entries:
            entry = tensor_bundle_pb2.BundleEntryProto()
            entry.CopyFrom(reader.entry(_name_of(key), key))
            if entry.slices and key in entries:
                entries[key].slices.extend(entry.slices)
                continue
            if not entry.slices:
                entry.shard_id = shard
            entries[key] = entry
    for shard, prefix in enumerate(prefixes):
        os.replace(data_path(prefix, 0, 1), data_path(destination, shard, num_shards))
    write_index(destination, entries, num_shards)
    for prefix in prefixes:
        if os.path.abspath(prefix) != os.path.abspath(destination):
            os.remove(index_path(prefix))
            if delete_old_dirs:
                try:
                    os.rmdir(os.path.dirname(prefix))
                except OSError:
                    pass  # not empty or already gone: TensorFlow ignores this too
