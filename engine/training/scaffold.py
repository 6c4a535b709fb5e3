"""tf.train.Scaffold: the ops that make a monitored session's session ready (init, ready and
local-init ops, the summary op, the Saver), taken from the graph's collections or built, then
the graph finalized, as TensorFlow 1.x's."""

from engine.framework.api_namespace import NotSupportedError
from engine.framework.default_graph import get_default_graph
from engine.framework.graph_keys import GraphKeys
from engine.ops import variables
from engine.ops.control_flow import ops as control_flow_ops
from engine.summary.ops import merge_all
from engine.training.checkpoint_hooks import default_saver


class Scaffold:
    """The ops that make a session ready: init_op, local_init_op, summary_op (and init_fn)."""

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None, saver=None,
                 copy_from_scaffold=None):
        self._init_op, self._init_feed_dict, self._init_fn = init_op, init_feed_dict, init_fn
        self._local_init_op, self._summary_op, self._saver = local_init_op, summary_op, saver
        self._ready_op, self._ready_for_local_init_op = ready_op, ready_for_local_init_op

    def finalize(self):
        """Builds what was not given (or reuses the graph's, from its collections), then
        freezes the graph, as TensorFlow's Scaffold does."""
        graph = get_default_graph()

        def get_or_default(given, key, make):
            if given is not None:
                return given
            elements = graph.get_collection(key)
            if len(elements) > 1:
                raise RuntimeError(f"More than one item in the collection {key}. "
                                   "Please indicate which one to use by passing it to the "
                                   "tf.Scaffold constructor as:  tf.Scaffold(init_op=...)")
            if elements:
                return elements[0]
            made = make()
            if made is not None:
                graph.add_to_collection(key, made)
            return made

        self._init_op = get_or_default(self._init_op, GraphKeys.INIT_OP,
                                       variables.global_variables_initializer)
        self._ready_op = get_or_default(self._ready_op, GraphKeys.READY_OP,
                                        variables.report_uninitialized_variables)
        self._ready_for_local_init_op = get_or_default(
            self._ready_for_local_init_op, GraphKeys.READY_FOR_LOCAL_INIT_OP,
            lambda: variables.report_uninitialized_variables(variables.global_variables()))
        self._local_init_op = get_or_default(
            self._local_init_op, GraphKeys.LOCAL_INIT_OP,
            lambda: control_flow_ops.group(variables.local_variables_initializer()))
        self._summary_op = get_or_default(self._summary_op, GraphKeys.SUMMARY_OP, merge_all)
        if self._saver is None:
            try:
                self._saver = default_saver()
            except NotSupportedError:
                pass  # no tf.train.Saver in this engine: no checkpoints
        graph.finalize()
        return self

    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    init_fn = property(lambda self: self._init_fn)
    local_init_op = property(lambda self: self._local_init_op)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    summary_op = property(lambda self: self._summary_op)
    saver = property(lambda self: self._saver)
