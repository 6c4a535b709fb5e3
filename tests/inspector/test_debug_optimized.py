"""The debugger steps the user's own graph; the optimized one only when asked."""

import numpy as np
import pytest

import engine as tf
import inspector.debug


# these tests are about the optimizer
pytestmark = pytest.mark.usefixtures("optimizer_on")


@pytest.fixture(autouse=True)
def _no_run_left_paused():
    yield
    from inspector.debug.hook import abort_active
    abort_active()


def stepped_names(run):
    names = []
    while True:
        run.step()
        if run.finished:
            return names, run.result()
        names.append(run.current.name)


@pytest.fixture
def folded_session():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        scale = tf.multiply(tf.constant(2.0, name="two"), tf.constant(3.0, name="three"),
                            name="scale")
        y = tf.add(tf.add(x, scale, name="shifted"), 1.0, name="y")
    sess = tf.Session(graph=graph)
    yield sess, x, y
    sess.close()


def test_the_debugger_steps_the_users_nodes_by_default(folded_session):
    sess, x, y = folded_session
    names, value = stepped_names(inspector.debug(sess).start_run(y, {x: [1.0, 2.0]}))
    assert {"two", "three", "scale", "shifted", "y"} <= set(names)
    np.testing.assert_allclose(value, [8.0, 9.0])
    # the same session outside the debugger runs the optimized plan: y = x + Const(7)
    metadata = tf.RunMetadata()
    sess.run(y, {x: [1.0, 2.0]}, options=tf.RunOptions(output_partition_graphs=True),
             run_metadata=metadata)
    ops = {n.name: n.op for n in metadata.partition_graphs[0].node}
    assert ops["shifted"] == "Const" and ops["y"] == "AddV2"
    assert not {"two", "three", "scale"} & set(ops)


def test_optimized_on_request(folded_session):
    sess, x, y = folded_session
    debugger = inspector.debug.DebugWrapperSession(sess, optimized=True)
    names, value = stepped_names(debugger.start_run(y, {x: [1.0, 2.0]}))
    assert "two" not in names and "three" not in names
    np.testing.assert_allclose(value, [8.0, 9.0])
