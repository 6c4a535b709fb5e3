"""Functional control flow lowered to frames, as TensorFlow's lower_if_op, lower_case_op and
lower_while_op do it before a graph runs.

An If (or StatelessIf) becomes a Switch of its predicate with a pivot Identity per side, a
Switch per input, a call of each branch (a node whose op is the branch function, marked
`_lower_as_multi_device_function` so that it is inlined next), a Merge per output, and a
`branch_executed` Merge that whatever waited for the If now waits for. A Case becomes the
same with _SwitchN. A While (or StatelessWhile) becomes a frame named after it: per loop
variable an Enter, a Merge of it and of the NextIteration, a Switch on the LoopCond of the
cond call, and an Exit; a resource variable only enters (is_constant) and leaves as it
came. Nodes are named `<op>/<part>/_N` with the graph's NewName counter, in TensorFlow's
order, and carry the lowered op's experimental_debug_info. In the op's place stays an
IdentityN of its outputs when it must stay fetchable, else a NoOp of its name.
"""

from engine.framework import op_registry
from engine.optimizer.function_inlining import LOWER_AS_MULTI_DEVICE, is_resource
from engine.proto import attr_value_pb2, node_def_pb2

LOWER_USING_SWITCH_MERGE = "_lower_using_switch_merge"
IF_OPS = frozenset({"If", "StatelessIf"})
CASE_OPS = frozenset({"Case", "StatelessCase"})
WHILE_OPS = frozenset({"While", "StatelessWhile"})


def lowers_using_switch_merge(node):
    """Whether `node` asks to be lowered (TensorFlow's `_lower_using_switch_merge`)."""
    value = node.attr.get(LOWER_USING_SWITCH_MERGE)
    return value is not None and value.WhichOneof("value") == "b" and value.b


def lower(graph, node, keep_fetchable):
    """Lowers an If, Case or While node of `graph`; False for any other node."""
    if node.op in IF_OPS:
        _CondLowering(graph, node, keep_fetchable).run()
    elif node.op in CASE_OPS:
        _CaseLowering(graph, node, keep_fetchable).run()
    elif node.op in WHILE_OPS:
        _WhileLowering(graph, node, keep_fetchable).run()
    else:
        return False
    return True


class _Lowering:
    """What the three lowerings share: naming, the lowered op's debug info, node building."""

    def __init__(self, graph, op, keep_fetchable):
        self.graph, self.op, self.keep_fetchable = graph, op, keep_fetchable
        self.device = op.device
        self.debug = _debug_info_of(op)

    def new_name(self, infix):
        return self.graph.new_name(f"{self.op.name}/{infix}")

    def build(self, name, op_type, inputs=(), controls=(), attrs=None, device=None,
              debug=None):
        """A node made as NodeBuilder makes it: data inputs [(node, output)], control inputs,
        attrs (Python values or AttrValues), the op's default attrs, the debug info."""
        node_def = node_def_pb2.NodeDef(name=name, op=op_type,
                                        device=self.device if device is None else device)
        for key, value in (attrs or {}).items():
            node_def.attr[key].CopyFrom(value)
        op_def = self.graph.op_def(op_type)
        if op_def is not None and op_type not in self.graph.library:
            op_registry.add_default_attrs(node_def, op_def)
        node_def.experimental_debug_info.CopyFrom(debug if debug is not None else self.debug)
        node = self.graph.add_node(node_def)
        for slot, (src, output) in enumerate(inputs):
            self.graph.add_edge(src, output, node, slot)
        for src in controls:
            self.graph.add_control_edge(src, node)
        return node

    def call(self, name, function, inputs, controls=()):
        """A call of `function` (a NameAttrList) by op name, to be inlined next."""
        attrs = {LOWER_AS_MULTI_DEVICE: _bool(True)}
        attrs.update({key: value for key, value in function.attr.items()})
        return self.build(name, function.name, inputs, controls, attrs)

    def data_inputs(self):
        return self.op.data_inputs()

    def finish(self, outputs, executed):
        """The op's stand-in (an IdentityN of `outputs`, or a NoOp waiting for `executed`),
        then every edge out of the op moved, and the op removed. `outputs`: per output of the
        op, the (node, output) that now gives it."""
        if self.keep_fetchable and outputs:
            types = [src.output_type(i) for src, i in outputs]
            self.build(self.op.name, "IdentityN", outputs, [executed] if self.controls_stand_in
                       else (), {"T": _types(types)})
        else:
            self.build(self.op.name, "NoOp", controls=[executed])
        for edge in list(self.op.out_edges):
            if edge.is_control:
                self.graph.add_control_edge(executed, edge.dst)
            else:
                src, index = outputs[edge.src_output]
                self.graph.add_edge(src, index, edge.dst, edge.dst_input)
        self.graph.remove_node(self.op)

    controls_stand_in = True  # the If's and Case's IdentityN waits for branch_executed


class _CondLowering(_Lowering):
    """TensorFlow's CondBuilder (lower_if_op.cc)."""

    def run(self):
        then_fn, else_fn = self.op.attr["then_branch"].func, self.op.attr["else_branch"].func
        then_name, else_name = self.new_name("then"), self.new_name("else")
        inputs = self.data_inputs()
        pred = inputs[0]
        pred_type = _type(pred[0].output_type(pred[1]))
        switch_pred = self.build(self.new_name("switch_pred"), "Switch", [pred, pred],
                                 attrs={"T": pred_type})
        pivot_f = self.build(self.new_name("pivot_f"), "Identity", [(switch_pred, 0)],
                             attrs={"T": pred_type})
        pivot_t = self.build(self.new_name("pivot_t"), "Identity", [(switch_pred, 1)],
                             attrs={"T": pred_type})
        then_inputs, else_inputs = [], []
        for src, output in inputs[1:]:
            switch = self.build(self.new_name(src.name), "Switch", [(src, output), pred],
                                attrs={"T": _type(src.output_type(output)),
                                       "_class": _colocated_with(src.name)},
                                device=src.device, debug=_debug_info_of(src))
            then_inputs.append((switch, 1))
            else_inputs.append((switch, 0))
        for src in self.op.control_inputs():
            self.graph.add_control_edge(src, switch_pred)
        then_call = self.call(then_name, then_fn, then_inputs, [pivot_t])
        else_call = self.call(else_name, else_fn, else_inputs, [pivot_f])
        merges = []
        for i, dtype in enumerate(then_call.output_types()):
            merges.append(self.build(self.new_name("output"), "Merge",
                                     [(then_call, i), (else_call, i)],
                                     attrs={"T": _type(dtype), "N": _int(2)}))
        executed = self.build(self.new_name("branch_executed"), "Merge",
                              [(pivot_t, 0), (pivot_f, 0)], [then_call, else_call],
                              attrs={"T": pred_type, "N": _int(2)})
        self.finish([(merge, 0) for merge in merges], executed)


class _CaseLowering(_Lowering):
    """TensorFlow's CaseBuilder (lower_case_op.cc): _SwitchN on the branch index."""

    def run(self):
        branches = list(self.op.attr["branches"].list.func)
        call_names = [self.new_name(f"branch{b}") for b in range(len(branches))]
        inputs = self.data_inputs()
        index = inputs[0]
        index_type = _type(index[0].output_type(index[1]))
        switch_index = self.build(self.new_name("branch_index"), "_SwitchN", [index, index],
                                  attrs={"T": index_type, "num_outs": _int(len(branches))})
        pivots = [self.build(self.new_name(f"pivot_{b}"), "Identity", [(switch_index, b)],
                             attrs={"T": index_type}) for b in range(len(branches))]
        branch_inputs = [[] for _ in branches]
        for src, output in inputs[1:]:
            switch = self.build(self.new_name(src.name), "_SwitchN", [(src, output), index],
                                attrs={"T": _type(src.output_type(output)),
                                       "_class": _colocated_with(src.name),
                                       "num_outs": _int(len(branches))},
                                device=src.device, debug=_debug_info_of(src))
            for b in range(len(branches)):
                branch_inputs[b].append((switch, b))
        for src in self.op.control_inputs():
            self.graph.add_control_edge(src, switch_index)
        calls = [self.call(name, function, branch_inputs[b], [pivots[b]])
                 for b, (name, function) in enumerate(zip(call_names, branches))]
        merges = []
        for i, dtype in enumerate(calls[0].output_types()):
            merges.append(self.build(self.new_name("merge"), "Merge",
                                     [(call, i) for call in calls],
                                     attrs={"T": _type(dtype), "N": _int(len(calls))}))
        executed = self.build(self.new_name("branch_executed"), "Merge",
                              [(pivot, 0) for pivot in pivots], calls,
                              attrs={"T": index_type, "N": _int(len(pivots))})
        self.finish([(merge, 0) for merge in merges], executed)


class _WhileLowering(_Lowering):
    """TensorFlow's LowerWhileHelper (lower_while_op.cc)."""

    controls_stand_in = False  # the While's IdentityN reads the Exits; only its NoOp waits

    def run(self):
        cond_fn, body_fn = self.op.attr["cond"].func, self.op.attr["body"].func
        cond_name, body_name = self.new_name("cond"), self.new_name("body")
        inputs = self.data_inputs()
        types = self.op.input_types()
        resource = [is_resource(t) for t in types]
        iterations = (self.op.attr["parallel_iterations"].i
                      if "parallel_iterations" in self.op.attr else 10)
        enters = []
        for i, (src, output) in enumerate(inputs):
            attrs = {"T": _type(types[i]),
                     "frame_name": attr_value_pb2.AttrValue(s=self.op.name.encode()),
                     "parallel_iterations": _int(iterations)}
            if resource[i]:
                attrs["is_constant"] = _bool(True)
            enters.append(self.build(self.new_name("enter"), "Enter", [(src, output)],
                                     attrs=attrs, device=src.device))
        controls = self.op.control_inputs()
        if controls:
            gate = self.build(self.new_name("LoopControlInputs"), "NoOp", controls=controls)
            for enter in enters:
                self.graph.add_control_edge(gate, enter)
        merges = {}
        for i, enter in enumerate(enters):
            if not resource[i]:
                merges[i] = self.build(self.new_name("merge"), "Merge", [(enter, 0), (enter, 0)],
                                       attrs={"T": _type(types[i]), "N": _int(2)},
                                       device=enter.device)
        cond_inputs = [(enters[i], 0) if resource[i] else (merges[i], 0)
                       for i in range(len(inputs))]
        cond_call = self.call(cond_name, cond_fn, cond_inputs)
        if merges:
            self.graph.add_control_edge(merges[min(merges)], cond_call)
        loop_cond = self.build(self.new_name("LoopCond"), "LoopCond", [(cond_call, 0)])
        switches = {}
        for i in merges:
            switches[i] = self.build(self.new_name(f"{inputs[i][0].name}_switch"), "Switch",
                                     [(merges[i], 0), (loop_cond, 0)],
                                     attrs={"T": _type(types[i])}, device=merges[i].device)
        body_inputs = [(enters[i], 0) if resource[i] else (switches[i], 1)
                       for i in range(len(inputs))]
        body_call = self.call(body_name, body_fn, body_inputs)
        if switches:
            first = switches[min(switches)]
            body_control = self.build(self.new_name("loop_body_control"), "Identity",
                                      [(first, 1)], attrs={"T": _type(first.output_type(1))})
            self.graph.add_control_edge(body_control, body_call)
        exits, outputs = {}, []
        for i in range(len(inputs)):
            if resource[i]:
                outputs.append(inputs[i])
            else:
                exits[i] = self.build(self.new_name("exit"), "Exit", [(switches[i], 0)],
                                      attrs={"T": _type(types[i])}, device=switches[i].device)
                outputs.append((exits[i], 0))
        executed = self.build(self.new_name("LoopExecuted"), "NoOp",
                              controls=[exits[i] for i in sorted(exits)])
        next_iterations = {}
        for i in merges:
            next_iterations[i] = self.build(self.new_name("next_iteration"), "NextIteration",
                                            [(body_call, i)], [body_call],
                                            attrs={"T": _type(types[i])},
                                            device=merges[i].device)
        for i, merge in merges.items():
            self.graph.update_edge(next_iterations[i], 0, merge, 1)
        self.finish(outputs, executed)


def _debug_info_of(node):
    """TensorFlow's NodeDebugInfo of a node, as NodeBuilder merges it into what it makes:
    the node's original names (else its own name) and original functions."""
    source = node.node_def.experimental_debug_info
    info = node_def_pb2.NodeDef.ExperimentalDebugInfo()
    info.original_node_names.extend(source.original_node_names or [node.name])
    info.original_func_names.extend(source.original_func_names)
    return info


def _type(dtype):
    return attr_value_pb2.AttrValue(type=_base(dtype))


def _types(dtypes):
    value = attr_value_pb2.AttrValue()
    value.list.type.extend(_base(t) for t in dtypes)
    return value


def _int(number):
    return attr_value_pb2.AttrValue(i=number)


def _bool(flag):
    return attr_value_pb2.AttrValue(b=flag)


def _colocated_with(name):
    """TensorFlow's lowering writes the bare source name here, not `loc:@name`."""
    value = attr_value_pb2.AttrValue()
    value.list.s.append(name.encode())
    return value


def _base(dtype):
    return dtype - 100 if dtype > 100 else dtype
