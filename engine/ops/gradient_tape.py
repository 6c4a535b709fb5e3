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
        recorded = []
        for index in sorted(recorded_indices):
            op = operations[index]
            if any(t.name in tracked for t in op.inputs):
                recorded.append(op)
                tracked.update(t.name for t in op.outputs)
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
