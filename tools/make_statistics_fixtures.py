"""Write tests/fixtures/mathops/statistics.json: what TensorFlow computes for
tests/engine/statistics_cases.py (reduce_variance, reduce_std, the unsorted segment means,
polyval, weighted_moments, sufficient_statistics, normalize_moments, log_poisson_loss, a
gradient through them, and the graph's nodes).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_statistics_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import statistics_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "mathops" / "statistics.json"


def main():
    fixture = statistics_cases.run(tf_v1())
    OUT.write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(fixture['values'])} values, {len(fixture['nodes'])} nodes")


if __name__ == "__main__":
    main()
