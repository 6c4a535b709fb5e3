"""Write tests/fixtures/mathops/dirichlet_student_t_distributions.json: what TensorFlow
computes for tests/engine/dirichlet_student_t_cases.py (tf.distributions' Dirichlet and
StudentT: seeded samples, densities, moments, KL divergences, shapes, the graph's nodes and the
checks of validate_args=True).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_dirichlet_student_t_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import dirichlet_student_t_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "mathops" / "dirichlet_student_t_distributions.json"


def main():
    fixture = dirichlet_student_t_cases.run(tf_v1())
    OUT.write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(fixture['values'])} values, {len(fixture['nodes'])} nodes")


if __name__ == "__main__":
    main()
