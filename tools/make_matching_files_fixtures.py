"""Write tests/fixtures/matching_files/cases.json: tf.io.matching_files over a small tree
and tf.train.match_filenames_once as TensorFlow runs them (tests/engine/matching_files_cases.py).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_matching_files_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import matching_files_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "matching_files"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    results = {name: build(tf) for name, build in cases.CASES.items()}
    (OUT / "cases.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(results)} cases to {OUT}")


if __name__ == "__main__":
    main()
