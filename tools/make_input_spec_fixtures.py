"""Write tests/fixtures/input_spec/cases.json: tf.layers.InputSpec and the checks of a layer's
input_spec as TensorFlow (tf_keras's legacy layers) runs them (tests/engine/input_spec_cases.py).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_input_spec_fixtures.py`.
"""

import json
import os

from fixture_common import FIXTURES, tf_v1

import input_spec_cases as cases  # tests/engine: on sys.path through fixture_common

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.layers as TF 1.x built them
OUT = FIXTURES / "input_spec"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    results = {name: build(tf) for name, build in cases.CASES.items()}
    (OUT / "cases.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(results)} cases to {OUT}")


if __name__ == "__main__":
    main()
