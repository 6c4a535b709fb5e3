"""SessionRunHook and the values passed around it (TensorFlow's session_run_hook module)."""

import collections


class SessionRunHook:
    """Called around every MonitoredSession.run: begin, before_run, after_run, end."""

    def begin(self):
        pass

    def after_create_session(self, session, coord):
        pass

    def before_run(self, run_context):
        return None

    def after_run(self, run_context, run_values):
        pass

    def end(self, session):
        pass


class SessionRunArgs(collections.namedtuple("SessionRunArgs",
                                            ["fetches", "feed_dict", "options"])):
    """What a hook adds to a run: more fetches, feeds and RunOptions."""

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunContext:
    """The run being made (its original arguments, the session); a hook may request a stop."""

    def __init__(self, original_args, session):
        self._original_args, self._session, self._stop_requested = original_args, session, False

    original_args = property(lambda self: self._original_args)
    session = property(lambda self: self._session)
    stop_requested = property(lambda self: self._stop_requested)

    def request_stop(self):
        self._stop_requested = True


SessionRunValues = collections.namedtuple("SessionRunValues",
                                          ["results", "options", "run_metadata"])
