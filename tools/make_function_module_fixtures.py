"""Write tests/fixtures/function_module/cases.json: tf.function, tf.Module, tf.GradientTape
and the gradient helpers of tests/engine/function_module_cases.py as TensorFlow runs them in
graph mode.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_function_module_fixtures.py`.
"""

import json
import os

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.layers in get_variable_inside

from fixture_common import FIXTURES, tf_v1

import function_module_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "function_module"


def main():
    tf = tf_v1()
    results = {name: case(tf) for name, case in cases.CASES.items()}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "cases.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(results)} cases to {OUT}")


if __name__ == "__main__":
    main()
