"""What a kernel sees of the node it runs and of the session around it."""

from google.protobuf import text_format

from engine.framework.attr_value import to_python
from engine.framework.errors import InvalidArgumentError
from engine.framework.tensor_util import MakeNdarray
from engine.runtime.random_philox import node_generator


class KernelContext:
    """Built once per node per execution plan by the executor, reused every step.

    name, op_type, node_def, device: the node. attrs: its attrs decoded
    (engine.framework.attr_value).
    output_dtypes: the resolved DTypes of its outputs. resources: the session's ResourceMgr.
    step_id: the current step (the executor sets it before each run). rng(): this node's
    stateful generator, seeded as TensorFlow seeds it, persisting across runs of a session.
    """

    __slots__ = ("name", "op_type", "node_def", "device", "output_dtypes", "resources",
                 "step_id", "_attrs", "_rng_factory", "_rng", "session_state")

    def __init__(self, node_def, output_dtypes, resources, device="", rng_factory=None,
                 session_state=None):
        self.name = node_def.name
        self.op_type = node_def.op
        self.node_def = node_def
        self.device = device or node_def.device
        self.output_dtypes = output_dtypes
        self.resources = resources
        self.step_id = 0
        self._attrs = None
        self._rng_factory = rng_factory
        self._rng = None
        self.session_state = session_state

    def for_node(self, node_def, output_dtypes):
        """A context for another node run inside this one (a fused chain's steps): the same
        session, device and random-state factory."""
        return KernelContext(node_def, output_dtypes, self.resources, self.device,
                             self._rng_factory, self.session_state)

    @property
    def attrs(self):
        if self._attrs is None:
            self._attrs = {key: self._decoded(value) for key, value in self.node_def.attr.items()}
        return self._attrs

    def _decoded(self, value):
        try:
            return to_python(value)
        except (ValueError, TypeError):
            field = value.WhichOneof("value")
            tensors = [value.tensor] if field == "tensor" else value.list.tensor if field == "list" else []
            for proto in tensors:
                try:
                    MakeNdarray(proto)
                except (ValueError, TypeError):
                    # a tensor_content shorter or longer than its shape: TensorFlow's words
                    # (node_def_util's GetNodeAttr), not NumPy's reshape error
                    raise InvalidArgumentError(self.node_def, None, "Cannot parse tensor from proto: "
                                               + text_format.MessageToString(proto)) from None
            raise

    def attr(self, name, default=None):
        return self.attrs.get(name, default)

    def rng(self):
        """The node's random state; by default TensorFlow's seeded Philox stream, kept per
        (session resources, node name) so it persists across runs and plans, as TensorFlow
        keeps a stateful kernel per session (engine.runtime.random_philox.node_generator)."""
        if self._rng is None:
            factory = self._rng_factory or node_generator
            self._rng = factory(self)
        return self._rng
