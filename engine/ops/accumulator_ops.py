"""tf.ConditionalAccumulator: gradients summed until enough are in, stale ones dropped
(TensorFlow's data_flow_ops.ConditionalAccumulator, on the Resource* ops;
engine/kernels/cpu/accumulators.py runs them)."""

from engine.framework import dtypes
from engine.framework.tensor_shape import TensorShape, unknown_shape
from engine.ops.cast import cast
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op


class ConditionalAccumulator:
    """tf.ConditionalAccumulator(dtype, shape=None, shared_name=None,
    name="conditional_accumulator", reduction_type="MEAN")."""

    def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator",
                 reduction_type="MEAN"):
        self._dtype = dtypes.as_dtype(dtype)
        self._shape = TensorShape(shape) if shape is not None else unknown_shape()
        self._accumulator_ref = apply_op(
            "ResourceConditionalAccumulator", name=name, dtype=self._dtype, shape=self._shape,
            shared_name=shared_name or "", reduction_type=reduction_type)
        self._name = self._accumulator_ref.op.name.split("/")[-1]

    @property
    def accumulator_ref(self):
        return self._accumulator_ref

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    def num_accumulated(self, name=None):
        """How many gradients the accumulator holds now."""
        return apply_op("ResourceAccumulatorNumAccumulated", handle=self._accumulator_ref,
                        name=name or f"{self._name}_NumAccumulated")

    def set_global_step(self, new_global_step, name=None):
        """Sets the accumulator's step: gradients of an older local_step are dropped."""
        return apply_op("ResourceAccumulatorSetGlobalStep", handle=self._accumulator_ref,
                        new_global_step=cast(convert_to_tensor(new_global_step), dtypes.int64),
                        name=name)

    def apply_grad(self, grad, local_step=0, name=None):
        """Adds `grad`, computed at `local_step`, unless it is stale."""
        grad = convert_to_tensor(grad, self._dtype)
        grad.get_shape().assert_is_compatible_with(self._shape)
        local_step = cast(convert_to_tensor(local_step), dtypes.int64)
        return apply_op("ResourceAccumulatorApplyGradient", handle=self._accumulator_ref,
                        local_step=local_step, gradient=grad, name=name)

    def take_grad(self, num_required, name=None):
        """The mean of the gradients once `num_required` are in (blocking until then)."""
        out = apply_op("ResourceAccumulatorTakeGradient", handle=self._accumulator_ref,
                       num_required=num_required, dtype=self._dtype, name=name)
        out.set_shape(self._shape)
        return out
