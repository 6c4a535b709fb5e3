"""CondContext: one branch of a tf.cond, reading outer tensors through Switch (see
engine.ops.control_flow.v1 for what the contexts record)."""

from engine.framework.graph import get_default_graph
from engine.ops.control_flow.context import ControlFlowContext, _cleared
from engine.ops.control_flow.ops import with_dependencies
from engine.ops.control_flow.util import op_in_context
from engine.ops.control_flow.v1_ops import _switch_ref_or_tensor
from engine.ops.convert import convert_to_tensor
from engine.ops.nest import map_structure


class CondContext(ControlFlowContext):
    """One branch of a tf.cond: pred, pivot (switch_t / switch_f), branch (1 / 0)."""

    def __init__(self, pred, pivot, branch, name="cond_text"):
        self._name = get_default_graph().unique_name(name)
        super().__init__()
        self._pred, self._pivot, self._branch = pred, pivot, branch
        self._values.update((pred.name, pivot.name))
        self._external_values[pred.name] = pred
        pivot.op._set_control_flow_context(self)

    pred = property(lambda self: self._pred)
    pivot = property(lambda self: self._pivot)
    branch = property(lambda self: self._branch)

    @property
    def grad_state(self):
        while_ctxt = self.GetWhileContext()
        return while_ctxt.grad_state if while_ctxt is not None else None

    @property
    def back_prop(self):
        while_ctxt = self.GetWhileContext()
        return while_ctxt.back_prop if while_ctxt is not None else False

    def GetControlPivot(self):
        return self._pivot

    def IsCondContext(self):
        return True

    def AddValue(self, val):
        """The tensor standing for outer tensor `val` in this branch (a Switch output)."""
        if val.name in self._values:
            result = self._external_values.get(val.name)
            return val if result is None else result
        result = val
        self._values.add(val.name)
        if self._outer_context is not None:
            result = self._outer_context.AddValue(val)
            self._values.add(result.name)
            self._external_values[result.name] = result
        with _cleared(self._graph):
            result = _switch_ref_or_tensor(result, self._pred)[self._branch]
            if self._outer_context is not None:
                self._outer_context.AddInnerOp(result.op)
        result.op._set_control_flow_context(self)
        self._mark_values([result.name])
        self._external_values[val.name] = result
        return result

    def AddOp(self, op):
        self._AddOpInternal(op)

    def _AddOpInternal(self, op):
        if not op.inputs:
            self._RemoveExternalControlEdges(op)
            if not any(op_in_context(c, self) for c in op.control_inputs):
                op._add_control_input(self._pivot.op)
        else:
            for index, x in enumerate(op.inputs):
                if op.type == "Merge" and x.op.type == "NextIteration":
                    real_x = x
                else:
                    real_x = self.AddValue(x)
                if real_x is not x:
                    op._update_input(index, real_x)
            self._RemoveExternalControlEdges(op)
            if op.graph._is_function(op.type) or op.type == "SymbolicGradient":
                op._add_control_input(self._pivot.op)
        self._mark_values([x.name for x in op.outputs])
        if self._outer_context is not None:
            self._outer_context.AddInnerOp(op)

    def _ProcessOutputTensor(self, val):
        real_val = val
        if val.name not in self._values:
            self._values.add(val.name)
            if self._outer_context is not None:
                real_val = self._outer_context.AddValue(val)
                self._values.add(real_val.name)
                self._external_values[real_val.name] = real_val
            real_val = _switch_ref_or_tensor(real_val, self._pred)[self._branch]
            self._external_values[val.name] = real_val
        else:
            external = self._external_values.get(val.name)
            if external is not None:
                real_val = external
        return real_val

    def BuildCondBranch(self, fn):
        """(fn's result, its tensors as seen from outside the branch), fn built in here."""
        original = fn()
        if original is None:
            return None, None

        def build(v):
            if hasattr(v, "node_def") and hasattr(v, "outputs"):  # an Operation
                return with_dependencies([v], self._pivot)
            return self._ProcessOutputTensor(convert_to_tensor(v))
        result = map_structure(build, original)
        if not isinstance(result, (list, tuple)):
            result = [result]
        return original, result
