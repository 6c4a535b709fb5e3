"""ControlFlowContext, the base of CondContext and WhileContext: its name, outer and nested
contexts, the values that live in it, entering and leaving it (see engine.ops.control_flow.v1
for what the contexts record)."""

import contextlib

from engine.framework.graph import get_default_graph
from engine.ops.control_flow.util import output_context
from engine.ops.nest import flatten


@contextlib.contextmanager
def _cleared(graph):
    """TensorFlow's `control_dependencies(None)`: no control inputs and no context."""
    saved = graph._get_control_flow_context()
    graph._set_control_flow_context(None)
    try:
        with graph.control_dependencies(None):
            yield
    finally:
        graph._set_control_flow_context(saved)


class ControlFlowContext:
    """The base of CondContext and WhileContext (see the module docstring)."""

    def __init__(self):
        graph = get_default_graph()
        self._graph = graph
        self._outer_context = graph._get_control_flow_context()
        self._nested_contexts = []
        if self._outer_context is not None:
            self._outer_context._nested_contexts.append(self)
        self._context_stack = []
        self._values = set()
        self._external_values = {}

    @property
    def name(self):
        return self._name

    @property
    def outer_context(self):
        return self._outer_context

    def AddName(self, name):
        self._values.add(name)

    def Enter(self):
        self._context_stack.append(self._graph._get_control_flow_context())
        self._graph._set_control_flow_context(self)

    def Exit(self):
        self._graph._set_control_flow_context(self._context_stack.pop())

    @contextlib.contextmanager
    def entered(self):
        self.Enter()
        try:
            yield self
        finally:
            self.Exit()

    def ExitResult(self, result):
        if self._outer_context is not None:
            for tensor in flatten(result):
                self._outer_context.AddName(tensor.name)

    def GetWhileContext(self):
        return self._outer_context.GetWhileContext() if self._outer_context else None

    def GetControlPivot(self):
        return None

    def IsWhileContext(self):
        return False

    def IsCondContext(self):
        return False

    def AddInnerOp(self, op):
        if self._outer_context is not None:
            self._outer_context.AddInnerOp(op)

    def _RemoveExternalControlEdges(self, op):
        """Drops control inputs from outside the enclosing loop: (internal, external)."""
        while_ctxt = self.GetWhileContext()
        if while_ctxt is None:
            return op.control_inputs, []
        internal, external = [], []
        for x in op.control_inputs:
            ctxt = output_context(x)
            if ctxt is not None and ctxt.GetWhileContext() is while_ctxt:
                internal.append(x)
            else:
                external.append(x)
        if len(internal) != len(op.control_inputs):
            op._remove_all_control_inputs()
            op._add_control_inputs(internal)
        return internal, external

    def _mark_values(self, names):
        ctxt = self
        while ctxt is not None:
            ctxt._values.update(names)
            ctxt = ctxt._outer_context

    def __str__(self):
        return self.name
