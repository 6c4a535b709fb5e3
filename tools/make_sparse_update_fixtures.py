"""Write tests/fixtures/sparse_updates/values.npz: the optimizers of TF 1.x applied to
IndexedSlices gradients (SparseApply*, ResourceSparseApply*, scatters) in TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_sparse_update_fixtures.py`.
The graphs are tests/engine/sparse_update_cases.py's; keys are `<case>__<step>[_<slot>]`.
"""

import numpy as np

from fixture_common import FIXTURES, tf_v1

import sparse_update_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "sparse_updates"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    values = {}
    for case in cases.CASES:
        for key, value in cases.run_case(tf, case).items():
            values[f"{case}__{key}"] = value
    np.savez(OUT / "values.npz", **values)
    print(f"wrote {len(cases.CASES)} cases, {len(values)} arrays to {OUT}")


if __name__ == "__main__":
    main()
