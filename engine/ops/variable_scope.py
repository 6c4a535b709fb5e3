"""tf.variable_scope and tf.get_variable: named variable reuse, as TF 1.x's variable store."""

import contextlib
import threading

from engine.framework import dtypes
from engine.framework.graph import get_default_graph, init_scope
from engine.ops import init_ops
from engine.platform import tf_logging
from engine.ops.variables import Variable, resource_variables_enabled
from engine.framework.tensor_shape import as_shape

AUTO_REUSE = object()
_local = threading.local()


class VariableScope:
    """A variable scope: its name, reuse flag, defaults, and the name scope it opened."""

    def __init__(self, reuse, name="", initializer=None, dtype=dtypes.float32,
                 use_resource=None, name_scope="", regularizer=None, caching_device=None,
                 partitioner=None, custom_getter=None, constraint=None):
        self._name, self._reuse, self._initializer = name, reuse, initializer
        self._dtype, self._use_resource, self._name_scope = dtype, use_resource, name_scope
        self._regularizer, self._caching_device = regularizer, caching_device
        self._partitioner, self._custom_getter = partitioner, custom_getter
        self._constraint = constraint

    @property
    def name(self):
        return self._name

    @property
    def original_name_scope(self):
        return self._name_scope

    @property
    def reuse(self):
        return self._reuse

    @property
    def initializer(self):
        return self._initializer

    @property
    def dtype(self):
        return self._dtype

    @property
    def use_resource(self):
        return self._use_resource

    def reuse_variables(self):
        self._reuse = True

    def set_initializer(self, initializer):
        self._initializer = initializer

    def set_dtype(self, dtype):
        self._dtype = dtype

    def set_use_resource(self, use_resource):
        self._use_resource = use_resource

    def get_variable(self, var_store, name, shape=None, dtype=None, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None,
                     caching_device=None, partitioner=None, validate_shape=True,
                     use_resource=None, custom_getter=None, constraint=None, **kwargs):
        if reuse is None:
            reuse = self._reuse
        if initializer is None:
            initializer = self._initializer
        if use_resource is None:
            use_resource = self._use_resource
        if dtype is None:
            dtype = self._dtype
        full_name = f"{self._name}/{name}" if self._name else name
        with get_default_graph().name_scope(None):
            return var_store.get_variable(full_name, shape, dtype, initializer, reuse,
                                          trainable, collections, validate_shape,
                                          use_resource)


class _VariableStore:
    """The variables get_variable made in one graph, by full name."""

    def __init__(self):
        self._vars = {}
        self.scope_counts = {}  # full scope name -> times opened (TF's variable_scopes_count)

    def unique_scope_name(self, parent_name, prefix):
        """`prefix`, or `prefix_1`, `prefix_2`, ...: the first not yet opened under parent."""
        name = f"{parent_name}/{prefix}" if parent_name else prefix
        if self.scope_counts.get(name, 0) == 0:
            return prefix
        idx = 1
        while self.scope_counts.get(f"{name}_{idx}", 0) > 0:
            idx += 1
        return f"{prefix}_{idx}"

    def close_subscopes(self, scope_name):
        """Leaving a scope forgets the scopes opened inside it, as TensorFlow's store does."""
        prefix = scope_name + "/"
        for key in self.scope_counts:
            if key.startswith(prefix):
                self.scope_counts[key] = 0

    def get_variable(self, name, shape, dtype, initializer, reuse, trainable, collections,
                     validate_shape, use_resource):
        dtype = dtypes.as_dtype(dtype)
        shape = None if shape is None else as_shape(shape)
        if name in self._vars:
            if reuse is False or reuse is None:
                raise ValueError(f"Variable {name} already exists, disallowed. Did you mean to "
                                 f"set reuse=True or reuse=tf.AUTO_REUSE in VarScope? "
                                 f"Originally defined at:\n\n")
            found = self._vars[name]
            if shape is not None and not shape.is_compatible_with(found.shape):
                raise ValueError(f"Trying to share variable {name}, but specified shape {shape} "
                                 f"and found shape {found.shape}.")
            if dtype != found.dtype.base_dtype:
                raise ValueError(f"Trying to share variable {name}, but specified dtype "
                                 f"{dtype.name} and found dtype {found.dtype.base_dtype.name}.")
            return found
        if reuse is True:
            raise ValueError(f"Variable {name} does not exist, or was not created with "
                             f"tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                             f"VarScope?")
        if initializer is None:
            if dtype.is_floating:
                initializer = init_ops.glorot_uniform_initializer()
            elif dtype.is_integer or dtype.is_unsigned or dtype.is_bool:
                initializer = init_ops.zeros_initializer()
            else:
                raise ValueError(f"An initializer for variable {name} of {dtype.base_dtype!r} "
                                 f"is required")
        with init_scope():
            if isinstance(initializer, type):
                initializer = initializer()
            if callable(initializer):
                if shape is None or not shape.is_fully_defined():
                    raise ValueError(f"Shape of a new variable ({name}) must be fully defined, "
                                     f"but instead was {shape}.")
                shape_list = shape.as_list()

                def init_val():
                    return initializer(shape_list, dtype=dtype)
                variable_dtype = dtype
            else:
                init_val, variable_dtype = initializer, None
        if use_resource is None:
            use_resource = resource_variables_enabled()
        variable = Variable(initial_value=init_val, name=name, trainable=trainable,
                            collections=collections, dtype=variable_dtype,
                            validate_shape=validate_shape, use_resource=use_resource)
        self._vars[name] = variable
        return variable


def _store():
    graph = get_default_graph()
    if graph._variable_scope_stores is None:
        graph._variable_scope_stores = (_VariableStore(), [VariableScope(False)])
    return graph._variable_scope_stores


def get_variable_scope():
    return _store()[1][-1]


def _get_default_variable_store():
    return _store()[0]


def stored_variables():
    """The default variable store's variables by full name (get_variable's), as
    tf.train.init_from_checkpoint looks names up in them."""
    return _store()[0]._vars


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 **kwargs):
    store, scopes = _store()
    return scopes[-1].get_variable(store, name, shape=shape, dtype=dtype,
                                   initializer=initializer, trainable=trainable,
                                   collections=collections, validate_shape=validate_shape,
                                   use_resource=use_resource)


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       trainable=False, collections=None, caching_device=None,
                       partitioner=None, validate_shape=True, use_resource=None,
                       custom_getter=None, constraint=None, **kwargs):
    """tf.get_local_variable: get_variable into LOCAL_VARIABLES, never trainable."""
    from engine.framework.graph import GraphKeys
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                        regularizer=regularizer, trainable=False, collections=collections,
                        validate_shape=validate_shape, use_resource=use_resource)


def no_regularizer(_):
    """A regularizer that adds no loss (a variable_scope's regularizer=tf.no_regularizer)."""
    return None


@contextlib.contextmanager
def variable_op_scope(values, name_or_scope, default_name=None, initializer=None,
                      regularizer=None, caching_device=None, partitioner=None,
                      custom_getter=None, reuse=None, dtype=None, use_resource=None,
                      constraint=None):
    """tf.variable_op_scope: the deprecated variable_scope with `values` first."""
    tf_logging.warn("tf.variable_op_scope(values, name, default_name) is deprecated, use "
                    "tf.variable_scope(name, default_name, values)")
    with variable_scope(name_or_scope, default_name=default_name, values=values,
                        initializer=initializer, regularizer=regularizer,
                        caching_device=caching_device, partitioner=partitioner,
                        custom_getter=custom_getter, reuse=reuse, dtype=dtype,
                        use_resource=use_resource, constraint=constraint) as scope:
        yield scope


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None,
                   regularizer=None, caching_device=None, partitioner=None,
                   custom_getter=None, reuse=None, dtype=None, use_resource=None,
                   constraint=None, auxiliary_name_scope=True):
    """Opens a variable scope (and a name scope for the ops built inside)."""
    store, scopes = _store()
    parent = scopes[-1]
    graph = get_default_graph()
    if reuse is False:
        reuse = None
    if name_or_scope is None and default_name is None:
        raise TypeError("If default_name is None then name_or_scope is required")
    saved_counts = None
    if isinstance(name_or_scope, VariableScope):
        scope_name = name_or_scope.name
        name_scope = name_or_scope.original_name_scope
        base = name_or_scope
        saved_counts = dict(store.scope_counts)
    else:
        if name_or_scope is not None:
            relative = name_or_scope
        else:
            relative = store.unique_scope_name(parent.name, default_name)
        scope_name = f"{parent.name}/{relative}" if parent.name else relative
        name_scope = None
        base = parent
    store.scope_counts[scope_name] = store.scope_counts.get(scope_name, 0) + 1
    # AUTO_REUSE stays the scope's reuse (get or create), inherited by its sub-scopes as
    # TensorFlow's; made True here, a tf.layers call's first build under it found nothing.
    if reuse is None:
        new_reuse = base.reuse if isinstance(name_or_scope, VariableScope) else parent.reuse
    else:
        new_reuse = reuse
    if parent.reuse is True:
        new_reuse = True
    if auxiliary_name_scope:
        # A captured VariableScope re-entered opens a new name scope named as its last
        # component (relative, uniquified), as TensorFlow's; its original_name_scope stays.
        # A new scope's name scope is its whole relative name ("w0/Adam" for an optimizer's
        # slot, not "Adam", which would take the name the optimizer's own scope needs).
        last = scope_name.split("/")[-1] if isinstance(name_or_scope, VariableScope) \
            else relative
        ns = graph.name_scope(last) if last else contextlib.nullcontext(
            graph.get_name_scope() + "/" if graph.get_name_scope() else "")
    else:
        ns = contextlib.nullcontext(graph.get_name_scope() + "/" if graph.get_name_scope()
                                    else "")
    with ns as opened:
        scope = VariableScope(
            new_reuse, name=scope_name,
            initializer=initializer if initializer is not None else base.initializer,
            dtype=dtype if dtype is not None else base.dtype,
            use_resource=use_resource if use_resource is not None else base.use_resource,
            name_scope=name_scope or opened)
        scopes.append(scope)
        try:
            yield scope
        finally:
            scopes.pop()
            if saved_counts is not None:
                store.scope_counts = saved_counts
            else:
                store.close_subscopes(scope_name)

