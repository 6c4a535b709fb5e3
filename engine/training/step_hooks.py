"""tf.train.FeedFnHook, FinalOpsHook and GlobalStepWaiterHook: hooks that feed every run,
run ops once at the end, and hold a worker back until the global step reaches a value, as
TensorFlow 1.x's basic_session_run_hooks."""

import time

from engine.framework import errors
from engine.ops.train import get_or_create_global_step_read
from engine.platform import tf_logging as logging
from engine.training.session_run_hook import SessionRunArgs, SessionRunHook

WAIT_POLL_SECS = 0.5  # how often a waiting worker reads the global step (TensorFlow's)


class GlobalStepWaiterHook(SessionRunHook):
    """Delays the first run until the global step reaches wait_until_step."""

    def __init__(self, wait_until_step):
        self._wait_until_step = wait_until_step

    def begin(self):
        self._worker_is_started = False
        self._global_step_tensor = get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use _GlobalStepWaiterHook.")

    def before_run(self, run_context):
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        logging.info("Waiting for global step %d before starting training.",
                     self._wait_until_step)
        last_logged_step = 0
        while True:
            current_step = run_context.session.run(self._global_step_tensor)
            if current_step >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if current_step - last_logged_step > 1000:
                logging.info("Waiting for global step %d before starting training. Current "
                             "step is %d.", self._wait_until_step, current_step)
                last_logged_step = current_step
            time.sleep(WAIT_POLL_SECS)


class FinalOpsHook(SessionRunHook):
    """Runs final_ops once when the session ends; their values are final_ops_values."""

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops, self._final_ops_feed_dict = final_ops, final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session):
        if self._final_ops is None:
            return
        try:
            self._final_ops_values = session.run(self._final_ops,
                                                 feed_dict=self._final_ops_feed_dict)
        except (errors.OutOfRangeError, StopIteration):
            logging.warning(
                "An OutOfRangeError or StopIteration exception is raised by the code in "
                "FinalOpsHook. This typically means the Ops running by the FinalOpsHook have "
                "a dependency back to some input source, which should not happen. For "
                "example, for metrics in tf.estimator.Estimator, all metrics functions return "
                "two Ops: `value_op` and  `update_op`. Estimator.evaluate calls the "
                "`update_op` for each batch of the data in input source and, once it is "
                "exhausted, it call the `value_op` to get the metric values. The `value_op` "
                "here should have dependency back to variables reading only, rather than "
                "reading another batch from input. Otherwise, the `value_op`, executed by "
                "`FinalOpsHook`, triggers another data reading, which ends "
                "OutOfRangeError/StopIteration. Please fix that.")
            raise


class FeedFnHook(SessionRunHook):
    """Adds feed_fn()'s feeds to every run."""

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())
