"""CPU kernels of the lookup tables: HashTableV2 (initialized once, then read-only) and
MutableHashTableV2, and the ops that fill and read them (lookup_table_op.cc,
lookup_table_init_op.cc, lookup_util.cc; TensorFlow has no GPU kernels for them).

A table is a resource of the session, made by the first run of its node and named as
TensorFlow's ContainerInfo names it: the shared_name, else the node's name under
use_node_name_sharing, else "_<N>_<node name>". Keys are Python values (ints, floats, bytes)
in a dict; what a table holds lives as long as the session. A Keras StringLookup layer's
table is a HashTableV2 filled by LookupTableImportV2 when the SavedModel's init op runs.
"""

import threading

import numpy as np

from engine.framework import errors
from engine.framework.dtypes import as_dtype
from engine.framework.tensor_shape import shape_text
from engine.kernels import register_table
from engine.kernels.common import datatype_string, invalid, resource_handle
from engine.kernels.cpu.text_file_table import read_text_file_entries
from engine.runtime.resources import ResourceHandle

_DEFAULT_CONTAINER = "localhost"
_CREATE_LOCK = threading.Lock()


def _python(dtype, value):
    """A key or value as the dict holds it: bytes for strings, Python numbers otherwise."""
    if as_dtype(dtype).name == "string":
        return value.encode() if isinstance(value, str) else bytes(value)
    return value.item() if isinstance(value, np.generic) else value


class HashTable:
    """TensorFlow's HashTable: filled once by an initializer or an import, then read-only."""

    kind = "HashTable"
    initializable = True

    def __init__(self, name, key_dtype, value_dtype):
        self.name, self.key_dtype, self.value_dtype = name, key_dtype, value_dtype
        self.entries, self.initialized = {}, False
        self.lock = threading.Lock()

    def find(self, ctx, keys, default):
        if not self.initialized:
            raise errors.FailedPreconditionError(ctx.node_def, None, "Table not initialized.")
        return self._find(keys, default)

    def _find(self, keys, default):
        flat_default = np.asarray(default).reshape(-1).tolist()
        per_key = len(flat_default) == np.size(keys) and np.ndim(default) > 0
        values = [self.entries.get(_python(self.key_dtype, key),
                                   flat_default[i] if per_key else flat_default[0])
                  for i, key in enumerate(np.asarray(keys).reshape(-1).tolist())]
        return _array(values, self.value_dtype, np.shape(keys))

    def initialize(self, ctx, pairs):
        """InitializableLookupTable::Initialize: a second initialization with as many
        entries is accepted and changes nothing, TensorFlow's AreEntriesSame."""
        with self.lock:
            if self.initialized:
                if len(pairs) != len(self.entries):
                    raise errors.FailedPreconditionError(
                        ctx.node_def, None, "Table was already initialized with different data.")
                return
            entries = {}
            for key, value in pairs:
                previous = entries.setdefault(key, value)
                if previous != value:
                    raise errors.FailedPreconditionError(
                        ctx.node_def, None,
                        f"HashTable has different value for same key. Key {_text(key)} has "
                        f"{_text(previous)} and trying to add value {_text(value)}")
            self.entries, self.initialized = entries, True

    def import_values(self, ctx, keys, values):
        self.initialize(ctx, _pairs(self, keys, values))

    def insert(self, ctx, keys, values):
        raise errors.UnimplementedError(ctx.node_def, None, "Insert not supported by "
                                        "InitializableLookupTable implementations")

    def remove(self, ctx, keys):
        raise errors.UnimplementedError(ctx.node_def, None, "Remove not supported by "
                                        "InitializableLookupTable implementations")

    def export(self, ctx):
        if not self.initialized:
            return _array([], self.key_dtype, (0,)), _array([], self.value_dtype, (0,))
        return (_array(list(self.entries), self.key_dtype, (len(self.entries),)),
                _array(list(self.entries.values()), self.value_dtype, (len(self.entries),)))


class MutableHashTable(HashTable):
    """TensorFlow's MutableHashTableOfScalars: insert, remove and import at any time."""

    kind = "MutableHashTable"
    initializable = False

    def __init__(self, name, key_dtype, value_dtype):
        super().__init__(name, key_dtype, value_dtype)
        self.initialized = True

    def find(self, ctx, keys, default):
        with self.lock:
            return self._find(keys, default)

    def insert(self, ctx, keys, values):
        with self.lock:
            self.entries.update(_pairs(self, keys, values))

    def import_values(self, ctx, keys, values):
        with self.lock:
            self.entries = dict(_pairs(self, keys, values))

    def remove(self, ctx, keys):
        with self.lock:
            for key in np.asarray(keys).reshape(-1).tolist():
                self.entries.pop(_python(self.key_dtype, key), None)

    def export(self, ctx):
        with self.lock:
            return super().export(ctx)


def _pairs(table, keys, values):
    return [(_python(table.key_dtype, k), _python(table.value_dtype, v)) for k, v in
            zip(np.asarray(keys).reshape(-1).tolist(), np.asarray(values).reshape(-1).tolist())]


def _text(value):
    """A key or value as TensorFlow's StrCat writes it."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _array(values, dtype, shape):
    dtype = as_dtype(dtype)
    np_dtype = object if dtype.name == "string" else dtype.as_numpy_dtype
    array = np.empty(len(values), dtype=np_dtype)
    array[:] = values
    return array.reshape(shape)


def _create(kind):
    def kernel(ctx):
        attrs = ctx.attrs
        container = _attr_text(attrs.get("container")) or _DEFAULT_CONTAINER
        shared = _attr_text(attrs.get("shared_name"))
        if not shared and attrs.get("use_node_name_sharing", False):
            shared = ctx.name
        name = ctx.resources.resource_name(ctx.name, shared)
        key_dtype, value_dtype = as_dtype(attrs["key_dtype"]), as_dtype(attrs["value_dtype"])
        tables = ctx.resources.table("lookup_tables")
        with _CREATE_LOCK:
            table = tables.get((container, name))
            if table is None:
                table = tables[(container, name)] = kind(name, key_dtype, value_dtype)
        if (table.key_dtype, table.value_dtype) != (key_dtype, value_dtype):
            raise invalid(ctx, f"Conflicting key/value dtypes {datatype_string(key_dtype)}->"
                               f"{datatype_string(value_dtype)} with "
                               f"{datatype_string(table.key_dtype)}-"
                               f"{datatype_string(table.value_dtype)} for table {name}")
        return ResourceHandle(container, name, ctx.device, None, ())
    return kernel


def _attr_text(value):
    return value.decode() if isinstance(value, bytes) else (value or "")


def _table(ctx, handle):
    handle = resource_handle(handle)
    table = ctx.resources.table("lookup_tables").get((handle.container, handle.name))
    if table is None:
        raise errors.NotFoundError(
            ctx.node_def, None, f"Resource {handle.container}/{handle.name}/"
                                f"N10tensorflow6lookup15LookupInterfaceE does not exist.")
    return table


def _match_signature(ctx, table, *types):
    """OpKernelContext::MatchSignature: the op's key and value types are the table's."""
    have = [as_dtype(t) for t in types]
    wanted = [table.key_dtype, table.value_dtype][:len(have)]
    if have != wanted:
        raise invalid(ctx, f"Signature mismatch, have: {_types(['resource'] + have)}->"
                           f"{_types([])} expected: {_types(['resource'] + wanted)}->"
                           f"{_types([])}")


def _types(types):
    return ", ".join(t if isinstance(t, str) else datatype_string(t) for t in types)


def _check_key_and_values(ctx, table, keys, values):
    """CheckKeyAndValueTensorsForInsert/Import: one scalar value per scalar key."""
    if np.shape(values) != np.shape(keys):
        raise invalid(ctx, f"Expected shape {shape_text(np.shape(keys))} for value, got "
                           f"{shape_text(np.shape(values))}")


def find(ctx, handle, keys, default_value):
    table = _table(ctx, handle)
    _match_signature(ctx, table, ctx.attrs["Tin"], ctx.attrs["Tout"])
    if np.ndim(default_value) != 0 and np.shape(default_value) != np.shape(keys):
        raise invalid(ctx, f"Expected shape [] or {shape_text(np.shape(keys))} for default "
                           f"value, got {shape_text(np.shape(default_value))}")
    return table.find(ctx, keys, default_value)


def insert(ctx, handle, keys, values):
    table = _table(ctx, handle)
    _match_signature(ctx, table, ctx.attrs["Tin"], ctx.attrs["Tout"])
    _check_key_and_values(ctx, table, keys, values)
    table.insert(ctx, keys, values)


def import_values(ctx, handle, keys, values):
    table = _table(ctx, handle)
    _match_signature(ctx, table, ctx.attrs["Tin"], ctx.attrs["Tout"])
    _check_key_and_values(ctx, table, keys, values)
    table.import_values(ctx, keys, values)


def remove(ctx, handle, keys):
    table = _table(ctx, handle)
    _match_signature(ctx, table, ctx.attrs["Tin"])
    table.remove(ctx, keys)


def size(ctx, handle):
    return np.array(len(_table(ctx, handle).entries), np.int64)


def export(ctx, handle):
    return _table(ctx, handle).export(ctx)


def _initializable(ctx, handle):
    table = _table(ctx, handle)
    if not table.initializable:
        handle = resource_handle(handle)
        raise invalid(ctx, f"Table {handle.container} {handle.name} is not initializable")
    return table


def initialize_table(ctx, handle, keys, values):
    table = _initializable(ctx, handle)
    _match_signature(ctx, table, ctx.attrs["Tkey"], ctx.attrs["Tval"])
    for what, tensor in (("Keys", keys), ("Values", values)):
        if np.ndim(tensor) != 1:
            raise invalid(ctx, f"{what} must be a vector, but received shape"
                               f"{shape_text(np.shape(tensor))}")
    if np.size(keys) != np.size(values):
        raise invalid(ctx, f"Keys and values must have the same size {np.size(keys)} vs "
                           f"{np.size(values)}")
    table.import_values(ctx, keys, values)


def initialize_table_from_text_file(ctx, handle, filename):
    table = _initializable(ctx, handle)
    delimiter = ctx.attrs.get("delimiter", b"\t")
    if len(delimiter) != 1:
        raise invalid(ctx, "delimiter should be only 1 char")
    if np.ndim(filename) != 0:
        raise invalid(ctx, f"filename should be a single string, but got "
                           f"{shape_text(np.shape(filename))}")
    path = np.asarray(filename).item()
    path = path.decode() if isinstance(path, bytes) else str(path)
    if not path:
        raise invalid(ctx, "filename cannot be empty.")
    pairs = read_text_file_entries(ctx, path, table.key_dtype, table.value_dtype, ctx.attrs)
    try:
        table.initialize(ctx, pairs)
    except errors.FailedPreconditionError:
        if not table.initialized:  # a file's table initialized before is left as it is
            raise


register_table({
    "HashTableV2": _create(HashTable), "MutableHashTableV2": _create(MutableHashTable),
    "LookupTableFindV2": find, "LookupTableInsertV2": insert,
    "LookupTableImportV2": import_values, "LookupTableRemoveV2": remove,
    "LookupTableSizeV2": size, "LookupTableExportV2": export,
    "InitializeTableV2": initialize_table,
    "InitializeTableFromTextFileV2": initialize_table_from_text_file,
})
