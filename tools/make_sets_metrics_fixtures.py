"""Write tests/fixtures/mathops/sets_metrics.json: what TensorFlow computes for
tests/engine/sets_metrics_cases.py (tf.sets on dense and sparse sets, tf.metrics.auc's
updates and values, tf.metrics' precision, recall, condition counts and mean errors).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_sets_metrics_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import sets_metrics_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "mathops" / "sets_metrics.json"


def main():
    tf = tf_v1()
    fixture = {"sets": sets_metrics_cases.run_sets(tf), "auc": sets_metrics_cases.run_auc(tf),
               "classification": sets_metrics_cases.run_classification(tf)}
    OUT.write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(fixture['sets'])} set outputs, {len(fixture['auc'])} auc values")


if __name__ == "__main__":
    main()
