"""Write tests/fixtures/runs/convnet_step.{tf,engine}.pb: one traced conv-net training step
(tools/traced_convnet.py --size small) on TensorFlow and on the engine, the inputs of
`graph-inspector diff --stats`'s tests.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_stats_diff_fixtures.py`; the
engine's side runs under the project's .venv.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "runs"
PROGRAM = ROOT / "tools" / "traced_convnet.py"


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    tf_env = dict(os.environ, PYTHONPATH=str(ROOT / "tools" / "tf_shim"), TF_CPP_MIN_LOG_LEVEL="2")
    subprocess.run([sys.executable, str(PROGRAM), "-o", str(OUT / "convnet_step.tf.pb")],
                   env=tf_env, check=True)
    subprocess.run([str(ROOT / ".venv" / "bin" / "python"), str(PROGRAM),
                    "-o", str(OUT / "convnet_step.engine.pb")], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
