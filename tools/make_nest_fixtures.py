"""Write tests/fixtures/nest/cases.json: tf.nest (TensorFlow 2.21's tf.compat.v1.nest) on
tests/engine/nest_cases.py's expressions, each result or error as text.

    .venv-tf/bin/python tools/make_nest_fixtures.py"""

import json

from fixture_common import FIXTURES, tf_v1

import nest_cases as cases

OUT = FIXTURES / "nest" / "cases.json"


def main():
    tf = tf_v1()
    results = {name: cases.evaluate(tf.nest, expression)
               for name, expression in cases.CASES.items()}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    print(f"{len(results)} cases; wrote {OUT}")


if __name__ == "__main__":
    main()
