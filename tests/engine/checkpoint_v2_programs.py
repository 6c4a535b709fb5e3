"""TF1-style programs using tf.train.Checkpoint and CheckpointManager, written once for both
TensorFlow (tools/make_checkpoint_v2_fixtures.py) and the engine (test_checkpoint_v2.py)."""

import os


def build_model(tf):
    """A ref variable, a resource variable, a global step and Adam: slots and beta powers."""
    w = tf.get_variable("w", initializer=tf.constant([1.0, -2.0, 0.5]))
    r = tf.get_variable("r", initializer=tf.constant(3.0), use_resource=True)
    step = tf.train.get_or_create_global_step()
    x = tf.constant([[0.5, 1.0, -1.5], [2.0, 0.25, 1.0]])
    loss = tf.reduce_sum(tf.square(tf.linalg.matvec(x, w) * r - 1.0))
    optimizer = tf.train.AdamOptimizer(0.05)
    train = optimizer.minimize(loss, global_step=step)
    return {"w": w, "r": r, "step": step, "loss": loss, "optimizer": optimizer, "train": train}


def train_with_manager(tf, directory, steps, save_every=2, max_to_keep=2):
    """Restores the manager's latest checkpoint (or initializes), trains `steps` steps and saves
    every save_every steps; returns the printed lines and the manager's checkpoints."""
    lines = []
    with tf.Graph().as_default():
        model = build_model(tf)
        checkpoint = tf.train.Checkpoint(model_w=model["w"], model_r=model["r"],
                                         step=model["step"], optimizer=model["optimizer"])
        manager = tf.train.CheckpointManager(checkpoint, directory, max_to_keep=max_to_keep)
        status = checkpoint.restore(manager.latest_checkpoint)
        with tf.Session() as session:
            status.initialize_or_restore(session)
            lines.append("restored from %s" % (os.path.basename(manager.latest_checkpoint)
                                               if manager.latest_checkpoint else None))
            for _ in range(steps):
                _, loss, step = session.run([model["train"], model["loss"], model["step"]])
                lines.append("step %d loss %r" % (step, float(loss)))
                if step % save_every == 0:
                    path = manager.save()
                    lines.append("saved %s counter %d" % (
                        os.path.basename(path), session.run(checkpoint.save_counter)))
            w, r = session.run([model["w"], model["r"]])
            lines.append("w %r r %r" % ([float(v) for v in w], float(r)))
        checkpoints = [os.path.basename(p) for p in manager.checkpoints]
    return lines, checkpoints


def structures_checkpoint(tf, directory):
    """A Checkpoint of a list, a dict, a nested Checkpoint and a name with '/' and '.': the
    paths TensorFlow gives them (data structures, escaped local names)."""
    with tf.Graph().as_default():
        a = tf.Variable(1.0, name="a")
        b = tf.Variable([2.0, 3.0], name="b")
        c = tf.get_variable("c", initializer=tf.constant(4.0), use_resource=True)
        d = tf.Variable(5, name="d")
        checkpoint = tf.train.Checkpoint(
            vars=[a, b], table={"x/y.z": c}, sub=tf.train.Checkpoint(v=d))
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            return checkpoint.write(os.path.join(directory, "structures"), session=session)


def module_checkpoint(tf, module_base, directory):
    """A Checkpoint of nested tf.Module subclasses (module_base: tf.Module, or on the engine
    a class shaped as tf.Module until the engine has one): their attributes' paths."""
    class Dense(module_base):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0, 2.0]], name="w")
            self.b = tf.Variable([0.5], name="b")
            self.units = 2  # not trackable: not saved

    class Model(module_base):
        def __init__(self):
            super().__init__()
            self.layers = [Dense(), Dense()]
            self.scale = tf.Variable(2.0, name="scale")

    with tf.Graph().as_default():
        model = Model()
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            return tf.train.Checkpoint(model=model).write(os.path.join(directory, "module"),
                                                          session=session)


def _op_rows(ops):
    return [[op.name, op.type, op.device, [t.name for t in op.inputs],
             [c.name for c in op.control_inputs]] for op in ops]


def restore_before_minimize(tf, directory):
    """TensorFlow's documented order: restore, build the train op, initialize_or_restore.
    save_counter, the beta powers and the slots are restored as they are made: the ops each
    step adds, and the values restored."""
    def model():
        w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
        return w, tf.train.AdamOptimizer(0.1)

    with tf.Graph().as_default():
        w, optimizer = model()
        train = optimizer.minimize(tf.reduce_sum(w * w))
        checkpoint = tf.train.Checkpoint(w=w, opt=optimizer)
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            session.run(train)
            path = checkpoint.save(os.path.join(directory, "deferred"))
    found = {}
    with tf.Graph().as_default() as graph:
        w, optimizer = model()
        checkpoint = tf.train.Checkpoint(w=w, opt=optimizer)
        before = len(graph.get_operations())
        status = checkpoint.restore(path)
        found["restore_ops"] = _op_rows(graph.get_operations()[before:])
        before = len(graph.get_operations())
        optimizer.minimize(tf.reduce_sum(w * w))
        found["minimize_ops"] = _op_rows(graph.get_operations()[before:])
        with tf.Session() as session:
            status.assert_consumed()
            status.initialize_or_restore(session)
            found["values"] = [session.run(v).tolist() for v in (
                w, optimizer.get_slot(w, "m"), optimizer.get_slot(w, "v"),
                checkpoint.save_counter)]
    return found


def _state_lines(directory):
    with open(os.path.join(directory, "checkpoint")) as f:
        return [line for line in f.read().splitlines() if "timestamp" not in line]


def manager_options(tf, directory):
    """checkpoint_name, checkpoint_number from the global step, keep_checkpoint_every_n_hours
    (tiny: every checkpoint leaving the active set is kept), max_to_keep=None, and a second
    manager recovering the first one's state."""
    found = {}
    kept_dir, all_dir = os.path.join(directory, "kept"), os.path.join(directory, "all")
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        step = tf.train.get_or_create_global_step()
        checkpoint = tf.train.Checkpoint(v=v)
        kept = tf.train.CheckpointManager(checkpoint, kept_dir, max_to_keep=1,
                                          keep_checkpoint_every_n_hours=1e-9,
                                          checkpoint_name="model")
        every = tf.train.CheckpointManager(checkpoint, all_dir, max_to_keep=None)
        advance = tf.assign_add(step, 10)
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            paths = []
            for _ in range(3):
                session.run(advance)
                paths.append(kept.save(checkpoint_number=step))
                paths.append(every.save())
            paths.append(kept.save(checkpoint_number=7))
            found["counter"] = int(session.run(checkpoint.save_counter))
        found["paths"] = [os.path.relpath(p, directory) for p in paths]
        found["kept_checkpoints"] = [os.path.basename(p) for p in kept.checkpoints]
        found["all_checkpoints"] = [os.path.basename(p) for p in every.checkpoints]
        found["kept_files"] = sorted(os.listdir(kept_dir))
        found["all_files"] = sorted(os.listdir(all_dir))
        found["kept_state"], found["all_state"] = _state_lines(kept_dir), _state_lines(all_dir)
        again = tf.train.CheckpointManager(checkpoint, kept_dir, max_to_keep=3)
        found["recovered"] = [os.path.basename(p) for p in again.checkpoints]
        found["recovered_latest"] = os.path.basename(again.latest_checkpoint)
        found["listed"] = [os.path.basename(p) for p in
                           tf.train.get_checkpoint_state(kept_dir).all_model_checkpoint_paths]
    return found
