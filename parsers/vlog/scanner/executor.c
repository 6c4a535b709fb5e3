/* Executor trace lines in C: VlogParser._process_line and _done_line where their regex matches. */

#include "scanner.h"

static PyObject *s_nodes, *s_last_line, *s_end_us;

int executor_init(void) {
    s_nodes = PyUnicode_InternFromString("nodes");
    s_last_line = PyUnicode_InternFromString("last_line");
    s_end_us = PyUnicode_InternFromString("end_us");
    return s_nodes && s_last_line && s_end_us ? 0 : -1;
}

/* `(\d+) step (-?\d+) ` at *at: the two numbers, *at moved past them; 0 where they are not
   there or are too long for int64. */
static int id_and_step(const char *raw, Py_ssize_t size, Py_ssize_t *at, int64_t *id,
                       int64_t *step) {
    Py_ssize_t p = *at, digits = p;
    while (p < size && is_digit(raw[p]))
        p++;
    if (p == digits || p - digits > MAX_DIGITS || !starts_with(raw, size, p, LIT(" step ")))
        return 0;
    *id = 0;
    for (Py_ssize_t i = digits; i < p; i++)
        *id = *id * 10 + (raw[i] - '0');
    p += 6;
    int negative = p < size && raw[p] == '-';
    p += negative;
    digits = p;
    while (p < size && is_digit(raw[p]))
        p++;
    if (p == digits || p - digits > MAX_DIGITS || p >= size || raw[p] != ' ')
        return 0;
    *step = 0;
    for (Py_ssize_t i = digits; i < p; i++)
        *step = *step * 10 + (raw[i] - '0');
    if (negative)
        *step = -*step;
    *at = p + 1;
    return 1;
}

static int to_reference_process(Scan *scan, const char *raw, Py_ssize_t size, Py_ssize_t start) {
    PyObject *args[3] = {PyBytes_FromStringAndSize(raw, size), PyLong_FromSsize_t(start),
                         PyLong_FromSsize_t(scan->line_no)};
    return reference(scan->process_line, args, 3);
}

static PyObject *new_execution(PyObject *step, PyObject *device, Py_ssize_t line_no) {
    PyObject *values[E_COUNT] = {Py_NewRef(step), Py_NewRef(device), PyLong_FromSsize_t(line_no)};
    return make_model(&execution_model, values, E_COUNT);
}

/* The thread's int: the last one again where it is the same thread (most lines are). */
static PyObject *thread_number(Scan *scan, AbslHead *head) {
    if (!head->has_thread)
        return Py_NewRef(Py_None);
    if (scan->thread_number == NULL || scan->thread != head->thread) {
        Py_XSETREF(scan->thread_number, PyLong_FromLongLong(head->thread));
        scan->thread = head->thread;
    }
    return Py_XNewRef(scan->thread_number);
}

/* The node of a parsed summary (name, op, inputs, dead, device, attr_text) run at `head`. */
static PyObject *new_node(Scan *scan, PyObject *id, PyObject *summary, AbslHead *head,
                          PyObject *line) {
    PyObject *values[N_COUNT] = {
        Py_NewRef(id), Py_NewRef(PyTuple_GET_ITEM(summary, 0)),
        Py_NewRef(PyTuple_GET_ITEM(summary, 1)), Py_NewRef(PyTuple_GET_ITEM(summary, 2)),
        thread_number(scan, head), PyLong_FromLongLong(head->micros),
        Py_NewRef(PyTuple_GET_ITEM(summary, 3)), Py_NewRef(line), Py_NewRef(Py_None),
        Py_NewRef(PyTuple_GET_ITEM(summary, 5))};
    return make_model(&node_model, values, N_COUNT);
}

/* The node joins the open execution of its (step, device), or starts one: at _SOURCE, every
   executor run starts again. */
static int add_node(Scan *scan, PyObject *summary, PyObject *step, PyObject *id, int64_t node_id,
                    AbslHead *head) {
    PyObject *name = PyTuple_GET_ITEM(summary, 0), *device = PyTuple_GET_ITEM(summary, 4);
    int result = -1;
    PyObject *execution = NULL, *node = NULL, *nodes = NULL, *line = NULL, *pending_key = NULL;
    PyObject *key = PyTuple_Pack(2, step, device);
    if (key == NULL)
        goto done;
    execution = PyDict_GetItemWithError(scan->open, key);
    if (execution == NULL && PyErr_Occurred())
        goto done;
    Py_XINCREF(execution);
    if (execution == NULL || (node_id == 0 && PyUnicode_Check(name) &&
                              PyUnicode_CompareWithASCIIString(name, "_SOURCE") == 0)) {
        Py_XDECREF(execution);
        execution = new_execution(step, device, scan->line_no);
        if (execution == NULL || PyDict_SetItem(scan->open, key, execution) < 0 ||
            PyList_Append(scan->executions, execution) < 0)
            goto done;
    }
    line = PyLong_FromSsize_t(scan->line_no);
    node = line == NULL ? NULL : new_node(scan, id, summary, head, line);
    if (node == NULL)
        goto done;
    nodes = PyObject_GetAttr(execution, s_nodes);
    if (nodes == NULL || PyList_Append(nodes, node) < 0 ||
        PyObject_SetAttr(execution, s_last_line, line) < 0)
        goto done;
    if (PyDict_GET_SIZE(scan->pending) > scan->cache_limit)
        PyDict_Clear(scan->pending);
    pending_key = PyTuple_Pack(2, step, id);
    if (pending_key == NULL || PyDict_SetItem(scan->pending, pending_key, node) < 0)
        goto done;
    result = 0;
done:
    Py_XDECREF(key);
    Py_XDECREF(execution);
    Py_XDECREF(node);
    Py_XDECREF(nodes);
    Py_XDECREF(line);
    Py_XDECREF(pending_key);
    return result;
}

int process_line(Scan *scan, const char *raw, Py_ssize_t size, Py_ssize_t start) {
    AbslHead head;
    int64_t node_id, step;
    if (match_absl_head(raw, size, &head) != 1 ||
        !starts_with(raw, size, head.message, LIT("Process node: ")))
        return to_reference_process(scan, raw, size, start);
    Py_ssize_t rest = head.message + 14;
    if (!id_and_step(raw, size, &rest, &node_id, &step))
        return to_reference_process(scan, raw, size, start);
    PyObject *summary = memo_get(&scan->summaries, raw + rest, size - rest);
    if (summary == NULL && PyErr_Occurred())
        return LINE_ERROR;
    /* A summary not seen before: the reference parses it (or finds it garbled) and caches it. */
    if (summary == NULL || !PyTuple_CheckExact(summary) || PyTuple_GET_SIZE(summary) != 6)
        return to_reference_process(scan, raw, size, start);
    Py_INCREF(summary);
    PyObject *step_number = PyLong_FromLongLong(step), *id_number = PyLong_FromLongLong(node_id);
    int failed = step_number == NULL || id_number == NULL ||
                 add_node(scan, summary, step_number, id_number, node_id, &head) < 0;
    Py_XDECREF(step_number);
    Py_XDECREF(id_number);
    Py_DECREF(summary);
    return failed ? LINE_ERROR : LINE_OK;
}

int done_line(Scan *scan, const char *raw, Py_ssize_t size, Py_ssize_t start) {
    AbslHead head;
    int64_t node_id, step;
    Py_ssize_t at = -1;
    if (match_absl_head(raw, size, &head) == 1) {
        if (starts_with(raw, size, head.message, LIT("Synchronous kernel done: ")))
            at = head.message + 25;
        else if (starts_with(raw, size, head.message, LIT("Async kernel done: ")))
            at = head.message + 19;
    }
    if (at < 0 || !id_and_step(raw, size, &at, &node_id, &step)) {
        PyObject *args[2] = {PyBytes_FromStringAndSize(raw, size), PyLong_FromSsize_t(start)};
        return reference(scan->done_line, args, 2);
    }
    PyObject *step_number = PyLong_FromLongLong(step), *id_number = PyLong_FromLongLong(node_id);
    PyObject *key = step_number && id_number ? PyTuple_Pack(2, step_number, id_number) : NULL;
    Py_XDECREF(step_number);
    Py_XDECREF(id_number);
    if (key == NULL)
        return LINE_ERROR;
    PyObject *node = PyDict_GetItemWithError(scan->pending, key);
    int result = LINE_ERROR;
    if (node == NULL) {
        result = PyErr_Occurred() ? LINE_ERROR : LINE_OK;
    } else {
        Py_INCREF(node);
        PyObject *micros = PyLong_FromLongLong(head.micros);
        if (micros != NULL && PyDict_DelItem(scan->pending, key) == 0 &&
            PyObject_SetAttr(node, s_end_us, micros) == 0)
            result = LINE_OK;
        Py_XDECREF(micros);
        Py_DECREF(node);
    }
    Py_DECREF(key);
    return result;
}
