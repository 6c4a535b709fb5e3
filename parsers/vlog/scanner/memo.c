/* A C memo in front of one of the parser's caches (a dict of bytes -> parsed value).

The reader's caches map a line's text to what it parsed into, and only grow, or are cleared
whole when they pass reader.CACHE_LIMIT. So what the memo found in the dict stays the dict's
answer for as long as the dict has not shrunk: the memo is emptied when it has. A hit costs
a hash of the text and a compare, where the dict would need a bytes object made and
SipHashed each time. */

#include "scanner.h"

#define MEMO_MAX (1 << 18)  /* past this many texts, the dict alone answers */

static uint64_t hash_text(const char *text, Py_ssize_t size) {
    uint64_t hash = 0x9e3779b97f4a7c15ULL ^ (uint64_t)size;
    Py_ssize_t at = 0;
    for (; at + 8 <= size; at += 8) {
        uint64_t word;
        memcpy(&word, text + at, 8);
        hash = (hash ^ word) * 0xff51afd7ed558ccdULL;
        hash ^= hash >> 32;
    }
    uint64_t tail = 0;
    memcpy(&tail, text + at, (size_t)(size - at));
    hash = (hash ^ tail) * 0xc4ceb9fe1a85ec53ULL;
    return hash ^ (hash >> 29);
}

void memo_clear(Memo *memo) {
    for (Py_ssize_t i = 0; i < memo->capacity; i++) {
        Py_CLEAR(memo->slots[i].text);
        Py_CLEAR(memo->slots[i].value);
    }
    memo->used = 0;
}

void memo_free(Memo *memo) {
    memo_clear(memo);
    PyMem_Free(memo->slots);
    memo->slots = NULL;
    memo->capacity = 0;
}

static MemoSlot *memo_slot(MemoSlot *slots, Py_ssize_t capacity, uint64_t hash,
                           const char *text, Py_ssize_t size) {
    size_t mask = (size_t)capacity - 1;
    for (size_t at = (size_t)hash & mask;; at = (at + 1) & mask) {
        MemoSlot *slot = &slots[at];
        if (slot->text == NULL)
            return slot;
        if (slot->hash == hash && PyBytes_GET_SIZE(slot->text) == size &&
            memcmp(PyBytes_AS_STRING(slot->text), text, (size_t)size) == 0)
            return slot;
    }
}

static int memo_grow(Memo *memo) {
    Py_ssize_t capacity = memo->capacity ? memo->capacity * 2 : 256;
    MemoSlot *slots = PyMem_Calloc((size_t)capacity, sizeof(MemoSlot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < memo->capacity; i++) {
        MemoSlot *old = &memo->slots[i];
        if (old->text != NULL)
            *memo_slot(slots, capacity, old->hash, PyBytes_AS_STRING(old->text),
                       PyBytes_GET_SIZE(old->text)) = *old;
    }
    PyMem_Free(memo->slots);
    memo->slots = slots;
    memo->capacity = capacity;
    return 0;
}

PyObject *memo_get(Memo *memo, const char *text, Py_ssize_t size) {
    Py_ssize_t dict_size = PyDict_GET_SIZE(memo->dict);
    if (dict_size < memo->dict_size)
        memo_clear(memo);  /* the reader cleared its cache: so does the memo */
    memo->dict_size = dict_size;
    uint64_t hash = hash_text(text, size);
    MemoSlot *slot = memo->capacity == 0 ? NULL
                   : memo_slot(memo->slots, memo->capacity, hash, text, size);
    if (slot != NULL && slot->text != NULL)
        return slot->value;
    PyObject *key = PyBytes_FromStringAndSize(text, size);
    if (key == NULL)
        return NULL;
    PyObject *value = PyDict_GetItemWithError(memo->dict, key);
    if (value == NULL || memo->used >= MEMO_MAX) {
        Py_DECREF(key);
        return value;
    }
    if ((memo->used + 1) * 2 > memo->capacity) {
        if (memo_grow(memo) < 0) {
            Py_DECREF(key);
            return NULL;
        }
    }
    slot = memo_slot(memo->slots, memo->capacity, hash, text, size);
    slot->hash = hash;
    slot->text = key;
    slot->value = Py_NewRef(value);
    memo->used++;
    return value;
}
