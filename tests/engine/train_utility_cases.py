"""tf.train's remaining utilities run the same way by real TensorFlow and the engine:
noisy_linear_cosine_decay (values from the graph seed's stream, nodes), the checkpoint helpers
(generate_checkpoint_state_proto, get_checkpoint_mtimes, remove_checkpoint,
checkpoints_iterator) on checkpoints a Saver wrote, init_from_checkpoint (values, nodes,
errors), and basic_train_loop under a Supervisor.
Each case gives JSON (paths as names inside the directory). tools/make_train_utility_fixtures.py
writes TensorFlow's to tests/fixtures/train_utilities/; tests/engine/test_train_utilities.py
compares the engine's."""

import os
import tempfile

import numpy as np
from google.protobuf import text_format


def noisy_decay(tf):
    with tf.Graph().as_default() as graph:
        tf.set_random_seed(3)
        step = tf.placeholder(tf.int32, [])
        lr = tf.train.noisy_linear_cosine_decay(0.1, step, 100, initial_variance=0.5,
                                                variance_decay=0.6, num_periods=1.5,
                                                alpha=0.1, beta=0.01)
        with tf.Session() as sess:
            values = [float(sess.run(lr, {step: i})) for i in (0, 0, 10, 50, 99, 200)]
        nodes = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    return {"values": values, "nodes": nodes}


def _save_three(tf, directory):
    with tf.Graph().as_default():
        w = tf.Variable(np.arange(3, dtype=np.float32), name="w")
        saver = tf.train.Saver(max_to_keep=5)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return [saver.save(sess, os.path.join(directory, "model"), global_step=step)
                    for step in (1, 2, 3)]


def _names(directory):
    return sorted(os.listdir(directory))


def checkpoint_helpers(tf):
    with tempfile.TemporaryDirectory() as directory:
        prefixes = _save_three(tf, directory)
        out = {}
        proto = tf.train.generate_checkpoint_state_proto(
            "relative/dir", "relative/dir/model-3", ["relative/dir/model-1"],
            all_model_checkpoint_timestamps=[1.5, 2.5], last_preserved_timestamp=0.5)
        out["proto_relative"] = text_format.MessageToString(proto)
        proto = tf.train.generate_checkpoint_state_proto(directory, prefixes[2], prefixes[:2])
        out["proto_absolute"] = text_format.MessageToString(proto).replace(directory, "DIR")
        try:
            tf.train.generate_checkpoint_state_proto("d", "d/a", ["d/b"], [1.0, 2.0, 3.0])
        except ValueError as error:
            out["proto_error"] = str(error)
        mtimes = tf.train.get_checkpoint_mtimes(prefixes + [os.path.join(directory, "none")])
        out["mtimes"] = [len(mtimes), all(m > 1e9 for m in mtimes), mtimes == sorted(mtimes)]
        tf.train.remove_checkpoint(prefixes[0])
        out["after_remove"] = _names(directory)
        out["iterated"] = [os.path.relpath(p, directory) for p in tf.train.checkpoints_iterator(
            directory, timeout=0)]
        calls = []
        out["iterated_with_timeout_fn"] = [
            os.path.relpath(p, directory) for p in tf.train.checkpoints_iterator(
                directory, timeout=0, timeout_fn=lambda: calls.append(1) or len(calls) > 1)]
        out["timeout_fn_calls"] = len(calls)
        return out


def train_loop(tf):
    with tempfile.TemporaryDirectory() as directory:
        with tf.Graph().as_default():
            step = tf.train.get_or_create_global_step()
            increment = tf.assign_add(step, 1)
            supervisor = tf.train.Supervisor(logdir=directory, save_model_secs=0,
                                             save_summaries_secs=0)
            seen = []

            def train_step(sess, scale, offset=0):
                value = sess.run(increment)
                seen.append(int(value) * scale + offset)
                if value >= 4:
                    supervisor.request_stop()

            tf.train.basic_train_loop(supervisor, train_step, args=[10], kwargs={"offset": 1})
        return {"seen": seen}


def _save_model(tf, directory):
    with tf.Graph().as_default():
        with tf.variable_scope("a"):
            tf.get_variable("w", initializer=np.arange(6, dtype=np.float32).reshape(2, 3))
            tf.get_variable("b", initializer=np.array([7.0, 8.0, 9.0], np.float32))
        tf.get_variable("c", initializer=np.float32(-1.5))
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, os.path.join(directory, "model"))


def init_from_checkpoint(tf):
    with tempfile.TemporaryDirectory() as directory:
        _save_model(tf, directory)
        out = {}
        with tf.Graph().as_default() as graph:
            with tf.variable_scope("x"):
                w = tf.get_variable("w", shape=[2, 3], initializer=tf.zeros_initializer())
                b = tf.get_variable("b", shape=[3], initializer=tf.zeros_initializer())
            d = tf.get_variable("d", shape=[], initializer=tf.zeros_initializer())
            r = tf.get_variable("r", shape=[3], initializer=tf.zeros_initializer(),
                                use_resource=True)
            kept = tf.get_variable("kept", initializer=np.float32(4.0))
            tf.train.init_from_checkpoint(directory, {"a/": "x/", "c": "d"})
            tf.train.init_from_checkpoint(os.path.join(directory, "model"), {"a/b": r})
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                out["values"] = [v.tolist() for v in sess.run([w, b, d, r, kept])]
            out["nodes"] = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
        for label, mapping in (("missing", {"a/q": "x/w"}), ("shape", {"a/b": "x/w"}),
                               ("scope_only", {"a": "x/"}), ("scope_missing", {"b/": "x/"})):
            with tf.Graph().as_default():
                with tf.variable_scope("x"):
                    tf.get_variable("w", shape=[2, 3])
                try:
                    tf.train.init_from_checkpoint(directory, mapping)
                except ValueError as error:
                    out[f"error_{label}"] = str(error).replace(directory, "DIR").split(
                        " checkpoint {")[0]
        return out


def _warm_graph(tf):
    """The model of _save_model again, zeros everywhere, c not trainable, one new variable."""
    with tf.variable_scope("a"):
        w = tf.get_variable("w", shape=[2, 3], initializer=tf.zeros_initializer())
        b = tf.get_variable("b", shape=[3], initializer=tf.zeros_initializer())
    c = tf.get_variable("c", shape=[], initializer=tf.zeros_initializer(), trainable=False)
    renamed = tf.get_variable("renamed_b", shape=[3], initializer=tf.zeros_initializer())
    return [w, b, c, renamed]


def warm_start(tf):
    """tf.train.warm_start by a regular expression (trainable variables only), by names
    (global ones), as variables with a renamed one; and its errors."""
    with tempfile.TemporaryDirectory() as directory:
        _save_model(tf, directory)
        out = {}
        choices = {"regex": lambda v: (directory, "a/w"),
                   "all_trainable": lambda v: (directory,),
                   "names": lambda v: (directory, ["a/", "c"]),
                   "variables": lambda v: (os.path.join(directory, "model"), [v[0], v[3]],
                                           None, {"renamed_b": "a/b"}),
                   "none": lambda v: (directory, None)}
        for label, arguments in choices.items():
            with tf.Graph().as_default() as graph:
                variables = _warm_graph(tf)
                try:
                    tf.train.warm_start(*arguments(variables))
                except ValueError as error:
                    # The checkpoint's map in the message: another order in the engine.
                    out[label] = ["ValueError", str(error).replace(directory, "DIR").split(
                        " checkpoint {")[0]]
                    continue
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    values = [v.tolist() for v in sess.run(variables)]
                nodes = [[n.name, n.op] for n in graph.as_graph_def().node
                         if "checkpoint_initializer" in n.name]
                out[label] = {"values": values, "restores": nodes}
        for label, arguments in (
                ("misspelled", lambda v: (directory, "a/", None, {"a/x": "a/w"})),
                ("mixed", lambda v: (directory, ["a/w", v[1]])),
                ("kind", lambda v: (directory, 3))):
            with tf.Graph().as_default():
                variables = _warm_graph(tf)
                try:
                    tf.train.warm_start(*arguments(variables))
                except ValueError as error:
                    text = str(error).replace(directory, "DIR")
                    out[label] = text.split("[<")[0].replace("<class 'tensorflow.python.", "")
        return out


CASES = {"noisy_linear_cosine_decay": noisy_decay, "checkpoint_helpers": checkpoint_helpers,
         "basic_train_loop": train_loop, "init_from_checkpoint": init_from_checkpoint,
         "warm_start": warm_start}
