"""tf.nn's CTC functions (TensorFlow 1.x's ctc_ops.py): ctc_loss through the CTCLoss op and
its gradient, the greedy and beam search decoders, ctc_loss_v2, ctc_unique_labels and
collapse_repeated."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.sparse_tensor import SparseTensor
from engine.ops import array_ops, math_ops, segment_ops, shape_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.functional_ops import map_fn
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient
from engine.ops.op_def_library import apply_op


def _get_dim(tensor, i):
    """A static dimension where known, else the tensor's shape at i."""
    static = tensor.shape.as_list()[i] if tensor.shape.ndims is not None else None
    return static if static is not None else shape_ops.shape(tensor)[i]


def ctc_loss(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False,
             ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False,
             time_major=True, logits=None):
    """The CTC loss [batch] of SparseTensor `labels` given logits [max_time, batch,
    num_classes] (time_major) whose last class is the blank."""
    if not isinstance(labels, SparseTensor):
        raise TypeError("Expected argument `labels` to be a SparseTensor. "
                        f"Received labels={labels} of type: {type(labels).__name__}")
    if logits is not None and inputs is not None:
        raise ValueError("Cannot specify both 'logits' and 'inputs'")
    inputs = convert_to_tensor(logits if logits is not None else inputs, name="logits")
    if not time_major:
        inputs = array_ops.transpose(inputs, [1, 0, 2])
    orig_dtype = inputs.dtype
    if orig_dtype in (dtypes.float16, dtypes.bfloat16):
        inputs = math_ops.cast(inputs, dtypes.float32)
    loss, _ = apply_op("CTCLoss", inputs=inputs, labels_indices=labels.indices,
                       labels_values=labels.values, sequence_length=sequence_length,
                       preprocess_collapse_repeated=preprocess_collapse_repeated,
                       ctc_merge_repeated=ctc_merge_repeated,
                       ignore_longer_outputs_than_inputs=ignore_longer_outputs_than_inputs)
    if orig_dtype in (dtypes.float16, dtypes.bfloat16):
        loss = math_ops.cast(loss, orig_dtype)
    return loss


@RegisterGradient("CTCLoss")
def _ctc_loss_grad(op, grad_loss, _):
    grad_without_gradient = array_ops.prevent_gradient(
        op.outputs[1],
        message="Currently there is no way to take the second  derivative of ctc_loss due "
                "to the fused implementation's interaction  with tf.gradients()")
    return [array_ops.expand_dims(grad_loss, -1) * grad_without_gradient, None, None, None]


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """([decoded SparseTensor], neg_sum_logits [batch, 1]): the best class at each step."""
    indices, values, shape, log_probabilities = apply_op(
        "CTCGreedyDecoder", inputs=inputs, sequence_length=sequence_length,
        merge_repeated=merge_repeated, blank_index=-1 if blank_index is None else blank_index)
    return [SparseTensor(indices, values, shape)], log_probabilities


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1,
                            merge_repeated=True):
    """([top_paths decoded SparseTensors], log_probability [batch, top_paths])."""
    outputs = apply_op("CTCBeamSearchDecoder", inputs=inputs, sequence_length=sequence_length,
                       beam_width=beam_width, top_paths=top_paths,
                       merge_repeated=merge_repeated)
    indices, values = outputs[:top_paths], outputs[top_paths:2 * top_paths]
    shapes, log_probabilities = outputs[2 * top_paths:3 * top_paths], outputs[-1]
    return ([SparseTensor(ix, val, shape) for ix, val, shape in zip(indices, values, shapes)],
            log_probabilities)


def ctc_beam_search_decoder_v2(inputs, sequence_length, beam_width=100, top_paths=1):
    """ctc_beam_search_decoder without merge_repeated (TensorFlow 2's tf.nn name)."""
    return ctc_beam_search_decoder(inputs, sequence_length=sequence_length,
                                   beam_width=beam_width, top_paths=top_paths,
                                   merge_repeated=False)


NotDifferentiable("CTCGreedyDecoder")
NotDifferentiable("CTCBeamSearchDecoder")


def _blank_last(logits, blank_index):
    """The logits with class blank_index moved last, as CTCLoss wants its blank."""
    return array_ops.concat([logits[:, :, :blank_index], logits[:, :, blank_index + 1:],
                             logits[:, :, blank_index:blank_index + 1]], axis=2)


def ctc_loss_v2(labels, logits, label_length, logit_length, logits_time_major=True,
                unique=None, blank_index=None, name=None):
    """The CTC loss [batch] of SparseTensor or dense [batch, max_label_length] labels.

    SparseTensor labels go through CTCLoss as TensorFlow's do. Dense labels (blank 0 unless
    blank_index says otherwise) also go through CTCLoss here, made sparse by their
    label_length, where TensorFlow builds ctc_loss_dense's batched forward-backward graph:
    the same loss and gradient to float rounding; `unique` (a TPU speed-up of that graph)
    changes nothing."""
    if isinstance(labels, SparseTensor):
        if blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when labels is a "
                             "SparseTensor.")
        if blank_index < 0:
            blank_index += _get_dim(logits, 2)
        if blank_index != _get_dim(logits, 2) - 1:
            logits = _blank_last(logits, blank_index)
            labels = SparseTensor(labels.indices,
                                  array_ops.where(labels.values < blank_index, labels.values,
                                                  labels.values - 1), labels.dense_shape)
        return ctc_loss(labels=labels, inputs=logits, sequence_length=logit_length,
                        time_major=logits_time_major)
    del unique  # only TensorFlow's dense graph reads it
    with name_scope(name, "ctc_loss_dense", [logits, labels, label_length, logit_length]):
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        label_length = convert_to_tensor(label_length, name="label_length")
        logit_length = convert_to_tensor(logit_length, name="logit_length")
        if not logits_time_major:
            logits = array_ops.transpose(logits, [1, 0, 2])
            logits_time_major = True
        num_classes = _get_dim(logits, 2)
        blank_index = 0 if blank_index is None else blank_index
        if blank_index < 0:
            blank_index += num_classes
        sparse = dense_labels_to_sparse(labels, label_length)
        if blank_index != num_classes - 1:
            logits = _blank_last(logits, blank_index)
            sparse = SparseTensor(sparse.indices,
                                  array_ops.where(sparse.values < blank_index, sparse.values,
                                                  sparse.values - 1), sparse.dense_shape)
        return ctc_loss(labels=sparse, inputs=logits, sequence_length=logit_length)


def dense_labels_to_sparse(dense, length):
    """The SparseTensor of each row's first length[b] labels (int32 values)."""
    from engine.ops.sparse_ops import sparse_reshape
    flat_values = array_ops.reshape(dense, [-1])
    flat_indices = math_ops.range(shape_ops.shape(flat_values, out_type=dtypes.int64)[0])
    mask = segment_ops.sequence_mask(length, maxlen=shape_ops.shape(dense)[1])
    flat_mask = array_ops.reshape(mask, [-1])
    indices = array_ops.expand_dims(array_ops.boolean_mask(flat_indices, flat_mask), 1)
    values = array_ops.boolean_mask(flat_values, flat_mask)
    sparse = SparseTensor(indices=indices, values=math_ops.cast(values, dtypes.int32),
                          dense_shape=shape_ops.shape(flat_values, out_type=dtypes.int64))
    reshaped = sparse_reshape(sparse, shape_ops.shape(dense))
    max_length = math_ops.reduce_max(length)
    return SparseTensor(indices=reshaped.indices, values=reshaped.values,
                        dense_shape=[math_ops.cast(reshaped.dense_shape[0], dtypes.int64),
                                     math_ops.cast(max_length, dtypes.int64)])


def collapse_repeated(labels, seq_length, name=None):
    """(labels with runs of a label merged, padded with 0; their new lengths)."""
    with name_scope(name, "collapse_repeated_labels", [labels, seq_length]):
        labels = convert_to_tensor(labels, name="labels")
        seq_length = convert_to_tensor(seq_length, name="seq_length")
        label_mask = array_ops.concat([
            array_ops.ones_like(labels[:, :1], dtypes.bool),
            math_ops.not_equal(labels[:, 1:], labels[:, :-1])], axis=1)
        maxlen = _get_dim(labels, 1)
        seq_mask = segment_ops.sequence_mask(seq_length, maxlen=maxlen)
        label_mask = math_ops.logical_and(label_mask, seq_mask)
        new_seq_len = math_ops.reduce_sum(math_ops.cast(label_mask, dtypes.int32), axis=1)
        new_maxlen = math_ops.reduce_max(new_seq_len)
        idx_mask = segment_ops.sequence_mask(new_seq_len, maxlen=new_maxlen)
        flat_labels = array_ops.reshape(labels, [-1])
        flat_label_mask = array_ops.reshape(label_mask, [-1])
        flat_idx_mask = array_ops.reshape(idx_mask, [-1])
        idx = math_ops.range(_get_dim(flat_idx_mask, 0))
        flat = segment_ops.scatter_nd(
            indices=array_ops.expand_dims(array_ops.boolean_mask(idx, flat_idx_mask), axis=1),
            updates=array_ops.boolean_mask(flat_labels, flat_label_mask),
            shape=shape_ops.shape(flat_idx_mask))
        batch_size = _get_dim(labels, 0)
        return (array_ops.reshape(flat, [batch_size, new_maxlen]),
                math_ops.cast(new_seq_len, seq_length.dtype))


def ctc_unique_labels(labels, name=None):
    """(each row's distinct labels in first-seen order padded with 0 as int64, and each
    label's index among them)."""
    with name_scope(name, "ctc_unique_labels", [labels]):
        labels = convert_to_tensor(labels, name="labels")

        def _unique(x):
            u = segment_ops.unique(x)
            y = array_ops.pad(u.y, [[0, _get_dim(u.idx, 0) - _get_dim(u.y, 0)]])
            return [math_ops.cast(y, dtypes.int64), u.idx]

        return map_fn(_unique, labels, dtype=[dtypes.int64, dtypes.int32])
