"""tf.GradientTape in graph mode: the tape remembers which ops were made while it recorded,
and gradient() builds the gradient graph through those ops alone.

As TensorFlow's tape does, an op is on the tape when it was made while recording and one of
its inputs is watched: a tensor given to watch(), a trainable resource variable read while
recording (watch_accessed_variables), or an output of an op on the tape. Gradients flow only
through ops on the tape; a source the tape never watched gets None (zeros with
unconnected_gradients="zero").
"""

import contextlib

from engine.framework.graph import GraphKeys, get_default_graph
from engine.framework.tensor import Tensor
from engine.ops import nest
from engine.ops.convert import convert_to_tensor
from engine.ops.variables import RefVariable, Variable


class GradientTape:
    """Records ops for automatic differentiation (tf.GradientTape)."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._graph = None
        self._segments = []        # [first op index, end op index or None] while recording
        self._watched = []         # (op index when watched, Tensor or Variable)
        self._used = False

    def __enter__(self):
        self._push()
        return self

    def __exit__(self, *exc):
        if self._recording:
            self._pop()

    @property
    def _recording(self):
        return bool(self._segments) and self._segments[-1][1] is None

    def _push(self):
        graph = get_default_graph()
        if self._graph is None:
            self._graph = graph
        self._segments.append([len(graph.get_operations()), None])

    def _pop(self):
        self._segments[-1][1] = len(self._graph.get_operations())

    @contextlib.contextmanager
    def stop_recording(self):
        """Ops made inside the block are not recorded."""
        if not self._recording:
            raise ValueError("Tape is not recording.")
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self):
        """Forgets everything recorded so far (recording goes on inside the block)."""
        recording = self._recording
        self._segments, self._watched, self._used = [], [], False
        if recording:
            self._push()

    def watch(self, tensor):
        """Watches a tensor or variable (or a nested structure of them)."""
        position = len(get_default_graph().get_operations())
        for value in nest.flatten(tensor):
            if not isinstance(value, (Tensor, Variable)):
                raise ValueError(f"Passed in object {value} of type '{type(value).__name__}'"
                                 f", not tf.Tensor or tf.Variable or ExtensionType.")
            self._watched.append((position, value))

    def watched_variables(self):
        """The variables watched, in the order the tape first saw them."""
        return tuple(variable for variable in self._watch_state()[2])

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients="none"):
        """The gradients of (the sum of) `target` with respect to each of `sources`."""
        from engine.ops.gradients import gradients
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians)")
        unconnected = getattr(unconnected_gradients, "value", unconnected_gradients)
        if unconnected not in ("none", "zero"):
            raise ValueError(f"Unknown value for unconnected_gradients: '{unconnected}'")
        flat_sources = nest.flatten(sources)
        for source in flat_sources:
            if isinstance(source, RefVariable):
                raise AttributeError("'RefVariable' object has no attribute '_id'")
        self._used = True
        tracked, recorded = self._tracked()
        flat_targets = [t.value() if isinstance(t, Variable) else convert_to_tensor(t)
                        for t in nest.flatten(target)]
        flat_output_gradients = ([None] * len(flat_targets) if output_gradients is None
                                 else nest.flatten(output_gradients))
        pairs = [(t, g) for t, g in zip(flat_targets, flat_output_gradients)
                 if t.name in tracked]
        source_tensors = [_handle_in(self._graph, s, create=True) if isinstance(s, Variable)
                          else s for s in flat_sources]
        results = [None] * len(flat_sources)
        connected = [i for i, s in enumerate(source_tensors) if s.name in tracked]
        if pairs and connected:
            stops = {}
            for op in recorded:
                for tensor in op.inputs:
                    if tensor.name not in tracked:
                        stops[tensor.name] = tensor
            for index in connected:
                stops.pop(source_tensors[index].name, None)
            grad_ys = [g for _, g in pairs]
            grads = gradients([t for t, _ in pairs], [source_tensors[i] for i in connected],
                              grad_ys=None if all(g is None for g in grad_ys) else grad_ys,
                              stop_gradients=list(stops.values()), name="gradient_tape",
                              unconnected_gradients=unconnected)
            for index, grad in zip(connected, grads):
                results[index] = grad
        if unconnected == "zero":
            from engine.ops import array_ops
            for index, source in enumerate(flat_sources):
                if results[index] is None:
                    value = source.value() if isinstance(source, Variable) else source
                    results[index] = array_ops.zeros_like(value)
        return nest.pack_sequence_as(sources, results)

    @contextlib.contextmanager
    def _ensure_recording(self):
        if self._recording:
            yield
        else:
            self._push()
            try:
                yield
            finally:
                self._pop()

    def jacobian(self, target, sources, unconnected_gradients="none",
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target[i...] / d source for every element of `target`: TensorFlow's loop over
        the flattened target (its pfor vectorizes the loop; the values are the same), each
        result shaped target.shape + source.shape."""
        from engine.ops import array_ops
        flat_sources = nest.flatten(sources)
        target = convert_to_tensor(target)
        with self._ensure_recording():
            target_shape = array_ops.shape(target)
            flat_target = array_ops.reshape(target, [-1])
        size = flat_target.shape.as_list()[0] if flat_target.shape.ndims else None
        if size is None:
            size = array_ops.shape(flat_target)[0]

        def loop_fn(i):
            with self._ensure_recording():
                y = array_ops.gather(flat_target, i)
            return self._gradient_once(y, flat_sources, unconnected_gradients)
        output = self._for_loop(loop_fn, [_dtype(s) for s in flat_sources], size,
                                parallel_iterations)
        for k, stacked in enumerate(output):
            if stacked is not None:
                new_shape = array_ops.concat([target_shape, array_ops.shape(stacked)[1:]],
                                             axis=0)
                output[k] = array_ops.reshape(stacked, new_shape)
        return nest.pack_sequence_as(sources, output)

    def batch_jacobian(self, target, source, unconnected_gradients="none",
                       parallel_iterations=None, experimental_use_pfor=True):
        """The jacobian of each batch row of `target` with respect to the same row of
        `source` (the first dimension of both is the batch), shaped
        [batch] + target.shape[1:] + source.shape[1:]."""
        from engine.ops import array_ops, check_ops
        from engine.framework.tensor_shape import Dimension
        target = convert_to_tensor(target)
        source_tensor = source.value() if isinstance(source, Variable) else source
        target_shape = target.shape
        dim = Dimension(None) if target_shape.ndims is None else target_shape.dims[0]
        if not (target_shape.with_rank_at_least(2) and
                source_tensor.shape.with_rank_at_least(2) and
                dim.is_compatible_with(source_tensor.shape[0])):
            raise ValueError(f"Need first dimension of target shape ({target.shape}) and "
                             f"source shape ({source_tensor.shape}) to match.")
        if target_shape.is_fully_defined():
            batch_size = int(target_shape[0])
            target_row_size = target_shape.num_elements() // batch_size
        else:
            target_shape = array_ops.shape(target)
            batch_size = target_shape[0]
            target_row_size = array_ops.size(target) // batch_size
        source_shape = array_ops.shape(source_tensor)
        with self._ensure_recording():
            from engine.framework.graph import get_default_graph as _graph
            with _graph().control_dependencies(
                    [check_ops.assert_equal(batch_size, source_shape[0])]):
                target = array_ops.reshape(target, [batch_size, target_row_size])

        def loop_fn(i):
            with self._ensure_recording():
                y = array_ops.gather(target, i, axis=1)
            return self._gradient_once(y, [source], unconnected_gradients)
        output = self._for_loop(loop_fn, [target.dtype], target_row_size,
                                parallel_iterations)[0]
        if output is None:
            return None
        output = array_ops.reshape(output, [target_row_size, batch_size, -1])
        output = array_ops.transpose(output, [1, 0, 2])
        new_shape = array_ops.concat([target_shape, source_shape[1:]], axis=0)
        return array_ops.reshape(output, new_shape)

    def _gradient_once(self, target, sources, unconnected_gradients):
        """gradient() for the body of a jacobian's loop (traced once, also on a
        non-persistent tape)."""
        used, self._used = self._used, False
        try:
            return self.gradient(target, sources, unconnected_gradients=unconnected_gradients)
        finally:
            self._used = used

    def _for_loop(self, loop_fn, dtypes_, size, parallel_iterations):
        """TensorFlow's pfor_ops.for_loop: loop_fn(i) for i < size in a tf.while_loop, each
        output stacked (None where loop_fn gives None)."""
        from engine.ops.control_flow.while_loop import while_loop
        from engine.ops.tensor_array_ops import TensorArray
        connected = [True] * len(dtypes_)

        def body(i, *arrays):
            out = []
            for k, (array, value) in enumerate(zip(arrays, loop_fn(i))):
                if value is None:
                    connected[k] = False
                    out.append(array)
                else:
                    out.append(array.write(i, convert_to_tensor(value)))
            return (i + 1,) + tuple(out)
        arrays = tuple(TensorArray(dtype, size=size) for dtype in dtypes_)
        results = while_loop(lambda i, *_: i < size, body, (convert_to_tensor(0),) + arrays,
                             parallel_iterations=parallel_iterations or 10)[1:]
        self._used = self._used or not self._persistent
        return [array.stack() if ok else None for array, ok in zip(results, connected)]

    def _watch_state(self):
        """(tracked tensor names, recorded ops, watched variables in order)."""
        if self._graph is None:
            return set(), [], []
        operations = self._graph.get_operations()
        end = len(operations)
        recorded_indices = set()
        for start, stop in self._segments:
            recorded_indices.update(range(start, end if stop is None else stop))
        events = [(position, value) for position, value in self._watched]
        variables_by_handle = {}
        if self._watch_accessed_variables:
            outer = _outermost(self._graph)
            for variable in (outer.get_collection(GraphKeys.GLOBAL_VARIABLES) +
                             outer.get_collection(GraphKeys.LOCAL_VARIABLES)):
                if not variable.trainable or isinstance(variable, RefVariable):
                    continue
                handle = _handle_in(self._graph, variable)
                if handle is not None:
                    variables_by_handle.setdefault(handle.name, variable)
        for index in sorted(recorded_indices):
            for tensor in operations[index].inputs:
                variable = variables_by_handle.get(tensor.name)
                if variable is not None:
                    events.append((index, variable))
        events.sort(key=lambda event: event[0])
        tracked, variables, seen = set(), [], set()
        for _, value in events:
            if isinstance(value, Variable):
                if id(value) not in seen:
                    seen.add(id(value))
                    variables.append(value)
                handle = _handle_in(self._graph, value, create=True)
                tracked.add(handle.name if handle is not None else value.name)
            else:
                tracked.add(value.name)
        # To a fixed point: an op can be made before its input (v1 control flow adds a
        # loop's Enter after the op that reads through it).
        recorded, pending = [], [operations[i] for i in sorted(recorded_indices)]
        changed = True
        while changed:
            changed, rest = False, []
            for op in pending:
                if any(t.name in tracked for t in op.inputs):
                    recorded.append(op)
                    tracked.update(t.name for t in op.outputs)
                    changed = True
                else:
                    rest.append(op)
            pending = rest
        return tracked, recorded, variables

    def _tracked(self):
        tracked, recorded, _ = self._watch_state()
        return tracked, recorded



def _outermost(graph):
    while getattr(graph, "outer", None) is not None:
        graph = graph.outer
    return graph


def _handle_in(graph, variable, create=False):
    """A resource variable's handle as `graph` sees it: in a function graph, the placeholder
    that captured it (made now if `create`), or None where it was never captured."""
    handle = getattr(variable, "_handle", None)
    if handle is None or graph is None or handle.graph is graph:
        return handle
    for outer, placeholder in getattr(graph, "captures", ()):
        if outer is handle:
            return placeholder
    if create and hasattr(graph, "capture"):
        with graph.as_default():
            return graph.capture(handle)
    return None


def _dtype(value):
    return value.dtype.base_dtype
