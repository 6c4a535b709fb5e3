"""tf.train.SyncReplicasOptimizer and its session hook (TensorFlow's sync_replicas_optimizer.py).

Each variable gets a ConditionalAccumulator on its own device (the ps), named after it; a
worker's train op pushes its gradients there, tagged with its local step, then waits for a
token from the token queue on the global step's device and takes its value as its next
local step. The chief's queue runner takes replicas_to_aggregate gradients from every
accumulator (stale ones were dropped), applies their mean with the wrapped optimizer,
which bumps the global step, and enqueues the new step once per replica: the barrier that
keeps every update computed from the same variables. The hook runs what a session needs
first (the local step from the global step; the chief sets the accumulators' steps, puts
the first tokens in and starts the queue runner).
"""

from engine.framework.api_namespace import NotSupportedError
from engine.framework.default_graph import get_default_graph, name_scope
from engine.framework.graph_keys import GraphKeys
from engine.framework.tensor import Tensor
from engine.ops import state_ops, variables
from engine.ops.accumulator_ops import ConditionalAccumulator
from engine.ops.control_flow.ops import group, no_op
from engine.ops.fill_ops import fill
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.optimizers import Optimizer
from engine.ops.queue_ops import FIFOQueue
from engine.platform import tf_logging as logging
from engine.training.queue_runner import QueueRunner
from engine.training.session_manager import ready
from engine.training.session_run_hook import SessionRunHook


class SyncReplicasOptimizer(Optimizer):
    """tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate, total_num_replicas=None,
    variable_averages=None, variables_to_average=None, use_locking=False,
    name="sync_replicas")."""

    def __init__(self, opt, replicas_to_aggregate, total_num_replicas=None,
                 variable_averages=None, variables_to_average=None, use_locking=False,
                 name="sync_replicas"):
        if total_num_replicas is None:
            total_num_replicas = replicas_to_aggregate
        super().__init__(use_locking, name)
        logging.info("SyncReplicasV2: replicas_to_aggregate=%s; total_num_replicas=%s",
                     replicas_to_aggregate, total_num_replicas)
        self._opt = opt
        self._replicas_to_aggregate = replicas_to_aggregate
        self._total_num_replicas = total_num_replicas
        self._tokens_per_step = max(total_num_replicas, replicas_to_aggregate)
        self._variable_averages = variable_averages
        self._variables_to_average = variables_to_average
        self._gradients_applied = False
        self._global_step = self._sync_token_queue = self._chief_queue_runner = None
        self._accumulator_list = []

    def compute_gradients(self, *args, **kwargs):
        """The wrapped optimizer's gradients (clip them per replica here if need be)."""
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The train op every replica runs: push the gradients, wait for a token."""
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        self._global_step = global_step
        graph = get_default_graph()
        train_ops, aggregated, var_list = [], [], []
        # The local step lives with the worker (colocated with an op of its own device),
        # never on a ps, whatever device function is in force.
        local_anchor = no_op()
        with graph.colocate_with(local_anchor):
            self._local_step = variables.RefVariable(
                initial_value=0, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
                dtype=global_step.dtype.base_dtype, name="sync_rep_local_step")
        self.local_step_init_op = state_ops.assign(self._local_step, global_step)
        chief_init_ops = [self.local_step_init_op]
        self.ready_for_local_init_op = variables.report_uninitialized_variables(
            variables.global_variables())
        with name_scope(None, self._name):
            for grad, var in grads_and_vars:
                var_list.append(var)
                with graph.device(var.device):
                    if grad is None:
                        aggregated.append(None)
                        continue
                    if isinstance(grad, IndexedSlices):
                        raise NotSupportedError(
                            "SyncReplicasOptimizer: sparse gradients (IndexedSlices, a "
                            "SparseConditionalAccumulator) are not supported by the engine yet")
                    if not isinstance(grad, Tensor):
                        raise ValueError("Unknown grad type!")
                    accumulator = ConditionalAccumulator(
                        grad.dtype, shape=var.get_shape(), shared_name=var.name + "/grad_accum")
                    train_ops.append(accumulator.apply_grad(grad, local_step=self._local_step))
                    aggregated.append(accumulator.take_grad(self._replicas_to_aggregate))
                    self._accumulator_list.append((accumulator, var.device))
            with graph.device(global_step.device), name_scope(""):
                update_op = self._opt.apply_gradients(zip(aggregated, var_list), global_step)
            with graph.device(global_step.device), name_scope(""):
                self._sync_token_queue = FIFOQueue(-1, global_step.dtype.base_dtype, shapes=(),
                                                   name="sync_token_q",
                                                   shared_name="sync_token_q")
            with graph.device(global_step.device), name_scope(""):
                with graph.control_dependencies(train_ops):
                    token = self._sync_token_queue.dequeue()
                train_op = state_ops.assign(self._local_step, token)
                with graph.control_dependencies([update_op]):
                    tokens = fill([self._tokens_per_step], global_step)
                    sync_op = self._sync_token_queue.enqueue_many((tokens,))
                if self._variable_averages is not None:
                    with graph.control_dependencies([sync_op]), name_scope(""):
                        sync_op = self._variable_averages.apply(self._variables_to_average)
                self._chief_queue_runner = QueueRunner(self._sync_token_queue, [sync_op])
            for accumulator, device in self._accumulator_list:
                with graph.device(device):
                    chief_init_ops.append(accumulator.set_global_step(global_step,
                                                                      name="SetGlobalStep"))
            self.chief_init_op = group(*chief_init_ops)
            self._gradients_applied = True
            return train_op

    def get_chief_queue_runner(self):
        """The QueueRunner the chief runs: aggregate, apply, hand out tokens."""
        if not self._gradients_applied:
            raise ValueError("Should be called after apply_gradients().")
        return self._chief_queue_runner

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def variables(self):
        return self._opt.variables()

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    def get_init_tokens_op(self, num_tokens=-1):
        """The chief's op putting `num_tokens` first tokens in (replicas_to_aggregate by
        default; none is a no_op)."""
        if not self._gradients_applied:
            raise ValueError("get_init_tokens_op() should be called after apply_gradients().")
        tokens_needed = self._replicas_to_aggregate - self._total_num_replicas
        if num_tokens == -1:
            num_tokens = self._replicas_to_aggregate
        elif num_tokens < tokens_needed:
            raise ValueError(f"Too few tokens to finish the first step: {num_tokens} (given) "
                             f"vs {tokens_needed} (needed)")
        if num_tokens <= 0:
            return no_op(name="no_init_tokens")
        graph = get_default_graph()
        with graph.device(self._global_step.device), name_scope(""):
            tokens = fill([num_tokens], self._global_step)
            return self._sync_token_queue.enqueue_many((tokens,))

    def make_session_run_hook(self, is_chief, num_tokens=-1):
        """The hook that runs the initialization ops above in a MonitoredSession."""
        return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)


class _SyncReplicasOptimizerHook(SessionRunHook):
    """Runs a SyncReplicasOptimizer's initialization ops once the session exists."""

    def __init__(self, sync_optimizer, is_chief, num_tokens):
        self._sync_optimizer, self._is_chief = sync_optimizer, is_chief
        self._num_tokens = num_tokens

    def begin(self):
        optimizer = self._sync_optimizer
        if not optimizer._gradients_applied:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before "
                             "using the hook.")
        self._ready_for_local_init_op = optimizer.ready_for_local_init_op
        if self._is_chief:
            self._local_init_op = optimizer.chief_init_op
            self._q_runner = optimizer.get_chief_queue_runner()
            self._init_tokens_op = optimizer.get_init_tokens_op(self._num_tokens)
        else:
            self._local_init_op = optimizer.local_step_init_op
            self._q_runner = self._init_tokens_op = None

    def after_create_session(self, session, coord):
        is_ready, message = ready(self._ready_for_local_init_op, session,
                                  "Model is not ready for SyncReplicasOptimizer local init.")
        if not is_ready:
            raise RuntimeError(f"Init operations did not make model ready for "
                               f"SyncReplicasOptimizer local_init. Init op: "
                               f"{self._local_init_op.name}, error: {message}")
        session.run(self._local_init_op)
        if self._init_tokens_op is not None:
            session.run(self._init_tokens_op)
        if self._q_runner is not None:
            self._q_runner.create_threads(session, coord=coord, daemon=True, start=True)
