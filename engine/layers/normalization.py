"""tf.layers.BatchNormalization: FusedBatchNormV3 for 4-D inputs, moments otherwise; the
moving averages' AssignSub ops go to UPDATE_OPS, as TF 1.x's legacy layer builds them; batch
renormalization (renorm=True: tf_keras's _renorm_correction_and_moments, never fused)."""

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.layers.base import Layer, smart_cond
from engine.ops import array_ops, batch_norm, math_ops, nn_ops, state_ops
from engine.ops.fill_ops import ones_like_v2, zeros_like
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.init_ops import ones_initializer, zeros_initializer
from engine.framework.tensor_shape import TensorShape
from engine.framework.tensor_util import constant_value


class BatchNormalization(Layer):
    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer=zeros_initializer(), gamma_initializer=ones_initializer(),
                 moving_mean_initializer=zeros_initializer(),
                 moving_variance_initializer=ones_initializer(), beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 renorm=False, renorm_clipping=None, renorm_momentum=0.99, fused=None,
                 trainable=True, virtual_batch_size=None, adjustment=None, name=None,
                 **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        if virtual_batch_size is not None or adjustment is not None:
            raise NotImplementedError("tf.layers.batch_normalization's virtual_batch_size "
                                      "and adjustment are not supported by the engine yet")
        self.renorm = renorm
        if renorm:
            renorm_clipping = renorm_clipping or {}
            keys = ["rmax", "rmin", "dmax"]
            if set(renorm_clipping) - set(keys):
                raise ValueError("Received invalid keys for `renorm_clipping` argument: "
                                 f"{renorm_clipping}. Supported values: {keys}.")
            self.renorm_clipping, self.renorm_momentum = renorm_clipping, renorm_momentum
            if fused:
                raise ValueError("Passing both `fused=True` and `renorm=True` is not "
                                 "supported")
            fused = False
        self.axis = axis if isinstance(axis, (list, tuple)) else [axis]
        self.momentum, self.epsilon, self.center, self.scale = momentum, epsilon, center, scale
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.moving_mean_initializer = moving_mean_initializer
        self.moving_variance_initializer = moving_variance_initializer
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.fused = True if fused is None else fused

    def build(self, input_shape):
        shape = TensorShape(input_shape).as_list()
        rank = len(shape)
        self.axis = sorted(a + rank if a < 0 else a for a in self.axis)
        for a in self.axis:
            if a < 0 or a >= rank:
                raise ValueError(f"Invalid axis: {a}")
            if shape[a] is None:
                raise ValueError(f"Input has undefined `axis` dimension. Received input with "
                                 f"shape {TensorShape(input_shape)} and axis={self.axis}")
        self.fused = (self.fused and rank == 4 and self.axis in ([1], [3]))
        self._data_format = "NCHW" if self.axis == [1] else "NHWC"
        param_shape = [shape[a] for a in self.axis]
        if len(self.axis) > 1:
            param_shape = [shape[i] if i in self.axis else 1 for i in range(rank)]
        self.gamma = (self.add_weight("gamma", param_shape, dtype=dtypes.float32,
                                      initializer=self.gamma_initializer,
                                      regularizer=self.gamma_regularizer)
                      if self.scale else None)
        self.beta = (self.add_weight("beta", param_shape, dtype=dtypes.float32,
                                     initializer=self.beta_initializer,
                                     regularizer=self.beta_regularizer)
                     if self.center else None)
        self.moving_mean = self.add_weight("moving_mean", param_shape, dtype=dtypes.float32,
                                           initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight("moving_variance", param_shape,
                                               dtype=dtypes.float32,
                                               initializer=self.moving_variance_initializer,
                                               trainable=False)
        if self.renorm:
            # the inference moving stddev, and the renorm statistics used in training
            def moving_stddev_initializer(*args, **kwargs):
                return math_ops.sqrt(self.moving_variance_initializer(*args, **kwargs))

            self.moving_stddev = self.add_weight("moving_stddev", param_shape,
                                                 dtype=dtypes.float32,
                                                 initializer=moving_stddev_initializer,
                                                 trainable=False)
            self.renorm_mean = self.add_weight("renorm_mean", param_shape, dtype=dtypes.float32,
                                               initializer=self.moving_mean_initializer,
                                               trainable=False)
            self.renorm_stddev = self.add_weight("renorm_stddev", param_shape,
                                                 dtype=dtypes.float32,
                                                 initializer=moving_stddev_initializer,
                                                 trainable=False)
        self._param_shape = param_shape
        self.built = True

    def _assign_moving_average(self, variable, value, momentum):
        graph = get_default_graph()
        with graph.name_scope("AssignMovingAvg") as scope, graph.colocate_with(variable.op):
            decay = convert_to_tensor(1.0 - momentum, name="decay")
            base = variable.dtype.base_dtype
            if decay.dtype != base:
                decay = math_ops.cast(decay, base)
            delta = (variable - math_ops.cast(value, base)) * decay
            return state_ops.assign_sub(variable, delta, name=scope)

    def _assign_new_value(self, variable, value):
        graph = get_default_graph()
        with graph.name_scope("AssignNewValue") as scope, graph.colocate_with(variable.op):
            return state_ops.assign(variable, value, name=scope)

    def _renorm_correction_and_moments(self, mean, variance, training):
        """(r, d, mean, variance): the renorm correction, clipped, and the batch moments
        made to wait for the renorm statistics' updates (tf_keras's order of ops)."""
        stddev = math_ops.sqrt(variance + self.epsilon)
        renorm_mean = self.renorm_mean
        renorm_stddev = math_ops.maximum(self.renorm_stddev, math_ops.sqrt(self.epsilon))
        r = stddev / renorm_stddev
        d = (mean - renorm_mean) / renorm_stddev
        with get_default_graph().control_dependencies([r, d]):
            mean = array_ops.identity(mean)
            stddev = array_ops.identity(stddev)
        rmin, rmax, dmax = [self.renorm_clipping.get(key) for key in ["rmin", "rmax", "dmax"]]
        if rmin is not None:
            r = math_ops.maximum(r, rmin)
        if rmax is not None:
            r = math_ops.minimum(r, rmax)
        if dmax is not None:
            d = math_ops.maximum(d, -dmax)
            d = math_ops.minimum(d, dmax)
        r = smart_cond(training, lambda: r, lambda: ones_like_v2(r))
        d = smart_cond(training, lambda: d, lambda: zeros_like(d))

        def update_renorm_variable(var, value):
            value = array_ops.identity(value)
            return smart_cond(
                training,
                lambda: self._assign_moving_average(var, value, self.renorm_momentum),
                lambda: array_ops.identity(var))

        update_new_mean = update_renorm_variable(self.renorm_mean, mean)
        update_new_stddev = update_renorm_variable(self.renorm_stddev, stddev)
        with get_default_graph().control_dependencies([update_new_mean, update_new_stddev]):
            out_mean = array_ops.identity(mean)
            out_variance = array_ops.identity(variance)
        return r, d, out_mean, out_variance

    def call(self, inputs, training=False):
        if self.fused:
            return self._fused_batch_norm(inputs, training)
        return self._batch_norm(inputs, training)

    def _fused_batch_norm(self, inputs, training):
        beta = self.beta if self.center else constant(0.0, dtypes.float32,
                                                      shape=self._param_shape)
        gamma = self.gamma if self.scale else constant(1.0, dtypes.float32,
                                                       shape=self._param_shape)

        def normalize(is_training):
            return lambda: batch_norm.fused_batch_norm(
                inputs, gamma, beta, mean=self.moving_mean, variance=self.moving_variance,
                epsilon=self.epsilon, is_training=is_training, data_format=self._data_format,
                exponential_avg_factor=None)

        output, mean, variance = smart_cond(training, normalize(True), normalize(False))
        training_value = constant_value(training) if not isinstance(training, bool) else training
        if training_value or training_value is None:
            if training_value is None:
                momentum = smart_cond(training, lambda: self.momentum, lambda: 1.0)
            else:
                momentum = convert_to_tensor(self.momentum)
            self.add_update(lambda: self._assign_moving_average(self.moving_mean, mean,
                                                                momentum))
            self.add_update(lambda: self._assign_moving_average(self.moving_variance,
                                                                variance, momentum))
        return output

    def _batch_norm(self, inputs, training):
        shape = inputs.shape
        rank = shape.ndims
        reduction_axes = [i for i in range(rank) if i not in self.axis]
        broadcast_shape = [1] * rank
        broadcast_shape[self.axis[0]] = shape.as_list()[self.axis[0]]

        def broadcast(v):
            if (v is not None and len(v.shape) != rank
                    and reduction_axes != list(range(rank - 1))):
                return array_ops.reshape(v, broadcast_shape)
            return v

        scale, offset = broadcast(self.gamma), broadcast(self.beta)
        training_value = constant_value(training) if not isinstance(training, bool) else training
        if training_value is not None and not training_value:
            mean, variance = self.moving_mean, self.moving_variance
        else:
            mean, variance = batch_norm.moments(inputs, reduction_axes,
                                                keep_dims=len(self.axis) > 1)
            batch_mean, batch_variance = mean, variance
            mean = smart_cond(training, lambda: batch_mean,
                              lambda: convert_to_tensor(self.moving_mean))
            variance = smart_cond(training, lambda: batch_variance,
                                  lambda: convert_to_tensor(self.moving_variance))
            new_mean, new_variance = mean, variance
            if self.renorm:
                r, d, new_mean, new_variance = self._renorm_correction_and_moments(
                    new_mean, new_variance, training)
                # (x * r + d) * gamma + beta = x * (r * gamma) + (d * gamma + beta)
                r = broadcast(array_ops.stop_gradient(r, name="renorm_r"))
                d = broadcast(array_ops.stop_gradient(d, name="renorm_d"))
                scale, offset = _compose_transforms(r, d, scale, offset)

            def variance_update():
                if self.renorm:  # epsilon inside the moving stddev, as in training
                    moving_stddev = self._assign_moving_average(
                        self.moving_stddev, math_ops.sqrt(new_variance + self.epsilon),
                        self.momentum)
                    return self._assign_new_value(
                        self.moving_variance,
                        nn_ops.relu(moving_stddev * moving_stddev - self.epsilon))
                return self._assign_moving_average(self.moving_variance, new_variance,
                                                   self.momentum)

            self.add_update(lambda: smart_cond(
                training,
                lambda: self._assign_moving_average(self.moving_mean, new_mean, self.momentum),
                lambda: self.moving_mean))
            self.add_update(lambda: smart_cond(training, variance_update,
                                               lambda: self.moving_variance))
        mean = math_ops.cast(mean, inputs.dtype)
        variance = math_ops.cast(variance, inputs.dtype)
        if offset is not None:
            offset = math_ops.cast(offset, inputs.dtype)
        if scale is not None:
            scale = math_ops.cast(scale, inputs.dtype)
        outputs = batch_norm.batch_normalization(inputs, broadcast(mean), broadcast(variance),
                                                 offset, scale, self.epsilon)
        outputs.set_shape(shape)
        return outputs


def _compose_transforms(scale, offset, then_scale, then_offset):
    """x * scale + offset, then * then_scale + then_offset, as one scale and offset."""
    if then_scale is not None:
        scale *= then_scale
        offset *= then_scale
    if then_offset is not None:
        offset += then_offset
    return scale, offset


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True,
                        scale=True, beta_initializer=zeros_initializer(),
                        gamma_initializer=ones_initializer(),
                        moving_mean_initializer=zeros_initializer(),
                        moving_variance_initializer=ones_initializer(),
                        beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                        gamma_constraint=None, training=False, trainable=True, name=None,
                        reuse=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99,
                        fused=None, virtual_batch_size=None, adjustment=None):
    layer = BatchNormalization(
        axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
        beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
        moving_mean_initializer=moving_mean_initializer,
        moving_variance_initializer=moving_variance_initializer,
        beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
        renorm=renorm, renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum,
        fused=fused, trainable=trainable,
        virtual_batch_size=virtual_batch_size, adjustment=adjustment, name=name,
        _reuse=reuse, _scope=name)
    return layer(inputs, training=training)
