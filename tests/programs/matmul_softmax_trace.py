"""matmul + softmax run under FULL_TRACE: values, devices in step_stats, partition graphs."""

import engine as tf


def build():
    tf.set_random_seed(7)
    x = tf.constant([[37.0, -23.0], [1.0, 4.0]], name="x")
    w = tf.Variable(tf.random_uniform([2, 2], seed=1), name="w")
    y = tf.matmul(x, w)
    output = tf.nn.softmax(y)
    return {"x": x, "w": w, "y": y, "output": output, "init": w.initializer}


def main():
    g = build()
    with tf.Session() as sess:
        sess.run(g["init"])
        options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE,
                                output_partition_graphs=True)
        metadata = tf.RunMetadata()
        y_val, output_val = sess.run([g["y"], g["output"]],
                                     options=options, run_metadata=metadata)
        print("y:")
        print(y_val)
        print("output:")
        print(output_val)
        for dev_stats in sorted(metadata.step_stats.dev_stats, key=lambda d: d.device):
            print("device:", dev_stats.device)
            for name in sorted({n.node_name for n in dev_stats.node_stats}):
                print("  ", name)
        print("partition graphs:", len(metadata.partition_graphs))


if __name__ == "__main__":
    main()
