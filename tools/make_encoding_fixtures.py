"""Write tests/fixtures/encoding/encoding.json: what TensorFlow computes for
tests/engine/encoding_cases.py (base64, decode_compressed, serialize_tensor and parse_tensor,
decode_json_example: values, static shapes, nodes) and its errors for bad input.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_encoding_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import encoding_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "encoding" / "encoding.json"


def main():
    tf = tf_v1()
    cases = {}
    for name in encoding_cases.CASES:
        values, shapes, nodes = encoding_cases.run_case(tf, name)
        cases[name] = {"values": values, "shapes": shapes, "nodes": nodes}
    fixture = {"cases": cases,
               "errors": {name: encoding_cases.run_error(tf, name)
                          for name in encoding_cases.ERRORS}}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(cases)} cases, {len(fixture['errors'])} errors")


if __name__ == "__main__":
    main()
