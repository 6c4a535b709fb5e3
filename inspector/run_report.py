"""What `run` prints of a run: fetched values NumPy-style, the RunMetadata file, and the one
line that reports a node failing (its name, op, the function it ran in, where it was made)."""

import numpy as np

from engine.framework.traceback import is_engine_file
from engine.runtime.node_run import kernel_summary
from views import outputs


def format_value(name, value):
    """A fetched value NumPy-style, continuation lines aligned under `name = `."""
    if value is None:
        return "None"
    return np.array2string(np.asarray(value), prefix=f"{name} = ", threshold=1000)


def write_run_metadata(out, metadata):
    """The RunMetadata as text for .pbtxt, else binary; whole or not at all."""
    if out.endswith(".pbtxt"):
        from google.protobuf import text_format
        outputs.write_text(out, text_format.MessageToString(metadata))
    else:
        outputs.write_bytes(out, metadata.SerializeToString())


def run_error_line(error, graph_def):
    """One line: the error class, node, its op, the function it ran in, where it was
    defined, and what went wrong.

    >>> from engine.framework import errors
    >>> from engine.proto import graph_pb2
    >>> error = errors.InvalidArgumentError(None, None, "indices[0] = 9 is not in [0, 3)")
    >>> error.node_name, error.op_type = "embed/Gather", "ResourceGather"
    >>> error.function_calls = [("__inference_call_5", "StatefulPartitionedCall")]
    >>> run_error_line(error, graph_pb2.GraphDef())  # doctest: +NORMALIZE_WHITESPACE
    "InvalidArgumentError: node 'embed/Gather' (ResourceGather) in function
    '__inference_call_5' (called by node 'StatefulPartitionedCall'):
    indices[0] = 9 is not in [0, 3)"
    """
    node = getattr(error, "node_def", None)
    name = error.node_name or (node.name if node is not None else "?")
    calls = getattr(error, "function_calls", None)
    inlined = _inlined_origin(error)
    if not calls and inlined is not None:
        # A node the engine inlined from a function body: named as the body names it.
        calls = _calls_by_inlined_name(graph_def, graph_def, name, *inlined)
        if calls:
            name, node = inlined[0], None
    calls = calls or _calls_by_name(graph_def, name)
    function = calls[0][0] if calls else None
    body = _function_def(graph_def, function)
    op_type = error.op_type or (node.op if node is not None else
                                _op_type(body.node_def if body is not None else graph_def.node,
                                         name))
    where = _defined_at(getattr(error, "op", None), graph_def, name, function)
    text = f"{type(error).__name__}: node {name!r} ({op_type})"
    if calls:
        text += f" in function {function!r} ({_called_by(calls)})"
    if getattr(error, "task", None):  # on a cluster (engine/cluster)
        text += f" on task {error.task}"
    if where:
        text += f", defined at {where}"
    return f"{text}: {kernel_summary(error)}"


def _inlined_origin(error):
    """(name in its body, function) of a failing node inlined from a function, else None."""
    node = getattr(error, "node_def", None)
    function = getattr(error, "function_name", None)
    if node is None or not function or not node.HasField("experimental_debug_info"):
        return None
    names = node.experimental_debug_info.original_node_names
    return (names[0], function) if names else None


def _calls_by_inlined_name(graph_def, body, inlined, original, function, depth=0):
    """[(function, calling node)], innermost first, of the calls whose inlining made the node
    `inlined` out of `original` in `function`: TensorFlow's inliner prefixes each body node with
    its call node's name (`call/inner_call/original`); [] when no path of calls matches."""
    from engine.framework.function_graph import called_functions
    library = {f.signature.name: f for f in graph_def.library.function}
    nodes = body.node if depth == 0 else body.node_def
    for node in nodes:
        if not inlined.startswith(node.name + "/"):
            continue
        rest = inlined[len(node.name) + 1:]
        for callee in called_functions(node, library):
            if callee == function and rest == original:
                return [(callee, node.name)]
            if callee in library and depth < 64:
                inner = _calls_by_inlined_name(graph_def, library[callee], rest, original,
                                               function, depth + 1)
                if inner:
                    return inner + [(callee, node.name)]
    return []


def _called_by(calls):
    """`called by node 'X'`, or through the functions between: `called from 'g' by node 'X'`."""
    between = [repr(function) for function, _ in calls[1:]]
    via = f"from {', '.join(between)} " if between else ""
    return f"called {via}by node {calls[-1][1]!r}" if calls[-1][1] else f"called {via}".strip()


def _calls_by_name(graph_def, name):
    """[(function, "")] for the one function of the library holding a node `name`, when the
    top-level graph holds none (an error that did not say where it ran)."""
    if name == "?" or any(node.name == name for node in graph_def.node):
        return []
    holders = [f.signature.name for f in graph_def.library.function
               if any(node.name == name for node in f.node_def)]
    return [(holders[0], "")] if len(holders) == 1 else []


def _function_def(graph_def, name):
    if name is None:
        return None
    return next((f for f in graph_def.library.function if f.signature.name == name), None)


def _op_type(nodes, name):
    for node in nodes:
        if node.name == name:
            return node.op
    return "?"


def _defined_at(op, graph_def, name, function=None):
    """file:line where the node was created: the engine op's traceback or the debug_info
    (which keys a function's node as `node@function`)."""
    traceback = getattr(op, "traceback", None) if op is not None else None
    if traceback:
        return _program_line([(str(f[0]), f[1]) for f in traceback])
    debug_info = graph_def.debug_info
    trace = None
    key = f"{name}@{function}" if function else name
    if key in debug_info.traces:
        trace = debug_info.traces[key]
    elif key in debug_info.name_to_trace_id:
        trace = debug_info.traces_by_id.get(debug_info.name_to_trace_id[key])
    if trace is None:
        return ""
    frames = list(trace.file_line_cols) or [debug_info.frames_by_id[i] for i in trace.frame_id
                                            if i in debug_info.frames_by_id]
    return _program_line([(debug_info.files[f.file_index]
                           if f.file_index < len(debug_info.files) else "?", f.line)
                          for f in frames])


def _program_line(frames):
    """`file:line` of the innermost (file, line) frame in the user's program, not in a library.

    Debug info ends a couple of frames inside the library that made the op (TensorFlow's
    useful frames), so the last frame is rarely the line that made it.

    >>> _program_line([("train.py", 7), ("tensorflow/python/ops/gen_array_ops.py", 7115)])
    'train.py:7'
    """
    if not frames:
        return ""
    user = [f for f in frames if not _is_library_file(f[0])]
    filename, line = (user or frames)[-1]
    return f"{filename}:{line}"


def _is_library_file(filename):

    path = filename.replace("\\", "/")
    return (is_engine_file(filename) or path.startswith("tensorflow/")
            or any(part in path for part in ("/tensorflow/", "/site-packages/", "/dist-packages/")))
