/* parsers.vlog._scanner: VlogParser.feed_lines in C, over buffers of a log's bytes.

A Reader(parser, max_line, cache_limit) reads the lines of the buffers it is fed into the
parser's own state (its dicts of open blocks, caches, open executions and pending nodes, its
log's lists) as feed_lines would. It does itself what most lines of a log are: node lines of
a dump whose text was parsed before, block ends, Process node and kernel done lines whose
summary was parsed before, memory, event and label lines, lines that are no log line. For any
other line (the first of each distinct node or summary text, block headers, 1.x executor
lines, anything unusual) it calls the handler feed_lines would call (parser._dump_line,
_process_line, _done_line, _other_line), which parses and caches it: both work on the same
state, line by line, so the VlogLog is the reference's. feed() returns -1 where a line is
longer than max_line: the caller then reads the file again the reference way, whose bounded
reader decides what that means. */

#include "scanner.h"

static PyObject *s_line, *s_unparsed;

/* ---- one feed() ------------------------------------------------------------------------ */

static PyObject *attribute(PyObject *object, const char *name) {
    return object == NULL ? NULL : PyObject_GetAttrString(object, name);
}

static void close_scan(Scan *scan) {
    PyObject **owned[] = {&scan->parser, &scan->blocks, &scan->labels, &scan->open,
                          &scan->pending, &scan->node_cache, &scan->process_cache,
                          &scan->header_cache, &scan->dump_line, &scan->process_line,
                          &scan->done_line, &scan->other_line, &scan->graphs, &scan->executions,
                          &scan->event_rows, &scan->counts, &scan->on_graph};
    for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++)
        Py_CLEAR(*owned[i]);
    memo_free(&scan->summaries);
    memo_free(&scan->dump_nodes);
    memo_free(&scan->headers);
    Py_CLEAR(scan->thread_number);
}

static int open_scan(Scan *scan, PyObject *parser) {
    memset(scan, 0, sizeof(*scan));
    scan->parser = Py_NewRef(parser);
    PyObject *log = attribute(parser, "log"), *keep = attribute(parser, "keep_events");
    PyObject *on_graph = attribute(parser, "on_graph"), *line = PyObject_GetAttr(parser, s_line);
    int keep_events = keep == NULL ? -1 : PyObject_IsTrue(keep);
    scan->blocks = attribute(parser, "_blocks");
    scan->labels = attribute(parser, "_labels");
    scan->open = attribute(parser, "_open");
    scan->pending = attribute(parser, "_pending");
    scan->node_cache = attribute(parser, "_node_cache");
    scan->process_cache = attribute(parser, "_process_cache");
    scan->dump_line = attribute(parser, "_dump_line");
    scan->process_line = attribute(parser, "_process_line");
    scan->done_line = attribute(parser, "_done_line");
    scan->other_line = attribute(parser, "_other_line");
    scan->executions = attribute(log, "executions");
    scan->graphs = attribute(log, "graphs");
    if (keep_events == 1)
        scan->event_rows = attribute(log, "event_rows");
    else if (keep_events == 0) {
        PyObject *sink = attribute(parser, "_event_sink");
        scan->counts = attribute(sink, "counts");
        Py_XDECREF(sink);
    }
    scan->on_graph = on_graph == NULL || on_graph == Py_None ? NULL : Py_NewRef(on_graph);
    scan->line_no = line == NULL ? -1 : PyLong_AsSsize_t(line);
    scan->summaries.dict = scan->process_cache;
    scan->dump_nodes.dict = scan->node_cache;
    scan->header_cache = attribute(parser, "_header_cache");
    scan->headers.dict = scan->header_cache;
    PyObject *dicts[] = {scan->blocks, scan->labels, scan->open, scan->pending,
                         scan->node_cache, scan->process_cache, scan->header_cache};
    PyObject *lists[] = {scan->graphs, scan->executions,
                         keep_events ? scan->event_rows : scan->counts};
    int ok = !PyErr_Occurred() && scan->line_no >= 0 && scan->dump_line && scan->process_line &&
             scan->done_line && scan->other_line;
    for (size_t i = 0; ok && i < sizeof(dicts) / sizeof(dicts[0]); i++)
        ok = dicts[i] != NULL && PyDict_CheckExact(dicts[i]);
    for (size_t i = 0; ok && i < 2; i++)
        ok = lists[i] != NULL && PyList_Check(lists[i]);
    ok = ok && lists[2] != NULL && (keep_events ? PyList_Check(lists[2]) : PyDict_Check(lists[2]));
    Py_XDECREF(log);
    Py_XDECREF(keep);
    Py_XDECREF(on_graph);
    Py_XDECREF(line);
    if (!ok && !PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "feed: not a VlogParser");
    return ok ? 0 : -1;
}

/* What feed_lines does in its `finally`: the line count, the unparsed count, memory lines. */
static int settle(Scan *scan) {
    PyObject *line = PyLong_FromSsize_t(scan->line_no);
    int failed = line == NULL || PyObject_SetAttr(scan->parser, s_line, line) < 0;
    Py_XDECREF(line);
    if (!failed && scan->unparsed) {
        PyObject *before = PyObject_GetAttr(scan->parser, s_unparsed);
        PyObject *more = PyLong_FromSsize_t(scan->unparsed);
        PyObject *after = before && more ? PyNumber_Add(before, more) : NULL;
        failed = after == NULL || PyObject_SetAttr(scan->parser, s_unparsed, after) < 0;
        Py_XDECREF(before);
        Py_XDECREF(more);
        Py_XDECREF(after);
    }
    if (!failed && scan->memory_lines)
        failed = add_count(scan->counts, kinds[K_MEMORY], scan->memory_lines) < 0;
    return failed ? -1 : 0;
}

/* A Reader: one log read through one VlogParser, a buffer of lines at a time. */
typedef struct {
    PyObject_HEAD
    Scan scan;
    Py_ssize_t max_line;
    int ready;  /* open_scan succeeded, close() not called yet */
} Reader;

static int reader_init(Reader *self, PyObject *args, PyObject *kwargs) {
    PyObject *parser;
    Py_ssize_t max_line, cache_limit;
    static char *keywords[] = {"parser", "max_line", "cache_limit", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Onn", keywords, &parser, &max_line,
                                     &cache_limit))
        return -1;
    if (node_model.type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Reader before bind");
        return -1;
    }
    if (self->ready)
        close_scan(&self->scan);
    self->ready = 0;
    if (open_scan(&self->scan, parser) < 0) {
        close_scan(&self->scan);
        return -1;
    }
    self->scan.cache_limit = cache_limit;
    self->max_line = max_line;
    self->ready = 1;
    return 0;
}

static void reader_dealloc(Reader *self) {
    if (self->ready)
        close_scan(&self->scan);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* feed(buffer, length, final): the lines of buffer[:length]; an unfinished last line is left
   for the next call unless `final`. How many bytes were read, or -1 (nothing more read)
   where a line is longer than max_line. */
static PyObject *reader_feed(Reader *self, PyObject *args) {
    PyObject *buffer;
    Py_ssize_t length;
    int final;
    if (!PyArg_ParseTuple(args, "Onp", &buffer, &length, &final))
        return NULL;
    if (!self->ready)
        return PyErr_Format(PyExc_ValueError, "feed on a closed Reader");
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *result = NULL;
    Scan *scan = &self->scan;
    const char *data = view.buf;
    Py_ssize_t at = 0;
    if (length < 0 || length > view.len) {
        PyErr_SetString(PyExc_ValueError, "feed: length past the buffer");
        goto done;
    }
    while (at < length) {
        const char *newline = memchr(data + at, '\n', (size_t)(length - at));
        if (newline == NULL && !final)
            break;
        Py_ssize_t line_end = newline ? newline - data + 1 : length;
        if (line_end - at - (newline != NULL) > self->max_line) {
            result = PyLong_FromLong(-1);
            goto done;
        }
        scan->line_no++;
        int outcome = scan_line(scan, data + at, line_end - at);
        if (outcome == LINE_ERROR)
            goto done;
        scan->unparsed += outcome == LINE_UNPARSED;
        at = line_end;
        if ((scan->line_no & 0xFFFF) == 0 && PyErr_CheckSignals() < 0)
            goto done;
    }
    result = PyLong_FromSsize_t(at);
done:
    PyBuffer_Release(&view);
    return result;
}

/* close(): the parser's line and unparsed counts and its memory lines, as feed_lines leaves
   them. */
static PyObject *reader_close(Reader *self, PyObject *unused) {
    if (!self->ready)
        Py_RETURN_NONE;
    int failed = settle(&self->scan);
    close_scan(&self->scan);
    self->ready = 0;
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef reader_methods[] = {
    {"feed", (PyCFunction)reader_feed, METH_VARARGS,
     "feed(buffer, length, final) -> bytes read (its complete lines; all where final), or -1 "
     "where a line passes max_line."},
    {"close", (PyCFunction)reader_close, METH_NOARGS,
     "The parser's line and unparsed counts, as feed_lines leaves them."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject reader_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "parsers.vlog._scanner.Reader",
    .tp_doc = "Reader(parser, max_line, cache_limit): a log's lines into a VlogParser, a buffer "
              "at a time, as parser.feed_lines would read them.",
    .tp_basicsize = sizeof(Reader),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)reader_init,
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_methods = reader_methods,
};

/* ---- for the tests: the C matchers beside the regexes they stand for ------------------- */

static PyObject *py_is_log_line(PyObject *module, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    int found = is_log_line(view.buf, view.len);
    PyBuffer_Release(&view);
    return PyBool_FromLong(found);
}

static PyObject *py_absl_head(PyObject *module, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    AbslHead head;
    int found = match_absl_head(view.buf, view.len, &head);
    PyBuffer_Release(&view);
    if (found <= 0)
        return PyLong_FromLong(found);
    if (head.has_thread)
        return Py_BuildValue("(LLn)", (long long)head.micros, (long long)head.thread, head.message);
    return Py_BuildValue("(LOn)", (long long)head.micros, Py_None, head.message);
}

static PyMethodDef methods[] = {
    {"bind", bind_models, METH_VARARGS,
     "bind(node, execution, dump): ExecutedNode, Execution and GraphDump, each as (class, "
     "((name, has_default, default, factory), ...)), once, before a Reader; TypeError for a "
     "model the scanner cannot make."},
    {"write_executions", write_executions, METH_VARARGS,
     "write_executions(executions, write) -> int: their JSON, ', '-joined, through write(bytes), "
     "up to the first holding a value of a type it does not know; how many it wrote."},
    {"is_log_line", py_is_log_line, METH_O, "prefix.is_log_line, in C."},
    {"absl_head", py_absl_head, METH_O,
     "(micros, thread, message offset) of an absl prefix with a 6-digit fraction; 0: none; "
     "-1: a number too long."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef scanner_module = {
    PyModuleDef_HEAD_INIT, "_scanner",
    "VlogParser.feed_lines in C over a whole buffer; the reference stays parsers/vlog/reader.py.",
    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__scanner(void) {
    if (!(s_line = PyUnicode_InternFromString("_line")) ||
        !(s_unparsed = PyUnicode_InternFromString("_unparsed")) || lines_init() < 0 ||
        executor_init() < 0 || json_init() < 0)
        return NULL;
    if (PyType_Ready(&reader_type) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&scanner_module);
    if (module == NULL)
        return NULL;
    if (PyModule_AddObjectRef(module, "Reader", (PyObject *)&reader_type) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
