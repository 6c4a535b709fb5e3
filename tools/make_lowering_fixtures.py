"""Write tests/fixtures/lowering/: TF1 graphs built with control flow v2 (a tf.cond and a
tf.while_loop as If and While marked `_lower_using_switch_merge`), run by TensorFlow 2.21.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_lowering_fixtures.py`.
For each case NAME: NAME.pb, the GraphDef as TensorFlow built it; NAME.run_metadata.pb, the
RunMetadata (partition graphs) of one Session.run of its fetches (one inter-op and one intra-op
thread); NAME.json, the feeds and fetches and the values TensorFlow computed. TensorFlow
lowers these If/While before placement (LowerFunctionalOpsPass), then Grappler runs: the
engine's optimizer is compared with the partition graphs node for node
(tests/engine/test_lowering_before_placement.py).
"""

import json

import fixture_common  # noqa: F401  (quiet TensorFlow, no oneDNN: set before it loads)
import numpy as np

OUT = fixture_common.FIXTURES / "lowering"


def cond_and_while(tf):
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: x - 1.0, name="pick")
    _, total = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + y),
                             [tf.constant(0), tf.zeros([2])], name="loop")
    return {"x:0": [1.0, 2.0]}, [tf.identity(total, name="out").name]


CASES = {"cond_and_while": cond_and_while}


def main():
    import tensorflow as full_tf
    tf = fixture_common.tf_v1()
    full_tf.compat.v1.enable_control_flow_v2()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, build in CASES.items():
        graph = tf.Graph()
        with graph.as_default():
            feeds, fetches = build(tf)
            config = tf.ConfigProto(inter_op_parallelism_threads=1,
                                    intra_op_parallelism_threads=1)
            with tf.Session(graph=graph, config=config) as sess:
                metadata = tf.RunMetadata()
                values = sess.run(fetches, {k: np.array(v, np.float32) for k, v in feeds.items()},
                                  options=tf.RunOptions(output_partition_graphs=True),
                                  run_metadata=metadata)
        (OUT / f"{name}.pb").write_bytes(graph.as_graph_def().SerializeToString())
        (OUT / f"{name}.run_metadata.pb").write_bytes(metadata.SerializeToString(deterministic=True))
        (OUT / f"{name}.json").write_text(json.dumps(
            {"feeds": feeds, "fetches": {f: np.asarray(v).tolist() for f, v in zip(fetches, values)}},
            indent=1) + "\n")
        print(name, [len(g.node) for g in metadata.partition_graphs])


if __name__ == "__main__":
    main()
