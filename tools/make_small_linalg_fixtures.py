"""Write tests/fixtures/small_linalg/: tf.linalg.matvec, normalize, matrix_rank, sqrtm,
logm, tridiagonal_matmul and tridiagonal_solve (tests/engine/small_linalg_cases.py), from
TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_small_linalg_fixtures.py`.
values.npz, shapes.json, nodes.json.gz and errors.json as tools/fixture_common.py's
write_case_fixtures writes them; python_errors.json holds what the Python layer raises for
each PYTHON_ERRORS call. nodes.json.gz leaves out the cases of cases.NODES_NOT_KEPT.
"""

import json

import gzip

from fixture_common import FIXTURES, gzip_bytes, nodes_json, tf_v1, write_case_fixtures

import small_linalg_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "small_linalg"


def main():
    tf = tf_v1()
    write_case_fixtures(tf, cases, OUT)
    # The bisection's graphs run to a thousand nodes each: one per selection is kept.
    nodes = json.loads(gzip.decompress((OUT / "nodes.json.gz").read_bytes()))
    nodes = {name: value for name, value in nodes.items() if name not in cases.NODES_NOT_KEPT}
    (OUT / "nodes.json.gz").write_bytes(gzip_bytes(nodes_json(nodes)))
    (OUT / "python_errors.json").write_text(json.dumps(cases.python_errors(tf), indent=1)
                                            + "\n")


if __name__ == "__main__":
    main()
