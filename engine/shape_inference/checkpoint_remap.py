"""Shape functions of GenerateVocabRemapping and LoadAndRemapMatrix (TensorFlow's
core/ops/checkpoint_ops.cc): scalar paths and names, vectors of remappings."""

from engine.shape_inference.dims import with_rank


def generate_vocab_remapping(attrs, inputs):
    """remapping [num_new_vocab], num_present a scalar."""
    with_rank(inputs[0], 0, "new_vocab_file")
    with_rank(inputs[1], 0, "old_vocab_file")
    return [attrs["num_new_vocab"]], []


def load_and_remap_matrix(attrs, inputs):
    """output_matrix [num_rows, num_cols]."""
    # initializing_values may have any rank: warm_start's initializer gives [n, 1].
    for info, rank, what in zip(inputs, (0, 0, 1, 1),
                                ("ckpt_path", "old_tensor_name", "row_remapping",
                                 "col_remapping")):
        with_rank(info, rank, what)
    return [attrs["num_rows"], attrs["num_cols"]]


SHAPE_FUNCTIONS = {"GenerateVocabRemapping": generate_vocab_remapping,
                   "LoadAndRemapMatrix": load_and_remap_matrix}
