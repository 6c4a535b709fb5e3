"""tf.ConditionalAccumulator and tf.SparseConditionalAccumulator: gradients summed until
enough are in, stale ones dropped (TensorFlow's data_flow_ops: the dense one on the Resource*
ops, the sparse one on a ref handle and the SparseAccumulator* ops;
engine/kernels/cpu/accumulators.py and sparse_accumulators.py run them)."""

from engine.framework import dtypes
from engine.framework.tensor_shape import TensorShape, unknown_shape
from engine.ops.cast import cast
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op


class ConditionalAccumulatorBase:
    """tf.ConditionalAccumulatorBase(dtype, shape, accumulator_ref): what both accumulators
    share; num_accumulated and set_global_step run the dense accumulator's Resource* ops."""

    def __init__(self, dtype, shape, accumulator_ref):
        self._dtype = dtype
        self._shape = TensorShape(shape) if shape is not None else unknown_shape()
        self._accumulator_ref = accumulator_ref
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



class ConditionalAccumulator(ConditionalAccumulatorBase):
    """tf.ConditionalAccumulator(dtype, shape=None, shared_name=None,
    name="conditional_accumulator", reduction_type="MEAN")."""

    def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator",
                 reduction_type="MEAN"):
        dtype = dtypes.as_dtype(dtype)
        shape = TensorShape(shape) if shape is not None else unknown_shape()
        super().__init__(dtype, shape, apply_op(
            "ResourceConditionalAccumulator", name=name, dtype=dtype, shape=shape,
            shared_name=shared_name or "", reduction_type=reduction_type))

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


class SparseConditionalAccumulator(ConditionalAccumulatorBase):
    """tf.SparseConditionalAccumulator(dtype, shape=None, shared_name=None,
    name="sparse_conditional_accumulator", reduction_type="MEAN"): sums IndexedSlices-like
    gradients row by row; a MEAN take divides each row by how many gradients gave it."""

    def __init__(self, dtype, shape=None, shared_name=None,
                 name="sparse_conditional_accumulator", reduction_type="MEAN"):
        accumulator_ref = apply_op(
            "SparseConditionalAccumulator", dtype=dtype,
            shape=TensorShape(shape) if shape is not None else unknown_shape(),
            shared_name=shared_name or "", name=name, reduction_type=reduction_type)
        super().__init__(dtype, shape, accumulator_ref)

    def apply_indexed_slices_grad(self, grad, local_step=0, name=None):
        """Adds an IndexedSlices gradient computed at `local_step`, unless it is stale."""
        return self.apply_grad(grad_indices=grad.indices, grad_values=grad.values,
                               grad_shape=grad.dense_shape, local_step=local_step, name=name)

    def apply_grad(self, grad_indices, grad_values, grad_shape=None, local_step=0,
                   name=None):
        """Adds the rows `grad_values` at `grad_indices` (of a tensor of `grad_shape`)."""
        local_step = cast(convert_to_tensor(local_step), dtypes.int64)
        return apply_op(
            "SparseAccumulatorApplyGradient", handle=self._accumulator_ref,
            local_step=local_step, gradient_indices=cast(grad_indices, dtypes.int64),
            gradient_values=grad_values,
            gradient_shape=cast([] if grad_shape is None else grad_shape, dtypes.int64),
            has_known_shape=grad_shape is not None, name=name)

    def take_grad(self, num_required, name=None):
        """(indices, values, shape) of the average once `num_required` gradients are in."""
        return apply_op("SparseAccumulatorTakeGradient", handle=self._accumulator_ref,
                        num_required=num_required, dtype=self._dtype, name=name)

    def take_indexed_slices_grad(self, num_required, name=None):
        """take_grad's result as an IndexedSlices."""
        indices, values, shape = apply_op(
            "SparseAccumulatorTakeGradient", handle=self._accumulator_ref,
            num_required=num_required, dtype=self._dtype, name=name)
        return IndexedSlices(indices=indices, values=values, dense_shape=shape)

    def num_accumulated(self, name=None):
        return apply_op("AccumulatorNumAccumulated", handle=self._accumulator_ref,
                        name=name or f"{self._name}_NumAccumulated")

    def set_global_step(self, new_global_step, name=None):
        return apply_op("AccumulatorSetGlobalStep", handle=self._accumulator_ref,
                        new_global_step=cast(convert_to_tensor(new_global_step),
                                             dtypes.int64), name=name)
