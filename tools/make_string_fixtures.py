"""Write tests/fixtures/mathops/strings.json: what TensorFlow computes for
tests/engine/string_cases.py (tf.string_split, tf.strings.split, tf.substr, tf.as_string,
tf.string_to_number) and its kernels' error texts.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_string_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import string_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "mathops" / "strings.json"


def main():
    tf = tf_v1()
    fixture = {"values": {name: string_cases.run_case(tf, name) for name in string_cases.CASES},
               "errors": {name: string_cases.run_error(tf, name)
                          for name in string_cases.ERRORS}}
    OUT.write_text(json.dumps(fixture, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"{OUT}: {len(fixture['values'])} cases, {len(fixture['errors'])} errors")


if __name__ == "__main__":
    main()
