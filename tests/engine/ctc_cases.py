"""tf.nn's CTC functions built the same way by real TensorFlow and the engine: ctc_loss (its
options, batch-major logits, float64) with the gradient of a weighted sum of the losses,
ctc_loss_v2 with SparseTensor and dense labels, the greedy and beam search decoders,
collapse_repeated and ctc_unique_labels; the kernels' errors. tools/make_ctc_fixtures.py
writes TensorFlow's values, static shapes, nodes and errors to tests/fixtures/ctc/;
tests/engine/test_ctc.py compares the engine's."""

import numpy as np

import image_cases

_R = np.random.RandomState(7)
LOGITS = _R.randn(6, 3, 5).astype(np.float32)          # [max_time, batch, num_classes]
LENGTHS = np.array([6, 5, 4], np.int32)
# Batch 0: 1 2, batch 1: 0 0 3 (a repeat), batch 2: 2.
INDICES = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 0]], np.int64)
VALUES = np.array([1, 2, 0, 0, 3, 2], np.int32)
SHAPE = np.array([3, 3], np.int64)
WEIGHTS = np.array([1.0, 2.0, 3.0], np.float32)
# Ties (equal logits) and a long sequence, for the beam search's order of equal beams.
TIED = np.round(_R.randn(8, 2, 4), 0).astype(np.float32)
LONG = _R.randn(12, 2, 6).astype(np.float32)


def _labels(tf, values=VALUES):
    return tf.SparseTensor(INDICES, values, SHAPE)


def _loss(logits=LOGITS, lengths=LENGTHS, values=VALUES, time_major=True, **kwargs):
    def build(tf):
        x = tf.constant(logits if time_major else np.transpose(logits, (1, 0, 2)))
        loss = tf.nn.ctc_loss(_labels(tf, values), x, tf.constant(lengths),
                              time_major=time_major, **kwargs)
        weights = tf.constant(WEIGHTS.astype(logits.dtype))
        return {"loss": loss, "grad": tf.gradients(loss * weights, x)[0]}
    return build


def _loss_v2_sparse(blank_index, time_major=True):
    def build(tf):
        x = tf.constant(LOGITS if time_major else np.transpose(LOGITS, (1, 0, 2)))
        values = VALUES + (VALUES >= blank_index % 5)  # no label is the blank
        loss = tf.nn.ctc_loss_v2(_labels(tf, values.astype(np.int32)), x, None,
                                 tf.constant(LENGTHS), logits_time_major=time_major,
                                 blank_index=blank_index)
        return {"loss": loss, "grad": tf.gradients(loss, x)[0]}
    return build


def _loss_v2_dense(blank_index=None, time_major=True):
    def build(tf):
        x = tf.constant(LOGITS if time_major else np.transpose(LOGITS, (1, 0, 2)))
        # labels of length 2, 3 and 1, none the blank (0 by default, or the last class)
        labels = np.array([[1, 2, 0], [4, 4, 3] if blank_index is None else [0, 0, 3],
                           [2, 0, 0]], np.int32)
        loss = tf.nn.ctc_loss_v2(tf.constant(labels), x, tf.constant([2, 3, 1]),
                                 tf.constant(LENGTHS), logits_time_major=time_major,
                                 blank_index=blank_index)
        return {"loss": loss, "grad": tf.gradients(loss, x)[0]}
    return build


def _sparse(prefix, sparse):
    return {f"{prefix}_indices": sparse.indices, f"{prefix}_values": sparse.values,
            f"{prefix}_shape": sparse.dense_shape}


def _greedy(logits=LOGITS, lengths=LENGTHS, **kwargs):
    def build(tf):
        (decoded,), log_probability = tf.nn.ctc_greedy_decoder(
            tf.constant(logits), tf.constant(lengths), **kwargs)
        return {**_sparse("decoded", decoded), "log_probability": log_probability}
    return build


def _beam(logits=LOGITS, lengths=LENGTHS, v2=False, **kwargs):
    def build(tf):
        decoder = tf.nn.ctc_beam_search_decoder_v2 if v2 else tf.nn.ctc_beam_search_decoder
        decoded, log_probability = decoder(tf.constant(logits), tf.constant(lengths), **kwargs)
        out = {"log_probability": log_probability}
        for i, sparse in enumerate(decoded):
            out.update(_sparse(f"path{i}", sparse))
        return out
    return build


def _collapse(fed):
    def build(tf):
        labels = np.array([[1, 1, 2, 2, 1], [1, 2, 3, 4, 5], [7, 7, 7, 0, 0]], np.int32)
        labels = tf.placeholder_with_default(labels, [3, 5]) if fed else tf.constant(labels)
        collapsed, lengths = tf.nn.collapse_repeated(labels, tf.constant([5, 4, 3]))
        return {"collapsed": collapsed, "lengths": lengths}
    return build


def _unique(tf):
    y, idx = tf.nn.ctc_unique_labels(tf.constant([[3, 4, 4, 3], [1, 1, 2, 0]]))
    return {"unique": y, "indices": idx}


CASES = {
    "loss": _loss(),
    "loss_batch_major": _loss(time_major=False),
    "loss_float64": _loss(logits=LOGITS.astype(np.float64)),
    "loss_collapse_repeated": _loss(preprocess_collapse_repeated=True),
    "loss_no_merge_repeated": _loss(ctc_merge_repeated=False),
    # batch 1 needs 3 steps (4 with its repeat) and has 3: an infinite loss, softmax gradient
    "loss_no_valid_path": _loss(lengths=np.array([6, 3, 4], np.int32)),
    "loss_ignore_longer": _loss(lengths=np.array([6, 2, 4], np.int32),
                                ignore_longer_outputs_than_inputs=True),
    "loss_v2_sparse_blank_last": _loss_v2_sparse(-1),
    "loss_v2_sparse_blank_first": _loss_v2_sparse(0, time_major=False),
    "loss_v2_sparse_blank_middle": _loss_v2_sparse(2),
    "loss_v2_dense": _loss_v2_dense(),
    "loss_v2_dense_batch_major": _loss_v2_dense(time_major=False),
    "loss_v2_dense_blank_last": _loss_v2_dense(blank_index=-1),
    "greedy": _greedy(),
    "greedy_no_merge": _greedy(merge_repeated=False),
    "greedy_blank_first": _greedy(blank_index=0),
    "greedy_ties": _greedy(logits=TIED, lengths=np.array([8, 7], np.int32)),
    "beam": _beam(beam_width=4, top_paths=3),
    "beam_default_width": _beam(top_paths=2),
    "beam_no_merge": _beam(beam_width=3, top_paths=2, merge_repeated=False),
    "beam_v2": _beam(v2=True, beam_width=5, top_paths=4),
    "beam_ties": _beam(logits=TIED, lengths=np.array([8, 6], np.int32), beam_width=6,
                       top_paths=6),
    "beam_long": _beam(logits=LONG, lengths=np.array([12, 9], np.int32), beam_width=20,
                       top_paths=20),
    "beam_width_one": _beam(beam_width=1, top_paths=1),
    "collapse_repeated": _collapse(fed=False),
    "collapse_repeated_fed": _collapse(fed=True),
    "ctc_unique_labels": _unique,
}

# ctc_loss_v2's dense labels: TensorFlow builds ctc_loss_dense's forward-backward graph, the
# engine CTCLoss (values compared, not nodes). collapse_repeated of constant labels:
# TensorFlow's shape inference evaluates the new length's ReduceMax (so the result is
# [3, 4] and the flat mask's length a Const), the engine's leaves it unknown
# (collapse_repeated_fed, where neither can, compares nodes and shapes).
NODES_DIFFER = {"loss_v2_dense", "loss_v2_dense_batch_major", "loss_v2_dense_blank_last",
                "collapse_repeated"}
STATIC_SHAPES_DIFFER = {"collapse_repeated": {"collapsed": [3, None]}}


def _static(tensor):
    shape = tensor.shape
    return None if shape.ndims is None else shape.as_list()


def build_case(tf, name):
    return CASES[name](tf)


def run_case(tf, name):
    """({key: value}, {key: static shape}) of a case's outputs, run in a session."""
    with tf.Graph().as_default():
        outputs = build_case(tf, name)
        shapes = {key: _static(t) for key, t in outputs.items()}
        with tf.Session() as sess:
            values = sess.run(outputs)
    return values, shapes


_LOSS = dict(inputs=LOGITS, labels_indices=INDICES, labels_values=VALUES,
             sequence_length=LENGTHS)
_DECODE = dict(inputs=LOGITS, sequence_length=LENGTHS)
ERROR_CASES = {
    "loss_not_enough_time": ("CTCLoss", dict(_LOSS, sequence_length=np.array([6, 2, 4],
                                                                             np.int32)), {}),
    "loss_negative_label": ("CTCLoss", dict(_LOSS, labels_values=VALUES - 1), {}),
    "loss_sequence_too_long": ("CTCLoss", dict(_LOSS, sequence_length=np.array([7, 2, 4],
                                                                               np.int32)), {}),
    "loss_unordered_indices": ("CTCLoss", dict(_LOSS, labels_indices=INDICES[[1, 0, 2, 3, 4,
                                                                             5]]), {}),
    "loss_label_after_blank": ("CTCLoss", dict(_LOSS, labels_values=np.array([4, 2, 0, 0, 3, 2],
                                                                          np.int32)), {}),
    "loss_empty_labels": ("CTCLoss", dict(_LOSS, labels_indices=INDICES[:5],
                                          labels_values=VALUES[:5]), {}),
    "loss_batch_out_of_bounds": ("CTCLoss", dict(_LOSS, labels_indices=np.array(
        [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [3, 0]], np.int64)), {}),
    "loss_repeated_index": ("CTCLoss", dict(_LOSS, labels_indices=INDICES[[0, 0, 2, 3, 4, 5]]),
                            {}),
    "loss_rows_differ": ("CTCLoss", dict(_LOSS, labels_values=VALUES[:5]), {}),
    "loss_negative_length": ("CTCLoss", dict(_LOSS, sequence_length=np.array([6, -1, 4],
                                                                             np.int32)), {}),
    "loss_inputs_rank2": ("CTCLoss", dict(_LOSS, inputs=LOGITS[0]), {}),
    "loss_lengths_not_vector": ("CTCLoss", dict(_LOSS, sequence_length=LENGTHS[None]), {}),
    "loss_lengths_count": ("CTCLoss", dict(_LOSS, sequence_length=LENGTHS[:2]), {}),
    "loss_indices_not_matrix": ("CTCLoss", dict(_LOSS, labels_indices=INDICES[:, 0]), {}),
    "greedy_inputs_rank2": ("CTCGreedyDecoder", dict(_DECODE, inputs=LOGITS[0]), {}),
    "greedy_lengths_count": ("CTCGreedyDecoder", dict(_DECODE, sequence_length=LENGTHS[:2]),
                             {}),
    "beam_lengths_not_vector": ("CTCBeamSearchDecoder",
                                dict(_DECODE, sequence_length=LENGTHS[None]),
                                dict(beam_width=4, top_paths=2)),
    "greedy_sequence_too_long": ("CTCGreedyDecoder",
                                 dict(_DECODE, sequence_length=np.array([6, 9, 4], np.int32)),
                                 {}),
    "beam_more_paths_than_width": ("CTCBeamSearchDecoder", _DECODE,
                                   dict(beam_width=2, top_paths=3)),
    "beam_fewer_leaves": ("CTCBeamSearchDecoder",
                          dict(_DECODE, sequence_length=np.array([6, 0, 4], np.int32)),
                          dict(beam_width=4, top_paths=2)),
    "beam_sequence_too_long": ("CTCBeamSearchDecoder",
                               dict(_DECODE, sequence_length=np.array([6, 5, 8], np.int32)),
                               dict(beam_width=4, top_paths=2)),
}


def run_error_case(tf, name):
    return image_cases.run_error_case(tf, name, ERROR_CASES)
