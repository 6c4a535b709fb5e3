"""TF 1.x's AdadeltaOptimizer, FtrlOptimizer, ProximalGradientDescentOptimizer,
ProximalAdagradOptimizer and AdagradDAOptimizer (adadelta.py, ftrl.py,
proximal_gradient_descent.py, proximal_adagrad.py, adagrad_da.py), on
engine/ops/optimizers.py's Optimizer: the same slots, scalar tensors and
Apply*/ResourceApply* (and SparseApply*) ops TensorFlow builds."""

from engine.framework.default_graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.init_ops import ones_initializer
from engine.ops.op_def_library import apply_op
from engine.ops.optimizers import _REF_ARGS, Optimizer, _is_resource

_REF_ARGS.update({
    "ApplyAdadelta": ["var", "accum", "accum_update", "lr", "rho", "epsilon", "grad"],
    "ApplyProximalGradientDescent": ["var", "alpha", "l1", "l2", "delta"],
    "ApplyFtrl": ["var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power"],
    "ApplyFtrlV2": ["var", "accum", "linear", "grad", "lr", "l1", "l2", "l2_shrinkage",
                    "lr_power"],
})


class AdadeltaOptimizer(Optimizer):
    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False,
                 name="Adadelta"):
        super().__init__(use_locking, name)
        self._lr, self._rho, self._epsilon = learning_rate, rho, epsilon

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "accum", self._name)
            self._zeros_slot(v, "accum_update", self._name)

    def _prepare(self):
        call = self._call_if_callable
        self._lr_t = convert_to_tensor(call(self._lr), name="lr")
        self._rho_t = convert_to_tensor(call(self._rho), name="rho")
        self._epsilon_t = convert_to_tensor(call(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        slots = [self.get_slot(var, "accum"), self.get_slot(var, "accum_update")]
        scalars = [self._cast(t, var) for t in (self._lr_t, self._rho_t, self._epsilon_t)]
        return self._apply("ApplyAdadelta", var, slots, scalars, grad)

    _resource_apply_dense = _apply_dense


class ProximalGradientDescentOptimizer(Optimizer):
    def __init__(self, learning_rate, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False,
                 name="ProximalGradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._learning_rate,
                                                       name="learning_rate")
        self._l1_tensor = convert_to_tensor(self._l1, name="l1_regularization_strength")
        self._l2_tensor = convert_to_tensor(self._l2, name="l2_regularization_strength")

    def _apply_dense(self, grad, var):
        # TensorFlow passes these tensors uncast (they must already have var's dtype).
        return self._apply("ApplyProximalGradientDescent", var, [],
                           [self._learning_rate_tensor, self._l1_tensor, self._l2_tensor],
                           grad)

    _resource_apply_dense = _apply_dense


class FtrlOptimizer(Optimizer):
    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="Ftrl", accum_name=None, linear_name=None,
                 l2_shrinkage_regularization_strength=0.0, beta=None):
        super().__init__(use_locking, name)
        if initial_accumulator_value < 0.0:
            raise ValueError("initial_accumulator_value %f needs to be positive or zero"
                             % initial_accumulator_value)
        if learning_rate_power > 0.0:
            raise ValueError("learning_rate_power %f needs to be negative or zero"
                             % learning_rate_power)
        for value, what in ((l1_regularization_strength, "l1_regularization_strength"),
                            (l2_regularization_strength, "l2_regularization_strength")):
            if value < 0.0:
                raise ValueError("%s %f needs to be positive or zero" % (what, value))
        if l2_shrinkage_regularization_strength < 0.0:
            raise ValueError("l2_shrinkage_regularization_strength %f needs to be positive or "
                             "zero" % l2_shrinkage_regularization_strength)
        self._learning_rate, self._learning_rate_power = learning_rate, learning_rate_power
        self._initial_accumulator_value = initial_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._beta = 0.0 if beta is None else beta
        self._l2_shrinkage = l2_shrinkage_regularization_strength
        self._accum_name, self._linear_name = accum_name, linear_name

    def _create_slots(self, var_list):
        def accum_initializer(shape, dtype=None, partition_info=None):
            return ones_initializer()(shape, dtype=dtype) * self._initial_accumulator_value
        for v in var_list:
            self._get_or_make_slot_with_initializer(v, accum_initializer, v.shape,
                                                    v.dtype.base_dtype,
                                                    "accum", self._accum_name or self._name)
            self._zeros_slot(v, "linear", self._linear_name or self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._learning_rate,
                                                       name="learning_rate")
        self._l1_tensor = convert_to_tensor(self._l1, name="l1_regularization_strength")
        self._adjusted_l2_tensor = convert_to_tensor(
            self._l2 + self._beta / (2. * math_ops.maximum(self._learning_rate, 1e-36)),
            name="adjusted_l2_regularization_strength")
        self._beta_tensor = convert_to_tensor(self._beta, name="beta")
        self._l2_shrinkage_tensor = convert_to_tensor(
            self._l2_shrinkage, name="l2_shrinkage_regularization_strength")
        self._learning_rate_power_tensor = convert_to_tensor(self._learning_rate_power,
                                                             name="learning_rate_power")

    def _apply_dense(self, grad, var):
        slots = [self.get_slot(var, "accum"), self.get_slot(var, "linear")]
        if self._l2_shrinkage <= 0.0:
            scalars = [self._learning_rate_tensor, self._l1_tensor, self._adjusted_l2_tensor,
                       self._learning_rate_power_tensor]
            op_type = "ApplyFtrl"
        else:
            scalars = [self._learning_rate_tensor, self._l1_tensor, self._adjusted_l2_tensor,
                       self._l2_shrinkage_tensor, self._learning_rate_power_tensor]
            op_type = "ApplyFtrlV2"
        scalars = [math_ops.cast(t, var.dtype.base_dtype) for t in scalars]
        # Ftrl's ops take grad before the scalars (Optimizer._apply puts it last).
        names = _REF_ARGS[op_type]
        if _is_resource(var):
            inputs, op_type = [s.handle for s in [var] + slots], "Resource" + op_type
        else:
            inputs = [s._ref() for s in [var] + slots]
        result = apply_op(op_type, **dict(zip(names, inputs + [grad] + scalars)),
                          use_locking=self._use_locking)
        return result if _is_resource(var) else result.op

    _resource_apply_dense = _apply_dense


def _slot_from_value(optimizer, var, value, slot_name):
    """slot_creator.create_slot: a slot variable `var/<optimizer name>` made from `value`."""
    return optimizer._get_or_make_slot_from_value(var, value, slot_name)


def _handles_or_refs(variables):
    if _is_resource(variables[0]):
        return [v.handle for v in variables]
    return [v._ref() for v in variables]


def _run(op_type, var, inputs, use_locking):
    prefix = "Resource" if _is_resource(var) else ""
    result = apply_op(prefix + op_type, **inputs, use_locking=use_locking)
    return result if _is_resource(var) else result.op


class ProximalAdagradOptimizer(Optimizer):
    """Adagrad's per-coordinate rate with FOBOS's l1 and l2 proximal step."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalAdagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s"
                             % initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _create_slots(self, var_list):
        for v in var_list:
            with get_default_graph().colocate_with(v.op):
                val = constant(self._initial_accumulator_value, shape=v.shape,
                               dtype=v.dtype.base_dtype)
            _slot_from_value(self, v, val, "accumulator")

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._learning_rate,
                                                       name="learning_rate")
        self._l1_tensor = convert_to_tensor(self._l1, name="l1_regularization_strength")
        self._l2_tensor = convert_to_tensor(self._l2, name="l2_regularization_strength")

    def _apply_dense(self, grad, var):
        var_, accum = _handles_or_refs([var, self.get_slot(var, "accumulator")])
        return _run("ApplyProximalAdagrad", var,
                    dict(var=var_, accum=accum, lr=self._learning_rate_tensor,
                         l1=self._l1_tensor, l2=self._l2_tensor, grad=grad),
                    self._use_locking)

    _resource_apply_dense = _apply_dense

    def _apply_sparse(self, grad, var):
        var_, accum = _handles_or_refs([var, self.get_slot(var, "accumulator")])
        return apply_op("SparseApplyProximalAdagrad", var=var_, accum=accum,
                        lr=self._learning_rate_tensor, l1=self._l1_tensor, l2=self._l2_tensor,
                        grad=grad.values, indices=grad.indices,
                        use_locking=self._use_locking).op

    def _resource_apply_sparse(self, grad, var, indices):
        var_, accum = _handles_or_refs([var, self.get_slot(var, "accumulator")])
        return apply_op("ResourceSparseApplyProximalAdagrad", var=var_, accum=accum,
                        lr=math_ops.cast(self._learning_rate_tensor, grad.dtype),
                        l1=math_ops.cast(self._l1_tensor, grad.dtype),
                        l2=math_ops.cast(self._l2_tensor, grad.dtype), grad=grad,
                        indices=indices, use_locking=self._use_locking)


class AdagradDAOptimizer(Optimizer):
    """Adagrad dual averaging: the weights from the sums of the gradients and of their
    squares since step 0, for sparse linear models (global_step must be given)."""

    def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError("initial_gradient_squared_accumulator_value must be positive: %s"
                             % initial_gradient_squared_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_gradient_squared_accumulator_value = (
            initial_gradient_squared_accumulator_value)
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._global_step = global_step
        self._global_step_on_worker = None

    def _create_slots(self, var_list):
        for v in var_list:
            with get_default_graph().colocate_with(v.op):
                g_val = constant(0.0, shape=v.shape, dtype=v.dtype.base_dtype)
                gg_val = constant(self._initial_gradient_squared_accumulator_value,
                                  shape=v.shape, dtype=v.dtype.base_dtype)
            _slot_from_value(self, v, g_val, "gradient_accumulator")
            _slot_from_value(self, v, gg_val, "gradient_squared_accumulator")

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._learning_rate,
                                                       name="learning_rate")
        with get_default_graph().colocate_with(self._learning_rate_tensor.op):
            self._global_step_on_worker = array_ops.identity(self._global_step) + 1

    def _inputs(self, var, dtype):
        slots = [self.get_slot(var, "gradient_accumulator"),
                 self.get_slot(var, "gradient_squared_accumulator")]
        var_, g_acc, gg_acc = _handles_or_refs([var] + slots)
        with get_default_graph().device(var.device):
            global_step = array_ops.identity(self._global_step_on_worker)
        return dict(var=var_, gradient_accumulator=g_acc, gradient_squared_accumulator=gg_acc,
                    lr=math_ops.cast(self._learning_rate_tensor, dtype),
                    l1=math_ops.cast(self._l1, dtype), l2=math_ops.cast(self._l2, dtype),
                    global_step=global_step)

    def _apply_dense(self, grad, var):
        inputs = self._inputs(var, var.dtype.base_dtype)
        return _run("ApplyAdagradDA", var, dict(inputs, grad=grad), self._use_locking)

    def _resource_apply_dense(self, grad, var):
        inputs = self._inputs(var, grad.dtype.base_dtype)
        return _run("ApplyAdagradDA", var, dict(inputs, grad=grad), self._use_locking)

    def _apply_sparse(self, grad, var):
        inputs = self._inputs(var, var.dtype.base_dtype)
        return apply_op("SparseApplyAdagradDA", **inputs, grad=grad.values,
                        indices=grad.indices, use_locking=self._use_locking).op

    def _resource_apply_sparse(self, grad, var, indices):
        inputs = self._inputs(var, grad.dtype)
        return apply_op("ResourceSparseApplyAdagradDA", **inputs, grad=grad, indices=indices,
                        use_locking=self._use_locking)
