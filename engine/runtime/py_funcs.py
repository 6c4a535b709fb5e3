"""The Python functions tf.py_func wraps, by token: TensorFlow's FuncRegistry.

The graph holds only the token ("pyfunc_<n>", numbered per process as TensorFlow numbers
them); the PyFunc kernel calls the function registered under it. Entries are weak, as
TensorFlow's: the graph that made the op keeps its functions alive.
"""

import itertools
import threading
import weakref

_LOCK = threading.Lock()
_IDS = itertools.count()
_FUNCS = weakref.WeakValueDictionary()
_STRONG = {}  # functions that cannot be weakly referenced (builtins, bound C methods)


def insert_function(func):
    """Registers `func`; returns its token."""
    with _LOCK:
        token = f"pyfunc_{next(_IDS)}"
        try:
            _FUNCS[token] = func
        except TypeError:
            _STRONG[token] = func
    return token


def lookup(token):
    """The function registered under `token`, or None."""
    with _LOCK:
        func = _FUNCS.get(token)
        return func if func is not None else _STRONG.get(token)
