"""tf.approx_top_k (the raw op) and tf.math/tf.nn.approx_max_k, approx_min_k as TensorFlow 2.21's
nn_ops builds them: one ApproxTopK node. On the CPU TensorFlow registers ApproxTopK only for
reduction_dimension=-1 and is_max_k=True, running its exact TopK kernel there (stable: equal
values keep their index order); any other attrs fail when the node runs, as they do here."""

import collections

from engine.ops.op_def_library import apply_op

ApproxTopKOutput = collections.namedtuple("ApproxTopK", ["values", "indices"])


def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95,  # noqa: A002
                 is_max_k=True, reduction_input_size_override=-1, aggregate_to_topk=True,
                 name=None):
    return ApproxTopKOutput(*apply_op(
        "ApproxTopK", input=input, k=k, reduction_dimension=reduction_dimension,
        recall_target=recall_target, is_max_k=is_max_k,
        reduction_input_size_override=reduction_input_size_override,
        aggregate_to_topk=aggregate_to_topk, name=name))


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    return approx_top_k(operand, k=k, reduction_dimension=reduction_dimension,
                        recall_target=recall_target, is_max_k=True,
                        reduction_input_size_override=reduction_input_size_override,
                        aggregate_to_topk=aggregate_to_topk, name=name)


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    return approx_top_k(operand, k=k, reduction_dimension=reduction_dimension,
                        recall_target=recall_target, is_max_k=False,
                        reduction_input_size_override=reduction_input_size_override,
                        aggregate_to_topk=aggregate_to_topk, name=name)
