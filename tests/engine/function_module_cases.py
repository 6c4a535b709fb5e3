"""tf.function, tf.Module, tf.GradientTape, tf.recompute_grad, tf.grad_pass_through,
tf.variable_creator_scope, tf.vectorized_map and tf.wrap_function in graph mode, built and
run the same way by TensorFlow (tf.compat.v1, v2 behaviour disabled) and the engine. Each
case gives JSON: float32 values as Python floats (exact), names, op types, errors as [class,
message]. Function names keep TensorFlow's form with the process-wide uid replaced by N.
tools/make_function_module_fixtures.py writes TensorFlow's to
tests/fixtures/function_module/cases.json; tests/engine/test_function_module.py compares."""

import re

import numpy as np


def _uid(name):
    return re.sub(r"_\d+", "_N", name.decode() if isinstance(name, bytes) else name)


def _error(call):
    try:
        call()
    except Exception as error:  # noqa: BLE001  (the class and message are compared)
        return [type(error).__name__, str(error).split("\n")[0]]
    return None


def _message(call):
    try:
        call()
    except Exception as error:  # noqa: BLE001
        return str(error)
    return ""


def _values(value):
    return np.asarray(value).tolist() if not isinstance(value, (list, tuple)) else \
        [_values(v) for v in value]


def _library(graph):
    return sorted(_uid(f.signature.name) for f in graph.as_graph_def().library.function)


def call_and_gradient(tf):
    """A plain function: a PartitionedCall, its FunctionDef, tf.gradients through it."""
    with tf.Graph().as_default() as graph:
        @tf.function
        def f(x, y):
            return x * y + 1.0
        x = tf.placeholder(tf.float32, [2], name="x")
        z = f(x, tf.constant([3.0, 4.0]))
        call = [z.name, z.op.type, str(z.shape), _uid(z.op.get_attr("f").name)]
        library = _library(graph)
        fdef = graph.as_graph_def().library.function[0]
        body = [[n.name, n.op, list(n.input)] for n in fdef.node_def]
        grad = tf.gradients(z, x)[0]
        after = [_uid(z.op.get_attr("f").name), len(z.op.outputs), _library(graph)]
        with tf.Session() as sess:
            values = sess.run([z, grad], {x: [1.0, 2.0]})
    return {"call": call, "library": library, "after_gradient": after, "body": body, "ret": dict(fdef.ret),
            "args": [a.name for a in fdef.signature.input_arg],
            "grad": [grad.name, grad.op.type], "values": _values(values)}


def retracing(tf):
    """One trace per new input signature; Python arguments are part of it."""
    with tf.Graph().as_default() as graph:
        @tf.function
        def h(a, n):
            return a * n
        outs = [h(tf.constant(1.0), 2), h(tf.constant(5.0), 2), h(tf.constant(1.0), 3),
                h(tf.constant([1.0, 2.0]), 3)]
        with tf.Session() as sess:
            values = sess.run(outs)
    return {"library": _library(graph), "names": [t.name for t in outs],
            "shapes": [str(t.shape) for t in outs], "values": _values(values)}


def input_signature(tf):
    """input_signature: shapes relaxed, a concrete function's inputs and outputs, the error
    for an argument of another dtype."""
    with tf.Graph().as_default():
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def g(x):
            for _ in range(3):  # plain Python: runs while tracing
                x = x + 1.0
            return tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: x)
        x = tf.placeholder(tf.float32, [4], name="x")
        y = g(x)
        concrete = g.get_concrete_function()
        inputs = [[t.name, str(t.shape)] for t in concrete.inputs]
        outputs = [[t.name, str(t.shape)] for t in concrete.outputs]
        error = _error(lambda: g(tf.constant([1, 2])))
        grad = tf.gradients(y, x)[0]
        with tf.Session() as sess:
            values = sess.run([y, grad], {x: [1.0, -2.0, 3.0, 0.5]})
            negative = sess.run(y, {x: [-9.0, -9.0, 1.0, 1.0]})
    return {"call": [y.name, str(y.shape)], "concrete_name": _uid(concrete.name),
            "inputs": inputs, "outputs": outputs,
            "structured": concrete.structured_outputs.name, "error": error,
            "values": _values(values), "negative": _values(negative),
            "spec": repr(tf.TensorSpec([None, 3], tf.int32, name="ids"))}


def while_loop_inside(tf):
    """tf.while_loop inside a function, nested outputs, gradient through the call."""
    with tf.Graph().as_default():
        @tf.function
        def power(x, n):
            _, result = tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, acc * x),
                                      [tf.constant(0), tf.ones_like(x)])
            return {"power": result, "twice": (result * 2.0, n)}
        x = tf.placeholder(tf.float32, [3], name="x")
        out = power(x, tf.constant(3))
        grad = tf.gradients(out["power"], x)[0]
        with tf.Session() as sess:
            values = sess.run([out["power"], out["twice"][0], out["twice"][1], grad],
                              {x: [1.5, -2.0, 0.5]})
    return {"keys": sorted(out), "values": _values(values),
            "types": [type(out["twice"]).__name__]}


class _Dense:
    """A tf.Module subclass made for the `tf` given (TensorFlow's or the engine's)."""

    @staticmethod
    def make(tf):
        class Dense(tf.Module):
            def __init__(self, n_in, n_out, name=None):
                super().__init__(name=name)
                self.w = tf.Variable(tf.ones([n_in, n_out]) * 0.1, name="w", use_resource=True)
                self.b = tf.Variable(tf.zeros([n_out]), name="b", use_resource=True)

            @tf.function
            def __call__(self, x):
                return tf.matmul(x, self.w) + self.b

        class MLP(tf.Module):
            def __init__(self, name=None):
                super().__init__(name=name)
                with self.name_scope:
                    self.layers = [Dense(3, 4, name="hidden"), Dense(4, 2, name="out")]
                    self.scale = tf.Variable(1.5, name="scale", trainable=False,
                                             use_resource=True)

            @tf.Module.with_name_scope
            def __call__(self, x):
                return self.layers[1](tf.nn.relu(self.layers[0](x))) * self.scale
        return Dense, MLP


def module_tracking(tf):
    """Names, name scopes, variables, trainable variables, submodules; with_name_scope."""
    with tf.Graph().as_default():
        dense_class, mlp_class = _Dense.make(tf)
        mlp = mlp_class()
        second = mlp_class(name="mlp")
        y = mlp(tf.placeholder(tf.float32, [None, 3], name="x"))
        plain = tf.Module()
        return {"name": [mlp.name, mlp.name_scope.name, second.name_scope.name, plain.name],
                "variables": [v.name for v in mlp.variables],
                "trainable": [v.name for v in mlp.trainable_variables],
                "submodules": [m.name for m in mlp.submodules],
                "output": [y.name, y.op.type, str(y.shape)],
                "inputs": [t.name for t in y.op.inputs],
                "dense_default": dense_class(1, 1).name,
                "invalid": _error(lambda: tf.Module(name="not valid"))}


def tape_basics(tf):
    """watch, persistent, nested targets and sources, output_gradients, unconnected."""
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0, 3.0])
        v = tf.Variable([0.5, -1.0, 2.0], name="v", use_resource=True)
        outside = x * 3.0
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x * v
            z = {"a": tf.reduce_sum(y), "b": [y * 2.0]}
            with tape.stop_recording():
                hidden = y * 5.0
            w = hidden + y
            u = outside * x
        grads = [tape.gradient(z, [x, v]),
                 tape.gradient(y, {"x": x}, output_gradients=tf.constant([1.0, 0.5, 0.25])),
                 tape.gradient(w, x),
                 tape.gradient(u, x),
                 tape.gradient(y, [x, outside], unconnected_gradients="zero"),
                 tape.gradient(y, outside)]
        watched = [var.name for var in tape.watched_variables()]
        with tf.GradientTape() as once:
            once.watch(x)
            q = x * x
        once.gradient(q, x)
        second = _error(lambda: once.gradient(q, x))
        with tf.GradientTape() as unwatched:
            r = x * x
        none = unwatched.gradient(r, x)
        with tf.GradientTape(watch_accessed_variables=False) as manual:
            s = v * 3.0
        manual_grad = manual.gradient(s, v)
        ref = tf.Variable(1.0, name="ref")
        with tf.GradientTape() as ref_tape:
            t = ref * 2.0
        ref_error = _error(lambda: ref_tape.gradient(t, [ref]))
        stop_error = _error(lambda: tape.stop_recording().__enter__())
        fetch = [grads[0][0], grads[0][1], grads[1]["x"], grads[2], grads[3], grads[4][0],
                 grads[4][1]]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = sess.run(fetch)
    return {"values": _values(values), "none": [grads[5] is None, none is None,
                                                manual_grad is None],
            "watched": watched, "second": second, "ref_error": ref_error,
            "stop_error": stop_error}


def training_program(tf):
    """A TF1-style program: a tf.Module whose __call__ is a tf.function, a GradientTape, an
    optimizer's apply_gradients, a Session loop; the printed losses."""
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        dense_class, mlp_class = _Dense.make(tf)
        model = mlp_class(name="model")
        inputs = tf.placeholder(tf.float32, [None, 3], name="inputs")
        labels = tf.placeholder(tf.float32, [None, 2], name="labels")
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(inputs) - labels))
        grads = tape.gradient(loss, model.trainable_variables)
        train = tf.train.GradientDescentOptimizer(0.1).apply_gradients(
            zip(grads, model.trainable_variables))
        data = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)
        target = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [1.0, 1.0]], np.float32)
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(6):
                value, _ = sess.run([loss, train], {inputs: data, labels: target})
                losses.append(float(value))
            weights = sess.run(model.trainable_variables)
    return {"losses": losses, "weights": _values(weights),
            "grads": [g.op.type for g in grads]}


def lazy_variables(tf):
    """A variable made on the first call only is lifted out of the function; one made on
    every call is TensorFlow's ValueError."""
    with tf.Graph().as_default():
        class Lazy(tf.Module):
            def __init__(self):
                super().__init__()
                self.v = None

            @tf.function
            def __call__(self, x):
                if self.v is None:
                    self.v = tf.Variable(2.0, name="v")
                self.v.assign_add(1.0)
                return x * self.v.read_value()
        lazy = Lazy()
        out = lazy(tf.constant(3.0))

        @tf.function
        def every_call(x):
            return x * tf.Variable(2.0, name="u")
        error = _error(lambda: every_call(tf.constant(1.0)))
        # TensorFlow's message is autograph's "in user code:" and a stack around this line.
        error = [error[0], "tf.function only supports singleton tf.Variables created on the "
                           "first call" in _message(lambda: every_call(tf.constant(1.0)))]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = [float(sess.run(out)), float(sess.run(out))]
        return {"variables": [v.name for v in tf.global_variables()],
                "call": [out.name, out.op.type], "values": values, "error": error,
                "type": lazy.v.dtype.name}


def gradient_helpers(tf):
    """tf.grad_pass_through, tf.recompute_grad, tf.vectorized_map, tf.wrap_function."""
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        y = tf.grad_pass_through(lambda t: tf.round(t) * 3.0)(x * 1.5)
        g = tf.gradients(y, x)[0]
        z = tf.recompute_grad(lambda t: tf.sin(t) * t)(x)
        gz = tf.gradients(z, x)[0]
        elems = tf.constant([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]])
        vm = tf.vectorized_map(lambda e: tf.reduce_sum(e * e) + e, elems)
        gvm = tf.gradients(vm, elems)[0]
        wrapped = tf.wrap_function(lambda a: a * 2.0 + 1.0, [tf.TensorSpec([2], tf.float32)])
        w = wrapped(x)
        with tf.Session() as sess:
            values = sess.run([y, g, z, gz, vm, gvm, w])
    return {"values": _values(values), "shapes": [str(vm.shape), str(w.shape)],
            "types": [y.op.type, z.op.type]}


def creator_scope(tf):
    """tf.variable_creator_scope: the arguments a creator gets, a creator that changes them."""
    with tf.Graph().as_default():
        seen = []

        def record(next_creator, **kwargs):
            seen.append(sorted(kwargs))
            return next_creator(**kwargs)

        def frozen(next_creator, **kwargs):
            kwargs["trainable"] = False
            kwargs["name"] = "renamed_" + (kwargs["name"] or "var")
            return next_creator(**kwargs)
        with tf.variable_creator_scope(record):
            a = tf.Variable(1.0, name="a")
            with tf.variable_creator_scope(frozen):
                b = tf.get_variable("b", [2])
        return {"seen": seen, "names": [a.name, b.name],
                "trainable": [v.name for v in tf.trainable_variables()]}


def stateful_order_and_nesting(tf):
    """Stateful ops of a body run in program order (automatic control dependencies); a
    function calling functions, and the gradient through both calls."""
    with tf.Graph().as_default() as graph:
        v = tf.Variable(1.0, use_resource=True, name="counter")

        @tf.function
        def step():
            v.assign(10.0)
            v.assign_add(5.0)
            return v.read_value() * 2.0

        @tf.function
        def inner(x):
            return tf.sin(x) * x

        @tf.function
        def outer(x):
            return inner(x) + inner(2.0 * x)
        out = step()
        x = tf.constant([0.5, 1.0])
        y = outer(x)
        library = _library(graph)
        g = tf.gradients(y, x)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = [float(sess.run(out)), float(sess.run(v))] + _values(sess.run([y, g]))
    return {"call": [out.op.type, y.op.type], "library": library, "values": values}


def saved_model_objects(tf):
    """tf.saved_model.SaveOptions (defaults, checks) and tf.saved_model.Asset (its path)."""
    options = tf.saved_model.SaveOptions(namespace_whitelist=["Custom"],
                                         experimental_variable_policy="SAVE_VARIABLE_DEVICES")
    default = tf.saved_model.SaveOptions()
    fields = ["namespace_whitelist", "save_debug_info", "function_aliases",
              "experimental_io_device", "experimental_skip_saver", "extra_tags",
              "experimental_custom_gradients"]
    errors = [_error(lambda: tf.saved_model.SaveOptions(experimental_variable_policy="bad")),
              _error(lambda: tf.saved_model.SaveOptions(namespace_whitelist="Custom")),
              _error(lambda: tf.saved_model.SaveOptions(namespace_whitelist=[3]))]
    with tf.Graph().as_default():
        asset = tf.saved_model.Asset("vocab.txt")
        with tf.Session() as sess:
            value = sess.run(asset.asset_path).decode()
        path = [asset.asset_path.name, asset.asset_path.op.type, asset.asset_path.device,
                value]
    return {"default": [repr(getattr(default, f)) for f in fields],
            "options": [options.namespace_whitelist,
                        str(options.experimental_variable_policy)],
            "policy": str(default.experimental_variable_policy), "errors": errors,
            "asset": path}


def call_conventions(tf):
    """*args, keyword defaults, **kwargs, NumPy arguments, no return value, a returned
    assign, and the error for a returned Operation."""
    with tf.Graph().as_default() as graph:
        v = tf.Variable(1.0, use_resource=True, name="v")

        @tf.function
        def update():
            v.assign_add(1.0)

        @tf.function
        def update_and_read():
            return v.assign_add(10.0)

        @tf.function
        def grouped():
            return tf.group(v.assign_add(1.0))

        @tf.function
        def k(a, *rest, scale=2.0, **kw):
            return a * scale + sum(rest) + kw.get("z", 0.0)

        @tf.function
        def twice(a):
            return a * 2

        none = update()
        read = update_and_read()
        out = k(tf.constant(1.0), tf.constant(2.0), scale=3.0, z=tf.constant(5.0))
        arrays = [twice(np.ones([2], np.float32)), twice(np.zeros([2], np.float32)),
                  twice(np.ones([3], np.float32))]
        message = _message(grouped)
        fdef = [f for f in graph.as_graph_def().library.function
                if "_k_" in f.signature.name][0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = [float(sess.run(read)), float(sess.run(out))] + _values(sess.run(arrays))
    return {"none": none is None, "read": [read.name, read.op.type],
            "args": [a.name for a in fdef.signature.input_arg], "values": values,
            "traces": twice.experimental_get_tracing_count(),
            "error": message.split(" in compilation of")[0],
            "error_end": message.split(">, ")[-1]}


def random_body(tf):
    """A dropout inside a function: the gradient sees the mask the forward call drew."""
    with tf.Graph().as_default():
        tf.set_random_seed(3)

        @tf.function
        def noisy(x):
            return tf.nn.dropout(x * 2.0, rate=0.5, seed=7)
        x = tf.placeholder(tf.float32, [2, 6], name="x")
        y = noisy(x)
        grad = tf.gradients(y, x)[0]
        with tf.Session() as sess:
            first, first_grad = sess.run([y, grad], {x: np.ones([2, 6], np.float32)})
            second = sess.run(y, {x: np.ones([2, 6], np.float32)})
    return {"same_mask": ((first != 0) == (first_grad != 0)).all().item(),
            "values": _values([first, first_grad, second]),
            "call": [y.op.type, grad.op.type, _uid(y.op.get_attr("f").name)]}


def calls_in_control_flow(tf):
    """A function called in a tf.while_loop body, a tf.cond branch and a tf.data map, and
    the gradients through the loop and the cond."""
    with tf.Graph().as_default():
        @tf.function
        def cell(h, x):
            return tf.tanh(h * 0.5 + x * x)
        x = tf.placeholder(tf.float32, [3], name="x")
        _, h = tf.while_loop(lambda i, h: i < 4, lambda i, h: (i + 1, cell(h, x)),
                             [tf.constant(0), tf.zeros([3])])
        g = tf.gradients(h, x)[0]
        c = tf.cond(tf.reduce_sum(x) > 0, lambda: cell(x, x), lambda: x * 3.0)
        gc = tf.gradients(c, x)[0]
        elements = np.arange(6, dtype=np.float32).reshape(3, 2)
        dataset = tf.data.Dataset.from_tensor_slices(elements).map(lambda e: cell(e, e))
        item = tf.data.make_one_shot_iterator(dataset).get_next()
        with tf.Session() as sess:
            values = _values(sess.run([h, g, c, gc], {x: [0.1, -0.2, 0.3]}))
            values += _values(sess.run([c, gc], {x: [-1.0, -0.2, 0.3]}))
            values += [sess.run(item).tolist() for _ in range(3)]
    return {"values": values}


def concrete_function_details(tf):
    """A ConcreteFunction's structured input signature, variables, captures and the
    FunctionDef's attrs (a capture's placeholder is named apart: TensorFlow names it after
    the op that captured it)."""
    with tf.Graph().as_default():
        v = tf.Variable(1.0, use_resource=True, name="scale")

        @tf.function
        def f(x, y=2.0):
            return x * v * y
        concrete = f.get_concrete_function(tf.TensorSpec([None], tf.float32, name="inp"))
        fdef = concrete.function_def
        return {"signature": repr(concrete.structured_input_signature),
                "variables": [x.name for x in concrete.variables],
                "trainable": [x.name for x in concrete.trainable_variables],
                "captured": [t.name for t in concrete.captured_inputs],
                "attr": {k: str(a).strip() for k, a in fdef.attr.items()},
                "arg_attr": {str(k): sorted((name, str(a).replace("\n", " "))
                                            for name, a in value.attr.items())
                             for k, value in fdef.arg_attr.items()},
                "first_input": [concrete.inputs[0].name, str(concrete.inputs[0].shape)]}


def train_step_function(tf):
    """The TF2 training step in a graph: a tf.function holding the GradientTape and Adam's
    apply_gradients (slots and beta powers made on the first call, outside the function),
    returning the loss and an embedding's IndexedSlices gradient."""
    with tf.Graph().as_default():
        class Model(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable([[0.1], [0.2]], use_resource=True, name="w")
                self.emb = tf.Variable(np.arange(12, dtype=np.float32).reshape(6, 2) / 10.0,
                                       use_resource=True, name="emb")

            def __call__(self, ids):
                return tf.matmul(tf.nn.embedding_lookup(self.emb, ids), self.w)
        model = Model()
        opt = tf.train.AdamOptimizer(0.1)

        @tf.function
        def train_step(ids, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(ids) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss, grads[0]
        ids = tf.placeholder(tf.int32, [None], name="ids")
        y = tf.placeholder(tf.float32, [None, 1], name="y")
        loss, slices = train_step(ids, y)
        feed = {ids: [0, 3, 3, 5], y: [[1.0], [0.0], [0.5], [2.0]]}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            losses = [float(sess.run(loss, feed)) for _ in range(4)]
            embedding = sess.run(model.emb).tolist()
        return {"losses": losses, "embedding": embedding,
                "variables": [v.name for v in tf.global_variables()],
                "slices": [type(slices).__name__, slices.values.name, slices.indices.name]}


def relaxed_shapes(tf):
    """reduce_retracing and TF 1.15's experimental_relax_shapes: a second shape traces once
    with the differing dims unknown, a new rank with unknown rank; the traces' argument
    shapes (the calls' output shapes are left out: TensorFlow refines them through the body's
    shape functions, the engine gives the trace's)."""
    with tf.Graph().as_default() as graph:
        traces = []
        for options in ({"reduce_retracing": True}, {"experimental_relax_shapes": True}):
            @tf.function(**options)
            def h(a, b):
                return a * 2.0 + b
            for a in ([1.0], [1.0, 2.0], [1.0, 2.0, 3.0], [[1.0]], [[1.0, 2.0]]):
                h(tf.constant(a), 1.0)
            traces.append(h.experimental_get_tracing_count())
        shapes = sorted(
            [_uid(f.signature.name), [str(tf.TensorShape(a.attr["_output_shapes"].list.shape[0]))
                                      for a in f.arg_attr.values()]]
            for f in graph.as_graph_def().library.function)
    return {"traces": traces, "shapes": shapes}


def tape_jacobians(tf):
    """jacobian (a tensor and a variable as sources, a batch of unknown size) and
    batch_jacobian, and batch_jacobian's error for mismatched batches."""
    with tf.Graph().as_default():
        x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
        v = tf.Variable([0.5, -1.5], use_resource=True, name="v")
        p = tf.placeholder(tf.float32, [None, 3], name="p")
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, p])
            y = tf.sin(x) * v
            q = tf.square(p) * tf.reduce_sum(p, axis=1, keepdims=True)
            r = tf.tanh(tf.matmul(p, tf.ones([3, 2])))
        jacobians = tape.jacobian(y, [x, v])
        unknown = tape.jacobian(q, p)
        batch = tape.batch_jacobian(q, p)
        batch_r = tape.batch_jacobian(r, p)
        error = _error(lambda: tape.batch_jacobian(y, tf.zeros([3, 2])))
        feed = {p: [[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]]}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = _values(sess.run(jacobians + [unknown, batch, batch_r], feed))
    return {"values": values, "error": error,
            "shapes": [str(t.shape) for t in jacobians + [unknown, batch, batch_r]]}


def get_variable_inside(tf):
    """tf.get_variable inside a function: the variable store is the outer graph's, so the
    second trace finds the variable under AUTO_REUSE; tf.layers.dense's second trace meets
    TensorFlow's "already exists" error (inside TensorFlow's autograph text)."""
    with tf.Graph().as_default():
        @tf.function
        def f(x):
            with tf.variable_scope("layer", reuse=tf.AUTO_REUSE):
                w = tf.get_variable("w", [3, 2], initializer=tf.constant_initializer(0.5))
            return tf.matmul(x, w)

        @tf.function
        def dense(x):
            return tf.layers.dense(x, 2, name="d")
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        y = f(x)
        names = [v.name for v in tf.global_variables()]
        message = _message(lambda: dense(x))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            value = _values(sess.run(y, {x: np.ones([1, 3], np.float32)}))
    return {"call": [y.name, str(y.shape)], "variables": names, "value": value,
            "dense_error": "Variable d/kernel already exists, disallowed." in message}


CASES = {name: globals()[name] for name in (
    "call_and_gradient", "retracing", "input_signature", "while_loop_inside",
    "module_tracking", "tape_basics", "training_program", "lazy_variables",
    "gradient_helpers", "creator_scope", "stateful_order_and_nesting",
    "saved_model_objects", "call_conventions", "random_body", "calls_in_control_flow",
    "concrete_function_details", "train_step_function", "relaxed_shapes",
    "tape_jacobians", "get_variable_inside")}
