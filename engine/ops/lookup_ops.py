"""tf.lookup: hash tables in a graph (StaticHashTable with a KeyValueTensorInitializer or a
TextFileInitializer, experimental.MutableHashTable) and tf.tables_initializer, building the
nodes TensorFlow's lookup_ops.py builds in graph mode (`hash_table`,
`key_value_init/LookupTableImportV2`, `hash_table_Lookup/LookupTableFindV2`, ...).

A static table is filled by its initializer op, which TensorFlow puts in the
TABLE_INITIALIZERS collection for tf.tables_initializer(); its shared name is TensorFlow's
(`hash_table_<uuid>`, or for a file `hash_table_<file>_<vocab size>_<key>_<value>`). A
mutable table's contents are not saved by the engine's tf.train.Saver (TensorFlow's saves
them as `<name>-keys` and `<name>-values`).
"""

import uuid

from engine.framework import dtypes
from engine.framework.default_graph import init_scope
from engine.framework.graph import GraphKeys, add_to_collection, get_collection
from engine.framework.graph import get_default_graph
from engine.framework.sparse_tensor import SparseTensor
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape
from engine.ops.control_flow.ops import group, no_op
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.op_def_library import apply_op

# As TensorFlow's data_flow_ops.py marks them (the import, export and remove ops it leaves
# without an entry).
for _op_type in ("HashTableV2", "MutableHashTableV2", "InitializeTableV2",
                 "InitializeTableFromTextFileV2", "LookupTableFindV2", "LookupTableInsertV2",
                 "LookupTableSizeV2"):
    NotDifferentiable(_op_type)


class TextFileIndex:
    """Where a line's key or value comes from: its number or the whole line (else a column)."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


def check_table_dtypes(table, key_dtype, value_dtype):
    if key_dtype.base_dtype != table.key_dtype:
        raise TypeError(f"Invalid key dtype for table, expected {table.key_dtype} but got "
                        f"{key_dtype}.")
    if value_dtype.base_dtype != table.value_dtype:
        raise TypeError(f"Invalid value dtype for table, expected {table.value_dtype} but got "
                        f"{value_dtype}.")


class KeyValueTensorInitializer:
    """Fills a table from a keys tensor and a values tensor (LookupTableImportV2)."""

    _shared_name = None

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = convert_to_tensor(keys, dtype=key_dtype, name="keys")
        self._values = convert_to_tensor(values, dtype=value_dtype, name="values")
        self._name = name if name is not None else "key_value_init"
        self.key_dtype, self.value_dtype = self._keys.dtype, self._values.dtype

    def initialize(self, table):
        check_table_dtypes(table, self._keys.dtype, self._values.dtype)
        with get_default_graph().name_scope(self._name):
            init_op = apply_op("LookupTableImportV2", table_handle=table.resource_handle,
                               keys=self._keys, values=self._values)
        add_to_collection(GraphKeys.TABLE_INITIALIZERS, init_op)
        return init_op


class TextFileInitializer:
    """Fills a table from a text file, a key and a value per line
    (InitializeTableFromTextFileV2)."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index,
                 vocab_size=None, delimiter="\t", name=None, value_index_offset=0):
        if not isinstance(filename, Tensor) and not filename:
            raise ValueError("`filename` argument required for tf.lookup.TextFileInitializer")
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        _check_index("key", key_index, key_dtype)
        _check_index("value", value_index, value_dtype)
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"`vocab_size` should be > 0, received: {vocab_size}")
        self._filename_arg, self._key_index, self._value_index = filename, key_index, value_index
        self._vocab_size, self._delimiter, self._name = vocab_size, delimiter, name
        self._offset = value_index_offset
        self.key_dtype, self.value_dtype = key_dtype, value_dtype
        # TensorFlow 2's graph mode tracks the file as an Asset, a constant made here.
        self._filename = filename if isinstance(filename, Tensor) else \
            convert_to_tensor(filename, dtype=dtypes.string, name="asset_path")

    @property
    def _shared_name(self):
        parts = [self._filename_arg]
        if self._vocab_size:
            parts.append(str(self._vocab_size))
        parts += [str(self._key_index), str(self._value_index)]
        if self._offset:
            parts.append(str(self._offset))
        return "hash_table_" + "_".join(str(p) for p in parts)

    def initialize(self, table):
        check_table_dtypes(table, self.key_dtype, self.value_dtype)
        with get_default_graph().name_scope(self._name or "text_file_init"):
            init_op = apply_op(
                "InitializeTableFromTextFileV2", table_handle=table.resource_handle,
                filename=self._filename, key_index=self._key_index,
                value_index=self._value_index,
                vocab_size=-1 if self._vocab_size is None else self._vocab_size,
                delimiter=self._delimiter, offset=self._offset)
        add_to_collection(GraphKeys.TABLE_INITIALIZERS, init_op)
        if self._filename.op.type == "Const":
            add_to_collection(GraphKeys.ASSET_FILEPATHS, self._filename)
        return init_op


def _check_index(what, index, dtype):
    if index < -2:
        raise ValueError(f"`{what}_index` should be >= -2, received: {index}.")
    if index == TextFileIndex.LINE_NUMBER and dtype != dtypes.int64:
        raise ValueError(f"`{what}_dtype` must be int64 if `{what}_index` is "
                         f"{TextFileIndex.LINE_NUMBER}, received: {dtype}")
    if index == TextFileIndex.WHOLE_LINE and not dtype.is_integer and dtype != dtypes.string:
        raise ValueError(f"`{what}_dtype` should be either integer or string for "
                         f"`{what}_index` {TextFileIndex.WHOLE_LINE}, received: {dtype}")


class _Table:
    """What both tables share: the handle, dtypes, size and export."""

    key_dtype = value_dtype = None

    @property
    def resource_handle(self):
        return self._resource_handle

    @property
    def name(self):
        return self._table_name

    def _scope(self, name, suffix):
        return get_default_graph().name_scope(name or f"{self.name}_{suffix}")

    def size(self, name=None):
        with self._scope(name, "Size"):
            return apply_op("LookupTableSizeV2", table_handle=self._resource_handle)

    def _export(self, name, suffix):
        with self._scope(name, suffix):
            keys, values = apply_op("LookupTableExportV2", table_handle=self._resource_handle,
                                    Tkeys=self.key_dtype, Tvalues=self.value_dtype)
        values.set_shape(keys.shape.concatenate(self._value_shape))
        return keys, values

    def __getitem__(self, keys):
        return self.lookup(keys)


class StaticHashTable(_Table):
    """A table filled once by its initializer, then read-only (HashTableV2)."""

    def __init__(self, initializer, default_value, name=None,
                 experimental_is_anonymous=False):
        if experimental_is_anonymous:
            raise NotImplementedError("anonymous tables are not supported by the engine yet")
        self._initializer = initializer
        self.key_dtype, self.value_dtype = initializer.key_dtype, initializer.value_dtype
        self._shared_name = initializer._shared_name or f"hash_table_{uuid.uuid4()}"
        self._default_value = convert_to_tensor(default_value, dtype=self.value_dtype)
        self._default_value.shape.merge_with(TensorShape([]))
        with init_scope():
            self._resource_handle = apply_op(
                "HashTableV2", shared_name=self._shared_name, key_dtype=self.key_dtype,
                value_dtype=self.value_dtype, name=name or "hash_table")
        self._table_name = self._resource_handle.op.name.split("/")[-1]
        self._init_op = initializer.initialize(self)
        self._value_shape = self._default_value.shape

    @property
    def initializer(self):
        return self._init_op

    @property
    def default_value(self):
        return self._default_value

    def lookup(self, keys, name=None):
        """The values at `keys` (a tensor, or a SparseTensor whose values are looked up)."""
        key_tensor = keys.values if isinstance(keys, SparseTensor) else keys
        if keys.dtype.base_dtype != self.key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self.key_dtype}, received: "
                            f"{keys.dtype}")
        with self._scope(name, "Lookup"):
            values = apply_op("LookupTableFindV2", table_handle=self._resource_handle,
                              keys=key_tensor, default_value=self._default_value)
        values.set_shape(key_tensor.shape)
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, values, keys.dense_shape)
        return values

    def export(self, name=None):
        return self._export(name, "Export")


class MutableHashTable(_Table):
    """A table of scalars to insert into, remove from and look up at any time
    (MutableHashTableV2, shared by its node's name)."""

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
                 checkpoint=True, experimental_is_anonymous=False):
        if experimental_is_anonymous:
            raise NotImplementedError("anonymous tables are not supported by the engine yet")
        self.key_dtype, self.value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self.value_dtype)
        self._value_shape = self._default_value.shape
        if self._value_shape.ndims != 0:
            raise NotImplementedError("MutableHashTable with vector values (MutableHashTable"
                                      "OfTensorsV2) is not supported by the engine yet")
        self._resource_handle = apply_op(
            "MutableHashTableV2", use_node_name_sharing=checkpoint, key_dtype=self.key_dtype,
            value_dtype=self.value_dtype, name=name)
        self._table_name = self._resource_handle.op.name.split("/")[-1]
        if checkpoint:
            # TensorFlow's saveable of the table exports it here (`name-keys`, `name-values`);
            # the node is built as TensorFlow builds it, but the engine's Saver does not save
            # tables, so it is not added to SAVEABLE_OBJECTS.
            self._saved_tensors = self.export()

    def lookup(self, keys, dynamic_default_values=None, name=None):
        with self._scope(name, "lookup_table_find"):
            keys = convert_to_tensor(keys, dtype=self.key_dtype, name="keys")
            default = self._default_value if dynamic_default_values is None \
                else dynamic_default_values
            return apply_op("LookupTableFindV2", table_handle=self._resource_handle,
                            keys=keys, default_value=default)

    def insert(self, keys, values, name=None):
        with self._scope(name, "lookup_table_insert"):
            keys = convert_to_tensor(keys, dtype=self.key_dtype, name="keys")
            values = convert_to_tensor(values, dtype=self.value_dtype, name="values")
            return apply_op("LookupTableInsertV2", table_handle=self._resource_handle,
                            keys=keys, values=values)

    def remove(self, keys, name=None):
        if keys.dtype != self.key_dtype:
            raise TypeError(f"Signature mismatch. Keys must be dtype {self.key_dtype}, got "
                            f"{keys.dtype}.")
        with self._scope(name, "lookup_table_remove"):
            return apply_op("LookupTableRemoveV2", table_handle=self._resource_handle,
                            keys=keys)

    def export(self, name=None):
        return self._export(name, "lookup_table_export_values")


def tables_initializer(name="init_all_tables"):
    """One op running every table initializer of the graph (a NoOp when there is none)."""
    initializers = get_collection(GraphKeys.TABLE_INITIALIZERS)
    if initializers:
        return group(*initializers, name=name)
    return no_op(name=name)


class IdTableWithHashBuckets:
    """A table of known keys, other keys hashed into `num_oov_buckets` ids after them
    (StringToHashBucketFast; tf.contrib.lookup's, what index_table_from_tensor gives with
    out-of-vocabulary buckets)."""

    def __init__(self, table, num_oov_buckets, key_dtype=None):
        if num_oov_buckets < 0:
            raise ValueError(f"oov_buckets must be > 0; got {num_oov_buckets}.")
        self._table, self._num_oov_buckets = table, num_oov_buckets
        self.key_dtype = key_dtype or table.key_dtype
        self.value_dtype = dtypes.int64

    @property
    def name(self):
        return self._table.name

    @property
    def initializer(self):
        return self._table.initializer

    def size(self, name=None):
        with get_default_graph().name_scope(name or f"{self.name}_Size"):
            return self._table.size() + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """Ids of `keys` (a tensor or a SparseTensor's values)."""
        from engine.ops import array_ops, math_ops
        from engine.ops.text_ops import as_string, string_to_hash_bucket_fast
        if keys.dtype.base_dtype != self.key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self.key_dtype}, received: "
                            f"{keys.dtype}")
        values = keys.values if isinstance(keys, SparseTensor) else keys
        if self._table.key_dtype.base_dtype == dtypes.int64:
            values = math_ops.cast(values, dtypes.int64)
        with get_default_graph().name_scope(name or f"{self.name}_Lookup"):
            strings = values if values.dtype == dtypes.string else as_string(values)
            buckets = string_to_hash_bucket_fast(strings, num_buckets=self._num_oov_buckets,
                                                 name="hash_bucket")
            ids = self._table.lookup(values)
            buckets = math_ops.add(buckets, self._table.size())
            is_id_non_default = math_ops.not_equal(ids, self._table.default_value)
            ids = array_ops.where_v2(is_id_non_default, ids, buckets)
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, ids, keys.dense_shape)
        return ids


def index_table_from_tensor(vocabulary_list, num_oov_buckets=0, default_value=-1,
                            dtype=dtypes.string, name=None):
    """Keys of `vocabulary_list` to their positions (int64), other keys to `default_value`
    or, with `num_oov_buckets`, to hashed ids after them; as TensorFlow's lookup_ops.py."""
    from engine.framework.default_graph import name_scope
    from engine.ops import math_ops
    from engine.ops.shape_ops import size
    if vocabulary_list is None:
        raise ValueError("`vocabulary_list` must be specified.")
    if num_oov_buckets < 0:
        raise ValueError("`num_oov_buckets` must be greater or equal than 0, got %d."
                         % num_oov_buckets)
    if (not dtype.is_integer) and dtypes.string != dtype.base_dtype:
        raise TypeError("`dtype` must either be integer or string.")
    with name_scope(name, "string_to_index"):
        keys = convert_to_tensor(vocabulary_list)
        if keys.dtype.is_integer != dtype.is_integer:
            raise ValueError("Invalid `dtype`: Expected %s, got %s." % (
                "integer" if dtype.is_integer else "non-integer", keys.dtype))
        if (not dtype.is_integer) and keys.dtype.base_dtype != dtype:
            raise ValueError("Invalid `dtype`: Expected %s, got %s." % (dtype, keys.dtype))
        num_elements = size(keys)
        values = math_ops.cast(math_ops.range(num_elements), dtypes.int64)
        with name_scope(None, "hash_table"):
            table_keys = math_ops.cast(keys, dtypes.int64) if keys.dtype.is_integer else keys
            init = KeyValueTensorInitializer(table_keys, values, table_keys.dtype.base_dtype,
                                             dtypes.int64, name="table_init")
            table = StaticHashTable(init, default_value)
        if num_oov_buckets:
            table = IdTableWithHashBuckets(table, num_oov_buckets=num_oov_buckets,
                                           key_dtype=dtype)
        return table


def index_table_from_file(vocabulary_file=None, num_oov_buckets=0, vocab_size=None,
                          default_value=-1, key_dtype=dtypes.string, name=None,
                          key_column_index=TextFileIndex.WHOLE_LINE,
                          value_column_index=TextFileIndex.LINE_NUMBER, delimiter="\t"):
    """Keys of a vocabulary file (a line each) to their line numbers (int64), others to
    `default_value` or, with `num_oov_buckets`, to hashed ids after them; as TensorFlow's
    lookup_ops.py."""
    from engine.framework.default_graph import name_scope
    if vocabulary_file is None or (isinstance(vocabulary_file, str) and not vocabulary_file):
        raise ValueError("`vocabulary_file` must be specified and must not be empty.")
    if num_oov_buckets < 0:
        raise ValueError("num_oov_buckets must be greater or equal than 0, got %d."
                         % num_oov_buckets)
    if vocab_size is not None and vocab_size < 1:
        shown = vocabulary_file if not isinstance(vocabulary_file, Tensor) else "?"
        raise ValueError("`vocab_size` must be greater than 0, got %d for vocabulary_file: %s."
                         % (vocab_size, shown))
    if (not key_dtype.is_integer) and dtypes.string != key_dtype.base_dtype:
        raise TypeError("Dtype for `keys` should be either integer or string.")
    with name_scope(name, "string_to_index"):
        with name_scope(None, "hash_table"):
            init = TextFileInitializer(
                vocabulary_file, dtypes.int64 if key_dtype.is_integer else key_dtype,
                key_column_index, dtypes.int64, value_column_index, vocab_size=vocab_size,
                delimiter=delimiter, name="table_init")
            table = StaticHashTable(init, default_value)
        if num_oov_buckets:
            table = IdTableWithHashBuckets(table, num_oov_buckets=num_oov_buckets,
                                           key_dtype=key_dtype)
        return table
