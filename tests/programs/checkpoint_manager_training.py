"""Object-based checkpoints as TF 1.14/1.15 programs wrote them: a tf.train.Checkpoint of a
model's variables, the global step and an Adam optimizer, saved by a CheckpointManager every 2
steps (max_to_keep=2); the program then "restarts" (a new graph, a new session), restores the
latest checkpoint, checks the restore and trains on."""

import os
import shutil
import tempfile

import numpy as np

import engine as tf

DIRECTORY = tempfile.mkdtemp()


def build():
    x = tf.constant(np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(6, 2))
    y = tf.constant(np.array([[1.0], [0.0], [1.0], [0.0], [1.0], [1.0]], np.float32))
    with tf.variable_scope("model"):
        w = tf.get_variable("w", initializer=tf.constant([[0.5], [-0.25]]))
        b = tf.get_variable("b", initializer=tf.constant([0.1]))
    logits = tf.matmul(x, w) + b
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))
    step = tf.train.get_or_create_global_step()
    optimizer = tf.train.AdamOptimizer(0.1)
    train = optimizer.minimize(loss, global_step=step)
    checkpoint = tf.train.Checkpoint(w=w, b=b, step=step, optimizer=optimizer)
    manager = tf.train.CheckpointManager(checkpoint, DIRECTORY, max_to_keep=2)
    return checkpoint, manager, train, loss, step, w, b


def run(steps):
    with tf.Graph().as_default():
        checkpoint, manager, train, loss, step, w, b = build()
        status = checkpoint.restore(manager.latest_checkpoint)
        with tf.Session() as sess:
            status.initialize_or_restore(sess)
            if manager.latest_checkpoint:
                status.assert_consumed()
                print("restored", os.path.basename(manager.latest_checkpoint), "at step",
                      sess.run(step))
            else:
                print("initialized")
            for _ in range(steps):
                _, loss_value, step_value = sess.run([train, loss, step])
                print("step %d loss %.6f" % (step_value, loss_value))
                if step_value % 2 == 0:
                    path = manager.save()
                    print("saved", os.path.basename(path), "save_counter",
                          sess.run(checkpoint.save_counter))
            print("w", np.round(sess.run(w).ravel(), 6), "b", np.round(sess.run(b), 6))
            print("kept", [os.path.basename(p) for p in manager.checkpoints])
            print("latest", os.path.basename(tf.train.latest_checkpoint(DIRECTORY)))


run(5)
run(3)
print("files", sorted(os.listdir(DIRECTORY)))
reader = tf.train.load_checkpoint(DIRECTORY)
for name in sorted(reader.get_variable_to_shape_map()):
    if name != "_CHECKPOINTABLE_OBJECT_GRAPH":
        print(name, np.round(np.asarray(reader.get_tensor(name)).ravel(), 6))
shutil.rmtree(DIRECTORY)
