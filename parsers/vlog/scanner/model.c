/* The reader's dataclasses (parsers/vlog/model.py) as the scanner makes them.

A dataclass's __init__ costs a microsecond or two an object; the scanner makes hundreds of
thousands of ExecutedNodes, so it allocates each object and sets its slots through their
member descriptors. It sets the fields it reads from the line itself; every other field gets
what the dataclass would give it, its default or a call of its default factory, as
native.bind read them off dataclasses.fields(). A model with a field the scanner has no value
for and no default makes bind() fail: the reader then runs its Python reference. */

#include "scanner.h"

Model node_model, execution_model, dump_model;

static const char *const NODE_VALUES[] = {"id", "name", "op", "inputs", "thread", "start_us",
                                           "dead", "line", "end_us", "attr_text", NULL};
static const char *const EXECUTION_VALUES[] = {"step", "device", "first_line", NULL};
static const char *const DUMP_VALUES[] = {
    "label", "first_line", "kind", "function_name", "args", "rets", "last_line", "thread", NULL};

static void clear_model(Model *model) {
    for (int i = 0; i < MODEL_FIELDS; i++) {
        Py_CLEAR(model->slots[i]);
        Py_CLEAR(model->defaults[i]);
        Py_CLEAR(model->factories[i]);
    }
    Py_CLEAR(model->type);
    model->count = 0;
}

/* One (class, ((name, has_default, default, factory), ...)) of bind()'s arguments. */
static int bind_model(Model *model, PyObject *spec, const char *const *values) {
    PyObject *type, *fields;
    clear_model(model);
    if (!PyArg_ParseTuple(spec, "O!O!", &PyType_Type, &type, &PyTuple_Type, &fields))
        return -1;
    Py_ssize_t count = PyTuple_GET_SIZE(fields);
    if (count > MODEL_FIELDS) {
        PyErr_Format(PyExc_TypeError, "bind: %R has more than %d fields", type, MODEL_FIELDS);
        return -1;
    }
    int value_count = 0;
    while (values[value_count])
        value_count++;
    for (int v = 0; v < value_count; v++)
        model->by_value[v] = -1;
    for (int at = 0; at < count; at++) {
        const char *name;
        int has_default;
        PyObject *value, *factory;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(fields, at), "spOO", &name, &has_default, &value,
                              &factory))
            return -1;
        PyObject *slot = PyObject_GetAttrString(type, name);
        if (slot == NULL)
            return -1;
        model->slots[at] = slot;
        if (!Py_IS_TYPE(slot, &PyMemberDescr_Type)) {
            PyErr_Format(PyExc_TypeError, "bind: %R.%s is not a slot", type, name);
            return -1;
        }
        model->known[at] = -1;
        for (int v = 0; v < value_count; v++)
            if (strcmp(values[v], name) == 0) {
                model->known[at] = v;
                model->by_value[v] = at;
            }
        if (model->known[at] >= 0)
            continue;
        if (has_default)
            model->defaults[at] = Py_NewRef(value);
        else if (factory != Py_None)
            model->factories[at] = Py_NewRef(factory);
        else {
            PyErr_Format(PyExc_TypeError, "bind: the scanner has no value for %R.%s", type, name);
            return -1;
        }
    }
    for (int v = 0; v < value_count; v++)
        if (model->by_value[v] < 0) {
            PyErr_Format(PyExc_TypeError, "bind: %R has no field %s", type, values[v]);
            return -1;
        }
    model->type = (PyTypeObject *)Py_NewRef(type);
    model->count = (int)count;
    return 0;
}

PyObject *bind_models(PyObject *module, PyObject *args) {
    PyObject *node, *execution, *dump;
    if (!PyArg_ParseTuple(args, "OOO", &node, &execution, &dump))
        return NULL;
    if (bind_model(&node_model, node, NODE_VALUES) < 0 ||
        bind_model(&execution_model, execution, EXECUTION_VALUES) < 0 ||
        bind_model(&dump_model, dump, DUMP_VALUES) < 0) {
        clear_model(&node_model);
        clear_model(&execution_model);
        clear_model(&dump_model);
        return NULL;
    }
    Py_RETURN_NONE;
}

PyObject *make_model(Model *model, PyObject **values, int value_count) {
    PyObject *object = NULL;
    int ready = model->type != NULL;
    for (int v = 0; v < value_count; v++)
        ready &= values[v] != NULL;
    if (ready)
        object = model->type->tp_alloc(model->type, 0);
    for (int at = 0; object != NULL && at < model->count; at++) {
        int v = model->known[at];
        PyObject *value = v >= 0 ? Py_NewRef(values[v])
                        : model->defaults[at] ? Py_NewRef(model->defaults[at])
                                              : PyObject_CallNoArgs(model->factories[at]);
        if (value == NULL ||
            Py_TYPE(model->slots[at])->tp_descr_set(model->slots[at], object, value) < 0)
            Py_CLEAR(object);
        Py_XDECREF(value);
    }
    for (int v = 0; v < value_count; v++)
        Py_XDECREF(values[v]);
    if (object == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError, "make_model before bind");
    return object;
}
