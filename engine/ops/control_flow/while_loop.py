"""tf.while_loop (v1): one frame of Enter/Merge/LoopCond/Switch/Identity/NextIteration/Exit.

Under the scope "while" (or `name`) each loop variable gets while/Enter, while/Merge,
while/Switch, while/Identity, while/NextIteration and while/Exit (suffixed _1, _2, ... per
variable), the condition ends in while/LoopCond, and the WhileContext "while/while_context"
names the frame (see control_flow_v1 for what the context records).
"""

from engine.framework.graph import get_default_graph
from engine.ops import math_ops
from engine.ops.control_flow import v1 as cf
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.framework.tensor_shape import TensorShape


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
    """Repeats `body` while `cond` is true; returns the loop variables' final values."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    graph = get_default_graph()
    with graph.name_scope(name or "while"):
        if not loop_vars:
            raise ValueError("'loop_vars' must be provided.")
        try_to_pack = len(loop_vars) == 1 and not return_same_structure
        if maximum_iterations is not None:
            maximum_iterations = convert_to_tensor(maximum_iterations, name="maximum_iterations")
            if maximum_iterations.shape.ndims != 0:
                raise ValueError(f"'maximum_iterations' must be a scalar. Received shape: "
                                 f"{maximum_iterations.shape}")
            counter = constant(0, dtype=maximum_iterations.dtype, name="iteration_counter")
            orig_cond, orig_body = cond, body
            if try_to_pack:
                loop_vars = (counter, loop_vars[0])

                def cond(i, lv):
                    return math_ops.logical_and(i < maximum_iterations, orig_cond(lv))

                def body(i, lv):
                    return (i + 1, orig_body(lv))
            else:
                loop_vars = (counter, loop_vars)

                def cond(i, lv):
                    return math_ops.logical_and(i < maximum_iterations, orig_cond(*lv))

                def body(i, lv):
                    return (i + 1, orig_body(*lv))
            if shape_invariants is not None:
                shape_invariants = (TensorShape([]), shape_invariants)
        context = cf.WhileContext(maximum_iterations=maximum_iterations,
                                  parallel_iterations=parallel_iterations,
                                  back_prop=back_prop, swap_memory=swap_memory)
        if context.outer_context is None:
            graph.add_to_collection("while_context", context)
        result = context.BuildLoop(cond, body, loop_vars, shape_invariants,
                                   return_same_structure)
        return result[1] if maximum_iterations is not None else result


__all__ = ["while_loop"]
