"""Shape functions of CTCLoss and the CTC decoders, as TensorFlow's (core/ops/ctc_ops.cc)."""

from engine.shape_inference.dims import with_rank, merge_dim




def ctc_loss(attrs, inputs):
    """loss [batch], gradient the inputs' [max_time, batch, num_classes]."""
    logits = with_rank(inputs[0], 3, fill_unknown=True)
    indices = with_rank(inputs[1], 2, fill_unknown=True)
    values = with_rank(inputs[2], 1, fill_unknown=True)
    lengths = with_rank(inputs[3], 1, fill_unknown=True)
    merge_dim(indices[0], values[0])
    batch = merge_dim(logits[1], lengths[0])
    return [batch], [logits[0], batch, logits[2]]


def _batch(inputs):
    logits = with_rank(inputs[0], 3, fill_unknown=True)
    lengths = with_rank(inputs[1], 1, fill_unknown=True)
    return merge_dim(logits[1], lengths[0])


def ctc_greedy_decoder(attrs, inputs):
    """[?, 2], [?], [2], [batch, 1]."""
    return [None, 2], [None], [2], [_batch(inputs), 1]


def ctc_beam_search_decoder(attrs, inputs):
    """top_paths of [?, 2], then of [?], then of [2]; [batch, top_paths]."""
    batch, paths = _batch(inputs), attrs["top_paths"]
    return (*[[None, 2]] * paths, *[[None]] * paths, *[[2]] * paths, [batch, paths])


SHAPE_FUNCTIONS = {"CTCLoss": ctc_loss, "CTCGreedyDecoder": ctc_greedy_decoder,
                   "CTCBeamSearchDecoder": ctc_beam_search_decoder}
