"""The Graph's building scopes: control dependencies, devices, colocation, containers, attrs."""

import contextlib

from engine.framework import devices as _device
from engine.framework.operation import Operation
from engine.proto import attr_value_pb2
from engine.framework.tensor import Tensor


class _ControlDependencies:
    """One `with g.control_dependencies(...)` frame: its inputs and the ops built inside."""

    __slots__ = ("control_inputs", "seen", "new_stack")

    def __init__(self, control_inputs):
        self.new_stack = control_inputs is None
        self.control_inputs = [] if control_inputs is None else control_inputs
        self.seen = set()


class _DeviceScope:
    """One `with g.device(...)` frame: a device string, a function of the op, or None."""

    __slots__ = ("spec", "function", "is_null_merge")

    def __init__(self, spec):
        self.spec = spec
        if spec is None:
            self.function, self.is_null_merge = None, False
        elif callable(spec):
            self.function, self.is_null_merge = spec, False
        else:
            spec = spec.to_string() if isinstance(spec, _device.DeviceSpec) else spec
            self.spec = _device.canonical(spec)
            self.function, self.is_null_merge = True, not self.spec

    def merge(self, op):
        if self.function is True:
            return _device.merge(self.spec, op._node_def.device)
        result = self.function(op)
        if isinstance(result, _device.DeviceSpec):
            return result.to_string()
        return result or ""

class GraphScopes:
    """The `with g.control_dependencies / device / colocate_with / ...` half of Graph: each
    scope is a stack on the graph that create_op reads when it builds an op."""


    def control_dependencies(self, control_inputs):
        if control_inputs is None:
            return self._control_dependencies_scope(None)
        control_ops = []
        current = self._current_control_dependencies()
        for c in control_inputs:
            if hasattr(c, "_handle") and hasattr(c, "op"):
                c = c.op
            c = self.as_graph_element(c)
            if isinstance(c, Tensor):
                c = c.op
            elif not isinstance(c, Operation):
                raise TypeError(f"Control input must be Operation or Tensor: {c}")
            if c not in current:
                control_ops.append(c)
                current.add(c)
                c._set_attr("_has_manual_control_dependencies",
                            attr_value_pb2.AttrValue(b=True))
        return self._control_dependencies_scope(control_ops)

    @contextlib.contextmanager
    def _control_dependencies_scope(self, control_ops):
        frame = _ControlDependencies(control_ops)
        saved = None
        if frame.new_stack:
            # control_dependencies(None) also leaves any tf.cond / tf.while_loop context.
            saved, self._control_dependencies_stack = self._control_dependencies_stack, []
            saved_context, self._control_flow_context = self._control_flow_context, None
        self._control_dependencies_stack.append(frame)
        try:
            yield
        finally:
            if saved is not None:
                self._control_dependencies_stack = saved
                self._control_flow_context = saved_context
            else:
                self._control_dependencies_stack.pop()

    def _current_control_dependencies(self):
        ret = set()
        for frame in self._control_dependencies_stack:
            ret.update(frame.control_inputs)
        return ret

    def _control_dependencies_for_inputs(self, input_ops):
        ret = []
        for frame in self._control_dependencies_stack:
            if any(op in frame.seen for op in input_ops):
                continue
            ret.extend(c for c in frame.control_inputs if c not in input_ops and c not in ret)
        return ret

    @contextlib.contextmanager
    def device(self, device_name_or_function):
        self._device_stack.append(_DeviceScope(device_name_or_function))
        try:
            yield
        finally:
            self._device_stack.pop()

    def _apply_device_functions(self, op):
        for scope in reversed(self._device_stack):
            if scope.is_null_merge:
                continue
            if scope.function is None:
                break
            op._set_device(scope.merge(op))

    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is "
                             "not True")
        if op is not None:
            op = self._colocation_op(op)
        saved_devices, self._device_stack = self._device_stack, []
        saved_colocation = None
        if ignore_existing:
            saved_colocation, self._colocation_stack = self._colocation_stack, []
        if op is not None:
            self._colocation_stack.append(op)
        try:
            yield
        finally:
            self._device_stack = saved_devices
            if op is not None:
                self._colocation_stack.pop()
            if ignore_existing:
                self._colocation_stack = saved_colocation

    @contextlib.contextmanager
    def container(self, container_name):
        saved, self._container = self._container, container_name
        try:
            yield self._container
        finally:
            self._container = saved

    @contextlib.contextmanager
    def _attr_scope(self, attr_map):
        """Attrs (AttrValue, or None to clear) set on every op built inside, unless it has one."""
        saved = dict(self._attr_scope_map)
        for name, value in attr_map.items():
            if value is None:
                self._attr_scope_map.pop(name, None)
            else:
                self._attr_scope_map[name] = value
        try:
            yield
        finally:
            self._attr_scope_map = saved
