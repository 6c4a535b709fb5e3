"""CheckpointSaverHook (and the CheckpointSaverListener it calls): the saving half of a
MonitoredTrainingSession(checkpoint_dir=...).

As TensorFlow 1.x: the hook writes graph.pbtxt, the graph and meta graph events, and a
checkpoint of the state at the first step, then one every save_steps steps (or save_secs
seconds), and one at the end; each save is logged and recorded as a CHECKPOINT SessionLog in
the directory's event file. The session that finds a checkpoint in checkpoint_dir restores
it instead of running the initializers (engine/training/session_manager.py). The Saver is
tf.train.Saver (engine/ops/saver.py).
"""

import os

from engine.framework.default_graph import get_default_graph
from engine.framework.graph_keys import GraphKeys
from engine.ops.saver import Saver
from engine.ops.train import write_graph
from engine.platform import tf_logging as logging
from engine.proto import meta_graph_pb2
from engine.proto.event_pb2 import SessionLog
from engine.summary.writer_cache import FileWriterCache
from engine.training.basic_hooks import SecondOrStepTimer, _global_step_tensor
from engine.training.session_run_hook import SessionRunArgs, SessionRunHook


def default_saver():
    """The Scaffold's Saver: the graph's (collection SAVERS) or a sharded one, as TensorFlow."""
    savers = get_default_graph().get_collection(GraphKeys.SAVERS)
    if len(savers) > 1:
        raise RuntimeError("More than one item in collection {}. Please indicate which one to "
                           "use by passing it to the constructor.".format(GraphKeys.SAVERS))
    if savers:
        return savers[0]
    return Saver(sharded=True, allow_empty=True)


class CheckpointSaverListener:
    """Called by a CheckpointSaverHook around its saves: begin, before_save, after_save (a
    true result stops training) and end; each does nothing unless overridden."""

    def begin(self):
        pass

    def before_save(self, session, global_step_value):
        pass

    def after_save(self, session, global_step_value):
        pass

    def end(self, session, global_step_value):
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves a checkpoint every save_steps steps or save_secs seconds, and at the end."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None,
                 save_graph_def=True):
        logging.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver, self._scaffold = saver, scaffold
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = listeners or []
        self._save_graph_def = save_graph_def

    def begin(self):
        self._summary_writer = FileWriterCache.get(self._checkpoint_dir)
        self._global_step_tensor = _global_step_tensor()
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        global_step = int(session.run(self._global_step_tensor))
        if self._save_graph_def:
            graph = get_default_graph()
            graph_def = graph.as_graph_def(add_shapes=True)
            write_graph(graph_def, self._checkpoint_dir, "graph.pbtxt")
            meta = meta_graph_pb2.MetaGraphDef()
            meta.graph_def.CopyFrom(graph_def)
            meta.meta_info_def.SetInParent()
            if self._get_saver() is not None:
                meta.saver_def.CopyFrom(self._get_saver().saver_def)
            self._summary_writer.add_graph(graph)
            self._summary_writer.add_meta_graph(meta)
        # The checkpoint saved here is the state at step global_step.
        self._save(session, global_step)
        self._timer.update_last_triggered_step(global_step)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        if self._timer.should_trigger_for_step(run_values.results + 1):
            global_step = int(run_context.session.run(self._global_step_tensor))
            if self._timer.should_trigger_for_step(global_step):
                self._timer.update_last_triggered_step(global_step)
                if self._save(run_context.session, global_step):
                    run_context.request_stop()

    def end(self, session):
        last_step = int(session.run(self._global_step_tensor))
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        for listener in self._listeners:
            listener.end(session, last_step)

    def _save(self, session, step):
        """Saves; True when a listener asks to stop training."""
        logging.info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
        self._get_saver().save(session, self._save_path, global_step=step,
                               write_meta_graph=self._save_graph_def)
        self._summary_writer.add_session_log(
            SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=self._save_path), step)
        logging.info("Calling checkpoint listeners after saving checkpoint %d...", step)
        return any(listener.after_save(session, step) for listener in self._listeners)

    def _get_saver(self):
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        return default_saver()
