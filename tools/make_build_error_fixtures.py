"""Write tests/fixtures/build_errors/cases.json: what TensorFlow 2.21 (tf.compat.v1, graph
mode) says while building tests/engine/build_error_cases.py's graphs.

    .venv-tf/bin/python tools/make_build_error_fixtures.py"""

import json

from fixture_common import FIXTURES, tf_v1

import build_error_cases as cases

OUT = FIXTURES / "build_errors" / "cases.json"


def main():
    tf = tf_v1()
    results = {name: cases.build(tf, expression) for name, expression in cases.CASES.items()}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    print(f"{len(results)} cases; wrote {OUT}")


if __name__ == "__main__":
    main()
