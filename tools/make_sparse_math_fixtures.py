"""Write tests/fixtures/sparse_math/: TensorFlow's values, gradients, static shapes, graph
nodes and kernel errors of tests/engine/sparse_math_cases.py (tf.sparse's arithmetic,
tf.sparse_matmul, serialized SparseTensors).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_sparse_math_fixtures.py`.
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import sparse_math_cases as cases  # tests/engine: on sys.path through fixture_common


def main():
    write_case_fixtures(tf_v1(), cases, FIXTURES / "sparse_math")


if __name__ == "__main__":
    main()
