/* The C scanner of VLOG logs: what its files share (module.c says what it does, and how). */

#ifndef VLOG_SCANNER_H
#define VLOG_SCANNER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Python's bytes regexes: \d is [0-9], \s is [ \t\n\r\f\v]; bytes.strip() strips the same. */
static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static inline int is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static inline int is_severity(unsigned char c) {
    return c == 'I' || c == 'W' || c == 'E' || c == 'F';
}

/* Numbers longer than this are left to Python, whose ints have no bound. */
#define MAX_DIGITS 17

/* Where `needle` first occurs in line[start:end], or -1, as bytes.find. (memchr and a
   compare: on lines of a few hundred bytes it beats memmem, which sets up for long texts.) */
static inline Py_ssize_t find_in(const char *line, Py_ssize_t start, Py_ssize_t end,
                                 const char *needle, Py_ssize_t needle_size) {
    if (start < 0)
        return -1;
    Py_ssize_t last = end - needle_size;  /* the last place the needle could start */
    while (start <= last) {
        const char *found = memchr(line + start, needle[0], (size_t)(last - start + 1));
        if (found == NULL)
            return -1;
        Py_ssize_t at = found - line;
        if (memcmp(found + 1, needle + 1, (size_t)(needle_size - 1)) == 0)
            return at;
        start = at + 1;
    }
    return -1;
}

static inline int starts_with(const char *line, Py_ssize_t size, Py_ssize_t at,
                              const char *prefix, Py_ssize_t prefix_size) {
    return at >= 0 && size - at >= prefix_size &&
           memcmp(line + at, prefix, (size_t)prefix_size) == 0;
}

#define LIT(text) text, (Py_ssize_t)(sizeof(text) - 1)

/* ---- prefix.c ------------------------------------------------------------------------- */

/* An absl (TensorFlow 2.x) prefix as the reader's one-regex heads read it:
   `[IWEF]MMDD HH:MM:SECONDS.FFFFFF +(THREAD +)?SOURCE:LINE] `. */
typedef struct {
    int64_t micros;        /* since the epoch, as prefix.absl_micros computes it */
    int has_thread;
    int64_t thread;
    Py_ssize_t message;    /* offset just after "] " */
} AbslHead;

/* 1 and *head filled: the line opens with such a prefix (a fraction of exactly 6 digits, as
   executor_trace.PROCESS_LINE and DONE_LINE ask); 0: it does not; -1: it does, but a number
   is too long for int64. */
int match_absl_head(const char *line, Py_ssize_t size, AbslHead *head);

/* prefix.is_log_line: the ABSL regex for a line opening with I, W, E or F, GLOG_1X for one
   opening with a digit. */
int is_log_line(const char *line, Py_ssize_t size);

/* ---- model.c: the reader's dataclasses, as bind() was given them ---------------------- */

#define MODEL_FIELDS 24

typedef struct {
    PyTypeObject *type;
    int count;                          /* its fields, in order */
    PyObject *slots[MODEL_FIELDS];      /* their member descriptors */
    PyObject *defaults[MODEL_FIELDS];   /* each one's default value, or NULL */
    PyObject *factories[MODEL_FIELDS];  /* else its default factory */
    int known[MODEL_FIELDS];            /* field -> the scanner's value for it, or -1 */
    int by_value[MODEL_FIELDS];         /* the scanner's value -> its field */
} Model;

/* The values the scanner gives each model, in the order make_model takes them. */
enum { N_ID, N_NAME, N_OP, N_INPUTS, N_THREAD, N_START, N_DEAD, N_LINE, N_END, N_ATTRS, N_COUNT };
enum { E_STEP, E_DEVICE, E_FIRST, E_COUNT };
enum { D_LABEL, D_FIRST, D_KIND, D_NAME, D_ARGS, D_RETS, D_LAST, D_THREAD, D_COUNT };
extern Model node_model, execution_model, dump_model;

/* bind((class, ((name, has_default, default, factory), ...)) for ExecutedNode, Execution
   and GraphDump). */
PyObject *bind_models(PyObject *module, PyObject *args);

/* A new instance: the scanner's values (references stolen; a NULL among them, from a failed
   allocation, makes it fail), every other field its default. */
PyObject *make_model(Model *model, PyObject **values, int value_count);

/* The member descriptor of the field the scanner's value `value` goes to. */
static inline PyObject *model_slot(Model *model, int value) {
    return model->slots[model->by_value[value]];
}

/* ---- lines.c and executor.c: one line --------------------------------------------------- */

enum { LINE_OK = 0, LINE_UNPARSED = 1, LINE_ERROR = -1 };
enum { K_PASS, K_PHASE, K_DUMPED, K_GRAPPLER, K_MEMORY, K_PLACEMENT, K_COUNT };
extern PyObject *kinds[K_COUNT];

/* ---- memo.c ------------------------------------------------------------------------- */

typedef struct {
    uint64_t hash;
    PyObject *text;   /* bytes, NULL where the slot is free */
    PyObject *value;
} MemoSlot;

typedef struct {
    PyObject *dict;          /* the reader's cache this memo stands in front of */
    Py_ssize_t dict_size;    /* its size when last asked: smaller now means it was cleared */
    MemoSlot *slots;
    Py_ssize_t capacity, used;
} Memo;

/* dict.get(text) (a borrowed reference, NULL for none), or NULL with an error set. */
PyObject *memo_get(Memo *memo, const char *text, Py_ssize_t size);
void memo_clear(Memo *memo);
void memo_free(Memo *memo);

/* One feed() call: borrowed from the parser, as feed_lines' locals are. */
typedef struct {
    PyObject *parser, *blocks, *labels, *open, *pending, *node_cache, *process_cache, *header_cache;
    PyObject *dump_line, *process_line, *done_line, *other_line;  /* the reference's handlers */
    PyObject *executions;   /* parser.log.executions */
    PyObject *event_rows;   /* parser.log.event_rows where events are kept, else NULL */
    PyObject *counts;       /* parser._event_sink.counts where they are only counted */
    PyObject *on_graph;     /* NULL for None */
    Memo summaries;         /* in front of parser._process_cache */
    Memo dump_nodes;        /* in front of parser._node_cache */
    Memo headers;           /* in front of parser._header_cache */
    PyObject *graphs;       /* parser.log.graphs */
    Py_ssize_t line_no, unparsed, memory_lines;
    Py_ssize_t cache_limit; /* reader.CACHE_LIMIT, past which _pending is cleared */
    int64_t thread;         /* the last thread id seen, and its int */
    PyObject *thread_number;
} Scan;

/* The body of VlogParser.feed_lines' loop for one line (with its newline where it has one). */
int scan_line(Scan *scan, const char *raw, Py_ssize_t size);
int process_line(Scan *scan, const char *raw, Py_ssize_t size, Py_ssize_t start);
int done_line(Scan *scan, const char *raw, Py_ssize_t size, Py_ssize_t start);

/* Calls a handler of the reference (a VlogParser method) with `count` new references (all
   non-NULL, or it fails) and returns its verdict on the line. */
int reference(PyObject *handler, PyObject **args, Py_ssize_t count);
int add_count(PyObject *counts, PyObject *kind, Py_ssize_t count);

/* Each file's interned names, made once when the module loads; 0, or -1 with an error. */
int lines_init(void);
int executor_init(void);
int json_init(void);

/* ---- json_out.c ------------------------------------------------------------------------ */

/* write_executions(executions, write) -> how many it wrote: their JSON, ", "-joined, as
   ", ".join(json.dumps(e.to_json()) ...) would write it, through write(bytes). */
PyObject *write_executions(PyObject *module, PyObject *args);

#endif
