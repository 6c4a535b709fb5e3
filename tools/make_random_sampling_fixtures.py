"""Write tests/fixtures/mathops/random_sampling.npz: TensorFlow's seeded draws of
tests/engine/random_sampling_cases.py (Multinomial, RandomGamma and its gradient,
RandomPoissonV2), two runs each.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_random_sampling_fixtures.py`.
The sharded Multinomial case depends on the intra-op thread count: both TensorFlow and the
engine run the cases with intra_op_parallelism_threads=2.
"""

import numpy as np

from fixture_common import FIXTURES, npz_key, tf_v1

import random_sampling_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "mathops"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    arrays = {}
    for name in random_sampling_cases.CASES:
        for key, value in random_sampling_cases.run_case(tf, name).items():
            arrays[npz_key(f"{name}/{key}")] = value
    np.savez_compressed(OUT / "random_sampling.npz", **arrays)
    print(f"{OUT / 'random_sampling.npz'}: {len(arrays)} arrays")


if __name__ == "__main__":
    main()
