"""tf.make_template: a function whose variables are made on its first call and shared after,
as TensorFlow's template.Template in graph mode."""

import functools
import traceback

from engine.framework.default_graph import get_collection, get_collection_ref
from engine.framework.graph_keys import GraphKeys
from engine.ops import variable_scope as vs
from engine.platform import tf_logging


def make_template(name_, func_, create_scope_now_=False, unique_name_=None,
                  custom_getter_=None, **kwargs):
    """Wraps `func_` (with `kwargs` bound) so that every call after the first reuses the
    variables the first made, under one variable scope named `name_` (made unique)."""
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    return Template(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                    custom_getter=custom_getter_)


def _skip_common_stack_elements(stacktrace, base_case):
    for i, (trace, base) in enumerate(zip(stacktrace, base_case)):
        if trace != base:
            return stacktrace[i:]
    return stacktrace[-1:]


class Template:
    """A function that makes its variables once; see make_template."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None,
                 custom_getter=None):
        if name is None:
            raise ValueError("name cannot be None.")
        self._func = func
        self._stacktrace = traceback.format_stack()[:-2]
        self._name, self._unique_name, self._custom_getter = name, unique_name, custom_getter
        self._variable_scope = None
        if create_scope_now:
            store, scopes = vs._store()
            with vs.variable_scope(
                    unique_name or store.unique_scope_name(scopes[-1].name, name),
                    custom_getter=custom_getter, auxiliary_name_scope=False) as scope:
                self._variable_scope = scope
        self._variables_created = False
        self._first_call = True

    def _call_func(self, args, kwargs):
        try:
            if self._variables_created:
                vars_at_start = len(get_collection_ref(GraphKeys.GLOBAL_VARIABLES))
                trainable_at_start = len(get_collection_ref(GraphKeys.TRAINABLE_VARIABLES))
                result = self._func(*args, **kwargs)
                trainable = get_collection_ref(GraphKeys.TRAINABLE_VARIABLES)
                if trainable_at_start != len(trainable):
                    raise ValueError("Trainable variable created when calling a template after "
                                     "the first time, perhaps you used tf.Variable when you "
                                     "meant tf.get_variable: %s"
                                     % (trainable[trainable_at_start:],))
                variables = get_collection_ref(GraphKeys.GLOBAL_VARIABLES)
                if vars_at_start != len(variables):
                    tf_logging.info("New variables created when calling a template after the "
                                    "first time, perhaps you used tf.Variable when you meant "
                                    "tf.get_variable: %s", variables[vars_at_start:])
            elif self._first_call:
                self._first_call = False
                try:
                    result = self._func(*args, **kwargs)
                except BaseException:
                    self._first_call = True
                    raise
                self._variables_created = True
            else:  # called again from another thread while the first call runs
                result = self._func(*args, **kwargs)
            return result
        except Exception as exc:
            arg0 = exc.args[0] if exc.args else ""
            trace = "".join(_skip_common_stack_elements(self._stacktrace,
                                                        traceback.format_stack()))
            exc.args = ("%s\n\noriginally defined at:\n%s" % (arg0, trace), *exc.args[1:])
            raise

    def __call__(self, *args, **kwargs):
        if self._variable_scope:
            with vs.variable_scope(self._variable_scope, reuse=not self._first_call):
                return self._call_func(args, kwargs)
        with vs.variable_scope(self._unique_name, self._name,
                               custom_getter=self._custom_getter) as scope:
            self._variable_scope = scope
            return self._call_func(args, kwargs)

    @property
    def name(self):
        return self._name

    @property
    def func(self):
        return self._func

    @property
    def variable_scope(self):
        return self._variable_scope

    @property
    def variable_scope_name(self):
        if self._variable_scope:
            name = self._variable_scope.name
            return name if not name or name[-1] == "/" else name + "/"
        return None

    def _created(self, key):
        return get_collection(key, self.variable_scope_name) if self._variables_created else []

    @property
    def global_variables(self):
        return self._created(GraphKeys.GLOBAL_VARIABLES)

    @property
    def local_variables(self):
        return self._created(GraphKeys.LOCAL_VARIABLES)

    @property
    def trainable_variables(self):
        return self._created(GraphKeys.TRAINABLE_VARIABLES)

    @property
    def variables(self):
        return self.global_variables + self.local_variables

    @property
    def non_trainable_variables(self):
        trainable = set(self.trainable_variables)
        return [v for v in self.global_variables if v not in trainable]

    weights = variables
    trainable_weights = trainable_variables
    non_trainable_weights = non_trainable_variables

    @property
    def var_scope(self):
        return self._variable_scope
