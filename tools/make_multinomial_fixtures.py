"""Write tests/fixtures/mathops/multinomial_distributions.json: what TensorFlow computes for
tests/engine/multinomial_distribution_cases.py (tf.distributions' Multinomial and
DirichletMultinomial: seeded samples, densities, moments, shapes, the graph's nodes and the
checks of validate_args=True).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_multinomial_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import multinomial_distribution_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "mathops" / "multinomial_distributions.json"


def main():
    fixture = multinomial_distribution_cases.run(tf_v1())
    OUT.write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(fixture['values'])} values, {len(fixture['nodes'])} nodes")


if __name__ == "__main__":
    main()
