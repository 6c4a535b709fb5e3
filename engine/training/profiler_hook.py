"""tf.train.ProfilerHook: every N steps or seconds, a FULL_TRACE run whose step stats are
written as `timeline-<global step>.json` (TensorFlow's client Timeline format) and added to
the output directory's event file as run metadata `step_<global step>`."""

import os

from engine.ops.train import get_or_create_global_step_read
from engine.platform import gfile, tf_logging as logging
from engine.proto import config_pb2
from engine.runtime.timeline import Timeline
from engine.summary.writer_cache import FileWriterCache
from engine.training.basic_hooks import SecondOrStepTimer
from engine.training.session_run_hook import SessionRunArgs, SessionRunHook


class ProfilerHook(SessionRunHook):
    """Captures profiling information every N steps or seconds (Chrome trace files)."""

    def __init__(self, save_steps=None, save_secs=None, output_dir="", show_dataflow=True,
                 show_memory=False):
        self._output_file = os.path.join(output_dir, "timeline-{}.json")
        self._file_writer = FileWriterCache.get(output_dir)
        self._show_dataflow = show_dataflow
        self._show_memory = show_memory
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        self._next_step = None
        self._global_step_tensor = get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use ProfilerHook.")

    def before_run(self, run_context):
        self._request_summary = (self._next_step is not None
                                 and self._timer.should_trigger_for_step(self._next_step))
        requests = {"global_step": self._global_step_tensor}
        opts = (config_pb2.RunOptions(trace_level=config_pb2.RunOptions.FULL_TRACE)
                if self._request_summary else None)
        return SessionRunArgs(requests, options=opts)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results["global_step"]
        if self._next_step is None:
            # Update the timer so that it does not activate until N steps or seconds pass.
            self._timer.update_last_triggered_step(stale_global_step)
        global_step = stale_global_step + 1
        if self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
            self._timer.update_last_triggered_step(global_step)
            self._save(global_step, self._output_file.format(global_step),
                       run_values.run_metadata.step_stats)
            self._file_writer.add_run_metadata(run_values.run_metadata, "step_%d" % global_step)
        self._next_step = global_step + 1

    def _save(self, step, save_path, step_stats):
        logging.info("Saving timeline for %d into '%s'.", step, save_path)
        with gfile.Open(save_path, "w") as f:
            f.write(Timeline(step_stats).generate_chrome_trace_format(
                show_dataflow=self._show_dataflow, show_memory=self._show_memory))
