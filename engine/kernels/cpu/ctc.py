"""NumPy CPU kernels of CTCLoss, CTCGreedyDecoder and CTCBeamSearchDecoder, as TensorFlow's
ctc_loss_calculator.h and ctc_beam_search.h compute them (log space, one batch entry at a
time, in the input's precision)."""

import numpy as np

from engine.framework.errors import FailedPreconditionError
from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu.ctc_beam_search import BeamSearch, log_sum_exp


def _softmax(logits):
    """Each column's softmax (classes on axis 0), shifted by its max as TensorFlow does."""
    y = np.exp(logits - logits.max(axis=0))
    return y / y.sum(axis=0)


def _forward(l_prime, log_y, blank, merge_repeated):
    """log alpha [U, T] (Graves' thesis, eq. 7.5-7.9)."""
    size, steps = len(l_prime), log_y.shape[1]
    zero = log_y.dtype.type(-np.inf)
    alpha = np.full((size, steps), zero, log_y.dtype)
    alpha[0, 0] = log_y[blank, 0]
    alpha[1, 0] = log_y[l_prime[1] if size > 1 else blank, 0]
    for t in range(1, steps):
        for u in range(max(0, size - 2 * (steps - t)), min(size, 2 * (t + 1))):
            total = alpha[u, t - 1] if merge_repeated or l_prime[u] == blank else zero
            if u > 0:
                total = log_sum_exp(total, alpha[u - 1, t - 1])
            if u > 1 and l_prime[u] != blank and not (
                    merge_repeated and l_prime[u] == l_prime[u - 2]):
                total = log_sum_exp(total, alpha[u - 2, t - 1])
            alpha[u, t] = log_y[l_prime[u], t] + total
    return alpha


def _backward(l_prime, log_y, blank, merge_repeated):
    """log beta [U, T] (eq. 7.13-7.15)."""
    size, steps = len(l_prime), log_y.shape[1]
    beta = np.full((size, steps), -np.inf, log_y.dtype)
    beta[max(size - 2, 0):, steps - 1] = 0
    for t in range(steps - 2, -1, -1):
        for u in range(max(0, size - 2 * (steps - t)), min(size, 2 * (t + 1))):
            if merge_repeated or l_prime[u] == blank:
                beta[u, t] = log_sum_exp(beta[u, t], beta[u, t + 1] + log_y[l_prime[u], t + 1])
            if u + 1 < size:
                beta[u, t] = log_sum_exp(
                    beta[u, t], beta[u + 1, t + 1] + log_y[l_prime[u + 1], t + 1])
            if u + 2 < size and l_prime[u] != blank and not (
                    merge_repeated and l_prime[u] == l_prime[u + 2]):
                beta[u, t] = log_sum_exp(
                    beta[u, t], beta[u + 2, t + 1] + log_y[l_prime[u + 2], t + 1])
    return beta


def _labels_by_batch(ctx, indices, values, batch_size):
    """Each batch entry's labels, after the checks of the op's label SparseTensor (dense
    shape [batch, longest label]): rows agree, indices in bounds and in order."""
    if len(indices) != len(values):
        raise invalid(ctx, "labels_indices and labels_values must contain the same number of "
                           f"rows, but saw shapes: [{indices.shape[0]},{indices.shape[1]}] vs. "
                           f"[{len(values)}]")
    bounds = (batch_size, int(indices[:, 1].max()) + 1 if len(indices) else 0)
    for i in range(len(indices)):
        at = ",".join(str(int(v)) for v in indices[i])
        prefix = f"label SparseTensor is not valid: indices[{i}] = [{at}]"
        if any(not 0 <= v < bound for v, bound in zip(indices[i], bounds)):
            raise invalid(ctx, f"{prefix} is out of bounds: need 0 <= index < "
                               f"[{bounds[0]},{bounds[1]}]")
        if i and tuple(indices[i]) == tuple(indices[i - 1]):
            raise invalid(ctx, f"{prefix} is repeated")
        if i and tuple(indices[i]) < tuple(indices[i - 1]):
            raise invalid(ctx, f"{prefix} is out of order. Many sparse ops require sorted "
                               "indices.\n    Use `tf.sparse.reorder` to create a correctly "
                               "ordered copy.\n\n")
    labels = [[] for _ in range(batch_size)]
    for (b, *_), value in zip(indices, values):
        labels[b].append(int(value))
    return labels


def _label_sequence(ctx, label, b, num_classes, collapse_repeated, ignore_longer, steps):
    """PopulateLPrimes' checks and labels: repeats dropped when collapsing, the labels from
    the first blank (or larger) on dropped, where no real label may follow."""
    if not label:
        raise invalid(ctx, f"Labels length is zero in batch {b}")
    kept, finished = [], False
    for i, value in enumerate(label):
        if i == 0 or not collapse_repeated or value != label[i - 1]:
            if value >= num_classes - 1:
                finished = True
            elif finished:
                raise invalid(ctx, "Saw a non-null label (index >= num_classes - 1) following "
                                   f"a null label, batch: {b} num_classes: {num_classes} "
                                   f"labels: {','.join(map(str, label))} labels seen so far: "
                                   + ",".join(map(str, kept)))
            else:
                kept.append(value)
    if any(v < 0 for v in kept):
        raise invalid(ctx, f"All labels must be nonnegative integers, batch: {b} labels: "
                           + ",".join(map(str, kept)))
    if not ignore_longer and len(label) > steps:
        raise invalid(ctx, f"Not enough time for target transition sequence (required: "
                           f"{len(label)}, available: {steps}){b}You can turn this error "
                           "into a warning by using the flag ignore_longer_outputs_than_inputs")
    return kept


def _check_lengths(ctx, seq_len, max_time, error=invalid):
    for b, length in enumerate(seq_len):
        if length > max_time:
            raise error(ctx, f"sequence_length({b}) <= {max_time}")


def _check_ranks(ctx, inputs, sequence_length, length_error=invalid):
    """The checks CTCLossOp and CTCDecodeHelper make of the logits and lengths."""
    if inputs.ndim != 3:
        raise invalid(ctx, "inputs is not a 3-Tensor")
    if np.ndim(sequence_length) != 1:
        raise invalid(ctx, "sequence_length is not a vector")
    if len(sequence_length) != inputs.shape[1]:
        raise length_error(ctx, "len(sequence_length) != batch_size.  len(sequence_length):  "
                                f"{len(sequence_length)} batch_size: {inputs.shape[1]}")


def _check_nonnegative(ctx, seq_len):
    for b, length in enumerate(seq_len):
        if length < 0:
            raise invalid(ctx, f"seq_len({b}) < 0")


@register("CTCLoss")
def ctc_loss(ctx, inputs, labels_indices, labels_values, sequence_length):
    """(loss [batch], gradient [max_time, batch, num_classes]): -log p(labels | inputs) and
    its gradient with respect to the logits, zero past each sequence's end."""
    _check_ranks(ctx, inputs, sequence_length)
    if np.ndim(labels_indices) != 2:
        raise invalid(ctx, "labels_indices is not a matrix")
    if np.ndim(labels_values) != 1:
        raise invalid(ctx, "labels_values is not a vector")
    max_time, batch_size, num_classes = inputs.shape
    _check_lengths(ctx, sequence_length, max_time)
    labels = _labels_by_batch(ctx, labels_indices, labels_values, batch_size)
    _check_nonnegative(ctx, sequence_length)
    merge_repeated = ctx.attr("ctc_merge_repeated", True)
    ignore_longer = ctx.attr("ignore_longer_outputs_than_inputs", False)
    blank = num_classes - 1
    kept = [_label_sequence(ctx, labels[b], b, num_classes,
                            ctx.attr("preprocess_collapse_repeated", False), ignore_longer,
                            int(sequence_length[b])) for b in range(batch_size)]
    loss = np.zeros(batch_size, inputs.dtype)
    gradient = np.zeros_like(inputs)
    for b in range(batch_size):
        steps = int(sequence_length[b])
        if steps == 0 or (ignore_longer and len(labels[b]) > steps):
            continue
        l_prime = [blank]
        for v in kept[b]:
            l_prime += [v, blank]
        y = _softmax(inputs[:steps, b, :].T)
        with np.errstate(divide="ignore"):
            log_y = np.log(y)
        alpha = _forward(l_prime, log_y, blank, merge_repeated)
        beta = _backward(l_prime, log_y, blank, merge_repeated)
        log_p = inputs.dtype.type(-np.inf)
        for u in range(len(l_prime)):
            log_p = log_sum_exp(log_p, alpha[u, 0] + beta[u, 0])
        loss[b] = -log_p
        if log_p == -np.inf:  # no valid path: TensorFlow's gradient is the softmax
            gradient[:steps, b, :] = y.T
            continue
        for t in range(steps):
            prob_sum = np.full(num_classes, -np.inf, inputs.dtype)
            for u, v in enumerate(l_prime):
                prob_sum[v] = log_sum_exp(prob_sum[v], alpha[u, t] + beta[u, t])
            # expf: float32 whatever the logits' type
            gradient[t, b, :] = y[:, t] - np.exp((prob_sum - log_p).astype(np.float32))
    return loss, gradient


def _sparse_paths(paths, batch_size):
    """(indices [n, 2], values [n], dense_shape [2]) of one path per batch entry."""
    indices = [(b, t) for b, path in enumerate(paths) for t in range(len(path))]
    values = [v for path in paths for v in path]
    longest = max((len(path) for path in paths), default=0)
    return (np.array(indices, np.int64).reshape(-1, 2), np.array(values, np.int64),
            np.array([batch_size, longest], np.int64))


def _failed_precondition(ctx, message):
    return FailedPreconditionError(getattr(ctx, "node_def", None), None, message)


@register("CTCGreedyDecoder")
def ctc_greedy_decoder(ctx, inputs, sequence_length):
    """The best class of each step (the first of equal ones), blanks dropped and, with
    merge_repeated, repeats merged; log_probability is minus the sum of the steps' maxima."""
    _check_ranks(ctx, inputs, sequence_length, _failed_precondition)
    max_time, batch_size, num_classes = inputs.shape
    _check_lengths(ctx, sequence_length, max_time, _failed_precondition)
    blank = ctx.attr("blank_index", -1)
    blank = blank + num_classes if blank < 0 else blank
    merge_repeated = ctx.attr("merge_repeated", True)
    log_probability = np.zeros((batch_size, 1), inputs.dtype)
    paths = []
    for b in range(batch_size):
        path, previous = [], -1
        for t in range(int(sequence_length[b])):
            best = int(np.argmax(inputs[t, b]))
            log_probability[b, 0] += -inputs[t, b, best]
            if best != blank and not (merge_repeated and best == previous):
                path.append(best)
            previous = best
        paths.append(path)
    return (*_sparse_paths(paths, batch_size), log_probability)


@register("CTCBeamSearchDecoder")
def ctc_beam_search_decoder(ctx, inputs, sequence_length):
    """top_paths SparseTensors (all indices, then all values, then all shapes) and the
    paths' log probabilities [batch, top_paths], as TensorFlow's beam search with its
    default scorer finds them."""
    _check_ranks(ctx, inputs, sequence_length, _failed_precondition)
    max_time, batch_size, num_classes = inputs.shape
    top_paths, beam_width = ctx.attr("top_paths"), ctx.attr("beam_width")
    _check_lengths(ctx, sequence_length, max_time, _failed_precondition)
    merge_repeated = ctx.attr("merge_repeated", True)
    log_probability = np.zeros((batch_size, top_paths), inputs.dtype)
    best = [[] for _ in range(top_paths)]
    for b in range(batch_size):
        search = BeamSearch(num_classes, beam_width, inputs.dtype)
        for t in range(int(sequence_length[b])):
            search.step(inputs[t, b])
        if top_paths > beam_width:
            raise invalid(ctx, "requested more paths than the beam width.")
        if top_paths > search.leaf_count():
            raise invalid(ctx, "Less leaves in the beam search than requested.")
        for i, (path, log_p) in enumerate(search.top_paths(top_paths, merge_repeated)):
            best[i].append(path)
            log_probability[b, i] = log_p
    outputs = [_sparse_paths(paths, batch_size) for paths in best]
    return (*[o[0] for o in outputs], *[o[1] for o in outputs], *[o[2] for o in outputs],
            log_probability)
