"""The default graph (per thread), the default session, and helpers that act on the default graph."""

import contextlib
import threading

from engine.framework.operation import Operation
from engine.platform import tf_logging
from engine.framework.tensor import Tensor


class _DefaultStack(threading.local):
    def __init__(self):
        super().__init__()
        self.stack = []

    def get_default(self):
        return self.stack[-1] if self.stack else None

    @contextlib.contextmanager
    def get_controller(self, default):
        self.stack.append(default)
        try:
            yield default
        finally:
            if self.stack and self.stack[-1] is default:
                self.stack.pop()
            elif default in self.stack:
                self.stack.remove(default)


class _DefaultGraphStack(_DefaultStack):
    _global_default_graph = None

    def get_default(self):
        top = super().get_default()
        if top is not None:
            return top
        if _DefaultGraphStack._global_default_graph is None:
            from engine.framework.graph import Graph
            _DefaultGraphStack._global_default_graph = Graph()
        return _DefaultGraphStack._global_default_graph

    def reset(self):
        _DefaultGraphStack._global_default_graph = None


_default_graph_stack = _DefaultGraphStack()
_default_session_stack = _DefaultStack()


@contextlib.contextmanager
def init_scope():
    """TF's init_scope in graph mode: the current name scope, no control dependencies."""
    graph = get_default_graph()
    scope = graph.get_name_scope()
    if scope and scope[-1] != "/":
        scope += "/"
    with graph.name_scope(scope or None), graph.control_dependencies(None):
        yield


def get_default_graph():
    return _default_graph_stack.get_default()


def reset_default_graph():
    if _default_graph_stack.stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If "
                             "you need a cleared graph, exit the nesting and create a new "
                             "graph.")
    _default_graph_stack.reset()


@contextlib.contextmanager
def fresh_default_graph():
    """A new global default graph and no nested ones inside the block, as a program of its own
    process starts with (so tf.reset_default_graph() works there); the old ones after."""
    saved_global, saved_stack = _DefaultGraphStack._global_default_graph, _default_graph_stack.stack
    _DefaultGraphStack._global_default_graph, _default_graph_stack.stack = None, []
    try:
        yield
    finally:
        _DefaultGraphStack._global_default_graph = saved_global
        _default_graph_stack.stack = saved_stack


def get_default_session():
    return _default_session_stack.get_default()


def default_session(session):
    """Context manager making `session` the default (Session.as_default uses it)."""
    return _default_session_stack.get_controller(session)


def _run_using_default_session(fetch, feed_dict, graph, session=None):
    kind = "tensor" if isinstance(fetch, Tensor) else "operation"
    verb = "evaluate tensor using `eval()`" if kind == "tensor" else \
        "execute operation using `run()`"
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError(f"Cannot {verb}: No default session is registered. Use `with "
                             f"sess.as_default()` or pass an explicit session to "
                             f"`{'eval' if kind == 'tensor' else 'run'}(session=sess)`")
        if session.graph is not graph:
            raise ValueError(f"Cannot use the default session to {verb.split(' using')[0]}: "
                             f"the {kind}'s graph is different from the session's graph. Pass "
                             f"an explicit session to "
                             f"`{'eval' if kind == 'tensor' else 'run'}(session=sess)`.")
    elif session.graph is not graph:
        raise ValueError(f"Cannot use the given session to {verb.split(' using')[0]}: the "
                         f"{kind}'s graph is different from the session's graph.")
    return session.run(fetch, feed_dict)


def get_collection(key, scope=None):
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    return get_default_graph().get_collection_ref(key)


def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    get_default_graph().add_to_collections(names, value)


def get_all_collection_keys():
    return get_default_graph().get_all_collection_keys()


def name_scope(name, default_name=None, values=None):
    """tf.name_scope (TF 1.x, ops.name_scope): a scope in the graph of `values` (else the
    default graph), named `name` or else `default_name`, uniquified; "a/" re-enters."""
    if name is None and values is not None and default_name is None:
        raise ValueError(f"At least one of name ({name}) and default_name ({default_name}) must "
                         f"be provided.")
    graph = get_graph_from_inputs(values) if values else get_default_graph()
    return graph.name_scope(default_name if name is None else name)


@contextlib.contextmanager
def op_scope(values, name, default_name=None):
    """tf.op_scope: the deprecated name_scope with its arguments in the old order."""
    tf_logging.warn("tf.op_scope(values, name, default_name) is deprecated, use "
                    "tf.name_scope(name, default_name, values)")
    with name_scope(name, default_name=default_name, values=values) as scope:
        yield scope


def get_graph_from_inputs(op_input_list, graph=None):
    """The graph of the inputs (checking they share one), else the default graph. Inside a
    function graph (tf.data's), tensors of its outer graph count as its own: ops capture them."""
    original = None
    default = get_default_graph()
    outer = getattr(default, "outer", None)
    for op_input in op_input_list:
        element = None
        if isinstance(op_input, (Operation, Tensor)):
            element = op_input
        else:
            convert = getattr(op_input, "_as_graph_element", None)
            if convert is not None and callable(convert):
                element = convert()
        if element is None:
            continue
        element_graph = element.graph
        if outer is not None and element_graph is outer:
            element_graph = default
        if graph is None:
            graph, original = element_graph, element
        elif element_graph is not graph:
            raise ValueError(f"{op_input} must be from the same graph as {original} (graphs "
                             f"are {element_graph} and {graph}).")
    return graph or default
