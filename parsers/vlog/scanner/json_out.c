/* The executions' part of `vlog --json`, byte for byte what json.dumps(execution.to_json()) writes.

json.dumps with its defaults: ", " and ": " between items, ensure_ascii (every character
outside ' '..'~', and '"' and '\\', escaped; lowercase hex; surrogate pairs past U+FFFF),
int.__repr__ for ints, true/false/null. Written through a write() callable a megabyte at a
time; it stops before an execution holding a value of any other type, whose JSON and the
rest's json.dumps then writes (json_document.py). */

#include "scanner.h"

typedef struct {
    char *data;
    Py_ssize_t size, capacity;
} Out;

static int reserve(Out *out, Py_ssize_t more) {
    if (out->size + more <= out->capacity)
        return 0;
    Py_ssize_t capacity = out->capacity ? out->capacity : 1 << 16;
    while (capacity < out->size + more)
        capacity *= 2;
    char *data = PyMem_Realloc(out->data, (size_t)capacity);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    out->data = data;
    out->capacity = capacity;
    return 0;
}

static int put(Out *out, const char *text, Py_ssize_t size) {
    if (reserve(out, size) < 0)
        return -1;
    memcpy(out->data + out->size, text, (size_t)size);
    out->size += size;
    return 0;
}

#define PUT(out, text) put(out, text, (Py_ssize_t)(sizeof(text) - 1))

static void put_u_escape(Out *out, Py_UCS4 c) {
    static const char hex[] = "0123456789abcdef";
    char *at = out->data + out->size;
    at[0] = '\\';
    at[1] = 'u';
    at[2] = hex[(c >> 12) & 0xf];
    at[3] = hex[(c >> 8) & 0xf];
    at[4] = hex[(c >> 4) & 0xf];
    at[5] = hex[c & 0xf];
    out->size += 6;
}

static int put_string(Out *out, PyObject *text) {
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    /* 12 bytes is the most one character takes (a surrogate pair), plus the quotes */
    if (reserve(out, length * 12 + 2) < 0)
        return -1;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    out->data[out->size++] = '"';
    for (Py_ssize_t i = 0; i < length; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c >= ' ' && c <= '~' && c != '"' && c != '\\') {
            out->data[out->size++] = (char)c;
            continue;
        }
        char short_escape = c == '"' ? '"' : c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\r' ? 'r'
                          : c == '\t' ? 't' : c == '\b' ? 'b' : c == '\f' ? 'f' : 0;
        if (short_escape) {
            out->data[out->size++] = '\\';
            out->data[out->size++] = short_escape;
        } else if (c >= 0x10000) {
            c -= 0x10000;
            put_u_escape(out, 0xd800 | ((c >> 10) & 0x3ff));
            put_u_escape(out, 0xdc00 | (c & 0x3ff));
        } else {
            put_u_escape(out, c);
        }
    }
    out->data[out->size++] = '"';
    return 0;
}

static int put_value(Out *out, PyObject *value);

static int put_int(Out *out, PyObject *value) {
    int overflow;
    long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (number == -1 && PyErr_Occurred())
        return -1;
    if (!overflow) {
        char text[24], *end = text + sizeof(text), *at = end;
        unsigned long long magnitude = number < 0 ? 0ULL - (unsigned long long)number
                                                  : (unsigned long long)number;
        do {
            *--at = (char)('0' + magnitude % 10);
            magnitude /= 10;
        } while (magnitude);
        if (number < 0)
            *--at = '-';
        return put(out, at, end - at);
    }
    PyObject *text = PyObject_Repr(value);
    if (text == NULL)
        return -1;
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &size);
    int failed = utf8 == NULL || put(out, utf8, size) < 0;
    Py_DECREF(text);
    return failed ? -1 : 0;
}

static int put_array(Out *out, PyObject *items) {
    Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
    if (PUT(out, "[") < 0)
        return -1;
    for (Py_ssize_t i = 0; i < count; i++)
        if ((i && PUT(out, ", ") < 0) || put_value(out, PySequence_Fast_GET_ITEM(items, i)) < 0)
            return -1;
    return PUT(out, "]");
}

/* The JSON types to_json() gives: str, None, bool, int and lists or tuples of them. */
static int put_value(Out *out, PyObject *value) {
    if (PyUnicode_Check(value))
        return put_string(out, value);
    if (value == Py_None)
        return PUT(out, "null");
    if (value == Py_True)
        return PUT(out, "true");
    if (value == Py_False)
        return PUT(out, "false");
    if (PyLong_CheckExact(value))
        return put_int(out, value);
    if (PyList_CheckExact(value) || PyTuple_CheckExact(value))
        return put_array(out, value);
    PyErr_Format(PyExc_TypeError, "executions_json: a %.100s value", Py_TYPE(value)->tp_name);
    return -1;
}

/* `"key": value` of an attribute, with `, ` before every one but the first. */
static int put_field(Out *out, const char *key, PyObject *object, PyObject *name, int first) {
    PyObject *value = PyObject_GetAttr(object, name);
    if (value == NULL)
        return -1;
    int failed = (!first && PUT(out, ", ") < 0) || PUT(out, "\"") < 0 ||
                 put(out, key, (Py_ssize_t)strlen(key)) < 0 || PUT(out, "\": ") < 0 ||
                 put_value(out, value) < 0;
    Py_DECREF(value);
    return failed ? -1 : 0;
}

static PyObject *s_step, *s_device, *s_nodes, *node_names[N_COUNT];

int json_init(void) {
    static const char *const names[N_COUNT] = {
        "id", "name", "op", "inputs", "thread", "start_us", "dead", "line", "end_us", "attr_text"};
    for (int i = 0; i < N_COUNT; i++)
        if ((node_names[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return -1;
    s_step = PyUnicode_InternFromString("step");
    s_device = PyUnicode_InternFromString("device");
    s_nodes = PyUnicode_InternFromString("nodes");
    return s_step && s_device && s_nodes ? 0 : -1;
}

/* A node's field: straight from its slot where it is the bound ExecutedNode class. */
static PyObject *node_field(PyObject *node, int field) {
    if (node_model.type != NULL && Py_IS_TYPE(node, node_model.type)) {
        PyObject *slot = model_slot(&node_model, field);
        return Py_TYPE(slot)->tp_descr_get(slot, node, (PyObject *)node_model.type);
    }
    return PyObject_GetAttr(node, node_names[field]);
}

/* `"name": .., "op": .., "inputs": [..]` of the nodes with these very three values, written
   once: the nodes of one summary share them (the reader's process cache). */
typedef struct {
    PyObject *name, *op, *inputs;
    Py_ssize_t at, size;
} Fragment;

typedef struct {
    Fragment *slots;
    Py_ssize_t capacity, used;
    Out text;
} Fragments;

#define MAX_FRAGMENTS (1 << 20)

static size_t fragment_hash(PyObject *name, PyObject *op, PyObject *inputs) {
    size_t hash = (size_t)name >> 4;
    hash = hash * 1000003u ^ ((size_t)op >> 4);
    hash = hash * 1000003u ^ ((size_t)inputs >> 4);
    return hash ^ (hash >> 17);
}

static Fragment *find_fragment(Fragments *table, PyObject *name, PyObject *op, PyObject *inputs) {
    size_t mask = (size_t)table->capacity - 1;
    for (size_t at = fragment_hash(name, op, inputs) & mask;; at = (at + 1) & mask) {
        Fragment *slot = &table->slots[at];
        if (slot->name == NULL || (slot->name == name && slot->op == op && slot->inputs == inputs))
            return slot;
    }
}

/* Room for one more fragment: 0, or 1 where the table is full (the caller writes the node
   without it), or -1. */
static int fragment_room(Fragments *table) {
    if (table->used * 2 < table->capacity)
        return 0;
    if (table->capacity >= MAX_FRAGMENTS)
        return 1;
    Fragments bigger = {NULL, table->capacity ? table->capacity * 2 : 1024, 0, table->text};
    bigger.slots = PyMem_Calloc((size_t)bigger.capacity, sizeof(Fragment));
    if (bigger.slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < table->capacity; i++)
        if (table->slots[i].name != NULL) {
            Fragment *slot = &table->slots[i];
            *find_fragment(&bigger, slot->name, slot->op, slot->inputs) = *slot;
        }
    bigger.used = table->used;
    PyMem_Free(table->slots);
    *table = bigger;
    return 0;
}

static int put_summary(Out *out, PyObject *name, PyObject *op, PyObject *inputs) {
    return PUT(out, ", \"name\": ") < 0 || put_value(out, name) < 0 || PUT(out, ", \"op\": ") < 0 ||
           put_value(out, op) < 0 || PUT(out, ", \"inputs\": ") < 0 || put_value(out, inputs) < 0
               ? -1 : 0;
}

static int put_cached_summary(Out *out, Fragments *table, PyObject *name, PyObject *op,
                              PyObject *inputs) {
    int full = fragment_room(table);
    if (full)
        return full < 0 ? -1 : put_summary(out, name, op, inputs);
    Fragment *slot = find_fragment(table, name, op, inputs);
    if (slot->name == NULL) {
        Py_ssize_t at = table->text.size;
        if (put_summary(&table->text, name, op, inputs) < 0)
            return -1;
        *slot = (Fragment){name, op, inputs, at, table->text.size - at};
        table->used++;
    }
    return put(out, table->text.data + slot->at, slot->size);
}

static int put_node(Out *out, Fragments *table, PyObject *node) {
    static const char *const keys[] = {
        "{\"id\": ", ", \"thread\": ", ", \"start_us\": ", ", \"dead\": "};
    static const int fields[] = {N_ID, N_THREAD, N_START, N_DEAD};
    PyObject *name = node_field(node, N_NAME), *op = node_field(node, N_OP);
    PyObject *inputs = node_field(node, N_INPUTS);
    int failed = name == NULL || op == NULL || inputs == NULL;
    for (int i = 0; !failed && i < 4; i++) {
        PyObject *value = node_field(node, fields[i]);
        failed = value == NULL || put(out, keys[i], (Py_ssize_t)strlen(keys[i])) < 0 ||
                 put_value(out, value) < 0 ||
                 (i == 0 && put_cached_summary(out, table, name, op, inputs) < 0);
        Py_XDECREF(value);
    }
    /* name, op and inputs stay referenced by the node: their addresses stay theirs. */
    Py_XDECREF(name);
    Py_XDECREF(op);
    Py_XDECREF(inputs);
    return failed ? -1 : PUT(out, "}");
}

static int put_execution(Out *out, Fragments *table, PyObject *execution) {
    if (PUT(out, "{") < 0 || put_field(out, "step", execution, s_step, 1) < 0 ||
        put_field(out, "device", execution, s_device, 0) < 0 || PUT(out, ", \"nodes\": [") < 0)
        return -1;
    PyObject *nodes = PyObject_GetAttr(execution, s_nodes);
    if (nodes == NULL)
        return -1;
    PyObject *items = PySequence_Fast(nodes, "nodes");
    Py_DECREF(nodes);
    if (items == NULL)
        return -1;
    int failed = 0;
    for (Py_ssize_t i = 0; !failed && i < PySequence_Fast_GET_SIZE(items); i++)
        failed = (i && PUT(out, ", ") < 0) ||
                 put_node(out, table, PySequence_Fast_GET_ITEM(items, i)) < 0;
    Py_DECREF(items);
    return failed ? -1 : PUT(out, "]}");
}

/* How many bytes go to write() at a time. */
#define CHUNK (1 << 20)

/* write(a memoryview of what is gathered): no bytes object (and no fresh megabyte to fault
   in) per chunk; the view is released after the call, so a write() that kept it fails loudly
   instead of reading a reused buffer. */
static int flush(Out *out, PyObject *write) {
    if (out->size == 0)
        return 0;
    PyObject *view = PyMemoryView_FromMemory(out->data, out->size, PyBUF_READ);
    if (view == NULL)
        return -1;
    PyObject *written = PyObject_CallOneArg(write, view);
    PyObject *released = PyObject_CallMethod(view, "release", NULL);
    Py_DECREF(view);
    if (written == NULL || released == NULL) {
        Py_XDECREF(written);
        Py_XDECREF(released);
        return -1;
    }
    Py_DECREF(written);
    Py_DECREF(released);
    out->size = 0;
    return 0;
}

PyObject *write_executions(PyObject *module, PyObject *args) {
    PyObject *executions, *write;
    if (!PyArg_ParseTuple(args, "OO", &executions, &write))
        return NULL;
    PyObject *items = PySequence_Fast(executions, "write_executions: a list of executions");
    if (items == NULL)
        return NULL;
    Out out = {NULL, 0, 0};
    Fragments table = {NULL, 0, 0, {NULL, 0, 0}};
    Py_ssize_t done = 0, count = PySequence_Fast_GET_SIZE(items);
    int failed = 0;
    for (; !failed && done < count; done++) {
        Py_ssize_t mark = out.size;
        if ((done && PUT(&out, ", ") < 0) ||
            put_execution(&out, &table, PySequence_Fast_GET_ITEM(items, done)) < 0) {
            /* A value of a type it does not know: json.dumps writes this one and the rest. */
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                out.size = mark;
                break;
            }
            failed = 1;
        } else if (out.size >= CHUNK) {
            failed = flush(&out, write) < 0;
        }
    }
    failed = failed || flush(&out, write) < 0;
    Py_DECREF(items);
    PyMem_Free(out.data);
    PyMem_Free(table.slots);
    PyMem_Free(table.text.data);
    return failed ? NULL : PyLong_FromSsize_t(done);
}
