"""tf.Module: a named container whose variables and submodules are found by walking its
attributes, as TensorFlow's module.py walks them (sorted attribute names, nested lists,
tuples and dicts, submodules after the module's own values, each object once)."""

import functools
import re

from engine.framework.graph import get_default_graph
from engine.ops.variables import Variable

_IGNORED = frozenset(("_self_unconditional_checkpoint_dependencies",
                      "_self_unconditional_dependency_names"))
_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")


class _ModuleNameScope:
    """The name scope a module opened when it was made, entered again as an absolute scope."""

    def __init__(self, scope_name):
        self.name = scope_name
        self._context = None

    def __enter__(self):
        self._context = get_default_graph().name_scope(self.name)
        return self._context.__enter__()

    def __exit__(self, *exc):
        context, self._context = self._context, None
        return context.__exit__(*exc)


class Module:
    """tf.Module: name, name_scope, and the variables and submodules it holds."""

    _TF_MODULE_IGNORED_PROPERTIES = _IGNORED

    def __init__(self, name=None):
        if name is None:
            name = _CAMEL_TO_SNAKE.sub(r"_\1", type(self).__name__).lower()
        elif not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be "
                             f"valid Python identifiers (e.g. a valid class name).")
        self._name = name
        with get_default_graph().name_scope(name) as scope_name:
            self._name_scope = _ModuleNameScope(scope_name)

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        return self._name_scope

    @property
    def variables(self):
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(predicate=_is_trainable_variable))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(predicate=_is_non_trainable_variable))

    @property
    def submodules(self):
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None,
                 with_path=False, expand_composites=False):
        predicate = predicate or (lambda _: True)
        ignored = getattr(self, "_TF_MODULE_IGNORED_PROPERTIES", _IGNORED)
        return _flatten_module(self, recursive, predicate, attribute_traversal_key, ignored,
                               with_path, (), {id(self)})

    @classmethod
    def with_name_scope(cls, method):
        """`method` run inside its module's name scope."""
        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return method_with_name_scope


def _is_variable(obj):
    return isinstance(obj, Variable)


def _is_trainable_variable(obj):
    return _is_variable(obj) and getattr(obj, "trainable", False)


def _is_non_trainable_variable(obj):
    return _is_variable(obj) and not getattr(obj, "trainable", False)


def _is_module(obj):
    return isinstance(obj, Module)


def _leaves_with_paths(value, path=()):
    if isinstance(value, dict):
        for key in sorted(value):
            yield from _leaves_with_paths(value[key], path + (key,))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _leaves_with_paths(item, path + (index,))
    else:
        yield path, value


def _flatten_module(module, recursive, predicate, traversal_key, ignored, with_path,
                    module_path, seen):
    submodules = []
    for key in sorted(vars(module), key=traversal_key):
        if key in ignored:
            continue
        for leaf_path, leaf in _leaves_with_paths(vars(module)[key], (key,)):
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            if predicate(leaf):
                yield (module_path + leaf_path, leaf) if with_path else leaf
            if recursive and _is_module(leaf):
                submodules.append((module_path + leaf_path, leaf))
    for path, submodule in submodules:
        yield from _flatten_module(submodule, recursive, predicate, traversal_key, ignored,
                                   with_path, path, seen)


__all__ = ["Module"]
