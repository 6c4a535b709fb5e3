"""Write tests/fixtures/vocab_remap/: vocabulary files, a TF1 checkpoint TensorFlow saved, and
expected.json with TensorFlow's GenerateVocabRemapping and LoadAndRemapMatrix results and
errors and tf.train.warm_start with tf.train.VocabInfo (tests/engine/vocab_remap_programs.py).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_vocab_remap_fixtures.py`.
"""

import json
import os
import shutil
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "vocab_remap"
sys.path.insert(0, str(REPO / "tests" / "engine"))
import vocab_remap_programs as programs  # noqa: E402


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    programs.write_inputs(tf, str(OUT))
    os.remove(OUT / "old" / "model.ckpt.meta")  # not needed: keeps the fixtures small
    expected = {"ops": programs.op_cases(tf, tf.raw_ops, str(OUT)),
                "warm_start": programs.warm_start_case(tf, str(OUT))}
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
