"""tf.layers.Layer as TF 1.x's legacy layers scope it: a layer's variables live in one
variable scope ("dense", "dense_1", or its name), its ops in that scope's name scope."""

import re

from engine.framework.graph import GraphKeys, add_to_collection, get_collection, get_default_graph
from engine.layers.input_spec import assert_input_compatibility
from engine.ops import variable_scope as vs
from engine.ops.control_flow.cond import cond
from engine.ops.convert import convert_to_tensor
from engine.framework.tensor import Tensor
from engine.framework.tensor_util import constant_value


def snake_case(name):
    """A class name as TensorFlow's layer names it: Conv2D -> conv2d, MaxPooling2D ->
    max_pooling2d, BatchNormalization -> batch_normalization."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()


def smart_cond(pred, true_fn, false_fn, name=None):
    """true_fn() or false_fn() where `pred` is known when the graph is built, else a cond."""
    if isinstance(pred, Tensor):
        value = constant_value(pred)
        if value is None:
            return cond(pred, true_fn, false_fn, name=name)
        pred = bool(value)
    return true_fn() if pred else false_fn()


class Layer:
    """Builds its variables on the first call, reuses them on later calls."""

    def __init__(self, trainable=True, name=None, dtype=None, _reuse=None, _scope=None,
                 **kwargs):
        self.trainable = trainable
        self._reuse = _reuse
        self.built = False
        self.dtype = dtype
        self._base_name = name or snake_case(type(self).__name__)
        self.name = name or self._base_name
        self._scope = None
        self._current_scope = None
        self._trainable_weights, self._non_trainable_weights = [], []
        self._updates, self._losses = [], []
        if _scope:
            with vs.variable_scope(_scope) as captured:
                self._scope = captured

    @property
    def trainable_weights(self):
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return list(self._non_trainable_weights)
        return self._trainable_weights + self._non_trainable_weights

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def updates(self):
        return list(self._updates)

    @property
    def losses(self):
        return list(self._losses)

    @property
    def scope_name(self):
        if not self._scope:
            raise ValueError(f'No name available for layer scope because the layer "'
                             f'{self.name}" has not been used yet. The scope name  is determined '
                             f'the first time the layer instance is called. You must therefore '
                             f'call the layer before querying `scope_name`.')
        return self._scope.name

    def _set_scope(self, scope=None):
        if self._scope is None:
            if self._reuse:
                with vs.variable_scope(scope if scope is not None else self._base_name) as s:
                    self._scope = s
            else:
                with vs.variable_scope(scope, default_name=self._base_name) as s:
                    self._scope = s

    def _name_scope(self):
        return self._current_scope.original_name_scope

    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None,
                   trainable=True, constraint=None, use_resource=None, **kwargs):
        self._set_scope(None)
        reuse = self.built or self._reuse
        graph = get_default_graph()
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with graph.name_scope(self._name_scope()):
                existing = set(graph.get_collection(GraphKeys.GLOBAL_VARIABLES))
                variable = vs.get_variable(name, shape, dtype=dtype or self.dtype,
                                           initializer=initializer or scope.initializer,
                                           trainable=trainable and self.trainable,
                                           use_resource=use_resource)
                if regularizer is not None and variable not in existing:
                    with graph.name_scope(f"{name}/Regularizer"):
                        loss = regularizer(variable)
                    if loss is not None:
                        self._losses.append(loss)
                        add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
        (self._trainable_weights if trainable and self.trainable
         else self._non_trainable_weights).append(variable)
        return variable

    def add_update(self, updates):
        for update in updates if isinstance(updates, (list, tuple)) else [updates]:
            update = update() if callable(update) else update
            self._updates.append(getattr(update, "op", update))

    def build(self, input_shape):
        self.built = True

    def call(self, inputs, **kwargs):
        return inputs

    def apply(self, inputs, *args, **kwargs):
        return self(inputs, *args, **kwargs)

    def __call__(self, inputs, *args, **kwargs):
        scope = kwargs.pop("scope", None)
        self._set_scope(scope)
        graph = get_default_graph()
        reuse = True if self.built else self._reuse
        assert_input_compatibility(getattr(self, "input_spec", None), inputs, self.name)
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with graph.name_scope(self._name_scope()):
                inputs = convert_to_tensor(inputs)
                if not self.built:
                    if self.dtype is None:
                        self.dtype = inputs.dtype.base_dtype
                    self.build(inputs.shape)
                    self.built = True
                outputs = self.call(inputs, *args, **kwargs)
        collected = get_collection(GraphKeys.UPDATE_OPS)
        for update in self._updates:
            if update not in collected:
                add_to_collection(GraphKeys.UPDATE_OPS, update)
        return outputs
