"""Two CPU devices, ops pinned to each: the partition graphs and their _Send/_Recv pairs."""

import engine as tf

A = [[1.0, 2.0], [3.0, 4.0]]


def build():
    with tf.device("/cpu:0"):
        # Fed, so that Grappler cannot fold the whole graph into constants.
        a = tf.placeholder(tf.float32, shape=[2, 2], name="a")
        b = tf.constant([[0.5, -1.0], [2.0, 0.25]], name="b")
        product = tf.matmul(a, b, name="product")
    with tf.device("/cpu:1"):
        doubled = tf.multiply(product, 2.0, name="doubled")
        total = tf.reduce_sum(doubled, name="total")
    return {"a": a, "product": product, "doubled": doubled, "total": total}


def config():
    return tf.ConfigProto(device_count={"CPU": 2})


def main():
    g = build()
    with tf.Session(config=config()) as sess:
        options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE,
                                output_partition_graphs=True)
        metadata = tf.RunMetadata()
        doubled, total = sess.run([g["doubled"], g["total"]], {g["a"]: A},
                                  options=options, run_metadata=metadata)
        print("doubled:")
        print(doubled)
        print("total:", total)
        print("partition graphs:", len(metadata.partition_graphs))
        for graph in sorted(metadata.partition_graphs, key=lambda p: p.node[0].device):
            print("device:", graph.node[0].device)
            for node in sorted(graph.node, key=lambda n: n.name):
                print("  ", node.name, node.op)


if __name__ == "__main__":
    main()
