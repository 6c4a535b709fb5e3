"""A fetched array is the program's own: Session.run hands back a copy of memory that outlasts
the run (a ref variable's buffer passed on by an Identity or a view, a constant's cached array),
as TensorFlow does (TF_TensorToNumpy moves a buffer only when nothing else holds it), and an
array the run alone made as it is, uncopied."""

import numpy as np

import engine as tf
from engine.runtime import executor


def test_a_fetched_read_of_a_ref_variable_keeps_its_values_after_an_update():
    tf.reset_default_graph()
    v = tf.Variable(np.zeros(3, np.float32))
    reads = [tf.identity(v), v.read_value(), v.value(), tf.reshape(v, [3, 1]),
             tf.stop_gradient(v)]
    step = tf.assign_add(v, [1.0, 2.0, 3.0])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run(reads)
        together = sess.run([reads[0], v])
        sess.run(step)
        after = sess.run(reads)
    assert [a.ravel().tolist() for a in before] == [[0.0, 0.0, 0.0]] * 5
    assert [a.ravel().tolist() for a in together] == [[0.0, 0.0, 0.0]] * 2
    assert [a.ravel().tolist() for a in after] == [[1.0, 2.0, 3.0]] * 5


def test_changing_a_fetched_constant_changes_no_later_run():
    tf.reset_default_graph()
    c = tf.constant(np.arange(4.0))
    with tf.Session() as sess:
        first = sess.run(c)
        first[:] = -1
        assert sess.run(c).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_an_array_only_the_run_made_comes_back_uncopied():
    # _fetched is given values[slot], as the executor's fetch loop gives it
    made = [np.arange(6.0), np.arange(6.0).reshape(2, 3)]  # a result, a view of one
    assert all(executor._fetched(made[k], None, False) is made[k] for k in range(2))
    kept = np.arange(6.0)  # something else holds it (a variable, a constant's attr)
    shared = [kept, kept[2:]]
    copies = [executor._fetched(shared[k], None, False) for k in range(2)]
    assert all(c is not s and not np.shares_memory(c, kept) for c, s in zip(copies, shared))
    assert [c.tolist() for c in copies] == [kept.tolist(), kept[2:].tolist()]
