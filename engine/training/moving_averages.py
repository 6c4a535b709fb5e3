"""tf.train.ExponentialMovingAverage and assign_moving_average as TF 1.x builds them
(TensorFlow's training/moving_averages.py and slot_creator.py): a shadow variable
"<var>/ExponentialMovingAverage" per variable, initialised from the variable's value (a cond
on IsVariableInitialized), updated by shadow -= (shadow - var) * (1 - decay)."""

from engine.framework import dtypes
from engine.framework.default_graph import init_scope, name_scope
from engine.framework.graph import GraphKeys, add_to_collection, get_default_graph
from engine.ops import math_ops, state_ops
from engine.ops.control_flow.cond import cond
from engine.ops.control_flow.ops import group
from engine.ops.convert import convert_to_tensor
from engine.ops.init_ops import zeros_initializer
from engine.ops.variable_scope import get_variable, variable_scope
from engine.ops.variables import (Variable, global_variables, is_variable_initialized,
                                  moving_average_variables, trainable_variables)

_FLOATS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def assign_moving_average(variable, value, decay, zero_debias=True, name=None):
    """variable -= (variable - value) * (1 - decay); the AssignSub op (zero_debias=False)."""
    if zero_debias:
        raise NotImplementedError("assign_moving_average with zero_debias=True (TensorFlow's "
                                  "biased/local_step variables) is not supported yet; pass "
                                  "zero_debias=False")
    with name_scope(name, "AssignMovingAvg") as scope:
        decay = convert_to_tensor(1.0 - decay, name="decay")
        if decay.dtype != variable.dtype.base_dtype:
            decay = math_ops.cast(decay, variable.dtype.base_dtype)
        return state_ops.assign_sub(variable, (variable - value) * decay, name=scope)


def _slot(primary, value, name):
    """slot_creator.create_slot: a variable "<primary>/<name>" initialised to `value`."""
    with variable_scope(None, primary.op.name + "/" + name), \
            get_default_graph().colocate_with(primary.op):
        return get_variable("", initializer=value, trainable=False,
                            use_resource=isinstance(primary, Variable) and getattr(
                                primary, "_is_resource", False) or None,
                            validate_shape=value.get_shape().is_fully_defined())


def _zeros_slot(primary, name, colocate):
    with variable_scope(None, primary.op.name + "/" + name):
        scope = get_default_graph().colocate_with(primary.op) if colocate else _Nothing()
        with scope:
            return get_variable("", shape=primary.get_shape(), dtype=primary.dtype.base_dtype,
                                initializer=zeros_initializer(), trainable=False)


class _Nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


class ExponentialMovingAverage:
    """Shadow copies of variables (or tensors) that follow them with exponential decay."""

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        self._decay, self._num_updates = decay, num_updates
        self._zero_debias, self._name = zero_debias, name
        self._averages = {}

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Creates the shadow variables; returns the op that updates them all."""
        if var_list is None:
            var_list = trainable_variables()
        for var in var_list:
            if var.dtype.base_dtype not in _FLOATS:
                raise TypeError("The variables must be half, float, or double: %s" % var.name)
            if id(var) in self._averages:
                continue
            with init_scope():
                if isinstance(var, Variable):
                    initialized_value = cond(is_variable_initialized(var), var.read_value,
                                             lambda var=var: var.initial_value)
                    avg = _slot(var, initialized_value, self.name)
                    add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                else:
                    if self._zero_debias:
                        raise NotImplementedError("zero_debias moving averages of tensors are "
                                                  "not supported yet")
                    avg = _zeros_slot(var, self.name, var.op.type in (
                        "Variable", "VariableV2", "VarHandleOp"))
            self._averages[id(var)] = (var, avg)
        with name_scope(self.name) as scope:
            decay = convert_to_tensor(self._decay, dtype=dtypes.float32, name="decay")
            if self._num_updates is not None:
                num_updates = math_ops.cast(self._num_updates, dtypes.float32,
                                            name="num_updates")
                decay = math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = [assign_moving_average(self._averages[id(var)][1], var, decay,
                                             zero_debias=False) for var in var_list]
            return group(*updates, name=scope)

    def average(self, var):
        entry = self._averages.get(id(var))
        return None if entry is None else entry[1]

    def average_name(self, var):
        entry = self._averages.get(id(var))
        if entry is not None:
            return entry[1].name[:-len(":0")]
        return get_default_graph().unique_name(var.name[:-len(":0")] + "/" + self.name,
                                               mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables=None):
        """{checkpoint name: variable}: each averaged variable restored from its average."""
        name_map = {}
        if moving_avg_variables is None:
            moving_avg_variables = trainable_variables() + moving_average_variables()
        by_id = {id(v): v for v in moving_avg_variables}
        for v in by_id.values():
            name_map[self.average_name(v)] = v
        names = {v.name for v in by_id.values()}
        for v in global_variables():
            if v.name not in names and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map
