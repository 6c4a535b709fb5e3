"""tf.nn.static_bidirectional_rnn, static_state_saving_rnn, tf.nn.rnn_cell.DeviceWrapper and
tf.nn.raw_rnn, built the same way by real TensorFlow and by the engine (run by
layers_cases.run_case; fixtures in tests/fixtures/rnn/, written by
tools/make_rnn_fixtures.py)."""

from rnn_cases import LENGTHS, STEPS, _flatten


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




def _raw_not_callable(tf):
    tf.nn.raw_rnn(tf.nn.rnn_cell.GRUCell(3), "loop_fn")


class _VariableStateSaver:
    """A state saver over non-trainable variables: state(name) reads one, save_state assigns
    it (what TensorFlow's SequenceQueueingStateSaver does through its queue)."""

    def __init__(self, tf, sizes):
        self._tf = tf
        self._vars = {name: tf.Variable(tf.fill([2, size], 0.125 * (i + 1)), trainable=False,
                                        name=f"saved_{name}")
                      for i, (name, size) in enumerate(sizes.items())}

    def state(self, name):
        return self._vars[name].read_value()

    def save_state(self, name, value):
        return self._tf.assign(self._vars[name], value, name=f"save_{name}")


def _state_saving(tf, cell, saver, state_name):
    inputs = [tf.placeholder(tf.float32, [2, 4], name=f"step{i}") for i in range(3)]
    outputs, state = tf.nn.static_state_saving_rnn(cell, inputs, saver, state_name)
    flat_state = _flatten(state)
    loss = tf.add_n([tf.reduce_sum(o * o) for o in outputs]) + tf.add_n(
        [tf.reduce_mean(s) for s in flat_state])
    out = {f"output{i}": o for i, o in enumerate(outputs)}
    out.update({f"state{i}": s for i, s in enumerate(flat_state)})
    out["loss"] = loss
    variables = tf.trainable_variables()
    names = [v.op.name for v in variables] + ["step0"]
    for name, g in zip(names, tf.gradients(loss, variables + inputs[:1])):
        out["grad:" + name] = g
    return out, {f"step{i}": STEPS[i] for i in range(3)}, [
        tf.train.GradientDescentOptimizer(0.1).minimize(loss)]


def build_state_saving_lstm(tf):
    """static_state_saving_rnn: an LSTM's (c, h) from and to a state saver (the saved values
    are the variables after the update run)."""
    tf.set_random_seed(25)
    saver = _VariableStateSaver(tf, {"c": 3, "h": 3})
    return _state_saving(tf, tf.nn.rnn_cell.BasicLSTMCell(3), saver, ("c", "h"))


def build_state_saving_gru(tf):
    """static_state_saving_rnn: a GRU's one state under one name."""
    tf.set_random_seed(26)
    saver = _VariableStateSaver(tf, {"state": 2})
    return _state_saving(tf, tf.nn.rnn_cell.GRUCell(2), saver, "state")


def _saving_name_kind(tf):
    tf.nn.static_state_saving_rnn(tf.nn.rnn_cell.BasicLSTMCell(3), [tf.zeros([2, 4])], None,
                                  "state")


def _saving_name_count(tf):
    tf.nn.static_state_saving_rnn(tf.nn.rnn_cell.BasicLSTMCell(3), [tf.zeros([2, 4])], None,
                                  ("c", "h", "x"))


def _not_a_cell(tf):
    inputs = [tf.zeros([2, 4])]
    tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.GRUCell(3), "cell", inputs, dtype=tf.float32)


def _no_inputs(tf):
    tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.GRUCell(3), [],
                                   dtype=tf.float32)


def _no_dtype(tf):
    tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.GRUCell(3),
                                   [tf.zeros([2, 4])])


ERRORS = {"not_a_cell": _not_a_cell, "no_inputs": _no_inputs, "no_dtype": _no_dtype,
          "raw_not_callable": _raw_not_callable, "saving_name_kind": _saving_name_kind,
          "saving_name_count": _saving_name_count}


def run_error(tf, name):
    """[error class, message] of the program that must fail."""
    with tf.Graph().as_default():
        try:
            ERRORS[name](tf)
        except (TypeError, ValueError) as error:
            return [type(error).__name__, str(error)]
    raise AssertionError(f"{name} did not fail")


def build_raw_rnn(tf):
    """raw_rnn as TensorFlow's docstring uses it: inputs read from a TensorArray, rows
    finishing at their lengths, an LSTM, the emits stacked; a loss, gradients, an SGD step."""
    tf.set_random_seed(23)
    inputs = tf.placeholder(tf.float32, [3, 2, 4], name="inputs")  # time-major
    lengths = tf.constant(LENGTHS, name="lengths")
    inputs_ta = tf.TensorArray(dtype=tf.float32, size=3).unstack(inputs)
    cell = tf.nn.rnn_cell.BasicLSTMCell(5)

    def loop_fn(time, cell_output, cell_state, loop_state):
        emit_output = cell_output
        if cell_output is None:
            next_cell_state = cell.zero_state(2, tf.float32)
        else:
            next_cell_state = cell_state
        elements_finished = time >= lengths
        finished = tf.reduce_all(elements_finished)
        next_input = tf.cond(finished, lambda: tf.zeros([2, 4], dtype=tf.float32),
                             lambda: inputs_ta.read(time))
        return elements_finished, next_input, next_cell_state, emit_output, None

    outputs_ta, final_state, loop_state = tf.nn.raw_rnn(cell, loop_fn)
    assert loop_state is None
    outputs = outputs_ta.stack()
    flat_state = _flatten(final_state)
    loss = tf.reduce_sum(tf.square(outputs)) + tf.add_n([tf.reduce_mean(s)
                                                          for s in flat_state])
    out = {"outputs": outputs, "loss": loss}
    out.update({f"state{i}": s for i, s in enumerate(flat_state)})
    variables = tf.trainable_variables()
    names = [v.op.name for v in variables] + ["inputs"]
    for name, g in zip(names, tf.gradients(loss, variables + [inputs])):
        out["grad:" + name] = g
    return out, {"inputs": STEPS}, [tf.train.GradientDescentOptimizer(0.1).minimize(loss)]


def build_raw_rnn_emit_and_loop_state(tf):
    """raw_rnn with an emit structure of its own (the output and its sum), a loop state (a
    running total), a GRU over an unknown batch, a named scope, the inputs read from a
    TensorArray in a cond."""
    tf.set_random_seed(24)
    inputs = tf.placeholder(tf.float32, [3, None, 4], name="inputs")
    batch = tf.shape(inputs)[1]
    steps_ta = tf.TensorArray(dtype=tf.float32, size=3).unstack(inputs)
    cell = tf.nn.rnn_cell.GRUCell(3)

    def loop_fn(time, cell_output, cell_state, loop_state):
        if cell_output is None:
            emit = (tf.zeros([3]), tf.zeros([], tf.float32))
            state = cell.zero_state(batch, tf.float32)
            loop_state = tf.constant(0.0)
        else:
            emit = (cell_output, tf.reduce_sum(cell_output, axis=1))
            state = cell_state
            loop_state = loop_state + tf.reduce_sum(cell_output)
        finished = tf.fill([batch], time >= 3)
        next_input = tf.cond(time >= 3, lambda: tf.zeros([batch, 4]),
                             lambda: steps_ta.read(tf.minimum(time, 2)))
        return finished, next_input, state, emit, loop_state

    (outputs_ta, sums_ta), final_state, total = tf.nn.raw_rnn(cell, loop_fn, scope="decoder")
    outputs, sums = outputs_ta.stack(), sums_ta.stack()
    loss = tf.reduce_sum(tf.square(outputs)) + tf.reduce_sum(sums) + total
    out = {"outputs": outputs, "sums": sums, "state": final_state, "total": total,
           "loss": loss}
    variables = tf.trainable_variables()
    names = [v.op.name for v in variables] + ["inputs"]
    for name, g in zip(names, tf.gradients(loss, variables + [inputs])):
        out["grad:" + name] = g
    return out, {"inputs": STEPS}, [tf.train.GradientDescentOptimizer(0.1).minimize(loss)]


CASES = {"static_bidirectional": build_static_bidirectional,
         "static_bidirectional_initial_states": build_static_bidirectional_initial_states,
         "raw_rnn": build_raw_rnn,
         "raw_rnn_emit_and_loop_state": build_raw_rnn_emit_and_loop_state,
         "state_saving_lstm": build_state_saving_lstm,
         "state_saving_gru": build_state_saving_gru}
