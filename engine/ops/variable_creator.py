"""tf.variable_creator_scope: creators tf.Variable (and so tf.get_variable) calls in turn.

A creator is `creator(next_creator, **kwargs)`; the innermost scope's runs first and may
change the arguments, call `next_creator(**kwargs)` or make the variable some other way. The
stack belongs to the default graph, as TensorFlow's does; a function graph starts with its
outer graph's.
"""

import contextlib

from engine.framework.graph import get_default_graph

# The arguments tf.Variable passes every creator (TensorFlow's VariableV1 call), defaults first.
VARIABLE_ARGUMENTS = {
    "initial_value": None, "trainable": None, "collections": None, "validate_shape": True,
    "caching_device": None, "name": None, "variable_def": None, "dtype": None,
    "expected_shape": None, "import_scope": None, "constraint": None, "use_resource": None,
    "synchronization": None, "aggregation": None, "shape": None,
    "experimental_enable_variable_lifting": True}


def creator_stack(graph=None):
    graph = get_default_graph() if graph is None else graph
    stack = graph.__dict__.get("_variable_creator_stack")
    if stack is None:
        outer = getattr(graph, "outer", None)
        stack = list(creator_stack(outer)) if outer is not None else []
        graph.__dict__["_variable_creator_stack"] = stack
    return stack


@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """Makes `variable_creator` the first creator tf.Variable calls inside the block."""
    stack = creator_stack()
    stack.append(variable_creator)
    try:
        yield
    finally:
        stack.remove(variable_creator)


def create_variable(base_creator, args, kwargs):
    """tf.Variable(*args, **kwargs) through the default graph's creators, innermost first."""
    names = list(VARIABLE_ARGUMENTS)
    arguments = dict(VARIABLE_ARGUMENTS)
    arguments.update(zip(names, args))
    arguments.update(kwargs)
    creators = list(creator_stack())
    if not creators:
        return base_creator(**arguments)

    def chain(index):
        if index < 0:
            return lambda **kw: base_creator(**kw)
        return lambda **kw: creators[index](chain(index - 1), **kw)

    return chain(len(creators) - 1)(**arguments)
