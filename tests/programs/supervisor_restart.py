"""Training under tf.train.Supervisor that stops and resumes, as TF 1.0-era scripts did.

The global step is a plain tf.Variable named "global_step", which the Supervisor (and
tf.train.get_global_step) find by its name. A first Supervisor initializes the model and
writes graph.pbtxt and the graph events (no service threads: their timing would show in what
is printed), trains 30 steps, records a summary the loop computes with sv.summary_computed
and saves; the script then builds the same graph afresh, as a second run of it would, and a
second Supervisor on the same logdir restores step 30 from the latest checkpoint instead of
initializing, runs a side computation with sv.loop() (its first turn at once), trains on
and stops through sv.request_stop(). The event files and the checkpoint state are read back
at the end.
"""

import os
import shutil
import tempfile

import numpy as np

import engine as tf


def build(features, targets):
    tf.reset_default_graph()
    global_step = tf.Variable(0, name="global_step", trainable=False)
    x = tf.constant(features, name="x")
    y = tf.constant(targets, name="y")
    w = tf.Variable(np.zeros([3, 1], np.float32), name="w")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y), name="loss")
    train = tf.train.GradientDescentOptimizer(0.2).minimize(loss, global_step=global_step)
    tf.summary.scalar("loss", loss)
    total = tf.reduce_sum(y, name="total")
    return global_step, w, loss, train, total, tf.summary.merge_all()


def newest_event_file(logdir):
    names = [name for name in os.listdir(logdir) if "tfevents" in name]
    return os.path.join(logdir, max(names, key=lambda n: os.stat(os.path.join(logdir,
                                                                           n)).st_mtime_ns))


def events_in(path):
    """What each event of an event file holds, in order."""
    kinds = []
    for event in tf.train.summary_iterator(path):
        if event.HasField("summary"):
            kinds.append("summary %s @%d" % (",".join(v.tag for v in event.summary.value),
                                             event.step))
        elif event.HasField("session_log"):
            kinds.append("session_log %s @%d" % (
                tf.SessionLog.SessionStatus.Name(event.session_log.status), event.step))
        elif event.HasField("graph_def") or event.HasField("meta_graph_def"):
            kinds.append("graph_def" if event.HasField("graph_def") else "meta_graph_def")
    return kinds


def main():
    logdir = tempfile.mkdtemp()
    rng = np.random.RandomState(3)
    features = rng.uniform(-1, 1, (20, 3)).astype(np.float32)
    targets = features.dot(np.array([[2.0], [-1.0], [0.5]], np.float32)).astype(np.float32)
    try:
        global_step, w, loss, train, total, summary = build(features, targets)
        print("global step found:", tf.train.get_global_step().name)
        sv = tf.train.Supervisor(logdir=logdir, summary_op=None, save_model_secs=0,
                                 save_summaries_secs=0)
        print("saver, ready op, init op:", sv.saver is not None, sv.ready_op.name,
              sv.init_op.name)
        with sv.managed_session() as sess:
            print("first session starts at step", sess.run(global_step))
            for _ in range(30):
                _, value = sess.run([train, loss])
            sv.summary_computed(sess, sess.run(summary))
            print("step %d loss %.6f" % (sess.run(global_step), value))
            sv.saver.save(sess, sv.save_path, global_step=global_step)
        print("events of the first run:", events_in(newest_event_file(logdir)))

        global_step, w, loss, train, total, _ = build(features, targets)
        sv = tf.train.Supervisor(logdir=logdir, summary_op=None, save_model_secs=0,
                                 save_summaries_secs=0)
        seen = []
        with sv.managed_session() as sess:
            print("second session starts at step", sess.run(global_step))
            looper = sv.loop(3600, lambda: seen.append(float(sess.run(total))))
            while not sv.should_stop():
                step, _ = sess.run([global_step, train])
                if step + 1 >= 50:
                    sv.request_stop()
            looper.join()
            print("step %d loss %.6f w %s" % (sess.run(global_step), sess.run(loss), " ".join(
                "%.4f" % v for v in sess.run(w).ravel())))
        print("the loop ran %d time(s): %.4f" % (len(seen), seen[0]))
        print("should stop:", sv.should_stop())
        state = tf.train.get_checkpoint_state(logdir)
        print("latest", os.path.basename(state.model_checkpoint_path))
        print("kept", [os.path.basename(p) for p in state.all_model_checkpoint_paths])
        # TensorFlow names an event file by the second it was made in: the second
        # Supervisor's may replace the first's. The newest is read (the first was above).
        print("events of the second run:", events_in(newest_event_file(logdir)))
        print("files", sorted(set(n.split(".")[0] for n in os.listdir(logdir))))
    finally:
        shutil.rmtree(logdir, ignore_errors=True)


if __name__ == "__main__":
    main()
