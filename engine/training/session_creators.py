"""tf.train.SessionCreator, ChiefSessionCreator and WorkerSessionCreator: what makes a
MonitoredSession's session. The chief's is prepared by a SessionManager (restored from a
checkpoint, else initialized); another worker's is the one it gets once the chief has made
the model ready, as TensorFlow 1.x's."""

import abc

from engine.framework.default_graph import get_default_graph
from engine.training.scaffold import Scaffold
from engine.training.session_manager import SessionManager

# How often a non-chief worker looks whether the chief is done. TensorFlow's workers look
# every 30 s; the engine's often (a look is one small run).
READY_CHECK_SECS = 0.2


class SessionCreator(metaclass=abc.ABCMeta):
    """A factory for sessions: create_session() returns a ready tf.Session."""

    @abc.abstractmethod
    def create_session(self):
        raise NotImplementedError(f"create_session is not implemented for {self}.")


def _session_manager(scaffold):
    return SessionManager(local_init_op=scaffold.local_init_op, ready_op=scaffold.ready_op,
                          ready_for_local_init_op=scaffold.ready_for_local_init_op,
                          graph=get_default_graph(), recovery_wait_secs=READY_CHECK_SECS)


class ChiefSessionCreator(SessionCreator):
    """Creates the chief's session: restored from a checkpoint, else initialized."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        self._scaffold = scaffold or Scaffold()
        self._master, self._config = master, config
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path
        self._session_manager = None

    scaffold = property(lambda self: self._scaffold)

    def create_session(self):
        scaffold = self._scaffold.finalize()
        if self._session_manager is None:
            self._session_manager = _session_manager(scaffold)
        init_fn = None
        if scaffold.init_fn is not None:
            def init_fn(sess):
                scaffold.init_fn(scaffold, sess)
        return self._session_manager.prepare_session(
            self._master, saver=scaffold.saver, checkpoint_dir=self._checkpoint_dir,
            checkpoint_filename_with_path=self._checkpoint_filename_with_path,
            config=self._config, init_op=scaffold.init_op,
            init_feed_dict=scaffold.init_feed_dict, init_fn=init_fn)


class WorkerSessionCreator(SessionCreator):
    """Creates a worker's session once the chief has made the model ready."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
        self._scaffold = scaffold or Scaffold()
        self._master, self._config, self._max_wait_secs = master, config, max_wait_secs
        self._session_manager = None

    scaffold = property(lambda self: self._scaffold)

    def create_session(self):
        scaffold = self._scaffold.finalize()
        if self._session_manager is None:
            self._session_manager = _session_manager(scaffold)
        return self._session_manager.wait_for_session(
            self._master, config=self._config, max_wait_secs=self._max_wait_secs)
