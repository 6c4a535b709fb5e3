"""Write tests/fixtures/ops/projective_transform.npz: TensorFlow 2.21's
ImageProjectiveTransformV2/V3 (tests/engine/projective_transform_cases.py) in TF1 graph mode.

    .venv-tf/bin/python tools/make_projective_fixtures.py

Keys: `value__<case>` the output, `shape__<case>` its static shape (-1 unknown),
`grad__<case>` the images' gradient, `error__<case>` [error class, kernel message].
"""

import numpy as np

from fixture_common import FIXTURES, tf_v1

import projective_transform_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "ops" / "projective_transform.npz"


def main():
    tf = tf_v1()
    stored = {}
    for name in cases.CASES:
        value, shape = cases.run_case(tf, name)
        stored[f"value__{name}"] = value
        stored[f"shape__{name}"] = np.array([-1 if d is None else d for d in shape])
    for name in cases.GRADIENT_CASES:
        stored[f"grad__{name}"] = cases.run_gradient_case(tf, name)
    for name in cases.ERROR_CASES:
        stored[f"error__{name}"] = np.array(cases.run_error_case(tf, name))
    np.savez_compressed(OUT, **stored)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(stored)} arrays)")


if __name__ == "__main__":
    main()
