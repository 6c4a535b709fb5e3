"""Checkpoints and SavedModel variables: find the prefix a path means, list its tensors, read them lazily.

A path may be a prefix (`model.ckpt-1000`), its `.index` or a `.data-*` shard, its `.meta`, a
directory with a `checkpoint` state file (its latest checkpoint), or a SavedModel directory
(`variables/variables`). The format itself (TensorFlow's tensor bundle) is engine.checkpoint;
here every failure becomes the one-line InputError naming the file and the tensor. A TF2
checkpoint's variables are called by readable names (parsers/checkpoint_names.py), each
keeping its raw key; its object graph entry is no variable.

>>> prefix_of("runs/model.ckpt-7.data-00000-of-00001"), prefix_of("runs/model.ckpt-7.index")
('runs/model.ckpt-7', 'runs/model.ckpt-7')
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from engine.framework import dtypes, errors
from engine.checkpoint.bundle import BundleError, BundleReader, index_path
from engine.checkpoint import state
from parsers import checkpoint_names
from parsers.errors import InputError

_SUFFIX = re.compile(r"\.(index|meta|data-\d{5}-of-\d{5})$")
STATE_FILE = state.STATE_FILE


def prefix_of(path):
    """The checkpoint prefix a file of it names (its .index, .meta or a .data shard)."""
    return _SUFFIX.sub("", str(path))


def is_checkpoint_path(path):
    """Whether `path` names a checkpoint: a prefix with an .index, one of its files, or a state dir."""
    path = str(path)
    if os.path.isdir(path):
        return os.path.isfile(os.path.join(path, STATE_FILE)) and not _is_saved_model(path)
    if path.endswith(".meta"):
        return False  # a .meta is a MetaGraphDef; its checkpoint opens beside it
    # lexists: an index that is not a regular file is refused when read, not taken for no file
    return os.path.lexists(index_path(prefix_of(path)))


def _is_saved_model(path):
    return any(os.path.isfile(os.path.join(path, name)) for name in ("saved_model.pb", "saved_model.pbtxt"))


def latest_prefix(directory):
    """The latest checkpoint a directory's `checkpoint` file names (engine.checkpoint.state)."""
    path = os.path.join(directory, STATE_FILE)
    try:
        latest = state.read_state(directory)
    except UnicodeDecodeError as error:  # before ValueError, its base: say which byte
        raise InputError(path, f"not a checkpoint state file: not UTF-8 text (byte {error.start})") from None
    except ValueError as error:
        raise InputError(path, str(error).split(": ", 1)[-1]) from None
    except errors.OpError as error:
        raise InputError(path, error.message.removeprefix(f"{path}; ")) from None
    if latest is None:
        raise InputError(path, "no such file or directory")
    return state.resolve(directory, latest.model_checkpoint_path)


def resolve_prefix(path):
    """The prefix a user's path means: a SavedModel's variables, a state dir's latest, a file's prefix."""
    path = str(path)
    if os.path.isdir(path):
        if _is_saved_model(path):
            return os.path.join(path, "variables", "variables")
        if os.path.isfile(os.path.join(path, STATE_FILE)):
            return latest_prefix(path)
        raise InputError(path, "directory holds no checkpoint (no `checkpoint` state file)")
    return prefix_of(path)


@dataclass(frozen=True)
class VariableInfo:
    """One tensor in a checkpoint, as its index describes it (no data read). key: its key in
    the checkpoint; name: what to call it (the key, but for a TF2 checkpoint's readable name)."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    nbytes: int
    partitioned: bool
    key: str = ""

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=object)) if self.shape else 1


class Checkpoint:
    """A checkpoint's index, read at once; each tensor's bytes read when asked.

    variables: every tensor but a TF2 checkpoint's object graph, in key order. object_graph:
    that TrackableObjectGraph, decoded (None for a TF1 checkpoint). variable_names (object
    path -> a variable's own name, from a SavedModel's SavedObjectGraph) names TF2 variables.
    A variable is found by its name or by its key.
    """

    def __init__(self, path, variable_names=None):
        self.path = str(path)
        self.prefix = resolve_prefix(path)
        try:
            self._reader = BundleReader(self.prefix)
        except BundleError as error:
            raise _input_error(error) from None
        self._cache = {}
        self.object_graph = self._object_graph()
        names = (checkpoint_names.readable_names(self.object_graph, variable_names)
                 if self.object_graph is not None else {})
        self.variables = [self._info(key, names.get(key, key)) for key in self._reader.names
                          if key != checkpoint_names.OBJECT_GRAPH_KEY]
        self._by_name = {info.key: info for info in self.variables}
        for info in self.variables:
            self._by_name.setdefault(info.name, info)

    @property
    def num_shards(self):
        return self._reader.header.num_shards

    def files(self):
        return [index_path(self.prefix)] + [f"{self.prefix}.data-{shard:05d}-of-{self.num_shards:05d}"
                                            for shard in range(self.num_shards)]

    def _info(self, key, name):
        try:
            entry = self._reader.entry(key)
            shape = tuple(self._reader.shape_of(key))
            return VariableInfo(name, dtypes.as_dtype(entry.dtype).name, shape,
                                self._reader.nbytes(key), bool(entry.slices), key)
        except BundleError as error:
            raise _input_error(error) from None

    def _object_graph(self):
        """The TF2 object graph the checkpoint holds, or None (TF1, or not readable as one:
        then every variable keeps its key as its name, and object_graph_error says why, as
        TensorFlow's restore would fail on it)."""
        self.object_graph_error = None
        if checkpoint_names.OBJECT_GRAPH_KEY not in self._reader.names:
            return None
        from google.protobuf.message import DecodeError
        from engine.proto import trackable_object_graph_pb2
        try:
            data = np.asarray(self._read(checkpoint_names.OBJECT_GRAPH_KEY)).item()
            return trackable_object_graph_pb2.TrackableObjectGraph.FromString(data)
        except InputError as error:
            self.object_graph_error = f"{error.path}: {error.message}"
        except (DecodeError, ValueError, TypeError) as error:
            self.object_graph_error = f"not a TrackableObjectGraph ({str(error).splitlines()[0]})"
        return None

    def __contains__(self, name):
        return name in self._by_name or (name == checkpoint_names.OBJECT_GRAPH_KEY
                                         and name in self._reader.names)

    def info(self, name):
        """The VariableInfo of a variable, by name or key."""
        if name not in self._by_name:
            raise InputError(index_path(self.prefix), f"{name}: not in this checkpoint")
        return self._by_name[name]

    def value(self, name, progress=None):
        """The tensor's value (NumPy; strings as bytes objects, bfloat16 widened to float32),
        by name or key (the object graph's too)."""
        key = name if name == checkpoint_names.OBJECT_GRAPH_KEY and name in self._reader.names \
            else self.info(name).key
        return self._read(key, progress)

    def _read(self, key, progress=None):
        if key not in self._cache:
            try:
                self._cache[key] = self._reader.read(key, progress)
            except BundleError as error:
                raise _input_error(error) from None
        return self._cache[key]

    def slices(self, name):
        """A partitioned tensor's slices, [(start, length) per dimension], ordered by position."""
        from engine.checkpoint.slice_key import slice_extents
        info = self.info(name)
        extents = [slice_extents(s) for s in self._reader.entry(info.key).slices]
        shape = info.shape
        return sorted([[(start, dim if length == -1 else length) for (start, length), dim in zip(e, shape)]
                       for e in extents])

    def forget(self, name):
        """Drop a cached value (large checkpoints: keep only what is shown)."""
        info = self._by_name.get(name)
        self._cache.pop(info.key if info is not None else name, None)


def _input_error(error):
    message = f"{error.entry}: {error.what}" if error.entry is not None else error.what
    return InputError(error.file, message)


@dataclass(frozen=True)
class Stats:
    """min/max/mean over the finite values, NaN and Inf counts; None where a dtype has none."""

    min: float | None
    max: float | None
    mean: float | None
    nan: int
    inf: int


def stats(value):
    """
    >>> stats(np.array([1.0, np.nan, -np.inf, 3.0]))
    Stats(min=1.0, max=3.0, mean=2.0, nan=1, inf=1)
    >>> stats(np.array([b"a"], dtype=object))
    Stats(min=None, max=None, mean=None, nan=0, inf=0)
    """
    array = np.asarray(value)
    if not array.size or not (np.issubdtype(array.dtype, np.number) or array.dtype == bool):
        return Stats(None, None, None, 0, 0)
    if np.iscomplexobj(array):
        array = np.abs(array)  # magnitudes: what "how big are these weights" asks of complex values
    numbers = array.view(np.uint8) if array.dtype == bool else array
    nan = inf = 0
    if np.issubdtype(numbers.dtype, np.inexact):
        finite = np.isfinite(numbers)
        if not finite.all():  # copy only when there is something to leave out
            nan, inf = int(np.isnan(numbers).sum()), int(np.isinf(numbers).sum())
            numbers = numbers[finite]
    if not numbers.size:
        return Stats(None, None, None, nan, inf)
    return Stats(_plain(numbers.min()), _plain(numbers.max()),
                 float(numbers.mean(dtype=np.float64)), nan, inf)


def _plain(x):
    x = x.item()
    return float(x) if isinstance(x, float) else int(x)
