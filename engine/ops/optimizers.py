"""tf.train's optimizers (TF 1.x): Optimizer, GradientDescent, Momentum, Adam, RMSProp, Adagrad.

They build what TensorFlow's training/optimizer.py builds: "gradients/..." through
tf.gradients with GATE_OP, slot variables beside their primary ("<var>/Adam", "<var>/Adam_1"),
non-slot accumulators colocated with the first variable by name ("beta1_power"), and per
variable "<name>/update_<var>/Apply*" under the optimizer's name scope, grouped into one NoOp.
"""

from engine.framework import dtypes
from engine.framework.graph import GraphKeys, get_collection, get_collection_ref, get_default_graph
from engine.framework.graph import init_scope
from engine.ops import math_ops, sparse_updates
from engine.ops.control_flow.ops import group, tuple as _tuple
from engine.ops.convert import convert_to_tensor
from engine.ops.gradients import gradients
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.init_ops import constant_initializer
from engine.ops.init_ops import ones_initializer
from engine.ops.init_ops import zeros_initializer
from engine.ops.op_def_library import apply_op
from engine.ops.partitioned_variables import SaveSliceInfo
from engine.ops.variable_scope import get_variable, variable_scope
from engine.ops.variables import ResourceVariable, Variable, trainable_variables
from engine.framework.tensor import Tensor


# Called as callback(optimizer, variable) after an optimizer makes a slot or a non-slot
# variable: a tf.train.Checkpoint restore waiting for it adds its restore ops then, as
# TensorFlow's deferred restorations do.
VARIABLE_CREATED_CALLBACKS = []


def _created(optimizer, variable):
    for callback in list(VARIABLE_CREATED_CALLBACKS):
        callback(optimizer, variable)


def _outside_functions(graph):
    """The graph a tf.function's body is traced for (TensorFlow's init_scope leaves the
    function graph): non-slot variables live there."""
    while getattr(graph, "outer", None) is not None:
        graph = graph.outer
    return graph


def _var_key(var):
    return (var.op.graph, var.op.name)


def _is_resource(v):
    return isinstance(v, ResourceVariable) or (isinstance(v, Tensor)
                                               and v.op.type == "VarHandleOp")


def _partition_like(primary, slot):
    """slot_creator's slice info for the slot of a part of a partitioned variable: the slot is
    that part of the full slot `<full name>/<slot name>` (net/w/Momentum, not
    net/w/part_0/Momentum), so a checkpoint holds one full slot as TensorFlow's does. A slot of
    fewer dimensions takes as many of the part's; a scalar slot none."""
    info = getattr(primary, "_get_save_slice_info", lambda: None)()
    if info is None:
        return
    n = slot.shape.ndims
    if n is not None and n == 0:
        return
    slot_name = slot.name[len(primary.op.name + "/"):-2]
    slot._set_save_slice_info(SaveSliceInfo(
        info.full_name + "/" + slot_name, list(info.full_shape)[:n], list(info.var_offset)[:n],
        list(info.var_shape)[:n]))


class Optimizer:
    """The base class: compute_gradients, apply_gradients, minimize, slots."""

    GATE_NONE, GATE_OP, GATE_GRAPH = 0, 1, 2

    def __init__(self, use_locking, name):
        if not name:
            raise ValueError(f"Must specify the optimizer name, got {name!r}")
        self._use_locking = use_locking
        self._name = name
        self._slots = {}
        self._non_slot_dict = {}

    def get_name(self):
        return self._name

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        vars_with_grad = [v for g, v in grads_and_vars if g is not None]
        if not vars_with_grad:
            raise ValueError(
                f"No gradients provided for any variable, check your graph for ops that do "
                f"not support gradients, between variables "
                f"{[str(v) for _, v in grads_and_vars]} and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        if callable(loss):
            raise RuntimeError("The engine builds graphs: pass a loss Tensor, not a function")
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP,
                                  Optimizer.GATE_GRAPH):
            raise ValueError(f"gate_gradients must be one of: Optimizer.GATE_NONE, "
                             f"Optimizer.GATE_OP, Optimizer.GATE_GRAPH.  Not {gate_gradients}")
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            self._assert_valid_dtypes([grad_loss])
        if var_list is None:
            var_list = trainable_variables() + get_collection(
                GraphKeys.TRAINABLE_RESOURCE_VARIABLES)
        else:
            var_list = list(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        var_refs = [v if isinstance(v, Tensor) else v._ref() for v in var_list]
        grads = gradients(loss, var_refs, grad_ys=grad_loss,
                          gate_gradients=(gate_gradients == Optimizer.GATE_OP),
                          aggregation_method=aggregation_method,
                          colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gate_gradients == Optimizer.GATE_GRAPH:
            grads = _tuple(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars
                                   if g is not None and v.dtype != dtypes.resource])
        return grads_and_vars

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        for g, _ in grads_and_vars:
            if g is not None and not isinstance(g, (Tensor, IndexedSlices)):
                raise TypeError(f"Gradient must be a Tensor, IndexedSlices, or None: {g}")
        var_list = [v for g, v in grads_and_vars if g is not None]
        if not var_list:
            raise ValueError(f"No gradients provided for any variable: "
                             f"{[str(v) for _, v in grads_and_vars]}.")
        graph = get_default_graph()
        with init_scope():
            self._create_slots(var_list)
        update_ops = []
        with graph.name_scope(name or self._name) as name:
            self._prepare()
            for grad, var in grads_and_vars:
                if grad is None:
                    continue
                sparse = isinstance(grad, IndexedSlices)
                if sparse and not hasattr(self, "_resource_apply_sparse" if _is_resource(var)
                                          else "_apply_sparse"):
                    grad, sparse = convert_to_tensor(grad), False  # applied densely
                with graph.name_scope("update_" + var.op.name), graph.colocate_with(var.op):
                    if sparse and _is_resource(var):  # TensorFlow's processors' choice
                        update_ops.append(self._resource_apply_sparse_duplicate_indices(
                            grad.values, var, grad.indices))
                    elif sparse:
                        update_ops.append(self._apply_sparse_duplicate_indices(grad, var))
                    elif _is_resource(var):
                        update_ops.append(self._resource_apply_dense(grad, var))
                    else:
                        update_ops.append(self._apply_dense(grad, var))
            if global_step is None:
                apply_updates = self._finish(update_ops, name)
            else:
                with graph.control_dependencies([self._finish(update_ops, "update")]):
                    with graph.colocate_with(global_step.op):
                        if _is_resource(global_step):
                            apply_updates = apply_op(
                                "AssignAddVariableOp", resource=global_step.handle,
                                value=convert_to_tensor(1, dtype=global_step.dtype), name=name)
                        else:
                            apply_updates = apply_op("AssignAdd", ref=global_step._ref(),
                                                     value=1, name=name)
            if isinstance(apply_updates, Tensor):
                apply_updates = apply_updates.op
            train_op = get_collection_ref(GraphKeys.TRAIN_OP)
            if apply_updates not in train_op:
                train_op.append(apply_updates)
            return apply_updates

    # -- slots --

    def get_slot_names(self):
        return sorted(self._slots)

    def get_slot(self, var, name):
        named_slots = self._slots.get(name)
        if not named_slots:
            return None
        return named_slots.get(_var_key(var))

    def variables(self):
        current = _outside_functions(get_default_graph())
        slots = [v for d in self._slots.values() for v in d.values()]
        non_slots = [v for (n, g), v in self._non_slot_dict.items() if g is current]
        return sorted(non_slots, key=lambda v: v.name) + slots

    def _slot_dict(self, slot_name):
        return self._slots.setdefault(slot_name, {})

    def _make_slot(self, var, slot_name, op_name, initializer, shape, dtype):
        named_slots = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named_slots:
            graph = get_default_graph()
            with variable_scope(None, default_name=var.op.name + "/" + op_name), \
                    graph.colocate_with(var.op):
                named_slots[key] = get_variable(
                    "", shape=shape, dtype=dtype, initializer=initializer, trainable=False,
                    use_resource=_is_resource(var), validate_shape=shape.is_fully_defined())
            _partition_like(var, named_slots[key])
            _created(self, named_slots[key])
        return named_slots[key]

    def _zeros_slot(self, var, slot_name, op_name):
        return self._make_slot(var, slot_name, op_name, zeros_initializer(), var.shape,
                               var.dtype.base_dtype)

    def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name,
                                           op_name):
        return self._make_slot(var, slot_name, op_name, initializer, shape, dtype)

    def _get_or_make_slot_from_value(self, var, value, slot_name):
        """slot_creator.create_slot: the slot `var/<name>` initialized from tensor `value`."""
        named_slots = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named_slots:
            graph = get_default_graph()
            with variable_scope(None, default_name=var.op.name + "/" + self._name), \
                    graph.colocate_with(var.op):
                named_slots[key] = get_variable(
                    "", initializer=value, trainable=False, use_resource=_is_resource(var),
                    validate_shape=value.shape.is_fully_defined())
            _partition_like(var, named_slots[key])
            _created(self, named_slots[key])
        return named_slots[key]

    def _create_non_slot_variable(self, initial_value, name, colocate_with):
        graph = colocate_with.graph
        key = (name, graph)
        v = self._non_slot_dict.get(key)
        if v is None:
            with graph.colocate_with(colocate_with.op):
                v = Variable(initial_value, name=name, trainable=False,
                             use_resource=_is_resource(colocate_with))
            self._non_slot_dict[key] = v
            _created(self, v)
        return v

    def _get_non_slot_variable(self, name, graph=None):
        return self._non_slot_dict.get((name, graph))

    # -- what subclasses fill in --

    def _valid_dtypes(self):
        return {dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64}

    def _assert_valid_dtypes(self, tensors):
        valid = self._valid_dtypes()
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in valid:
                raise ValueError(f"Invalid type {dtype!r} for {t.name}, expected: "
                                 f"{sorted(valid, key=lambda d: d.name)}.")

    def _create_slots(self, var_list):
        pass

    def _prepare(self):
        pass

    def _apply_dense(self, grad, var):
        raise NotImplementedError()

    # IndexedSlices gradients: duplicates summed, then the optimizer's sparse update
    _apply_sparse_duplicate_indices = sparse_updates.apply_sparse_duplicate_indices
    _resource_apply_sparse_duplicate_indices = (
        sparse_updates.resource_apply_sparse_duplicate_indices)

    def _resource_apply_dense(self, grad, handle):
        raise NotImplementedError()

    def _finish(self, update_ops, name_scope):
        return group(*update_ops, name=name_scope)

    @staticmethod
    def _call_if_callable(param):
        return param() if callable(param) else param

    def _cast(self, value, var):
        if isinstance(value, ResourceVariable) and value.dtype == var.dtype.base_dtype:
            return value  # read where the apply op converts it, as TensorFlow's cast leaves it
        return math_ops.cast(value, var.dtype.base_dtype)

    def _apply(self, op_type, var, slots, scalars, grad, **attrs):
        """The Apply* op on a ref variable, or ResourceApply* on a resource variable."""
        if _is_resource(var):
            handles = [s.handle for s in [var] + slots]
            names = _RESOURCE_ARGS[op_type]
            return apply_op("Resource" + op_type, **dict(zip(names, handles + scalars + [grad])),
                            use_locking=self._use_locking, **attrs)
        names = _REF_ARGS[op_type]
        refs = [s._ref() for s in [var] + slots]
        return apply_op(op_type, **dict(zip(names, refs + scalars + [grad])),
                        use_locking=self._use_locking, **attrs).op


_REF_ARGS = {
    "ApplyGradientDescent": ["var", "alpha", "delta"],
    "ApplyMomentum": ["var", "accum", "lr", "grad", "momentum"],
    "ApplyAdam": ["var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2",
                  "epsilon", "grad"],
    "ApplyRMSProp": ["var", "ms", "mom", "lr", "rho", "momentum", "epsilon", "grad"],
    "ApplyCenteredRMSProp": ["var", "mg", "ms", "mom", "lr", "rho", "momentum", "epsilon",
                             "grad"],
    "ApplyAdagrad": ["var", "accum", "lr", "grad"],
}
_RESOURCE_ARGS = _REF_ARGS


class GradientDescentOptimizer(Optimizer):
    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._learning_rate_tensor = None

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")

    def _apply_dense(self, grad, var):
        return self._apply("ApplyGradientDescent", var, [],
                           [self._cast(self._learning_rate_tensor, var)], grad)

    _resource_apply_dense = _apply_dense

    # The rows' updates scattered into the variable (ScatterSub, ResourceScatterAdd), as
    # TF 1.x does, duplicates and all.
    _apply_sparse_duplicate_indices = (
        sparse_updates.gradient_descent_apply_sparse_duplicate_indices)
    _apply_sparse = _apply_sparse_duplicate_indices
    _resource_apply_sparse_duplicate_indices = (
        sparse_updates.gradient_descent_resource_apply_sparse_duplicate_indices)
    _resource_apply_sparse = _resource_apply_sparse_duplicate_indices


class MomentumOptimizer(Optimizer):
    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
                 use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate, self._momentum = learning_rate, momentum
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")
        self._momentum_tensor = convert_to_tensor(self._call_if_callable(self._momentum),
                                                  name="momentum")

    def _apply_dense(self, grad, var):
        mom = self.get_slot(var, "momentum")
        # ApplyMomentum takes (var, accum, lr, grad, momentum): grad before momentum.
        op_type = "ApplyMomentum"
        lr = self._cast(self._learning_rate_tensor, var)
        momentum = self._cast(self._momentum_tensor, var)
        if _is_resource(var):
            return apply_op("ResourceApplyMomentum", var=var.handle, accum=mom.handle, lr=lr,
                            grad=grad, momentum=momentum, use_locking=self._use_locking,
                            use_nesterov=self._use_nesterov)
        return apply_op(op_type, var=var._ref(), accum=mom._ref(), lr=lr, grad=grad,
                        momentum=momentum, use_locking=self._use_locking,
                        use_nesterov=self._use_nesterov).op

    _resource_apply_dense = _apply_dense
    _apply_sparse = sparse_updates.momentum_apply_sparse
    _resource_apply_sparse = sparse_updates.momentum_resource_apply_sparse


class AdamOptimizer(Optimizer):
    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam"):
        super().__init__(use_locking, name)
        self._lr, self._beta1, self._beta2, self._epsilon = (learning_rate, beta1, beta2,
                                                             epsilon)

    def _get_beta_accumulators(self):
        graph = _outside_functions(get_default_graph())
        return (self._get_non_slot_variable("beta1_power", graph=graph),
                self._get_non_slot_variable("beta2_power", graph=graph))

    def _create_slots(self, var_list):
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(self._beta1, "beta1_power", first_var)
        self._create_non_slot_variable(self._beta2, "beta2_power", first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _prepare(self):
        self._lr_t = convert_to_tensor(self._call_if_callable(self._lr), name="learning_rate")
        self._beta1_t = convert_to_tensor(self._call_if_callable(self._beta1), name="beta1")
        self._beta2_t = convert_to_tensor(self._call_if_callable(self._beta2), name="beta2")
        self._epsilon_t = convert_to_tensor(self._call_if_callable(self._epsilon),
                                            name="epsilon")

    def _apply_dense(self, grad, var):
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        beta1_power, beta2_power = self._get_beta_accumulators()
        scalars = [self._cast(t, var) for t in (beta1_power, beta2_power, self._lr_t,
                                                self._beta1_t, self._beta2_t, self._epsilon_t)]
        return self._apply("ApplyAdam", var, [m, v], scalars, grad)

    _resource_apply_dense = _apply_dense
    _apply_sparse = sparse_updates.adam_apply_sparse
    _resource_apply_sparse = sparse_updates.adam_resource_apply_sparse

    def _finish(self, update_ops, name_scope):
        graph = get_default_graph()
        with graph.control_dependencies(update_ops):
            beta1_power, beta2_power = self._get_beta_accumulators()
            with graph.colocate_with(beta1_power.op):
                update_beta1 = beta1_power.assign(beta1_power * self._beta1_t,
                                                  use_locking=self._use_locking)
                update_beta2 = beta2_power.assign(beta2_power * self._beta2_t,
                                                  use_locking=self._use_locking)
        return group(*update_ops + [update_beta1, update_beta2], name=name_scope)


class RMSPropOptimizer(Optimizer):
    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, name="RMSProp"):
        super().__init__(use_locking, name)
        self._learning_rate, self._decay = learning_rate, decay
        self._momentum, self._epsilon, self._centered = momentum, epsilon, centered

    def _create_slots(self, var_list):
        for v in var_list:
            self._get_or_make_slot_with_initializer(
                v, ones_initializer(dtype=v.dtype.base_dtype), v.shape, v.dtype.base_dtype,
                "rms", self._name)
            if self._centered:
                self._zeros_slot(v, "mg", self._name)
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        call = self._call_if_callable
        self._learning_rate_tensor = convert_to_tensor(call(self._learning_rate),
                                                       name="learning_rate")
        self._decay_tensor = convert_to_tensor(call(self._decay), name="decay")
        self._momentum_tensor = convert_to_tensor(call(self._momentum), name="momentum")
        self._epsilon_tensor = convert_to_tensor(call(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        scalars = [self._cast(t, var) for t in (self._learning_rate_tensor, self._decay_tensor,
                                                self._momentum_tensor, self._epsilon_tensor)]
        if self._centered:
            return self._apply("ApplyCenteredRMSProp", var,
                               [self.get_slot(var, "mg"), rms, mom], scalars, grad)
        return self._apply("ApplyRMSProp", var, [rms, mom], scalars, grad)

    _resource_apply_dense = _apply_dense
    _apply_sparse = sparse_updates.rms_prop_apply_sparse
    _resource_apply_sparse = sparse_updates.rms_prop_resource_apply_sparse


class AdagradOptimizer(Optimizer):
    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: "
                             f"{initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value

    def _create_slots(self, var_list):
        for v in var_list:
            dtype = v.dtype.base_dtype
            self._get_or_make_slot_with_initializer(
                v, constant_initializer(self._initial_accumulator_value, dtype=dtype),
                v.shape, dtype, "accumulator", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")

    def _apply_dense(self, grad, var):
        return self._apply("ApplyAdagrad", var, [self.get_slot(var, "accumulator")],
                           [self._cast(self._learning_rate_tensor, var)], grad)

    _resource_apply_dense = _apply_dense
    _apply_sparse = sparse_updates.adagrad_apply_sparse
    _resource_apply_sparse = sparse_updates.adagrad_resource_apply_sparse


__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer",
           "RMSPropOptimizer", "AdagradOptimizer"]
