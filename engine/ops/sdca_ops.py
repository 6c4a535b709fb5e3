"""tf.train.sdca_fprint and tf.train.sdca_shrink_l1 (gen_sdca_ops' raw ops, which TensorFlow's
SDCA estimators build): SdcaFprint's Fingerprint128 of each example id, SdcaShrinkL1's
in-place L1 shrinkage of ref variables. TensorFlow differentiates neither."""

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
