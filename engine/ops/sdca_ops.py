"""tf.train.sdca_fprint, sdca_optimizer and sdca_shrink_l1 (gen_sdca_ops' raw ops, which
TensorFlow's SDCA estimators build): SdcaFprint's Fingerprint128 of each example id, one
SdcaOptimizer pass giving the weight deltas and example state, SdcaShrinkL1's in-place L1
shrinkage of ref variables. TensorFlow differentiates none of them."""

import collections

from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.op_def_library import apply_op

for _op_type in ("SdcaFprint", "SdcaShrinkL1", "SdcaOptimizer", "SdcaOptimizerV2"):
    NotDifferentiable(_op_type)


def sdca_fprint(input, name=None):  # noqa: A002
    return apply_op("SdcaFprint", input=input, name=name)


def sdca_shrink_l1(weights, l1, l2, name=None):
    from engine.ops.variables import ResourceVariable
    if any(isinstance(w, ResourceVariable) for w in weights):
        # the ref input's error TensorFlow's op_def_library gives a resource variable
        raise TypeError("'SdcaShrinkL1' Op requires that input 'weights' be a mutable tensor "
                        "(e.g.: a tf.Variable)")
    return apply_op("SdcaShrinkL1", weights=weights, l1=l1, l2=l2, name=name)


SdcaOptimizerOutput = collections.namedtuple(
    "SdcaOptimizer", ["out_example_state_data", "out_delta_sparse_weights",
                      "out_delta_dense_weights"])


def sdca_optimizer(sparse_example_indices, sparse_feature_indices, sparse_feature_values,
                   dense_features, example_weights, example_labels, sparse_indices,
                   sparse_weights, dense_weights, example_state_data, loss_type, l1, l2,
                   num_loss_partitions, num_inner_iterations, adaptative=True, name=None):
    outputs = apply_op(
        "SdcaOptimizer", sparse_example_indices=sparse_example_indices,
        sparse_feature_indices=sparse_feature_indices,
        sparse_feature_values=sparse_feature_values, dense_features=dense_features,
        example_weights=example_weights, example_labels=example_labels,
        sparse_indices=sparse_indices, sparse_weights=sparse_weights,
        dense_weights=dense_weights, example_state_data=example_state_data,
        loss_type=loss_type, adaptative=adaptative, l1=l1, l2=l2,
        num_loss_partitions=num_loss_partitions, num_inner_iterations=num_inner_iterations,
        name=name)
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    n_sparse = len(sparse_weights)
    return SdcaOptimizerOutput(outputs[0], outputs[1:1 + n_sparse], outputs[1 + n_sparse:])
