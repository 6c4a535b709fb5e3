"""Write tests/fixtures/unicode/unicode.json: what TensorFlow computes for
tests/engine/unicode_cases.py (unicode_script, unicode_transcode, unicode_encode,
unsorted_segment_join: values, static shapes, nodes, the ops' attrs) and its errors.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_unicode_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import unicode_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "unicode" / "unicode.json"


def main():
    tf = tf_v1()
    cases = {}
    for name in unicode_cases.CASES:
        values, shapes, nodes, kernels = unicode_cases.run_case(tf, name)
        cases[name] = {"values": values, "shapes": shapes, "nodes": nodes, "kernels": kernels}
    fixture = {"cases": cases,
               "errors": {name: unicode_cases.run_error(tf, name)
                          for name in unicode_cases.ERRORS}}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(cases)} cases, {len(fixture['errors'])} errors")


if __name__ == "__main__":
    main()
