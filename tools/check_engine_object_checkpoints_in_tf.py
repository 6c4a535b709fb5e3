"""Check that object-based checkpoints the engine writes restore in real TensorFlow.

Run with TensorFlow's venv: `.venv-tf/bin/python tools/check_engine_object_checkpoints_in_tf.py`.
The engine (the project's venv, in a subprocess; GI_ENGINE_PYTHON overrides which python)
trains tests/engine/checkpoint_v2_programs.py's model 4 steps, saving with a
CheckpointManager; TensorFlow then resumes from the engine's directory with
tf.train.Checkpoint and must print what it prints resuming from its own checkpoints
(tests/fixtures/checkpoint_v2/expected.json, "second_lines"), with the same manager state.
Prints one line per check and exits 1 if any fails.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

REPO = Path(__file__).resolve().parent.parent
ENGINE_PYTHON = os.environ.get("GI_ENGINE_PYTHON", str(REPO / ".venv" / "bin" / "python"))
EXPECTED = json.loads(
    (REPO / "tests" / "fixtures" / "checkpoint_v2" / "expected.json").read_text())

# Run with the project's venv: argv[1] is the run directory.
WRITE_WITH_ENGINE = """
import sys
sys.path.insert(0, "tests/engine")
import engine as tf
import checkpoint_v2_programs as programs
print(programs.train_with_manager(tf, sys.argv[1], steps=4))
"""


def main():
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    sys.path.insert(0, str(REPO / "tests" / "engine"))
    import checkpoint_v2_programs as programs

    failures = 0
    with tempfile.TemporaryDirectory() as work:
        run = os.path.join(work, "run")
        env = dict(os.environ, PYTHONPATH=str(REPO))
        subprocess.run([ENGINE_PYTHON, "-c", WRITE_WITH_ENGINE, run], cwd=REPO, env=env,
                       check=True, capture_output=True)
        lines, checkpoints = programs.train_with_manager(tf, run, steps=3)
        for what, ours, theirs in (("printed lines", lines, EXPECTED["second_lines"]),
                                   ("manager's checkpoints", checkpoints,
                                    EXPECTED["second_checkpoints"]),
                                   ("files", sorted(os.listdir(run)), EXPECTED["second_files"])):
            ok = ours == theirs
            failures += not ok
            print(f"{'ok' if ok else 'FAILED'}: TensorFlow resuming the engine's run: {what}"
                  + ("" if ok else f"\n  got {ours}\n  expected {theirs}"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
