"""Write tests/fixtures/mathops/gamma_beta_distributions.json: what TensorFlow computes for
tests/engine/gamma_beta_cases.py (tf.distributions' Gamma, Exponential and Beta: seeded
samples, densities, moments, KL divergences, shapes, the graph's nodes and the checks of
validate_args=True).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_gamma_beta_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import gamma_beta_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "mathops" / "gamma_beta_distributions.json"


def main():
    fixture = gamma_beta_cases.run(tf_v1())
    OUT.write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(fixture['values'])} values, {len(fixture['nodes'])} nodes")


if __name__ == "__main__":
    main()
