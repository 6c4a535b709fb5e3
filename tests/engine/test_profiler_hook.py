"""tf.train.ProfilerHook and the Timeline it writes, against TensorFlow
(tests/fixtures/profiler_hook, tools/make_profiler_hook_fixtures.py)."""

import json
import os
import sys
from pathlib import Path

import pytest

import engine as tf
from engine.proto import step_stats_pb2
from engine.runtime.timeline import Timeline

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "profiler_hook"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())
sys.path.insert(0, str(Path(__file__).resolve().parent))
import profiler_hook_program as program  # noqa: E402


def test_hook_writes_tensorflows_timeline_files(tmp_path):
    """Same steps traced (timeline-2, timeline-4), same processes, op events for the same
    nodes, event kinds and JSON layout; the event file tags step_2 and step_4. Op times
    differ run to run, so they are not compared."""
    losses = program.run(tf, str(tmp_path))
    assert losses == EXPECTED["losses"]
    assert program.summarize(str(tmp_path)) == EXPECTED["files"]
    tf.summary.FileWriterCache.get(str(tmp_path)).flush()
    tags = [event.tagged_run_metadata.tag
            for name in os.listdir(tmp_path) if name.startswith("events.")
            for event in tf.train.summary_iterator(str(tmp_path / name))
            if event.HasField("tagged_run_metadata")]
    assert tags == EXPECTED["tags"]


@pytest.mark.parametrize("case", ["True False", "False False", "True True", "False True"])
def test_timeline_json_is_tensorflows(case):
    """The same StepStats gives TensorFlow's JSON text exactly (show_dataflow, show_memory)."""
    dataflow, memory = (word == "True" for word in case.split())
    text = Timeline(program.fixed_step_stats(step_stats_pb2)).generate_chrome_trace_format(
        show_dataflow=dataflow, show_memory=memory)
    assert text == EXPECTED["timeline"][case]


def test_hook_needs_a_global_step(tmp_path):
    with tf.Graph().as_default():
        hook = tf.train.ProfilerHook(save_steps=1, output_dir=str(tmp_path))
        with pytest.raises(RuntimeError, match="Global step should be created to use ProfilerHook."):
            hook.begin()
