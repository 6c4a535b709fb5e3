"""tf.train.SessionManager: sessions that are ready to train (TensorFlow's session_manager.py).

The chief prepares one: restores the newest checkpoint of checkpoint_dir (waiting for one
when asked) or runs the init op, then the local init op, and checks the model is ready.
Another worker waits for one: it opens a session, runs its local init op once the shared
variables are initialized (ready_for_local_init_op reports none missing), and checks the
model is ready, closing the session and trying again every recovery_wait_secs until the
chief has done its part, or until max_wait_secs (DeadlineExceededError).
"""

import time

import numpy as np

from engine.checkpoint.state import get_checkpoint_state
from engine.framework import errors
from engine.framework.default_graph import get_default_graph
from engine.platform import tf_logging as logging
from engine.runtime.session import Session


def _name(obj):
    if obj is None:
        return "None"
    return obj.name if hasattr(obj, "name") else f"<no name for {type(obj)}>"


def ready(op, sess, message):
    """(True, None) when `op` (a report_uninitialized_variables) names nothing, else
    (False, what it names) — TensorFlow's session_manager._ready."""
    if op is None:
        return True, None
    try:
        value = sess.run(op)
    except errors.FailedPreconditionError as error:
        if "uninitialized" not in str(error):
            logging.warning("%s : error [%s]", message, str(error))
            raise
        return False, str(error)
    if value is None or value.dtype == np.int32 or value.size == 0:
        return True, None
    names = ", ".join(v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in value)
    return False, "Variables not initialized: " + names


class SessionManager:
    """tf.train.SessionManager(local_init_op, ready_op, ready_for_local_init_op, graph,
    recovery_wait_secs, local_init_run_options, local_init_feed_dict)."""

    def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None,
                 graph=None, recovery_wait_secs=30, local_init_run_options=None,
                 local_init_feed_dict=None):
        self._local_init_op, self._ready_op = local_init_op, ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph or get_default_graph()
        self._recovery_wait_secs = recovery_wait_secs
        self._local_init_run_options = local_init_run_options
        self._local_init_feed_dict = local_init_feed_dict
        self._target = None
        if ready_for_local_init_op is not None and local_init_op is None:
            raise ValueError("If you pass a ready_for_local_init_op you must also pass a "
                             f"local_init_op , ready_for_local_init_op [{ready_for_local_init_op}]")

    def _restore_checkpoint(self, master, saver=None, checkpoint_dir=None,
                            checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                            max_wait_secs=7200, config=None):
        """(a new session, whether a checkpoint was restored into it)."""
        self._target = master
        sess = Session(master, graph=self._graph, config=config)
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and "
                             "checkpoint_filename_with_path.")
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return sess, False
        if checkpoint_filename_with_path:
            saver.restore(sess, checkpoint_filename_with_path)
            return sess, True
        waited = 0
        state = get_checkpoint_state(checkpoint_dir)
        while not state or not state.model_checkpoint_path:
            if not (wait_for_checkpoint and waited < max_wait_secs):
                return sess, False
            logging.info("Waiting for checkpoint to be available.")
            time.sleep(self._recovery_wait_secs)
            waited += self._recovery_wait_secs
            state = get_checkpoint_state(checkpoint_dir)
        saver.restore(sess, state.model_checkpoint_path)
        saver.recover_last_checkpoints(list(state.all_model_checkpoint_paths))
        return sess, True

    def prepare_session(self, master, init_op=None, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None, init_feed_dict=None, init_fn=None):
        """The chief's session: restored from a checkpoint, else initialized; then ready."""
        sess, restored = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
            config=config)
        if not restored:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or "
                                   "local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        local_ok, message = self._try_run_local_init_op(sess)
        if not local_ok:
            raise RuntimeError(f"Init operations did not make model ready for local_init.  "
                               f"Init op: {_name(init_op)}, init fn: {init_fn}, error: "
                               f"{message}")
        is_ready, message = self._model_ready(sess)
        if not is_ready:
            raise RuntimeError(f"Init operations did not make model ready.  Init op: "
                               f"{_name(init_op)}, init fn: {init_fn}, local_init_op: "
                               f"{self._local_init_op}, error: {message}")
        return sess

    def recover_session(self, master, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None):
        """(a session, whether it was restored and is ready)."""
        sess, restored = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
            config=config)
        local_ok, message = self._try_run_local_init_op(sess)
        if not restored:
            return sess, False
        source = checkpoint_dir or checkpoint_filename_with_path
        if not local_ok:
            logging.info("Restoring model from %s did not make model ready for local init:"
                         " %s", source, message)
            return sess, False
        is_ready, message = self._model_ready(sess)
        if not is_ready:
            logging.info("Restoring model from %s did not make model ready: %s", source,
                         message)
            return sess, False
        logging.info("Restored model from %s", source)
        return sess, True

    def wait_for_session(self, master, config=None, max_wait_secs=float("Inf")):
        """A session once the model is ready (the chief has initialized it)."""
        self._target = master
        if max_wait_secs is None:
            max_wait_secs = float("Inf")
        give_up = time.time() + max_wait_secs
        while True:
            sess = Session(self._target, graph=self._graph, config=config)
            not_ready = None
            local_ok, not_ready_local = self._try_run_local_init_op(sess)
            if local_ok:
                is_ready, not_ready = self._model_ready(sess)
                if is_ready:
                    return sess
            self._safe_close(sess)
            if max(0.0, give_up - time.time()) - self._recovery_wait_secs < 0:
                raise errors.DeadlineExceededError(
                    None, None, "Session was not ready after waiting %d secs." % max_wait_secs)
            logging.info("Waiting for model to be ready.  Ready_for_local_init_op:  %s, "
                         "ready: %s", not_ready_local, not_ready)
            time.sleep(self._recovery_wait_secs)

    @staticmethod
    def _safe_close(sess):
        try:
            sess.close()
        except Exception:  # noqa: BLE001  (TensorFlow ignores a failing close here too)
            pass

    def _model_ready(self, sess):
        return ready(self._ready_op, sess, "Model not ready")

    def _model_ready_for_local_init(self, sess):
        return ready(self._ready_for_local_init_op, sess, "Model not ready for local init")

    def _try_run_local_init_op(self, sess):
        if self._local_init_op is None:
            return True, None
        is_ready, message = self._model_ready_for_local_init(sess)
        if not is_ready:
            return False, message
        logging.info("Running local_init_op.")
        sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict,
                 options=self._local_init_run_options)
        logging.info("Done running local_init_op.")
        return True, None
