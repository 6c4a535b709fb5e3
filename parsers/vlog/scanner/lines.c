/* One line in C: the body of VlogParser.feed_lines' loop, its dump, event and label lines.

Each line is told apart exactly as feed_lines tells it apart; where feed_lines would call a
handler (_dump_line, _other_line, ...) for a line this file does not do itself, the handler
itself is called, with the same arguments. */

#include "scanner.h"

PyObject *kinds[K_COUNT];
static PyObject *s_nodes, *s_last_line, *s_complete;

int lines_init(void) {
    static const char *const names[K_COUNT] = {
        "pass", "phase", "dumped_graph", "grappler", "memory", "placement"};
    for (int i = 0; i < K_COUNT; i++)
        if ((kinds[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return -1;
    s_nodes = PyUnicode_InternFromString("nodes");
    s_last_line = PyUnicode_InternFromString("last_line");
    s_complete = PyUnicode_InternFromString("complete");
    return s_nodes && s_last_line && s_complete ? 0 : -1;
}

int reference(PyObject *handler, PyObject **args, Py_ssize_t count) {
    int ready = 1;
    for (Py_ssize_t i = 0; i < count; i++)
        ready &= args[i] != NULL;
    PyObject *verdict = ready ? PyObject_Vectorcall(handler, args, (size_t)count, NULL) : NULL;
    for (Py_ssize_t i = 0; i < count; i++)
        Py_XDECREF(args[i]);
    if (verdict == NULL)
        return LINE_ERROR;
    int ok = PyObject_IsTrue(verdict);
    Py_DECREF(verdict);
    return ok < 0 ? LINE_ERROR : ok ? LINE_OK : LINE_UNPARSED;
}

int add_count(PyObject *counts, PyObject *kind, Py_ssize_t count) {
    PyObject *seen = PyDict_GetItemWithError(counts, kind);
    if (seen == NULL && PyErr_Occurred())
        return -1;
    PyObject *more = PyLong_FromSsize_t(count);
    PyObject *total = more == NULL ? NULL
                    : seen == NULL ? Py_NewRef(more) : PyNumber_Add(seen, more);
    Py_XDECREF(more);
    if (total == NULL)
        return -1;
    int failed = PyDict_SetItem(counts, kind, total);
    Py_DECREF(total);
    return failed;
}

/* An event line: kept as (kind, line number, raw line), or counted. */
static int event(Scan *scan, int kind, const char *raw, Py_ssize_t size) {
    if (scan->event_rows == NULL)
        return add_count(scan->counts, kinds[kind], 1) < 0 ? LINE_ERROR : LINE_OK;
    PyObject *row = Py_BuildValue("(Ony#)", kinds[kind], scan->line_no, raw, size);
    if (row == NULL)
        return LINE_ERROR;
    int failed = PyList_Append(scan->event_rows, row);
    Py_DECREF(row);
    return failed ? LINE_ERROR : LINE_OK;
}

/* The thread id in a prefix's `<thread> <source>` part (bytes), else None: reader._thread_key. */
static PyObject *thread_key(const char *key, Py_ssize_t size) {
    Py_ssize_t parts = 0, first_at = 0, first_end = 0, at = 0;
    while (at < size) {
        while (at < size && is_space((unsigned char)key[at]))
            at++;
        if (at == size)
            break;
        Py_ssize_t word = at;
        while (at < size && !is_space((unsigned char)key[at]))
            at++;
        if (parts++ == 0) {
            first_at = word;
            first_end = at;
        }
    }
    if (parts != 2)
        Py_RETURN_NONE;
    for (Py_ssize_t i = first_at; i < first_end; i++)
        if (!is_digit(key[i]))
            Py_RETURN_NONE;
    return PyBytes_FromStringAndSize(key + first_at, first_end - first_at);
}

/* ---- graph dumps ---------------------------------------------------------------------- */

static int node_seen_before(Scan *scan, PyObject *block, const char *raw, Py_ssize_t size,
                            Py_ssize_t start, PyObject *key) {
    Py_ssize_t text = start + 5 < size ? start + 5 : size;
    PyObject *node = memo_get(&scan->dump_nodes, raw + text, size - text);
    if (node == NULL) {
        if (PyErr_Occurred())
            return LINE_ERROR;
        PyObject *args[4] = {PyBytes_FromStringAndSize(raw, size), PyLong_FromSsize_t(start),
                             Py_NewRef(key), PyLong_FromSsize_t(scan->line_no)};
        return reference(scan->dump_line, args, 4);
    }
    PyObject *nodes = PyObject_GetAttr(block, s_nodes);
    PyObject *line = PyLong_FromSsize_t(scan->line_no);
    int ok = nodes != NULL && line != NULL && PyList_Append(nodes, node) == 0 &&
             PyObject_SetAttr(block, s_last_line, line) == 0;
    Py_XDECREF(nodes);
    Py_XDECREF(line);
    return ok ? LINE_OK : LINE_ERROR;
}

static int block_end(Scan *scan, PyObject *block, PyObject *key) {
    Py_INCREF(block);
    PyObject *line = PyLong_FromSsize_t(scan->line_no);
    int result = LINE_ERROR;
    if (line != NULL && PyDict_DelItem(scan->blocks, key) == 0 &&
        PyObject_SetAttr(block, s_complete, Py_True) == 0 &&
        PyObject_SetAttr(block, s_last_line, line) == 0) {
        PyObject *reported = scan->on_graph == NULL ? Py_NewRef(Py_None)
                                                    : PyObject_CallOneArg(scan->on_graph, block);
        if (reported != NULL) {
            Py_DECREF(reported);
            result = LINE_OK;
        }
    }
    Py_XDECREF(line);
    Py_DECREF(block);
    return result;
}

static PyObject *pop(PyObject *dict, PyObject *key) {
    PyObject *value = PyDict_GetItemWithError(dict, key);
    if (value == NULL)
        return NULL;
    Py_INCREF(value);
    if (PyDict_DelItem(dict, key) < 0)
        Py_CLEAR(value);
    return value;
}

/* A block's header, `(args) -> (rets) {` or `name[..](args) -> (outs) {`, whose text was
   parsed before (parser._header_cache): the block it opens, as _dump_line opens it. */
static int block_header(Scan *scan, PyObject *header, PyObject *key) {
    PyObject *cut = pop(scan->blocks, key);
    PyObject *line = NULL, *thread = NULL, *label = NULL, *block = NULL;
    int result = LINE_ERROR;
    if (cut == NULL && PyErr_Occurred())
        goto done;
    if (cut != NULL && scan->on_graph != NULL) {  /* a block cut short by a new one */
        PyObject *reported = PyObject_CallOneArg(scan->on_graph, cut);
        if (reported == NULL)
            goto done;
        Py_DECREF(reported);
    }
    thread = thread_key(PyBytes_AS_STRING(key), PyBytes_GET_SIZE(key));
    label = thread == NULL ? NULL : pop(scan->labels, thread);
    if (label == NULL && !PyErr_Occurred())
        label = PyUnicode_New(0, 0);
    line = PyLong_FromSsize_t(scan->line_no);
    if (label == NULL || line == NULL)
        goto done;
    PyObject *values[D_COUNT] = {
        Py_NewRef(label), Py_NewRef(line), Py_NewRef(PyTuple_GET_ITEM(header, 0)),
        Py_NewRef(PyTuple_GET_ITEM(header, 1)), PySequence_List(PyTuple_GET_ITEM(header, 2)),
        PySequence_List(PyTuple_GET_ITEM(header, 3)), Py_NewRef(line),
        thread == Py_None ? Py_NewRef(Py_None) : PyNumber_Long(thread)};
    block = make_model(&dump_model, values, D_COUNT);
    if (block != NULL && PyDict_SetItem(scan->blocks, key, block) == 0 &&
        PyList_Append(scan->graphs, block) == 0)
        result = LINE_OK;
done:
    Py_XDECREF(cut);
    Py_XDECREF(thread);
    Py_XDECREF(label);
    Py_XDECREF(line);
    Py_XDECREF(block);
    return result;
}

/* A `||` line at `start`, its block keyed by raw[key_start:end]: as _dump_line for node lines
   and headers parsed before, block ends and blank lines; the rest goes to _dump_line. */
static int dump_line(Scan *scan, const char *raw, Py_ssize_t size, Py_ssize_t key_start,
                     Py_ssize_t end, Py_ssize_t start) {
    Py_ssize_t body = (start + 2 < size && raw[start + 2] == ' ') ? start + 3 : start + 2;
    Py_ssize_t body_end = size;
    while (body_end > body && (raw[body_end - 1] == '\n' || raw[body_end - 1] == '\r'))
        body_end--;
    int is_node = body_end - body >= 2 && raw[body] == ' ' && raw[body + 1] == ' ';
    int is_end = body_end - body == 1 && raw[body] == '}';
    int is_blank = !is_node && !is_end;
    for (Py_ssize_t at = body; is_blank && at < body_end; at++)
        is_blank = is_space((unsigned char)raw[at]);
    if (is_blank)
        return LINE_OK;
    PyObject *key = PyBytes_FromStringAndSize(raw + key_start, end - key_start);
    if (key == NULL)
        return LINE_ERROR;
    int result;
    if (is_node || is_end) {
        PyObject *block = PyDict_GetItemWithError(scan->blocks, key);
        if (block == NULL)
            result = PyErr_Occurred() ? LINE_ERROR : LINE_UNPARSED;
        else if (is_node)
            result = node_seen_before(scan, block, raw, size, start, key);
        else
            result = block_end(scan, block, key);
    } else {
        PyObject *header = raw[body_end - 1] != '{' ? NULL
                           : memo_get(&scan->headers, raw + body, body_end - body);
        if (header != NULL && PyTuple_CheckExact(header) && PyTuple_GET_SIZE(header) == 4) {
            Py_INCREF(header);
            result = block_header(scan, header, key);
            Py_DECREF(header);
        } else if (PyErr_Occurred()) {
            result = LINE_ERROR;
        } else {
            PyObject *args[4] = {PyBytes_FromStringAndSize(raw, size), PyLong_FromSsize_t(start),
                                 Py_NewRef(key), PyLong_FromSsize_t(scan->line_no)};
            result = reference(scan->dump_line, args, 4);
        }
    }
    Py_DECREF(key);
    return result;
}

/* ---- everything else ------------------------------------------------------------------ */

/* What str.strip() strips, within ASCII. */
static int is_str_space(unsigned char c) {
    return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20);
}

/* `Graph <label> #nodes ...`: the label of this thread's next block, where it is ASCII (the
   rest is decoded and stripped by Python). 0 done, 1 for Python, -1 error. */
static int label(Scan *scan, const char *raw, Py_ssize_t key_start, Py_ssize_t end,
                 Py_ssize_t label_at, Py_ssize_t label_end) {
    for (Py_ssize_t at = label_at; at < label_end; at++)
        if ((unsigned char)raw[at] >= 0x80)
            return 1;
    while (label_at < label_end && is_str_space((unsigned char)raw[label_at]))
        label_at++;
    while (label_end > label_at && is_str_space((unsigned char)raw[label_end - 1]))
        label_end--;
    if (label_end <= label_at)
        return 0;
    PyObject *thread = thread_key(raw + key_start, end - key_start);
    PyObject *text = PyUnicode_DecodeASCII(raw + label_at, label_end - label_at, NULL);
    int failed = thread == NULL || text == NULL || PyDict_SetItem(scan->labels, thread, text) < 0;
    Py_XDECREF(thread);
    Py_XDECREF(text);
    return failed ? -1 : 0;
}

/* events.classify: the event kind, -1 for none, or -2 where Python's PLACEMENT_1X decides. */
static int classify(const char *raw, Py_ssize_t size, Py_ssize_t start) {
    if (starts_with(raw, size, start, LIT("Running optimization pass: ")))
        return K_PASS;
    if (starts_with(raw, size, start, LIT("Running optimization phase ")))
        return K_PHASE;
    if (starts_with(raw, size, start, LIT("Dumped Graph to ")))
        return K_DUMPED;
    if (starts_with(raw, size, start, LIT("Optimization results for grappler item: ")))
        return K_GRAPPLER;
    if (starts_with(raw, size, start, LIT("__LOG_MEMORY__ ")))
        return K_MEMORY;
    if (find_in(raw, start, size, LIT("Graph size after: ")) >= 0)
        return K_GRAPPLER;
    if (find_in(raw, start, size, LIT(") placed on: ")) >= 0)
        return K_PLACEMENT;
    if (find_in(raw, start, size, LIT("): /")) >= 0)
        return -2;
    return -1;
}

/* As VlogParser._other_line: labels, events, and lines with nothing to keep. */
static int other_line(Scan *scan, const char *raw, Py_ssize_t size, Py_ssize_t key_start,
                      Py_ssize_t end, Py_ssize_t start) {
    int to_python = 0;
    if (starts_with(raw, size, start, LIT("Graph "))) {
        Py_ssize_t nodes_at = find_in(raw, start, size, LIT(" #nodes "));
        if (nodes_at > 0) {
            to_python = label(scan, raw, key_start, end, start + 6, nodes_at);
            if (to_python <= 0)
                return to_python < 0 ? LINE_ERROR : LINE_OK;
        }
    } else if (starts_with(raw, size, start, LIT("Instantiate function definition: name="))) {
        to_python = 1;
    }
    int kind = to_python ? -2 : classify(raw, size, start);
    if (kind == -2) {
        PyObject *args[5] = {PyBytes_FromStringAndSize(raw, size), PyLong_FromSsize_t(start),
                             PyLong_FromSsize_t(key_start), PyLong_FromSsize_t(end),
                             PyLong_FromSsize_t(scan->line_no)};
        return reference(scan->other_line, args, 5);
    }
    return kind >= 0 ? event(scan, kind, raw, size) : LINE_OK;
}

int scan_line(Scan *scan, const char *raw, Py_ssize_t size) {
    unsigned char first = (unsigned char)raw[0];
    /* Where the (thread, source) part of the prefix starts, and where "] " ends it. */
    Py_ssize_t key_start = -1;
    if (is_severity(first) && size > 20 && raw[5] == ' ')
        key_start = find_in(raw, 6, size, " ", 1);
    else if (is_digit(first) && size > 30 && raw[4] == '-')
        key_start = find_in(raw, 19, size, ": ", 2) + 1;
    Py_ssize_t end = key_start > 0 ? find_in(raw, key_start, size, "] ", 2) : -1;
    if (end < 0) {
        if (first == '|' && size >= 2 && raw[1] == '|') {
            PyObject *args[4] = {PyBytes_FromStringAndSize(raw, size), PyLong_FromLong(0),
                                 Py_NewRef(Py_None), PyLong_FromSsize_t(scan->line_no)};
            return reference(scan->dump_line, args, 4);
        }
        if (find_in(raw, 0, size, LIT("Graph size after: ")) >= 0)
            return event(scan, K_GRAPPLER, raw, size);
        if ((is_severity(first) || is_digit(first)) && is_log_line(raw, size))
            return LINE_OK;  /* a log line with an empty message */
        for (Py_ssize_t at = 0; at < size; at++)
            if (!is_space((unsigned char)raw[at]))
                return LINE_UNPARSED;
        return LINE_OK;
    }
    Py_ssize_t start = end + 2;
    if (starts_with(raw, size, start, "||", 2))
        return dump_line(scan, raw, size, key_start, end, start);
    if (starts_with(raw, size, start, LIT("__LOG_MEMORY__ "))) {
        if (scan->event_rows != NULL)
            return event(scan, K_MEMORY, raw, size);
        scan->memory_lines++;  /* added to the counts once, at the end, as feed_lines does */
        return LINE_OK;
    }
    if (starts_with(raw, size, start, LIT("Process node: ")))
        return process_line(scan, raw, size, start);
    if ((starts_with(raw, size, start, "Sy", 2) || starts_with(raw, size, start, "As", 2)) &&
        find_in(raw, start, start + 26 < size ? start + 26 : size, LIT("kernel done: ")) > 0)
        return done_line(scan, raw, size, start);
    return other_line(scan, raw, size, key_start, end, start);
}
