"""tf.CriticalSection uses, replayed on TensorFlow 2.21 (tools/make_critical_section_fixtures.py)
and on the engine (tests/engine/test_critical_section.py): each entry of what `replay` returns
is a graph's nodes, what runs gave, or the error class and message a build or run raised.

TensorFlow promises that a section's executes run one at a time, not in which order, so
the values several executes of one run give are recorded sorted."""

import threading
import time

import numpy as np

from tests.engine.accumulator_cases import kernel_message

THREADS, RUNS_PER_THREAD = 4, 25


def _nodes(graph, prefixes=None):
    """[name, op, inputs, {attr: text}] of the graph's nodes (those under `prefixes`)."""
    nodes = []
    for node in graph.as_graph_def().node:
        if prefixes and not node.name.startswith(prefixes):
            continue
        attrs = {key: str(value).strip() for key, value in sorted(node.attr.items())}
        nodes.append([node.name, node.op, list(node.input), attrs])
    return nodes


def _plain(value):
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if value is None:
        return None
    return np.asarray(value).tolist()


def _error(call):
    try:
        call()
    except Exception as error:  # noqa: BLE001  (the class and words are what is recorded)
        message = getattr(error, "message", None)
        return [type(error).__name__, kernel_message(message) if message else str(error)]
    return None


def _counter(tf, v):
    """TensorFlow's own example: the value before an increment, the increment atomic."""
    def count():
        value = v.read_value()
        with tf.control_dependencies([value]):
            with tf.control_dependencies([v.assign_add(1)]):
                return tf.identity(value)
    return count


def _slowly(tf, value, seconds, started=None):
    """`value` after a sleep of `seconds` in Python (a py_func), which lets other threads'
    runs in between; `started` (a threading.Event) is set when the sleep begins."""
    def wait(array):
        if started is not None:
            started.set()
        time.sleep(seconds)
        return array
    return tf.py_func(wait, [value], value.dtype, stateful=True)


def _read_modify_write(tf, v, seconds=0.002, started=None):
    """v = v + 1 as a read, a wait and a separate assign: updates get lost without the
    section."""
    def bump():
        value = v.read_value()
        with tf.control_dependencies([v.assign(_slowly(tf, value, seconds, started) + 1)]):
            return tf.identity(value)
    return bump


def counter_in_one_run(tf, log):
    graph = tf.Graph()
    with graph.as_default():
        v = tf.get_variable("v", initializer=0, use_resource=True)
        cs = tf.CriticalSection(name="cs")
        outs = [cs.execute(_counter(tf, v)) for _ in range(3)]
        log["counter_names"] = [cs.name, [out.name for out in outs],
                                [str(out.shape) for out in outs], list(cs._signature)]
        log["counter_graph"] = _nodes(graph)
        with tf.Session() as sess:
            sess.run(v.initializer)
            log["counter_run_1"] = sorted(_plain(sess.run(outs)))
            log["counter_run_2"] = sorted(_plain(sess.run(outs)))
            log["counter_value"] = _plain(sess.run(v))


def counter_from_threads(tf, log):
    graph = tf.Graph()
    with graph.as_default():
        v = tf.get_variable("v", initializer=0, use_resource=True)
        cs = tf.CriticalSection(shared_name="counter")
        out = cs.execute(_read_modify_write(tf, v))
        seen, failures = [], []
        with tf.Session() as sess:
            sess.run(v.initializer)

            def work():
                try:
                    for _ in range(RUNS_PER_THREAD):
                        seen.append(int(sess.run(out)))
                except Exception as error:  # noqa: BLE001
                    failures.append(repr(error))
            threads = [threading.Thread(target=work) for _ in range(THREADS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            log["threads_value"] = _plain(sess.run(v))
        log["threads_seen_each_once"] = sorted(seen) == list(range(THREADS * RUNS_PER_THREAD))
        log["threads_failures"] = failures


def deadline_while_held(tf, log):
    """A run waiting for a section another thread's run holds fails at its deadline."""
    graph = tf.Graph()
    with graph.as_default():
        v = tf.get_variable("v", initializer=0, use_resource=True)
        cs = tf.CriticalSection(name="cs")
        holding = threading.Event()
        slow = cs.execute(_read_modify_write(tf, v, seconds=1.0, started=holding))
        quick = cs.execute(lambda: v.read_value())
        with tf.Session() as sess:
            sess.run(v.initializer)
            holder = threading.Thread(target=sess.run, args=(slow,))
            holder.start()
            holding.wait(60)  # the other run is inside the section
            options = tf.RunOptions(timeout_in_ms=100)
            log["deadline_error"] = _error(lambda: sess.run(quick, options=options))[0]
            holder.join()
            log["deadline_then"] = _plain(sess.run(quick))


def structures_and_ops(tf, log):
    graph = tf.Graph()
    with graph.as_default():
        v = tf.get_variable("w", initializer=1.5, use_resource=True)
        x = tf.placeholder(tf.float32, [2], name="x")
        cs = tf.CriticalSection(name="section")

        def fn():
            read = v.read_value()
            return {"sum": read + x, "pair": (x * 2.0, tf.constant(3))}
        out = cs.execute(fn, name="nested")
        update = cs.execute(lambda: v.assign_add(1.0).op, name="as_op")
        log["structure_names"] = _plain({key: str(value) for key, value in {
            "sum": out["sum"].name, "pair0": out["pair"][0].name,
            "pair1": out["pair"][1].name, "update": update.name,
            "update_type": update.type}.items()})
        log["structure_graph"] = _nodes(graph, ("section", "nested", "as_op"))
        with tf.Session() as sess:
            sess.run(v.initializer)
            log["structure_run"] = _plain(sess.run(out, {x: [1.0, 2.0]}))
            sess.run(update)
            log["structure_after_update"] = _plain(sess.run(out, {x: [0.0, 0.0]}))


def lock_nobody_consumes(tf, log):
    """Targets inside the sections only: no ConsumeMutexLock runs, each lock dies where it
    is made."""
    graph = tf.Graph()
    with graph.as_default():
        v = tf.get_variable("v", initializer=0, use_resource=True)
        cs = tf.CriticalSection(name="cs")
        adds = []

        def add():
            op = v.assign_add(5)
            adds.append(op)
            return op
        cs.execute(add)
        cs.execute(add)
        with tf.Session() as sess:
            sess.run(v.initializer)
            sess.run(adds)
            sess.run(adds)
            log["unconsumed_value"] = _plain(sess.run(v))


def failing_section(tf, log):
    """A run failing inside a section leaves the section usable."""
    graph = tf.Graph()
    with graph.as_default():
        v = tf.get_variable("v", initializer=1.0, use_resource=True)
        fail = tf.placeholder(tf.bool, [], name="fail")
        cs = tf.CriticalSection(name="cs")

        def fn():
            value = v.read_value()
            checked = tf.debugging.check_numerics(
                tf.where(fail, value / 0.0, value), "section value")
            with tf.control_dependencies([checked]):
                with tf.control_dependencies([v.assign_add(1.0)]):
                    return tf.identity(checked)
        out = cs.execute(fn)
        with tf.Session() as sess:
            sess.run(v.initializer)
            log["failing_error"] = _error(lambda: sess.run(out, {fail: True}))
            log["failing_then"] = _plain(sess.run(out, {fail: False}))
            log["failing_value"] = _plain(sess.run(v))


def sections_in_a_loop(tf, log):
    graph = tf.Graph()
    with graph.as_default():
        v = tf.get_variable("v", initializer=0, use_resource=True)
        cs = tf.CriticalSection(name="cs")

        def body(i, total):
            got = cs.execute(_counter(tf, v))
            return i + 1, total + got
        _, total = tf.while_loop(lambda i, total: i < 4, body, [0, 0])
        with tf.Session() as sess:
            sess.run(v.initializer)
            log["loop_total"] = _plain(sess.run(total))
            log["loop_value"] = _plain(sess.run(v))


def build_errors(tf, log):
    def two_sections(first_exclusive, second_exclusive):
        def build():
            with tf.Graph().as_default():
                v = tf.get_variable("v", initializer=0, use_resource=True)
                one, two = tf.CriticalSection(name="one"), tf.CriticalSection(name="two")
                one.execute(_counter(tf, v), exclusive_resource_access=first_exclusive)
                two.execute(_counter(tf, v), exclusive_resource_access=second_exclusive)
        return build
    log["error_both_exclusive"] = _error(two_sections(True, True))
    log["error_first_exclusive"] = _error(two_sections(True, False))
    log["error_second_exclusive"] = _error(two_sections(False, True))
    log["error_neither_exclusive"] = _error(two_sections(False, False))

    def section_and_plain_use():
        with tf.Graph().as_default():
            v = tf.get_variable("v", initializer=0, use_resource=True)
            tf.CriticalSection(name="one").execute(_counter(tf, v))
            v.assign_add(2)
    log["error_section_and_plain_use"] = _error(section_and_plain_use)

    def nested_same_section():
        with tf.Graph().as_default():
            cs = tf.CriticalSection(name="cs")
            cs.execute(lambda: cs.execute(lambda: tf.constant(1)))
    log["error_nested_execute"] = _error(nested_same_section)

    def nested_same_shared_name():
        with tf.Graph().as_default():
            outer, inner = tf.CriticalSection(shared_name="s"), tf.CriticalSection(shared_name="s")
            outer.execute(lambda: inner.execute(lambda: tf.constant(1)))
    log["error_nested_shared_name"] = _error(nested_same_shared_name)

    def nested_other_section():
        with tf.Graph().as_default():
            outer, inner = tf.CriticalSection(name="a"), tf.CriticalSection(name="b")
            return outer.execute(lambda: inner.execute(lambda: tf.constant(1)))
    log["error_nested_other_section"] = _error(nested_other_section)

    def reads_own_handle():
        with tf.Graph().as_default():
            cs = tf.CriticalSection(name="cs")
            cs.execute(lambda: tf.identity(cs._handle))
    log["error_reads_own_handle"] = _error(reads_own_handle)

    def with_def():
        tf.CriticalSection(name="cs", critical_section_def="def")
    log["error_def_and_name"] = _error(with_def)
    log["error_def"] = _error(lambda: tf.CriticalSection(critical_section_def="def"))


def replay(tf):
    log = {}
    for case in (counter_in_one_run, counter_from_threads, deadline_while_held,
                 structures_and_ops,
                 lock_nobody_consumes, failing_section, sections_in_a_loop, build_errors):
        case(tf, log)
    return log
