"""tf.lookup.StaticVocabularyTable (TensorFlow 2.21's StaticVocabularyTableV1, graph mode): keys
of its initializer to their ids, any other key to one of num_oov_buckets ids after them by
StringToHashBucketFast (Fingerprint64 of the key as a string, modulo the buckets), node for node
as lookup_ops.py builds it."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.sparse_tensor import SparseTensor
from engine.ops.control_flow.ops import no_op
from engine.ops.convert import convert_to_tensor
from engine.ops.lookup_ops import StaticHashTable


class StaticVocabularyTable:
    """Known keys from `initializer` (int64 values) and `num_oov_buckets` hashed ids."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if name:
            name = name.rstrip("/")
        if initializer:
            if lookup_key_dtype is None:
                lookup_key_dtype = initializer.key_dtype
            lookup_key_dtype = dtypes.as_dtype(lookup_key_dtype)
            supported = (dtypes.int64, dtypes.string)
            if initializer.key_dtype not in supported:
                raise TypeError(f"Invalid `key_dtype`, expected one of ({supported[0]!r}, "
                                f"{supported[1]!r}), but got {initializer.key_dtype}.")
            if initializer.key_dtype.is_integer != lookup_key_dtype.is_integer:
                raise TypeError(f"Invalid `key_dtype`, expected "
                                f"{'integer' if lookup_key_dtype.is_integer else 'non-integer'}"
                                f" but got {initializer.key_dtype}.")
            if initializer.value_dtype != dtypes.int64:
                raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got "
                                f"{initializer.value_dtype}.")
            self._table = StaticHashTable(initializer, default_value=-1,
                                          experimental_is_anonymous=experimental_is_anonymous)
            name = name or self._table.name
        else:
            lookup_key_dtype = dtypes.string
            self._table = None
            name = name or "hash_bucket"
        if not lookup_key_dtype.is_integer and lookup_key_dtype != dtypes.string:
            raise TypeError(f"Invalid `key_dtype`, expected integer or string, got "
                            f"{lookup_key_dtype}")
        self._num_oov_buckets = num_oov_buckets
        self._table_name = name.split("/")[-1]
        self.key_dtype, self.value_dtype = lookup_key_dtype, dtypes.int64

    @property
    def name(self):
        return self._table_name

    @property
    def resource_handle(self):
        return self._table.resource_handle if self._table is not None else None

    @property
    def initializer(self):
        if self._table is not None:
            return self._table.initializer
        with name_scope(None, "init"):
            return no_op()

    def size(self, name=None):
        with name_scope(name, f"{self.name}_Size"):
            if self._table:
                table_size = self._table.size()
            else:
                table_size = convert_to_tensor(0, dtype=dtypes.int64)
            return table_size + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """Ids of `keys` (a tensor, or a SparseTensor whose values are looked up)."""
        from engine.ops import array_ops, math_ops
        from engine.ops.text_ops import as_string, string_to_hash_bucket_fast
        if keys.dtype.base_dtype != self.key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self.key_dtype}, received: "
                            f"{keys.dtype}")
        values = keys.values if isinstance(keys, SparseTensor) else keys
        if self._table and self._table.key_dtype.base_dtype == dtypes.int64:
            values = math_ops.cast(values, dtypes.int64)
        with name_scope(name, f"{self.name}_Lookup"):
            strings = values if values.dtype == dtypes.string else as_string(values)
            buckets = string_to_hash_bucket_fast(strings, num_buckets=self._num_oov_buckets,
                                                 name="hash_bucket")
            if self._table:
                ids = self._table.lookup(values)
                buckets = math_ops.add(buckets, self._table.size())
                is_id_non_default = math_ops.not_equal(ids, self._table.default_value)
                ids = array_ops.where_v2(is_id_non_default, ids, buckets)
            else:
                ids = buckets
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, ids, keys.dense_shape)
        return ids

    def __getitem__(self, keys):
        return self.lookup(keys)
