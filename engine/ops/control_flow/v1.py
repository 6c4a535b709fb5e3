"""Control flow v1 as TensorFlow 1.x builds it: the ops and the contexts ops are built in.

This module gathers them; each idea lives in its own module and is re-exported here: the ops
(switch, merge, _enter, exit_, _next_iteration, loop_cond, Ref* forms for ref tensors) in
control_flow_v1_ops, the helpers over ops and contexts (TensorFlow's control_flow_util) in
control_flow_util, and the contexts in control_flow_context (the base), cond_context and
while_context.

The contexts record, on every op built inside tf.cond or tf.while_loop, where it sits, as
TensorFlow keeps them (the gradient code reads them to build gradients through loops and conds):

- `op._control_flow_context`: the innermost CondContext or WhileContext the op was built in
  (None at top level); `op._get_control_flow_context()` reads it. An Exit op's context is its
  loop's WhileContext, although its output lives in the outer context (`output_context`).
- every context: `name` (unique in the graph: "cond/cond_text", "while/while_context"),
  `outer_context` (the enclosing context or None), `_nested_contexts`, `_values` (names of the
  tensors that live in it), `_external_values` (outer tensor name -> the tensor standing in for
  it inside: the Switch output of a cond, the constant Enter of a loop).
- CondContext: `pred` (the pred_id Identity), `pivot` (switch_t or switch_f), `branch` (1 for
  the true branch, 0 for the false one). Ops with no inputs get a control input on the pivot;
  outer tensors are read through `Switch(x, pred)[branch]`, created once per tensor.
- WhileContext: `name` is also the frame_name of its Enter ops; `parallel_iterations`,
  `back_prop`, `swap_memory`, `maximum_iterations`; `loop_enters` (the Enter output of each
  loop variable), `loop_exits` (their Exit outputs), `pivot` (the LoopCond output),
  `_pivot_for_pred` (the first Merge output), `_pivot_for_body` (the first body Identity).
  Outer tensors used inside enter as constant Enters (is_constant=True); `grad_state` is None
  but on a gradient loop's context (engine.ops.control_flow.state), where a forward loop value
  read inside comes through its history stack and a Shape/Size/Rank of one is built in the
  forward loop, as TensorFlow's WhileContext.AddValue/AddOp do.
"""

from engine.framework import dtypes  # noqa: F401
from engine.ops.control_flow.cond_context import CondContext
from engine.ops.control_flow.context import ControlFlowContext, _cleared  # noqa: F401
from engine.ops.control_flow.util import (  # noqa: F401  (the helpers, re-exported)
    is_context_in, is_loop_constant_enter, is_loop_enter, is_loop_exit, op_in_context,
    output_context, while_context_of)
from engine.ops.control_flow.v1_ops import (  # noqa: F401  (the ops, re-exported)
    _enter, _identity, _is_ref, _next_iteration, _switch_ref_or_tensor, _with_shape,
    control_trigger, exit_, loop_cond, merge, switch)
from engine.ops.nest import flatten, flatten_up_to, map_structure, pack_sequence_as  # noqa: F401
from engine.ops.control_flow.while_context import (  # noqa: F401
    WhileContext, _enforce_shape_invariant, _shape_less_or_equal)
__all__ = ["switch", "merge", "exit_", "loop_cond", "control_trigger", "CondContext",
           "WhileContext", "ControlFlowContext", "dtypes"]
