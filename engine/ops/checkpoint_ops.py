"""Loading a checkpoint's matrix remapped to new vocabularies (TensorFlow's
training/checkpoint_ops.py and gen_checkpoint_ops): GenerateVocabRemapping,
LoadAndRemapMatrix and the variable initializer warm_start builds from them."""

from engine.framework import dtypes
from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import no_gradient
from engine.ops.init_ops import zeros_initializer
from engine.ops.op_def_library import apply_op

# TensorFlow does not differentiate reading a checkpoint.
no_gradient("GenerateVocabRemapping")
no_gradient("LoadAndRemapMatrix")


def generate_vocab_remapping(new_vocab_file, old_vocab_file, new_vocab_offset, num_new_vocab,
                             old_vocab_size=-1, name=None):
    """(remapping int64 [num_new_vocab], num_present int32): each new token's old id or -1."""
    return apply_op("GenerateVocabRemapping", new_vocab_file=new_vocab_file,
                    old_vocab_file=old_vocab_file, new_vocab_offset=new_vocab_offset,
                    num_new_vocab=num_new_vocab, old_vocab_size=old_vocab_size, name=name)


def load_and_remap_matrix(ckpt_path, old_tensor_name, row_remapping, col_remapping,
                          initializing_values, num_rows, num_cols, max_rows_in_memory=-1,
                          name=None):
    """The checkpoint's 2-D tensor with rows and columns remapped, gaps from initializing_values."""
    return apply_op("LoadAndRemapMatrix", ckpt_path=ckpt_path, old_tensor_name=old_tensor_name,
                    row_remapping=row_remapping, col_remapping=col_remapping,
                    initializing_values=initializing_values, num_rows=num_rows,
                    num_cols=num_cols, max_rows_in_memory=max_rows_in_memory, name=name)


def _load_and_remap_matrix(ckpt_path, old_tensor_name, new_row_vocab_offset, num_rows_to_load,
                           new_col_vocab_size, initializer, old_row_vocab_size=-1,
                           old_row_vocab_file=None, new_row_vocab_file=None,
                           old_col_vocab_file=None, new_col_vocab_file=None,
                           num_row_oov_buckets=0, num_col_oov_buckets=0,
                           max_rows_in_memory=-1):
    """The remapped matrix with OOV rows and columns from the initializer appended."""
    if num_row_oov_buckets < 0:
        raise ValueError("num_row_oov_buckets must be >= 0, but received %d" % num_row_oov_buckets)
    if num_col_oov_buckets < 0:
        raise ValueError("num_col_oov_buckets must be >= 0, but received %d" % num_col_oov_buckets)
    if bool(old_row_vocab_file) != bool(new_row_vocab_file):
        raise ValueError(
            "old_row_vocab_file and new_row_vocab_file must both be specified or left "
            "unspecified. old_row_vocab_file='{}', new_row_vocab_file='{}'".format(
                old_row_vocab_file, new_row_vocab_file))
    if bool(old_col_vocab_file) != bool(new_col_vocab_file):
        raise ValueError(
            "old_col_vocab_file and new_col_vocab_file must both be specified or left "
            "unspecified. old_col_vocab_file='{}', new_col_vocab_file='{}'".format(
                old_col_vocab_file, new_col_vocab_file))
    remap_rows = new_row_vocab_file and old_row_vocab_file
    remap_cols = new_col_vocab_file and old_col_vocab_file
    if not (remap_rows or remap_cols):
        raise ValueError("Must provide either row or column vocab files. If no remapping is "
                         "necessary, consider using `tf.contrib.framework.init_from_checkpoint` "
                         "instead.")
    num_rows_present = num_rows_to_load
    if remap_rows:
        row_remapping, num_rows_present = generate_vocab_remapping(
            new_vocab_file=new_row_vocab_file, old_vocab_file=old_row_vocab_file,
            new_vocab_offset=new_row_vocab_offset, num_new_vocab=num_rows_to_load,
            old_vocab_size=old_row_vocab_size)
    else:
        row_remapping = math_ops.range(new_row_vocab_offset,
                                       new_row_vocab_offset + num_rows_to_load,
                                       dtype=dtypes.int64)
    col_remapping = []
    num_cols_present = new_col_vocab_size
    if remap_cols:
        col_remapping, num_cols_present = generate_vocab_remapping(
            new_vocab_file=new_col_vocab_file, old_vocab_file=old_col_vocab_file,
            new_vocab_offset=0, num_new_vocab=new_col_vocab_size)
    init_vals = initializer([num_rows_to_load * new_col_vocab_size
                             - num_rows_present * num_cols_present, 1])
    return_tensor = load_and_remap_matrix(
        ckpt_path=ckpt_path, old_tensor_name=old_tensor_name, row_remapping=row_remapping,
        col_remapping=col_remapping,
        initializing_values=init_vals, num_rows=num_rows_to_load,
        num_cols=new_col_vocab_size, max_rows_in_memory=max_rows_in_memory)
    if num_row_oov_buckets > 0:
        init_row_oov_val = convert_to_tensor(initializer([num_row_oov_buckets,
                                                          new_col_vocab_size]))
        return_tensor = array_ops.concat([return_tensor, init_row_oov_val], 0)
    if num_col_oov_buckets > 0:
        init_col_oov_val = convert_to_tensor(initializer(
            [num_rows_to_load + num_row_oov_buckets, num_col_oov_buckets]))
        return_tensor = array_ops.concat([return_tensor, init_col_oov_val], 1)
    return return_tensor


def _single_offset(partition_info, shape):
    """The part's offset along the one axis it is sliced on (PartitionInfo.single_offset)."""
    sliced = [i for i, size in enumerate(shape) if size < partition_info.full_shape[i]]
    if len(sliced) > 1:
        raise ValueError(f"Cannot use single_slice_dim() with shape: {shape} and full_shape: "
                         f"{partition_info.full_shape} since slice dim could be either dimension "
                         f"{sliced[0]} or {sliced[1]}.")
    return partition_info.var_offset[sliced[0]] if sliced else 0


def _load_and_remap_matrix_initializer(ckpt_path, old_tensor_name, new_row_vocab_size,
                                       new_col_vocab_size, old_row_vocab_size=-1,
                                       old_row_vocab_file=None, new_row_vocab_file=None,
                                       old_col_vocab_file=None, new_col_vocab_file=None,
                                       num_row_oov_buckets=0, num_col_oov_buckets=0,
                                       initializer=None, max_rows_in_memory=-1):
    """A variable initializer(shape, dtype, partition_info) giving each (partitioned) part
    its rows of the remapped matrix."""
    if initializer is None:
        initializer = zeros_initializer()
    if not callable(initializer):
        raise TypeError("initializer must be callable, instead of being {} of type {}.".format(
            initializer, type(initializer)))

    def _initializer(shape, dtype=dtypes.float32, partition_info=None):
        if dtype != dtypes.float32:
            raise TypeError("Currently, only float32 is supported. Received dtype: {}".format(
                dtype))
        if len(shape) != 2:
            raise ValueError("Expected 2-dim shape, but received: {}".format(shape))
        if shape[0] <= 0:
            raise ValueError("Expected 1st dim of shape to be > 0, but received shape: "
                             "{}".format(shape))
        if shape[1] != (new_col_vocab_size + num_col_oov_buckets):
            raise ValueError(
                "Expected 2nd dim of shape to be new_col_vocab_size ({}) + num_col_oov_buckets "
                "({}) = {}, but received shape: {}".format(
                    new_col_vocab_size, num_col_oov_buckets,
                    new_col_vocab_size + num_col_oov_buckets, shape))
        offset = 0 if partition_info is None else _single_offset(partition_info, shape)
        if offset + shape[0] > new_row_vocab_size + num_row_oov_buckets:
            raise ValueError(
                "Trying to initialize {} additional rows after {} rows have already been "
                "initialized, which would exceed expected total row count of "
                "new_row_vocab_size ({}) + num_row_oov_buckets ({}) = {}.".format(
                    shape[0], offset, new_row_vocab_size, num_row_oov_buckets,
                    new_row_vocab_size + num_row_oov_buckets))
        row_oov_buckets_to_use = min(shape[0], max(0, offset + shape[0] - new_row_vocab_size))
        num_rows_to_load = shape[0] - row_oov_buckets_to_use
        if offset > new_row_vocab_size:
            if shape[0] != row_oov_buckets_to_use:
                raise ValueError("Partitioned variable offset is greater than new vocab size "
                                 "and not operating on OOV-only partition.")
            return initializer(shape)
        return _load_and_remap_matrix(
            ckpt_path=ckpt_path, old_tensor_name=old_tensor_name,
            new_row_vocab_offset=offset, num_rows_to_load=num_rows_to_load,
            new_col_vocab_size=new_col_vocab_size, initializer=initializer,
            old_row_vocab_size=old_row_vocab_size, old_row_vocab_file=old_row_vocab_file,
            new_row_vocab_file=new_row_vocab_file, old_col_vocab_file=old_col_vocab_file,
            new_col_vocab_file=new_col_vocab_file, num_row_oov_buckets=row_oov_buckets_to_use,
            num_col_oov_buckets=num_col_oov_buckets, max_rows_in_memory=max_rows_in_memory)

    return _initializer
