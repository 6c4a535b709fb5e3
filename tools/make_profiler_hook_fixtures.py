"""Write tests/fixtures/profiler_hook/expected.json: the timeline files TensorFlow's
tf.train.ProfilerHook writes for tests/engine/profiler_hook_program.py, summarized (op
timings differ run to run), and the run metadata tags of its event file.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_profiler_hook_fixtures.py`.
"""

import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow.compat.v1 as tf  # noqa: E402

from tensorflow.core.framework import step_stats_pb2  # noqa: E402
from tensorflow.python.client import timeline  # noqa: E402

tf.disable_v2_behavior()
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "profiler_hook"
sys.path.insert(0, str(REPO / "tests" / "engine"))
import profiler_hook_program as program  # noqa: E402


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        losses = program.run(tf, work)
        tf.summary.FileWriterCache.get(work).flush()
        tags = []
        for name in os.listdir(work):
            if name.startswith("events."):
                for event in tf.train.summary_iterator(os.path.join(work, name)):
                    if event.HasField("tagged_run_metadata"):
                        tags.append(event.tagged_run_metadata.tag)
        expected = {"losses": losses, "files": program.summarize(work), "tags": tags}
    stats = program.fixed_step_stats(step_stats_pb2)
    expected["timeline"] = {
        f"{dataflow} {memory}": timeline.Timeline(stats).generate_chrome_trace_format(
            show_dataflow=dataflow, show_memory=memory)
        for dataflow in (True, False) for memory in (False, True)}
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
