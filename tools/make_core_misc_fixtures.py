"""Write tests/fixtures/core_misc/cases.json.gz: the initializers, partitioned variables and small
core names of tests/engine/core_misc_cases.py as TensorFlow runs them, and
tests/fixtures/core_misc/partitioned/model.*: a checkpoint of a partitioned variable as
TensorFlow saves it.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_core_misc_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, gzip_bytes, tf_v1

import core_misc_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "core_misc"


def main():
    tf = tf_v1()
    results = {name: case(tf) for name, case in cases.CASES.items()}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "cases.json.gz").write_bytes(gzip_bytes(json.dumps(results, indent=0,
                                                              sort_keys=True) + "\n"))
    # A partitioned checkpoint as TensorFlow writes it, for the engine to restore.
    (OUT / "partitioned").mkdir(exist_ok=True)
    cases.save_partitioned(tf, str(OUT / "partitioned"))
    (OUT / "partitioned" / "checkpoint").unlink()
    print(f"wrote {len(results)} cases to {OUT}")


if __name__ == "__main__":
    main()
