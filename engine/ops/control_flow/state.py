"""The state behind gradients through tf.while_loop (v1): TensorFlow's control_flow_state.

For every forward loop between the xs and the ys, `_GradLoopState` builds the gradient loop
(a WhileContext named like the forward one under the gradients scope, "gradients/while/
while_context", run by a counter that counts the forward iterations down: b_count) and a
counter in the forward loop (f_count). A forward value the gradient needs inside the loop is
pushed on a stack every forward iteration (StackV2 "f_acc", StackPushV2) and popped every
gradient iteration (StackPopV2), so the gradient loop reads the iterations in reverse.
Control edges keep the pushes and pops in iteration order: a push runs after the forward
counter's Add and before its NextIteration; a pop after the backprop counter's Sub and, through
the "b_sync" ControlTrigger, before the next gradient iteration. `ControlFlowState` maps each
forward loop to its state and carries the hooks engine.ops.gradients calls.
"""

from engine.framework import dtypes, op_families
from engine.framework.graph import get_default_graph
from engine.ops import array_ops
from engine.ops.constant_op import constant, is_constant
from engine.ops.control_flow import while_grad_loops
from engine.ops.control_flow.v1 import (CondContext, WhileContext, _next_iteration,
                                        _switch_ref_or_tensor, control_trigger, is_loop_exit,
                                        output_context, switch)
from engine.ops.convert import convert_to_tensor
from engine.ops.data_flow_ops import stack_pop_v2, stack_push_v2, stack_v2
from engine.ops.gradient_registry import is_trainable
from engine.framework.tensor_util import constant_value



def _loop_constant_enter(value):
    """The constant Enter `value` reads through Switches and Identities, or None."""
    op = value.op
    while op.type in op_families.SWITCH or op.type in op_families.IDENTITY:
        op = op.inputs[0].op
    if op.type in ("Enter", "RefEnter") and op.get_attr("is_constant"):
        return op
    return None


def _while_context(op):
    ctxt = op._get_control_flow_context()
    return ctxt.GetWhileContext() if ctxt is not None else None


def _outer_while_context(ctxt):
    outer = ctxt.outer_context
    return outer.GetWhileContext() if outer is not None else None


def is_switch(op):
    return op.type in ("Switch", "RefSwitch")


def is_loop_switch(op):
    """A while loop's Switch (not a cond's inside the loop): TF's IsLoopSwitch."""
    if not is_switch(op):
        return False
    ctxt = op._get_control_flow_context()
    return ctxt is not None and ctxt.IsWhileContext() and not _is_cond_switch(op)


def _is_cond_switch(op):
    if not op.outputs:
        return False
    is_cond = True
    for output in op.outputs:
        for consumer in output.consumers():
            ctxt = consumer._get_control_flow_context()
            if consumer.type in ("Enter", "RefEnter"):
                ctxt = ctxt.outer_context
            is_cond = is_cond and ctxt is not None and ctxt.IsCondContext()
    return is_cond


class _GradLoopState:
    """One forward loop and its gradient loop, with the values the gradient reads."""

    def __init__(self, forward_ctxt, outer_grad_state):
        self.outer_grad_state = outer_grad_state
        self.forward_context = forward_ctxt
        self._forward_sync = self._grad_sync = None
        self.history_map = {}  # forward tensor name -> its value in the gradient loop
        self.switch_map = {}  # forward loop Switch -> the gradient loop's Merge ("b_switch")
        self.unused_exits, self.deferred_exits = [], []
        self.forward_loop_exits = list(forward_ctxt.loop_exits)
        self.pending_exits_count = len(forward_ctxt.loop_exits)
        outer_forward_ctxt = (outer_grad_state.forward_context if outer_grad_state
                              else forward_ctxt.outer_context)
        with forward_ctxt._graph.as_default():
            _enter(outer_forward_ctxt)
            cnt, self.forward_index = while_grad_loops.add_forward_loop_counter(
                forward_ctxt, outer_grad_state)
            _exit(outer_forward_ctxt)
        if outer_grad_state:
            outer_forward_ctxt.AddName(cnt.name)
            history_cnt = outer_grad_state.add_forward_accumulator(cnt)
            outer_grad_ctxt = outer_grad_state.grad_context
            outer_grad_ctxt.Enter()
            self.grad_context = self._new_grad_context(forward_ctxt)
            real_cnt = outer_grad_state.add_backprop_accumulated_value(history_cnt, cnt)
            self.grad_index = while_grad_loops.add_backprop_loop_counter(
                self.grad_context, real_cnt, outer_grad_state)
            outer_grad_ctxt.Exit()
        else:
            _enter(outer_forward_ctxt)
            self.grad_context = self._new_grad_context(forward_ctxt)
            self.grad_index = while_grad_loops.add_backprop_loop_counter(
                self.grad_context, cnt, outer_grad_state)
            _exit(outer_forward_ctxt)

    def _new_grad_context(self, forward_ctxt):
        return WhileContext(maximum_iterations=forward_ctxt.maximum_iterations,
                            parallel_iterations=forward_ctxt.parallel_iterations,
                            back_prop=forward_ctxt.back_prop,
                            swap_memory=forward_ctxt.swap_memory,
                            name=forward_ctxt.name, grad_state=self)

    @property
    def forward_sync(self):
        """A ControlTrigger in the forward loop keeping pushes inside conds in order."""
        if self._forward_sync is None:
            with get_default_graph().control_dependencies(None):
                self._forward_sync = control_trigger(name="f_sync")
            self._forward_sync._set_control_flow_context(self.forward_context)
            self.forward_index.op._add_control_input(self._forward_sync)
        return self._forward_sync

    @property
    def grad_sync(self):
        """A ControlTrigger in the gradient loop keeping the pops in iteration order."""
        if self._grad_sync is None:
            with get_default_graph().control_dependencies(None):
                self._grad_sync = control_trigger(name="b_sync")
            self._grad_sync._set_control_flow_context(self.grad_context)
            self.grad_index.op._add_control_input(self._grad_sync)
            if self.grad_context.outer_context:
                self.grad_context.outer_context.AddInnerOp(self._grad_sync)
        return self._grad_sync

    def add_forward_accumulator(self, value, dead_branch=False):
        """A stack ("f_acc") the forward loop pushes `value` on every iteration."""
        graph = self.forward_index.graph
        with graph.as_default():
            curr_ctxt = graph._get_control_flow_context()
            with graph.control_dependencies(None):
                _enter(curr_ctxt)
                with graph.colocate_with(value.op):
                    max_size = constant(-1, dtypes.int32)
                    acc = stack_v2(max_size=max_size, elem_type=value.dtype.base_dtype,
                                   name="f_acc")
                _exit(curr_ctxt)
                enter_acc = self.forward_context.AddValue(acc)
                swap = self.forward_context.swap_memory
                value_ctxt = output_context(value.op)
                if value_ctxt is self.forward_context:
                    self.forward_context.Enter()
                    push = stack_push_v2(enter_acc, value, swap_memory=swap)
                    self.forward_context.Exit()
                    self.forward_index.op._add_control_input(push.op)
                else:
                    if not isinstance(value_ctxt, CondContext):
                        raise TypeError(f"value_ctxt is not a CondContext: {value_ctxt}")
                    push_ctxt = value_ctxt.outer_context if dead_branch else value_ctxt
                    push_ctxt.Enter()
                    push = stack_push_v2(enter_acc, value, swap_memory=swap)
                    push_ctxt.Exit()
                    if dead_branch:
                        push.op._set_control_flow_context(value_ctxt)
                    self.forward_sync._add_control_input(push.op)
                push.op._add_control_input(self.forward_index.op.inputs[0].op)
                return acc

    def add_backprop_accumulated_value(self, history_value, value, dead_branch=False):
        """The gradient loop's pop of `history_value` (guarded by the cond `value` is in)."""
        history_ctxt = history_value.op._get_control_flow_context()
        cond_ctxt, value_ctxt = None, value.op._get_control_flow_context()
        while value_ctxt is not None and value_ctxt is not history_ctxt:
            if isinstance(value_ctxt, CondContext):
                cond_ctxt = value_ctxt
                break
            value_ctxt = value_ctxt.outer_context
        with get_default_graph().control_dependencies(None):
            self.grad_context.Enter()
            if cond_ctxt is not None:
                grad_state, pred = self, None
                while pred is None and grad_state:
                    pred = grad_state.history_map.get(cond_ctxt.pred.name)
                    grad_state = grad_state.outer_grad_state
                if pred is None:
                    pred = cond_ctxt.pred
                branch = (1 - cond_ctxt.branch) if dead_branch else cond_ctxt.branch
                history_value = _switch_ref_or_tensor(history_value, pred)[branch]
            pop = stack_pop_v2(history_value, value.dtype.base_dtype)
            pop.set_shape(value.shape)
            self.grad_context.Exit()
        if self.grad_context.parallel_iterations > 1:
            self.grad_sync._add_control_input(pop.op)
        return pop

    def get_real_value(self, value):
        """`value` (a forward loop tensor) as the gradient loop sees it, iteration by
        iteration: through its history stack, or the loop invariant it reads."""
        real_value = self.history_map.get(value.name)
        if real_value is not None:
            return real_value
        cur_value, cur_grad_state, history_value = value, self, None
        while True:
            enter_op = _loop_constant_enter(cur_value)
            if enter_op is not None:
                cur_value = enter_op.inputs[0]
                cur_grad_state = cur_grad_state.outer_grad_state
                if cur_grad_state is None:
                    real_value = self.grad_context.AddValue(cur_value)
                    break
            elif is_constant(cur_value):
                real_value = constant(constant_value(cur_value), dtype=cur_value.dtype)
                break
            else:
                self.grad_context.Exit()
                history_value = cur_grad_state.add_forward_accumulator(cur_value)
                self.grad_context.Enter()
                break
        if real_value is None:
            real_value = cur_grad_state.add_backprop_accumulated_value(history_value,
                                                                       cur_value)
            if cur_grad_state is not self:
                real_value = self.grad_context.AddValue(real_value)
        self.history_map[value.name] = real_value
        return real_value


def _enter(ctxt):
    if ctxt is not None:
        ctxt.Enter()


def _exit(ctxt):
    if ctxt is not None:
        ctxt.Exit()


class ControlFlowState:
    """The gradient loop states of one tf.gradients call, by forward loop context."""

    def __init__(self):
        self._map = {}

    def get_grad_state(self, op, before):
        if before and is_loop_exit(op):
            forward_ctxt = _outer_while_context(op._get_control_flow_context())
        else:
            forward_ctxt = _while_context(op)
        return self._map.get(forward_ctxt) if forward_ctxt is not None else None

    def add_while_context(self, op, between_op_list, between_ops):
        """The grad state of the loop `op` (an Exit) leaves; its exits join the between ops."""
        forward_ctxt = _while_context(op)
        if forward_ctxt in self._map:
            return
        outer_forward_ctxt = _outer_while_context(forward_ctxt)
        outer_grad_state = self._map.get(outer_forward_ctxt) if outer_forward_ctxt else None
        grad_state = _GradLoopState(forward_ctxt, outer_grad_state)
        self._map[forward_ctxt] = grad_state
        for loop_exit in grad_state.forward_loop_exits:
            if loop_exit.op not in between_ops:
                between_ops.add(loop_exit.op)
                between_op_list.append(loop_exit.op)

    # -- the hooks engine.ops.gradients calls --

    is_loop_switch = staticmethod(is_loop_switch)
    is_loop_exit = staticmethod(is_loop_exit)

    def enter_grad_while_context(self, op, before):
        grad_state = self.get_grad_state(op, before)
        if grad_state:
            grad_state.grad_context.Enter()

    def exit_grad_while_context(self, op, before):
        grad_state = self.get_grad_state(op, before)
        if grad_state:
            grad_state.grad_context.Exit()

    def process_unused_loop_exits(self, pending_count, to_ops_set):
        """The exits nobody differentiated that must still carry zeros into the loop."""
        loop_exits = []
        for grad_state in self._map.values():
            for y in grad_state.forward_loop_exits:
                if pending_count[y.op] == 0:
                    grad_state.pending_exits_count -= 1
                    if y.op not in to_ops_set:
                        grad_state.unused_exits.append(y)
                    if grad_state.pending_exits_count == 0:
                        loop_exits.extend(grad_state.unused_exits)
            for y in grad_state.forward_context.loop_enters:
                if pending_count[y.op] == 0:
                    pending_count[y.op] = 1
        return loop_exits

    def defer_exit(self, x, grads, queue, set_grad, has_any_not_none_grads):
        """An exit ready for backprop waits for all its loop's exits (TF's
        _UpdatePendingAndEnqueueReady)."""
        grad_state = self.get_grad_state(x.op, before=False)
        grad_state.deferred_exits.append(x)
        grad_state.pending_exits_count -= 1
        if grad_state.pending_exits_count != 0:
            return
        has_not_none_grad = False
        for y in grad_state.deferred_exits:
            if has_any_not_none_grads(grads, y.op):
                has_not_none_grad = True
                queue.append(y.op)
            else:
                grad_state.unused_exits.append(y)
        for y in grad_state.unused_exits:
            if has_not_none_grad and is_trainable(y):
                set_grad(grads, y, self.zeros_like_for_exit(y))
            queue.append(y.op)

    def zeros_like_for_exit(self, val):
        """Zeros fed as the gradient of the unused loop exit `val`."""
        val_shape = val.shape
        forward_ctxt = val.op._get_control_flow_context()
        outer_forward_ctxt = _outer_while_context(forward_ctxt)
        outer_grad_state = self._map.get(outer_forward_ctxt) if outer_forward_ctxt else None
        if outer_grad_state is None:
            if val_shape.is_fully_defined():
                return array_ops.zeros(val_shape.as_list(), val.dtype)
            return array_ops.zeros_like(val, optimize=False)
        if val_shape.is_fully_defined():
            outer_grad_state.grad_context.Enter()
            result = array_ops.zeros(val_shape.as_list(), val.dtype)
            outer_grad_state.grad_context.Exit()
            return result
        forward_ctxt.outer_context.Enter()
        shape = array_ops.shape_internal(val, optimize=False)
        forward_ctxt.outer_context.Exit()
        history_shape = outer_grad_state.add_forward_accumulator(shape)
        outer_grad_ctxt = outer_grad_state.grad_context
        outer_grad_ctxt.Enter()
        real_shape = outer_grad_state.add_backprop_accumulated_value(history_shape, shape)
        result = array_ops.zeros(real_shape, val.dtype)
        outer_grad_ctxt.Exit()
        return result

    def zeros_like(self, op, index):
        """Zeros for output `index` of `op`, built in its gradient loop (TF's
        ZerosLikeV1WhileLoop); None for a loop Switch."""
        if is_loop_switch(op):
            return None
        dead_branch = is_switch(op)
        grad_state = self._map.get(_while_context(op))
        if grad_state is None:
            return zeros_like_output(op, index)
        op_ctxt = op._get_control_flow_context()
        val = convert_to_tensor(op.outputs[index], name="tensor")
        shape = val.shape
        if shape.is_fully_defined():
            result = constant(0, shape=shape.as_list(), dtype=val.dtype)
            if dead_branch:
                pred = grad_state.history_map.get(op_ctxt.pred.name)
                result = _switch_ref_or_tensor(result, pred)[1 - op_ctxt.branch]
            return result
        if dead_branch:
            op_ctxt.outer_context.Enter()
            val = _switch_ref_or_tensor(op.inputs[0], op_ctxt.pred)[1 - op_ctxt.branch]
            zeros_shape = array_ops.shape_internal(val, optimize=False)
            op_ctxt.outer_context.Exit()
            val.op._set_control_flow_context(op_ctxt)
            zeros_shape.op._set_control_flow_context(op_ctxt)
        else:
            op_ctxt.Enter()
            zeros_shape = array_ops.shape_internal(val, optimize=False)
            op_ctxt.Exit()
        grad_state.grad_context.Exit()
        history_zeros_shape = grad_state.add_forward_accumulator(zeros_shape,
                                                                 dead_branch=dead_branch)
        grad_state.grad_context.Enter()
        shape = grad_state.add_backprop_accumulated_value(history_zeros_shape, zeros_shape,
                                                          dead_branch)
        return array_ops.zeros(shape, val.dtype)

    def post_processing(self):
        """A gradient Merge whose loop variable's output ignores its input gets zeros as its
        back edge instead of itself."""
        for grad_state in self._map.values():
            for b_merge in grad_state.switch_map.values():
                if b_merge.op.inputs[0] is not b_merge.op.inputs[1]:
                    continue
                dtype = b_merge.op.inputs[0].dtype
                shape = b_merge.op.inputs[0].shape
                if shape.is_fully_defined():
                    grad_state.grad_context.Enter()
                    grad_val = constant(0, dtype=dtype, shape=shape.as_list())
                    next_grad_val = _next_iteration(grad_val)
                    grad_state.grad_context.Exit()
                else:
                    outer_grad_ctxt = grad_state.grad_context.outer_context
                    _enter(outer_grad_ctxt)
                    enter_grad = b_merge.op.inputs[0].op.inputs[0]
                    grad_shape = array_ops.shape_internal(enter_grad, optimize=False)
                    grad_val = array_ops.zeros(grad_shape)
                    _exit(outer_grad_ctxt)
                    grad_state.grad_context.Enter()
                    next_grad_val = _next_iteration(grad_val)
                    grad_state.grad_context.Exit()
                b_merge.op._update_input(1, next_grad_val)


def zeros_like_output(op, index):
    """ZerosLike for output `index` of `op` (TensorFlow's control_flow_state.ZerosLike)."""
    val = op.outputs[index]
    op_ctxt = op._get_control_flow_context()
    if op.type in ("Switch", "RefSwitch") and isinstance(op_ctxt, CondContext):
        switch_val = switch(op.inputs[0], op_ctxt.pred)[1 - op_ctxt.branch]
        pivot = array_ops.identity(switch_val)
        zeros_shape = array_ops.shape_internal(switch_val, optimize=False)
        with get_default_graph().control_dependencies([pivot]):
            return array_ops.zeros(zeros_shape, dtype=val.dtype)
    return array_ops.zeros_like(val, optimize=False)


def maybe_create_control_flow_state(between_op_list, between_ops, colocate):
    """The ControlFlowState when a while loop lies between the xs and the ys, else None
    (adds each such loop's exits to `between_op_list` and `between_ops`)."""
    loop_state = None
    for op in list(between_op_list):
        if is_loop_exit(op):
            if loop_state is None:
                loop_state = ControlFlowState()
            if colocate:
                with op.graph.colocate_with(op):
                    loop_state.add_while_context(op, between_op_list, between_ops)
            else:
                loop_state.add_while_context(op, between_op_list, between_ops)
    return loop_state
