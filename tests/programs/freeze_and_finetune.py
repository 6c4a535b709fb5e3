"""Train, checkpoint, restore-and-continue, freeze and fine-tune, as TF 1.x deployment scripts
did in 2017-2019: tf.train.Saver with max_to_keep and global_step, tf.train.latest_checkpoint and
get_checkpoint_state, tf.train.list_variables / NewCheckpointReader, a second run that restores
and continues; tf.graph_util.convert_variables_to_constants, extract_sub_graph and
remove_training_nodes, tf.train.write_graph in text and binary, the frozen GraphDef read back with
tf.gfile and imported with input_map and return_elements under a name scope; and
tf.train.import_meta_graph plus tf.train.init_from_checkpoint with an assignment map into a new
model's scope."""
# fixture threads: 1 2 4
import os
import shutil
import tempfile

import numpy as np

import engine as tf


def build():
    x = tf.placeholder(tf.float32, [None, 4], name="input")
    y = tf.placeholder(tf.float32, [None, 1], name="target")
    with tf.variable_scope("model"):
        h = tf.layers.dense(x, 6, activation=tf.nn.tanh, name="hidden")
        h = tf.identity(h, name="features")
        out = tf.layers.dense(h, 1, name="out")
    prediction = tf.identity(out, name="prediction")
    loss = tf.losses.mean_squared_error(y, prediction)
    step = tf.train.get_or_create_global_step()
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
    return x, y, prediction, loss, step, train


def main():
    rng = np.random.RandomState(1)
    data = rng.randn(32, 4).astype(np.float32)
    labels = (data @ np.array([[0.5], [-1.0], [0.25], [2.0]], np.float32)).astype(np.float32)
    directory = tempfile.mkdtemp()
    prefix = os.path.join(directory, "model.ckpt")
    try:
        tf.reset_default_graph()
        tf.set_random_seed(2)
        x, y, prediction, loss, step, train = build()
        saver = tf.train.Saver(max_to_keep=2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(6):
                l, _ = sess.run([loss, train], {x: data, y: labels})
                if i % 2 == 1:
                    path = saver.save(sess, prefix, global_step=step)
                    print("saved", os.path.basename(path), "loss %.5f" % l)
        state = tf.train.get_checkpoint_state(directory)
        print("kept", [os.path.basename(p) for p in state.all_model_checkpoint_paths])
        latest = tf.train.latest_checkpoint(directory)
        print("latest", os.path.basename(latest))
        print("variables", tf.train.list_variables(latest))
        reader = tf.train.NewCheckpointReader(latest)
        print("global_step", reader.get_tensor("global_step"),
              "bias", np.round(reader.get_tensor("model/out/bias"), 5).tolist())
        print("shapes", sorted(reader.get_variable_to_shape_map().items()))

        # a second process: rebuild, restore, continue
        tf.reset_default_graph()
        x, y, prediction, loss, step, train = build()
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, tf.train.latest_checkpoint(directory))
            print("restored step", sess.run(step), "loss %.5f" % sess.run(loss, {x: data,
                                                                               y: labels}))
            for _ in range(4):
                sess.run(train, {x: data, y: labels})
            print("continued step", sess.run(step), "loss %.5f" % sess.run(loss, {x: data,
                                                                                y: labels}))
            graph_def = sess.graph.as_graph_def()
            frozen = tf.graph_util.convert_variables_to_constants(sess, graph_def, ["prediction"])
            expected = sess.run(prediction, {x: data[:3]})
        ops = sorted({n.op for n in frozen.node})
        print("frozen", len(frozen.node), "nodes", ops)
        sub = tf.graph_util.extract_sub_graph(frozen, ["model/features"])
        print("sub graph", [n.name for n in sub.node])
        stripped = tf.graph_util.remove_training_nodes(frozen)
        print("stripped", len(stripped.node), [n.name for n in stripped.node if "Identity" in n.op])
        tf.train.write_graph(frozen, directory, "frozen.pbtxt", as_text=True)
        tf.train.write_graph(frozen, directory, "frozen.pb", as_text=False)
        with tf.gfile.GFile(os.path.join(directory, "frozen.pb"), "rb") as f:
            loaded = tf.GraphDef()
            loaded.ParseFromString(f.read())
        print("read back", loaded == frozen,
              os.path.getsize(os.path.join(directory, "frozen.pb")) == frozen.ByteSize())

        with tf.Graph().as_default() as graph:
            scaled = tf.placeholder(tf.float32, [None, 4], name="raw")
            normalised = scaled * 0.5
            out, features = tf.import_graph_def(loaded, input_map={"input:0": normalised},
                                                return_elements=["prediction:0",
                                                                 "model/features"],
                                                name="deployed")
            print("imported", out.name, features.name, features.type,
                  graph.get_tensor_by_name("deployed/model/out/BiasAdd:0").shape)
            with tf.Session() as sess:
                got = sess.run(out, {scaled: data[:3] * 2.0})
                print("frozen matches %.6f" % np.abs(got - expected).max())

        # import_meta_graph, then warm-start a new model's scope from the checkpoint
        tf.reset_default_graph()
        restorer = tf.train.import_meta_graph(latest + ".meta", clear_devices=True)
        graph = tf.get_default_graph()
        with tf.Session() as sess:
            restorer.restore(sess, latest)
            print("meta graph", sess.run("global_step:0"),
                  "loss %.5f" % sess.run("mean_squared_error/value:0",
                                         {"input:0": data, "target:0": labels}))
            print("collections", sorted(k for k in graph.get_all_collection_keys()))
        tf.reset_default_graph()
        new_x = tf.placeholder(tf.float32, [None, 4])
        with tf.variable_scope("student"):
            hidden = tf.layers.dense(new_x, 6, activation=tf.nn.tanh, name="hidden")
            head = tf.layers.dense(hidden, 3, name="head")
        tf.train.init_from_checkpoint(latest, {"model/hidden/": "student/hidden/"})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            kernel = sess.run("student/hidden/kernel:0")
            print("warm kernel matches", np.allclose(kernel, reader.get_tensor("model/hidden/kernel")))
            print("head", sess.run(head, {new_x: data[:1]}).shape)
    finally:
        shutil.rmtree(directory)


if __name__ == "__main__":
    main()
