"""Write tests/fixtures/special_inverse/: tf.math.erfinv and tf.math.ndtri (Erfinv, Ndtri and
their gradients) from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_special_inverse_fixtures.py`.
The graphs are tests/engine/special_inverse_cases.py's (values.npz, shapes.json, nodes.json.gz
and errors.json as tools/make_volumetric_fixtures.py describes them); type_error.txt is what
tf.math.erfinv says of an int32 tensor.

`--check N` compares the engine's float32 kernels (run from this checkout's .venv) with
TensorFlow's over N random values each (Erfinv on (-1, 1), Ndtri on (0, 1) and its tails),
and prints how many differ.
"""

import argparse
import subprocess
import tempfile

import numpy as np

from fixture_common import FIXTURES, ROOT, tf_v1, write_case_fixtures

import special_inverse_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "special_inverse"

_COMPARE = """
import sys
import numpy as np
from engine.kernels.cpu import eigen_ndtri
data = np.load(sys.argv[1])
for name, function in (("erfinv", eigen_ndtri.erfinv), ("ndtri", eigen_ndtri.ndtri)):
    got, want = function(data[name + "_x"]), data[name + "_y"]
    same = (got.view(np.int32) == want.view(np.int32)) | (np.isnan(got) & np.isnan(want))
    print(name, int((~same).sum()), "of", got.size, "differ")
"""


def check(tf, count):
    rng = np.random.RandomState(0)
    erfinv_x = rng.uniform(-1.0, 1.0, count).astype(np.float32)
    ndtri_x = np.concatenate([rng.uniform(0.0, 1.0, count // 2),
                              np.exp(-rng.uniform(0.0, 87.0, count - count // 2))]
                             ).astype(np.float32)
    with tf.Session() as sess:
        erfinv_y, ndtri_y = sess.run([tf.math.erfinv(erfinv_x), tf.math.ndtri(ndtri_x)])
    with tempfile.NamedTemporaryFile(suffix=".npz") as file:
        np.savez(file.name, erfinv_x=erfinv_x, erfinv_y=erfinv_y, ndtri_x=ndtri_x,
                 ndtri_y=ndtri_y)
        subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-c", _COMPARE, file.name],
                       cwd=ROOT, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=int, metavar="N")
    args = parser.parse_args()
    tf = tf_v1()
    if args.check:
        check(tf, args.check)
        return
    write_case_fixtures(tf, cases, OUT)
    (OUT / "type_error.txt").write_text(cases.type_error(tf) + "\n")


if __name__ == "__main__":
    main()
