"""tf.train's FeedFnHook, FinalOpsHook, GlobalStepWaiterHook, CheckpointSaverListener, the
session creators (SessionCreator, ChiefSessionCreator, WorkerSessionCreator) under a
MonitoredSession, assert_global_step and the SaverDef / ClusterDef / JobDef protos, run the
same way by real TensorFlow and by the engine: each case returns what it saw as JSON
(fixtures in tests/fixtures/train_hooks/, written by tools/make_train_hook_fixtures.py)."""

import os
import tempfile


def _error(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - the class and message are the result
        return [type(error).__name__, str(error).splitlines()[0] if str(error) else ""]
    return None


def _counting_graph(tf):
    """A global step and a sum that each run adds the fed x to; the train op steps both."""
    step = tf.train.get_or_create_global_step()
    x = tf.placeholder(tf.float32, [], name="x")
    total = tf.Variable(0.0, name="total")
    train = tf.group(tf.assign_add(total, x), tf.assign_add(step, 1), name="train")
    return step, x, total, train


def feed_and_final_ops(tf):
    """FeedFnHook feeds x each run; FinalOpsHook reads total and the step once at the end;
    the session comes from a ChiefSessionCreator."""
    with tf.Graph().as_default():
        step, x, total, train = _counting_graph(tf)
        fed = iter([1.5, 2.0, 4.25, 8.0])
        final = tf.train.FinalOpsHook({"total": total, "doubled": total * 2.0,
                                       "step": step})
        hooks = [tf.train.FeedFnHook(lambda: {x: next(fed)}), final,
                 tf.train.StopAtStepHook(last_step=3)]
        with tf.control_dependencies([train]):
            peek = total.read_value() + x  # the sum after this run's step, plus x again
        seen = []
        with tf.train.MonitoredSession(session_creator=tf.train.ChiefSessionCreator(),
                                       hooks=hooks) as sess:
            while not sess.should_stop():
                seen.append(float(sess.run(peek)))
        values = {k: float(v) for k, v in final.final_ops_values.items()}
        return {"seen": seen, "final": values}


class _Recorder:
    """A CheckpointSaverListener that records its calls; it asks to stop after stop_at."""

    def __init__(self, base, stop_at=None):
        self.calls, self._stop_at = [], stop_at
        self.base = base

    def begin(self):
        self.calls.append(["begin"])

    def before_save(self, session, global_step_value):
        self.calls.append(["before_save", int(global_step_value)])

    def after_save(self, session, global_step_value):
        self.calls.append(["after_save", int(global_step_value)])
        return self._stop_at is not None and global_step_value >= self._stop_at

    def end(self, session, global_step_value):
        self.calls.append(["end", int(global_step_value)])


def _listened(tf, stop_at, last_step):
    listener_class = type("Listener", (tf.train.CheckpointSaverListener,),
                          dict(_Recorder.__dict__))
    listener = listener_class(None, stop_at)
    with tf.Graph().as_default(), tempfile.TemporaryDirectory() as directory:
        step, x, total, train = _counting_graph(tf)
        saver_hook = tf.train.CheckpointSaverHook(directory, save_steps=2,
                                                  listeners=[listener])
        runs = 0
        with tf.train.MonitoredSession(hooks=[saver_hook,
                                              tf.train.StopAtStepHook(last_step=last_step)]
                                       ) as sess:
            while not sess.should_stop():
                sess.run(train, {x: 1.0})
                runs += 1
        files = sorted(name for name in os.listdir(directory)
                       if name.startswith("model.ckpt") and name.endswith(".index"))
    return {"calls": listener.calls, "runs": runs, "checkpoints": files}


def checkpoint_listener(tf):
    """A listener around every save of a CheckpointSaverHook (save_steps=2, five steps)."""
    return _listened(tf, None, 5)


def checkpoint_listener_stops(tf):
    """A listener whose after_save at step 2 or later asks training to stop."""
    result = _listened(tf, 2, 9)
    base = tf.train.CheckpointSaverListener()
    result["base"] = [base.begin(), base.before_save(None, 1), base.after_save(None, 1),
                      base.end(None, 1)]
    return result


def restored_chief_and_waiter(tf):
    """ChiefSessionCreator restores a checkpoint at step 4; GlobalStepWaiterHook(2) then lets
    the first run through; a waiter without a global step fails at begin."""
    with tempfile.TemporaryDirectory() as directory:
        with tf.Graph().as_default():
            step, x, total, train = _counting_graph(tf)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for value in (1.0, 2.0, 3.0, 4.0):
                    sess.run(train, {x: value})
                tf.train.Saver().save(sess, os.path.join(directory, "model.ckpt"),
                                      global_step=step)
        with tf.Graph().as_default():
            step, x, total, train = _counting_graph(tf)
            creator = tf.train.ChiefSessionCreator(checkpoint_dir=directory)
            hooks = [tf.train.GlobalStepWaiterHook(2), tf.train.GlobalStepWaiterHook(0)]
            state = [total.read_value(), step.read_value()]
            with tf.train.MonitoredSession(session_creator=creator, hooks=hooks) as sess:
                first = sess.run(state)
                sess.run(train, {x: 0.5})
                after = sess.run(state)
    with tf.Graph().as_default():
        missing = _error(lambda: tf.train.GlobalStepWaiterHook(1).begin())
    return {"first": [float(first[0]), int(first[1])],
            "after": [float(after[0]), int(after[1])], "no_global_step": missing}


def worker_and_custom_creators(tf):
    """WorkerSessionCreator on a ready model (no variables) runs; on a model no chief
    initialized it gives up after max_wait_secs; a SessionCreator subclass makes the
    session itself; the abstract SessionCreator cannot be made."""
    with tf.Graph().as_default():
        a = tf.constant([1.0, 2.0], name="a")
        out = a * 3.0
        with tf.train.MonitoredSession(
                session_creator=tf.train.WorkerSessionCreator(max_wait_secs=5)) as sess:
            ready = sess.run(out).tolist()
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        creator = tf.train.WorkerSessionCreator(max_wait_secs=0)
        not_ready = _error(lambda: tf.train.MonitoredSession(session_creator=creator))

    class Initializing(tf.train.SessionCreator):
        def create_session(self):
            sess = tf.Session()
            sess.run(tf.global_variables_initializer())
            return sess

    with tf.Graph().as_default():
        v = tf.Variable([2.0, 5.0], name="v")
        squared = v * v
        with tf.train.MonitoredSession(session_creator=Initializing()) as sess:
            custom = sess.run(squared).tolist()
            finalized = tf.get_default_graph().finalized
    abstract = _error(tf.train.SessionCreator)
    return {"ready": ready, "not_ready": not_ready, "custom": custom,
            "custom_finalized": finalized,
            "abstract": [abstract[0], abstract[1].split(" with ")[0]]}


def global_step_checks(tf):
    """assert_global_step on a step, and TensorFlow's errors for what is not one."""
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        return {"step": tf.train.assert_global_step(step),
                "int_tensor": tf.train.assert_global_step(tf.constant(3, tf.int32)),
                "float": _error(lambda: tf.train.assert_global_step(tf.Variable(1.5))),
                "vector": _error(lambda: tf.train.assert_global_step(
                    tf.constant([1, 2], tf.int64))),
                "python_int": _error(lambda: tf.train.assert_global_step(3))}


def protos(tf):
    """SaverDef, JobDef and ClusterDef: fields, enum values and serialized bytes."""
    saver_def = tf.train.SaverDef(filename_tensor_name="save/Const:0",
                                  save_tensor_name="save/control_dependency:0",
                                  restore_op_name="save/restore_all", max_to_keep=5,
                                  sharded=True, keep_checkpoint_every_n_hours=2.5,
                                  version=tf.train.SaverDef.V2)
    job = tf.train.JobDef(name="worker", tasks={0: "localhost:2222", 3: "localhost:2225"})
    cluster = tf.train.ClusterDef(job=[job, tf.train.JobDef(name="ps",
                                                            tasks={0: "localhost:2300"})])
    parsed = tf.train.ClusterDef.FromString(cluster.SerializeToString(deterministic=True))
    return {"saver_def": saver_def.SerializeToString().hex(),
            "versions": [tf.train.SaverDef.LEGACY, tf.train.SaverDef.V1,
                         tf.train.SaverDef.V2],
            "cluster_def": cluster.SerializeToString(deterministic=True).hex(),
            "parsed_jobs": [[j.name, sorted(j.tasks.items())] for j in parsed.job],
            "saver_fields": [f.name for f in tf.train.SaverDef.DESCRIPTOR.fields],
            "job_fields": [f.name for f in tf.train.JobDef.DESCRIPTOR.fields]}


CASES = {"feed_and_final_ops": feed_and_final_ops, "checkpoint_listener": checkpoint_listener,
         "checkpoint_listener_stops": checkpoint_listener_stops,
         "restored_chief_and_waiter": restored_chief_and_waiter,
         "worker_and_custom_creators": worker_and_custom_creators,
         "global_step_checks": global_step_checks, "protos": protos}
