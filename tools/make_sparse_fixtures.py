"""Write tests/fixtures/ops/sparse_ops.json: TensorFlow's outputs and error texts for
tests/engine/sparse_op_cases.py (SparseFillEmptyRows, SparseReshape, the SparseSegment
reductions and their gradient ops).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_sparse_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import sparse_op_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "ops" / "sparse_ops.json"


def main():
    tf = tf_v1()
    from tensorflow.python.framework import op_def_registry

    def apply_op(op, tensors, **attrs):
        op_def = op_def_registry.get(op)
        keywords = {arg.name: t for arg, t in zip(op_def.input_arg, tensors)}
        result = getattr(tf.raw_ops, op)(**keywords, **attrs)
        return list(result) if isinstance(result, tuple) else result

    results = {}
    for name in cases.CASES:
        tf.reset_default_graph()
        results[name] = cases.run_case(tf, name, apply_op)
    OUT.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(results)} cases")


if __name__ == "__main__":
    main()
