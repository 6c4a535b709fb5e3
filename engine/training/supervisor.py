"""tf.train.Supervisor: a TF 1.x training program's session, services and stopping
(TensorFlow's supervisor.py).

Made with the graph, it picks (or builds, and puts in the graph's collections) its ready op,
init op, local init op, Saver, summary op and global step, then finalizes the graph. The
chief prepares the session (restoring logdir's newest checkpoint or initializing), writes
graph.pbtxt and the graph events, and starts its services: a thread recording the summary
op and one recording global_step/sec every save_summaries_secs, one saving a checkpoint
every save_model_secs, each first at once. Another worker waits until the chief made the
model ready, every recovery_wait_secs. Both start the graph's queue runners. The threads
stop together through the Supervisor's Coordinator: should_stop(), request_stop(), stop().
"""

import contextlib
import os
import time

from engine.framework.default_graph import get_default_graph
from engine.framework.graph_keys import GraphKeys
from engine.ops import variables
from engine.ops.control_flow.ops import group, no_op
from engine.ops.saver import Saver
from engine.ops.train import global_step as read_global_step, write_graph
from engine.platform import tf_logging as logging
from engine.proto import meta_graph_pb2, summary_pb2
from engine.proto.event_pb2 import SessionLog
from engine.summary.ops import merge_all
from engine.summary.writer import FileWriter
from engine.training.coordinator import Coordinator, LooperThread
from engine.training.session_manager import SessionManager


class Supervisor:
    """tf.train.Supervisor (see the module docstring)."""

    USE_DEFAULT = 0

    def __init__(self, graph=None, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT,
                 is_chief=True, init_op=USE_DEFAULT, init_feed_dict=None,
                 local_init_op=USE_DEFAULT, logdir=None, summary_op=USE_DEFAULT,
                 saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
                 save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120,
                 checkpoint_basename="model.ckpt", session_manager=None,
                 summary_writer=USE_DEFAULT, init_fn=None, local_init_run_options=None):
        graph = graph or get_default_graph()
        with graph.as_default():
            self._ready_op = _default(ready_op, GraphKeys.READY_OP,
                                      variables.report_uninitialized_variables)
            self._ready_for_local_init_op = (
                _first_in_collection(GraphKeys.READY_FOR_LOCAL_INIT_OP)
                if ready_for_local_init_op is Supervisor.USE_DEFAULT else ready_for_local_init_op)
            self._init_op = _default(init_op, GraphKeys.INIT_OP,
                                     variables.global_variables_initializer)
            self._init_feed_dict = init_feed_dict
            self._local_init_op = _default(local_init_op, GraphKeys.LOCAL_INIT_OP,
                                           _local_init_op)
            self._saver = _default(saver, GraphKeys.SAVERS,
                                   lambda: Saver() if variables.global_variables() else None)
            self._summary_op = _default(summary_op, GraphKeys.SUMMARY_OP, merge_all)
            self._global_step = _default(global_step, GraphKeys.GLOBAL_STEP,
                                         _global_step_by_name)
        self._graph = graph
        self._meta_graph_def = meta_graph_pb2.MetaGraphDef()
        self._meta_graph_def.graph_def.CopyFrom(graph.as_graph_def(add_shapes=True))
        self._meta_graph_def.meta_info_def.SetInParent()
        if self._saver is not None:
            self._meta_graph_def.saver_def.CopyFrom(self._saver.saver_def)
        self._is_chief = is_chief
        self._coord = Coordinator()
        self._recovery_wait_secs, self._stop_grace_secs = recovery_wait_secs, stop_grace_secs
        self._init_fn, self._local_init_run_options = init_fn, local_init_run_options
        self._logdir = self._save_path = self._summary_writer = None
        self._save_summaries_secs = self._save_model_secs = None
        if is_chief:  # only the chief writes
            self._logdir = logdir
            self._save_summaries_secs, self._save_model_secs = save_summaries_secs, \
                save_model_secs
            if logdir:
                self._save_path = os.path.join(logdir, checkpoint_basename)
            if summary_writer is Supervisor.USE_DEFAULT:
                self._summary_writer = FileWriter(logdir) if logdir else None
            else:
                self._summary_writer = summary_writer
            self._graph_added_to_summary = False
        self._session_manager = session_manager or SessionManager(
            local_init_op=self._local_init_op, ready_op=self._ready_op,
            ready_for_local_init_op=self._ready_for_local_init_op, graph=graph,
            recovery_wait_secs=recovery_wait_secs,
            local_init_run_options=local_init_run_options)
        if not is_chief:
            for op in graph.get_operations():
                if op.type in ("Variable", "VariableV2") and not op.device:
                    raise ValueError("When using replicas, all Variables must have their "
                                     f"device set: {op}")
        graph.finalize()

    is_chief = property(lambda self: self._is_chief)
    session_manager = property(lambda self: self._session_manager)
    coord = property(lambda self: self._coord)
    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    summary_writer = property(lambda self: self._summary_writer)
    summary_op = property(lambda self: self._summary_op)
    save_summaries_secs = property(lambda self: self._save_summaries_secs)
    global_step = property(lambda self: self._global_step)
    saver = property(lambda self: self._saver)
    save_model_secs = property(lambda self: self._save_model_secs)
    save_path = property(lambda self: self._save_path)

    def _write_graph(self):
        if self._logdir:
            write_graph(self._graph.as_graph_def(add_shapes=True), self._logdir, "graph.pbtxt")
        if self._summary_writer and not self._graph_added_to_summary:
            self._summary_writer.add_graph(self._graph)
            self._summary_writer.add_meta_graph(self._meta_graph_def)
            self._graph_added_to_summary = True

    def start_standard_services(self, sess):
        """The chief's summary, step counter and checkpoint threads (started)."""
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. "
                               "Because only chief supervisors can write events.")
        if not self._logdir:
            logging.warning("Standard services need a 'logdir' passed to the SessionManager")
            return None
        if self._global_step is not None and self._summary_writer:
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START),
                                                 read_global_step(sess, self._global_step))
        threads = []
        if self._save_summaries_secs and self._summary_writer:
            if self._summary_op is not None:
                threads.append(SVSummaryThread(self, sess))
            if self._global_step is not None:
                threads.append(SVStepCounterThread(self, sess))
        if self.saver and self._save_model_secs:
            threads.append(SVTimerCheckpointThread(self, sess))
        for thread in threads:
            thread.start()
        return threads

    def prepare_or_wait_for_session(self, master="", config=None, wait_for_checkpoint=False,
                                    max_wait_secs=7200, start_standard_services=True):
        """The chief's prepared session, or another worker's once the chief is done."""
        self._coord.clear_stop()
        if self._summary_writer:
            self._summary_writer.reopen()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self.init_op, saver=self.saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
                config=config, init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                logging.info("Starting standard services.")
                self.start_standard_services(sess)
        else:
            sess = self._session_manager.wait_for_session(master, config=config,
                                                          max_wait_secs=max_wait_secs)
        if start_standard_services:
            logging.info("Starting queue runners.")
            self.start_queue_runners(sess)
        return sess

    def start_queue_runners(self, sess, queue_runners=None):
        """Threads for `queue_runners` (the graph's by default), under this coordinator."""
        if queue_runners is None:
            queue_runners = self._graph.get_collection(GraphKeys.QUEUE_RUNNERS)
        threads = []
        for runner in queue_runners:
            threads.extend(runner.create_threads(sess, coord=self._coord, daemon=True,
                                                 start=True))
        return threads

    def loop(self, timer_interval_secs, target, args=None, kwargs=None):
        """A started LooperThread calling `target` every timer_interval_secs."""
        looper = LooperThread(self._coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper

    def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
        """Stops the threads (waiting stop_grace_secs), then closes the summary writer."""
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer:
                self._summary_writer.add_session_log(SessionLog(status=SessionLog.STOP))
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex=None):
        self._coord.request_stop(ex=ex)

    def should_stop(self):
        return self._coord.should_stop()

    def stop_on_exception(self):
        return self._coord.stop_on_exception()

    def wait_for_stop(self):
        self._coord.wait_for_stop()

    def summary_computed(self, sess, summary, global_step=None):
        """Writes a summary the program computed itself, at the global step."""
        if not self._summary_writer:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self.global_step is not None:
            global_step = read_global_step(sess, self.global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master="", config=None, start_standard_services=True,
                        close_summary_writer=True):
        """A prepared session for the block; an exception in it stops the services (and is
        re-raised by stop(), unless it is the OutOfRangeError that ends the input)."""
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(
                master=master, config=config, start_standard_services=start_standard_services)
            yield sess
        except Exception as error:  # noqa: BLE001  (the coordinator decides what it means)
            self.request_stop(error)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    try:
                        sess.close()
                    except Exception:  # noqa: BLE001  (as TensorFlow: closing is best effort)
                        pass

    # TensorFlow's CamelCase aliases.
    PrepareSession = prepare_or_wait_for_session
    StartQueueRunners = start_queue_runners
    StartStandardServices = start_standard_services
    Stop = stop
    RequestStop = request_stop
    Loop = loop
    ShouldStop = should_stop
    StopOnException = stop_on_exception
    WaitForStop = wait_for_stop
    SummaryComputed = summary_computed


def _first_in_collection(key):
    items = get_default_graph().get_collection(key)
    if len(items) > 1:
        logging.info("Found %d %s operations. Returning the first one.", len(items), key)
    return items[0] if items else None


def _default(given, key, make):
    """`given`, or (for USE_DEFAULT) the first of the graph's collection `key`, or what
    `make` builds (added to the collection)."""
    if given is not Supervisor.USE_DEFAULT:
        return given
    found = _first_in_collection(key)
    if found is None:
        found = make()
        if found is not None:
            get_default_graph().add_to_collection(key, found)
    return found


def _local_init_op():
    tables = get_default_graph().get_collection(GraphKeys.TABLE_INITIALIZERS)
    init_tables = group(*tables, name="init_all_tables") if tables else \
        no_op(name="init_all_tables")
    return group(variables.local_variables_initializer(), init_tables)


def _global_step_by_name():
    """The graph's "global_step:0" when it is an integer tensor, else None."""
    try:
        step = get_default_graph().get_tensor_by_name("global_step:0")
    except KeyError:
        return None
    if step.dtype.base_dtype.is_integer:
        return step
    logging.warning("Found 'global_step' is not an int type: %s", step.dtype)
    return None


class SVSummaryThread(LooperThread):
    """Runs the summary op every save_summaries_secs and writes what it gives."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv, self._sess = sv, sess

    def run_loop(self):
        if self._sv.global_step is not None:
            summary, step = self._sess.run([self._sv.summary_op, self._sv.global_step])
        else:
            summary, step = self._sess.run(self._sv.summary_op), None
        if self._sv.summary_writer:
            logging.info("Recording summary at step %s.", step)
            self._sv.summary_writer.add_summary(summary, step)


class SVStepCounterThread(LooperThread):
    """Writes "<global step>/sec" every save_summaries_secs."""

    def __init__(self, sv, sess, step_counter=None):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv, self._sess = sv, sess
        self._step_counter = sv.global_step if step_counter is None else step_counter
        self._summary_tag = f"{self._step_counter.op.name}/sec"
        self._last_time, self._last_step = 0.0, 0

    def start_loop(self):
        self._last_time = time.time()
        self._last_step = read_global_step(self._sess, self._step_counter)

    def run_loop(self):
        step = read_global_step(self._sess, self._step_counter)
        added, self._last_step = step - self._last_step, step
        now = time.time()
        elapsed, self._last_time = now - self._last_time, now
        per_sec = added / elapsed if elapsed > 0 else float("inf")
        if self._sv.summary_writer:
            self._sv.summary_writer.add_summary(summary_pb2.Summary(value=[
                summary_pb2.Summary.Value(tag=self._summary_tag, simple_value=per_sec)]), step)
        logging.log_first_n(logging.INFO, "%s: %g", 10, self._summary_tag, per_sec)


class SVTimerCheckpointThread(LooperThread):
    """Saves a checkpoint every save_model_secs."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_model_secs)
        self._sv, self._sess = sv, sess

    def run_loop(self):
        logging.info("Saving checkpoint to path %s", self._sv.save_path)
        self._sv.saver.save(self._sess, self._sv.save_path, global_step=self._sv.global_step)
        if self._sv.summary_writer and self._sv.global_step is not None:
            step = read_global_step(self._sess, self._sv.global_step)
            self._sv.summary_writer.add_session_log(
                SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=self._sv.save_path),
                step)
