"""tf.nn.static_bidirectional_rnn and tf.nn.rnn_cell.DeviceWrapper, built the same way by real
TensorFlow and by the engine (run by layers_cases.run_case; fixtures in tests/fixtures/rnn/,
written by tools/make_rnn_fixtures.py)."""

from rnn_cases import STEPS, _flatten


def _bidirectional(tf, cell_fw, cell_bw, **kwargs):
    """The pair over three steps, a loss on outputs and states, gradients, an SGD step."""
    inputs = [tf.placeholder(tf.float32, [None, 4], name=f"step{i}") for i in range(3)]
    outputs, state_fw, state_bw = tf.nn.static_bidirectional_rnn(cell_fw, cell_bw, inputs,
                                                                 **kwargs)
    flat_state = _flatten(state_fw) + _flatten(state_bw)
    loss = tf.add_n([tf.reduce_sum(o * o) for o in outputs]) + tf.add_n(
        [tf.reduce_mean(s) for s in flat_state])
    out = {f"output{i}": o for i, o in enumerate(outputs)}
    out.update({f"state{i}": s for i, s in enumerate(flat_state)})
    out["loss"] = loss
    variables = tf.trainable_variables()
    names = [v.op.name for v in variables] + ["step0", "step2"]
    for name, g in zip(names, tf.gradients(loss, variables + [inputs[0], inputs[2]])):
        out["grad:" + name] = g
    feeds = {f"step{i}": STEPS[i] for i in range(3)}
    return out, feeds, [tf.train.GradientDescentOptimizer(0.1).minimize(loss)]


def build_static_bidirectional(tf):
    """GRU forward, LSTM backward (on a device through DeviceWrapper), zero initial states."""
    tf.set_random_seed(21)
    cell_bw = tf.nn.rnn_cell.DeviceWrapper(tf.nn.rnn_cell.BasicLSTMCell(2), "/cpu:0")
    return _bidirectional(tf, tf.nn.rnn_cell.GRUCell(3), cell_bw, dtype=tf.float32)


def build_static_bidirectional_initial_states(tf):
    """Basic RNN cells both ways from given initial states, in a named scope."""
    tf.set_random_seed(22)
    start_fw = tf.fill([2, 3], 0.5, name="start_fw")
    start_bw = tf.fill([2, 2], -0.25, name="start_bw")
    return _bidirectional(tf, tf.nn.rnn_cell.BasicRNNCell(3), tf.nn.rnn_cell.BasicRNNCell(2),
                          initial_state_fw=start_fw, initial_state_bw=start_bw,
                          scope="encoder")


CASES = {"static_bidirectional": build_static_bidirectional,
         "static_bidirectional_initial_states": build_static_bidirectional_initial_states}


def _not_a_cell(tf):
    inputs = [tf.zeros([2, 4])]
    tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.GRUCell(3), "cell", inputs, dtype=tf.float32)


def _no_inputs(tf):
    tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.GRUCell(3), [],
                                   dtype=tf.float32)


def _no_dtype(tf):
    tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.GRUCell(3),
                                   [tf.zeros([2, 4])])


ERRORS = {"not_a_cell": _not_a_cell, "no_inputs": _no_inputs, "no_dtype": _no_dtype}


def run_error(tf, name):
    """[error class, message] of the program that must fail."""
    with tf.Graph().as_default():
        try:
            ERRORS[name](tf)
        except (TypeError, ValueError) as error:
            return [type(error).__name__, str(error)]
    raise AssertionError(f"{name} did not fail")
