"""tf.import_graph_def: a GraphDef into the default graph, prefixed, remapped, validated."""

import bisect

from engine.framework.devices import canonical as _canonical_device
from engine.framework import errors, op_registry
from engine.framework import traceback as _traceback
from engine.framework.graph import get_default_graph
from engine.framework.operation import Operation
from engine.proto import graph_pb2, node_def_pb2
from engine.framework.tensor import Tensor


def _parse_tensor_name(name):
    """'x:1' -> ('x', 1); 'x' -> ('x', 0); '^x' -> ('x', -1).

    As TensorFlow's ParseTensorName, only ASCII digits after the last ':' make an index;
    anything else is part of the node name (so 'x:²' names a node 'x:²', found or not).

    >>> _parse_tensor_name("x:²"), _parse_tensor_name("a:b:2")
    (('x:²', 0), ('a:b', 2))
    """
    if name.startswith("^"):
        return name[1:], -1
    op_name, sep, index = name.rpartition(":")
    if sep and index.isascii() and index.isdigit():
        return op_name, int(index)
    return name, 0


def _canonical(name):
    op_name, index = _parse_tensor_name(name)
    return f"^{op_name}" if index < 0 else f"{op_name}:{index}"


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None,
                     op_dict=None, producer_op_list=None):
    """Imports `graph_def` under `name` ("import" by default; "" keeps the names)."""
    if not isinstance(graph_def, graph_pb2.GraphDef):
        try:
            graph_def = graph_pb2.GraphDef.FromString(graph_def.SerializeToString())
        except Exception:
            raise TypeError(f"graph_def must be a GraphDef proto, got {type(graph_def)}") \
                from None
    input_map = {_canonical(k): v for k, v in (input_map or {}).items()}
    for key, value in input_map.items():
        if not isinstance(value, (Tensor, Operation)):
            raise TypeError(f"input_map values must be Tensors or Operations, got {value!r}")
    graph = get_default_graph()
    graph._check_not_finalized()
    with graph.name_scope(name if name is not None else "import") as scope:
        prefix = scope[:-1] if scope else ""
    return _import(graph, graph_def, input_map, return_elements, prefix)


def _import(graph, graph_def, input_map, return_elements, prefix):
    functions = {f.signature.name: f for f in graph_def.library.function}
    nodes = list(graph_def.node)
    gdef_names = {node.name for node in nodes}
    # Check the whole request before adding anything: imports are atomic.
    used = set()
    for node in nodes:
        for inp in node.input:
            key = _canonical(inp)
            if key in input_map:
                used.add(key)
            op_name, _ = _parse_tensor_name(inp)
            if op_name not in gdef_names:
                raise ValueError(f"Node '{node.name}': Unknown input node '{inp}'")
    missing = [k for k in input_map if k not in used and
               _parse_tensor_name(k)[0] not in gdef_names]
    op_defs = {}
    for node in nodes:
        if node.op in functions:
            op_defs[node.op] = functions[node.op].signature
        elif node.op not in op_defs:
            op_def = graph._functions.get(node.op)
            op_defs[node.op] = op_def.signature if op_def else op_registry.get(node.op)
    if return_elements is not None:
        for element in return_elements:
            op_name, index = _parse_tensor_name(element)
            if op_name not in gdef_names:
                raise ValueError(f"Requested return node '{op_name}' not found in graph def"
                                 if ":" not in element else
                                 f"Requested return tensor '{element}' not found in graph def")
            if ":" in element:
                node = next(n for n in nodes if n.name == op_name)
                count = len(op_registry.output_dtypes(op_defs[node.op], node.attr))
                if index >= count:
                    raise ValueError(f"Invalid return output {index} of node '{op_name}', "
                                     f"which has {count} output(s)")
    new_names = _new_names(graph, nodes, prefix, gdef_names)
    for function in functions.values():
        if not graph._is_function(function.signature.name):
            graph._add_function(function)
    traces = {}
    if graph_def.HasField("debug_info"):
        traces = _traceback.traces_from_debug_info(graph_def.debug_info)
    created = {}
    pending = _topological(nodes)
    control_deps = list(graph._current_control_dependencies()) \
        if graph._control_dependencies_stack else []
    back_edges = []
    for node in pending:
        node_def = node_def_pb2.NodeDef()
        node_def.CopyFrom(node)
        node_def.name = new_names[node.name]
        del node_def.input[:]
        inputs, controls = [], []
        for inp in node.input:
            key = _canonical(inp)
            op_name, index = _parse_tensor_name(inp)
            if key in input_map:
                mapped = input_map[key]
                if index < 0:
                    controls.append(mapped if isinstance(mapped, Operation) else mapped.op)
                else:
                    inputs.append(mapped)
                continue
            source = created.get(op_name)
            if source is None:  # a loop's back edge into Merge: patched once its source exists
                back_edges.append((node.name, len(inputs), op_name, index))
                inputs.append(None)
                continue
            if index < 0:
                controls.append(source)
            else:
                if index >= len(source._outputs):
                    raise ValueError(f"Node '{node.name}': Connecting to invalid output {index} "
                                     f"of source node {op_name} which has "
                                     f"{len(source._outputs)} outputs.")
                inputs.append(source._outputs[index])
        if None in inputs:
            stand_in = next((t for t in inputs if t is not None), None)
            if stand_in is None:
                raise ValueError(f"Node '{node.name}': every input is a loop's NextIteration;"
                                 f" a {node.op} needs one from outside the loop")
            inputs = [stand_in if t is None else t for t in inputs]
        if not node.input and control_deps:
            controls.extend(control_deps)
        _prefix_colocation(node_def, new_names)
        original_device = node_def.device
        node_def.device = ""
        trace = traces.get(f"{node.name}@")
        try:
            op = Operation._create(graph, node_def, op_defs[node.op], inputs, controls,
                                   traceback=trace)
        except ValueError as error:
            raise ValueError(f"{error}") from None
        created[node.name] = op
        graph._names_in_use.setdefault(op.name.lower(), 1)
        if original_device:
            op._set_device(original_device)
        if "_class" not in node_def.attr:
            with graph.device(original_device or None) if original_device else _null():
                graph._apply_device_functions(op)
        for frame in graph._control_dependencies_stack:
            frame.seen.add(op)
    for node_name, position, source_name, index in back_edges:
        outputs = created[source_name]._outputs
        if index >= len(outputs):
            raise ValueError(f"Output {index} of node {source_name} does not exist. Node only "
                             f"has {len(outputs)} outputs.")  # TensorFlow's words
        created[node_name]._update_input(position, outputs[index])
    for node in pending:
        op = created[node.name]
        for group in op.colocation_groups():
            target = group.decode()[len("loc:@"):]
            colocated = graph._nodes_by_name.get(target)
            if colocated is not None and colocated is not op and colocated.device:
                op._set_device(_canonical_device(colocated.device))
                break
    if missing:
        raise ValueError(f"Attempted to map inputs that were not found in graph_def: "
                         f"[{', '.join(missing)}]")
    if return_elements is None:
        return None
    results = []
    for element in return_elements:
        op_name, index = _parse_tensor_name(element)
        op = created[op_name]
        if ":" in element:
            if index >= len(op._outputs):
                raise ValueError(f"Invalid return output {index} of node '{op_name}', which has "
                                 f"{len(op._outputs)} output(s)")
            results.append(op._outputs[index])
        else:
            results.append(op)
    return results


class _null:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _new_names(graph, nodes, prefix, gdef_names):
    """Node names after import: under the prefix, or uniquified when there is none."""
    if prefix:
        return {node.name: f"{prefix}/{node.name}" for node in nodes}
    existing = set(graph._nodes_by_name)
    # Sorted names answer "is X the scope of a name?" by one search, where a set of every
    # name's every prefix cost the depth squared per name (minutes at 1,500 levels).
    existing_sorted, gdef_sorted = sorted(existing), sorted(gdef_names)
    names = {}
    taken = set()
    for node in nodes:
        original = candidate = node.name
        count = 0
        while (candidate in existing or _is_a_scope_in(existing_sorted, candidate)
               or candidate in taken
               or (count > 0 and (candidate in gdef_names
                                  or _is_a_scope_in(gdef_sorted, candidate)))):
            count += 1
            candidate = f"{original}_{count}"
        names[node.name] = candidate
        taken.add(candidate)
    return names


def _is_a_scope_in(sorted_names, candidate):
    """Whether some name of `sorted_names` lies under scope `candidate` ("candidate/...").

    >>> _is_a_scope_in(["a/b/c", "ab"], "a/b"), _is_a_scope_in(["a/b/c", "ab"], "a/b/c")
    (True, False)
    """
    probe = candidate + "/"
    at = bisect.bisect_left(sorted_names, probe)
    return at < len(sorted_names) and sorted_names[at].startswith(probe)


def _prefix_colocation(node_def, new_names):
    attr = node_def.attr.get("_class")
    if attr is None:
        return
    groups = []
    for group in attr.list.s:
        if group.startswith(b"loc:@"):
            target = group[len(b"loc:@"):].decode()
            group = f"loc:@{new_names.get(target, target)}".encode()
        groups.append(group)
    del attr.list.s[:]
    attr.list.s.extend(groups)


def _topological(nodes):
    """Nodes ordered so that inputs come first (GraphDef order where it already is)."""
    by_name = {node.name: node for node in nodes}
    order, state = [], {}
    for root in nodes:
        if root.name in state:
            continue
        stack = [(root, iter(root.input))]
        state[root.name] = 1
        while stack:
            node, inputs = stack[-1]
            for inp in inputs:
                name = _parse_tensor_name(inp)[0]
                child = by_name.get(name)
                if child is None or state.get(name) == 2:
                    continue
                if _is_back_edge(node, child):
                    continue  # a loop's back edge: Merge is built first, then patched
                if state.get(name) == 1:
                    raise ValueError(f"{_unordered_count(nodes)} nodes in a cycle")
                state[name] = 1
                stack.append((child, iter(child.input)))
                break
            else:
                stack.pop()
                state[node.name] = 2
                order.append(node)
    return order


def _is_back_edge(node, child):
    return node.op in ("Merge", "RefMerge") and child.op in ("NextIteration", "RefNextIteration")


def _unordered_count(nodes):
    """How many nodes no topological order reaches (a cycle and what hangs below it), as
    TensorFlow counts them in its "N nodes in a cycle" error."""
    by_name = {node.name: node for node in nodes}
    waiting, consumers = {}, {}
    for node in nodes:
        producers = {name for name in (_parse_tensor_name(i)[0] for i in node.input)
                     if name in by_name and not _is_back_edge(node, by_name[name])}
        waiting[node.name] = len(producers)
        for name in producers:
            consumers.setdefault(name, []).append(node.name)
    ready = [name for name, count in waiting.items() if count == 0]
    done = 0
    while ready:
        done += 1
        for consumer in consumers.get(ready.pop(), ()):
            waiting[consumer] -= 1
            if waiting[consumer] == 0:
                ready.append(consumer)
    return len(by_name) - done


__all__ = ["import_graph_def", "errors"]
