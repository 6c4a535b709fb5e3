"""Keras model files: a .keras zip (config.json, model.weights.h5, metadata.json) and an HDF5
.h5 (a `model_config` attr and `model_weights`, or weights alone), each opened as the Keras
layer graph (parsers/keras_config.py) with its weights as the checkpoint (keras_weights.py).

A zip's members are read with bounds (a zip bomb inflates no further than the limit); its
model.weights.h5 is read in place when stored, as Keras writes it, and into memory when
compressed; every read of HDF5 runs in a child process (parsers/isolated_call.py). Without h5py a .keras still opens as its graph, with a note that its weights need
the `keras` extra.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import struct
import zipfile
import zlib
from pathlib import Path

import numpy as np

from parsers import isolated_call, keras_config, keras_weights
from parsers.errors import InputError
from parsers.loaded import LabeledGraph, Loaded

_LOCAL_HEADER = b"PK\x03\x04"
JSON_LIMIT = 64 << 20  # a config.json this long is no model's
# A compressed model.weights.h5 is inflated into memory, up to this.
COMPRESSED_WEIGHTS_LIMIT = 1 << 30
CONFIG, METADATA, WEIGHTS = "config.json", "metadata.json", "model.weights.h5"
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, RuntimeError, NotImplementedError,
               OSError, EOFError, zlib.error, ValueError, struct.error)
_HDF5_ERRORS = (OSError, KeyError, RuntimeError, ValueError, TypeError)


def load_keras_zip(path):
    """A Loaded of kind "keras" for a .keras zip: its layer graph, its weights when h5py is there."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if CONFIG not in names:
                raise InputError(path, f"a zip archive without {CONFIG}: not a Keras model (.keras)"
                                       "; unzip it and open what it holds")
            config = _parse(path, CONFIG, _read_member(path, archive, CONFIG))
            metadata = _metadata(path, archive) if METADATA in names else {}
            weights_member = archive.getinfo(WEIGHTS) if WEIGHTS in names else None
    except _ZIP_ERRORS as error:
        raise InputError(path, f"a zip archive that cannot be read: {error}") from None
    loaded = _keras_loaded(path, config, metadata.get("keras_version"), CONFIG)
    if weights_member is None:
        loaded.notes.append(f"no {WEIGHTS} in the zip: the model's weights are not in it")
        return loaded
    try:
        keras_weights.import_h5py(path)
    except InputError as error:
        loaded.notes.append(f"weights not read: {error.message}")
        return loaded
    open_file = _zip_member_opener(path, weights_member)
    loaded.checkpoint = _weights(path, f"{Path(path).name}/{WEIGHTS}", open_file, config,
                                 keras_weights.saved_weights, loaded.graphs[0].graph_def)
    return loaded


def load_keras_h5(path):
    """A Loaded of kind "keras" for an HDF5 file: a legacy .h5 model (its model_config as the
    graph, model_weights as the checkpoint) or Keras weights alone (no graph)."""
    h5py = keras_weights.import_h5py(path)

    def read_head():
        try:
            with h5py.File(path, "r") as h5file:
                is_weights = any(name in h5file for name in ("model_weights", "layers", "vars")) \
                    or "layer_names" in h5file.attrs
                return h5file.attrs.get("model_config"), h5file.attrs.get("keras_version"), is_weights
        except _HDF5_ERRORS as error:
            raise keras_weights.hdf5_error(path, error) from None
    config_text, version, is_weights = isolated_call.call(path, read_head)
    if config_text is None and not is_weights:
        raise InputError(path, "an HDF5 file, but not a Keras model: no model_config attribute "
                               "and no Keras weights")
    version = version.decode("utf-8", "replace") if isinstance(version, bytes) else version
    if config_text is not None:
        config = _parse(path, "model_config", config_text)
        loaded = _keras_loaded(path, config, version, "model_config")
    else:
        config, loaded = {}, Loaded(path=str(path), kind="keras", files=[str(path)])
    graph = loaded.graphs[0].graph_def if loaded.graphs else None
    loaded.checkpoint = _weights(path, Path(path).name, lambda: h5py.File(path, "r"), config,
                                 _h5_weights, graph)
    return loaded


def _h5_weights(path, h5file, model_name, layer_names):
    if "model_weights" in h5file or "layer_names" in h5file.attrs:
        return keras_weights.legacy_weights(path, h5file, model_name)
    return keras_weights.saved_weights(path, h5file, model_name, layer_names)


def _keras_loaded(path, config, version, member):
    try:
        graph = keras_config.model_graph(config)
        label = keras_config.model_label(config)
    except keras_config.ConfigError as error:
        raise InputError(path, f"{member}: {error}") from None
    if isinstance(version, str) and version:
        label = f"{label[:-1]}, Keras {version})"
    return Loaded(path=str(path), kind="keras", files=[str(path)],
                  graphs=[LabeledGraph(label, graph, f"{path} {member}")])


def _weights(path, prefix, open_file, config, list_weights, graph):
    """The KerasWeights of an HDF5 weights file, listed now through `list_weights`, in the
    order of their layers in `graph` (the file's order is by attribute name)."""
    inner = config.get("config") if isinstance(config, dict) else None
    model_name = inner.get("name") if isinstance(inner, dict) and isinstance(inner.get("name"), str) else ""
    layer_names = keras_weights.config_layer_names(config) if config else {}

    def listed():
        try:
            with open_file() as h5file:
                return list_weights(path, h5file, model_name, layer_names)
        except _HDF5_ERRORS as error:
            raise keras_weights.hdf5_error(path, error) from None
    variables = isolated_call.call(path, listed)
    if graph is not None:
        variables = _in_graph_order(variables, graph)
    return keras_weights.KerasWeights(path, prefix, open_file, variables)


def _in_graph_order(variables, graph):
    """Weights sorted by the position of their layer's node (the longest node name their name
    starts with); the optimizer's and others after them, in file order."""
    order = {node.name: number for number, node in enumerate(graph.node)}

    def position(info):
        scope = info.name
        while "/" in scope:
            scope = scope.rsplit("/", 1)[0]
            if scope in order:
                return order[scope]
        return len(order)
    return sorted(variables, key=position)


def _parse(path, member, text):
    if isinstance(text, np.ndarray) and text.shape == () and text.dtype.kind in "SUO":
        text = text.item()  # h5py gives a scalar string attribute written as an array so
    if not isinstance(text, (str, bytes)):
        raise InputError(path, f"{member}: a {_attribute_type(text)} attribute, not JSON text")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(path, f"{member}: not UTF-8 text (byte {error.start})") from None
    try:
        return keras_config.parse_config(text)
    except keras_config.ConfigError as error:
        raise InputError(path, f"{member}: {error}") from None


def _attribute_type(value):
    dtype = getattr(value, "dtype", None)
    return f"{dtype} ({'opaque' if dtype.kind == 'V' else 'array'})" if dtype is not None \
        else type(value).__name__


def _metadata(path, archive):
    try:
        metadata = json.loads(_read_member(path, archive, METADATA))
    except (ValueError, RecursionError):
        return {}  # a date and a version: not worth refusing the model for
    return metadata if isinstance(metadata, dict) else {}


def _read_member(path, archive, name, limit=None):
    """A member's bytes, refusing one that inflates past `limit` (JSON_LIMIT by default)."""
    limit = JSON_LIMIT if limit is None else limit
    with archive.open(name) as stream:
        # No more than the member says it holds: read(n) may set n bytes aside first.
        data = stream.read(min(archive.getinfo(name).file_size, limit) + 1)
    if len(data) > limit:
        raise InputError(path, f"{name}: inflates past {limit} bytes: not a Keras model's")
    return data


def _zip_member_opener(path, member):
    """open_file() for model.weights.h5 inside the zip: read in place when stored, from one
    inflated copy in memory when compressed."""
    import h5py
    if member.compress_type == zipfile.ZIP_STORED:
        start = _stored_data_offset(path, member)

        @contextlib.contextmanager
        def open_stored():
            with open(path, "rb") as stream, h5py.File(_Window(stream, start, member.file_size), "r") as h5file:
                yield h5file
        return open_stored
    try:
        with zipfile.ZipFile(path) as archive:
            data = _read_member(path, archive, member.filename, COMPRESSED_WEIGHTS_LIMIT)
    except _ZIP_ERRORS as error:
        raise InputError(path, f"{member.filename}: {error}") from None
    return lambda: h5py.File(io.BytesIO(data), "r")


def _stored_data_offset(path, member):
    """Where a stored member's bytes start: after its local header (30 bytes, its name, its
    extra field), which may differ from the central directory's copy."""
    with open(path, "rb") as stream:
        stream.seek(member.header_offset)
        header = stream.read(30)
        size = os.fstat(stream.fileno()).st_size
    if len(header) < 30 or header[:4] != _LOCAL_HEADER:
        raise InputError(path, f"{member.filename}: no local header where the zip says")
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    start = member.header_offset + 30 + name_length + extra_length
    if start + member.file_size > size:
        raise InputError(path, f"{member.filename}: truncated ({member.file_size} bytes from byte "
                               f"{start}, the file has {size})")
    return start


class _Window(io.RawIOBase):
    """Bytes [start, start + length) of an open file, as a file of their own (h5py reads it)."""

    def __init__(self, stream, start, length):
        super().__init__()
        self._stream, self._start, self._length, self._position = stream, start, length, 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self._position

    def seek(self, offset, whence=io.SEEK_SET):
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._length}[whence]
        self._position = max(0, base + offset)
        return self._position

    def readinto(self, buffer):
        count = max(0, min(len(buffer), self._length - self._position))
        self._stream.seek(self._start + self._position)
        data = self._stream.read(count)
        buffer[:len(data)] = data
        self._position += len(data)
        return len(data)
