"""NumPy's floating-point errors ignored around a run, as np.errstate(all="ignore"), cheaply.

Kernels compute log(-1) = nan and 1/0 = inf silently, as TensorFlow does, so Session.run
runs them with every NumPy floating-point error ignored. np.errstate builds its state anew on
every entry (0.9 us, an eighth of a small graph's whole run); NumPy 2 keeps that state in a
context variable, so here the ignoring state is made once per state it replaces and set and
reset directly. Where NumPy lacks that variable (1.x) np.errstate itself is used.

>>> import numpy as np
>>> before = np.geterr()
>>> token = ignore()
>>> np.geterr()["divide"], np.geterr()["invalid"]
('ignore', 'ignore')
>>> restore(token)
>>> np.geterr() == before
True
"""

import numpy as np

try:  # NumPy 2: the error state is this context variable's value (numpy/_core/_ufunc_config.py)
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
except ImportError:  # NumPy 1.x
    _extobj_contextvar = _make_extobj = None

# The state in force -> the same state with every error ignored (its call and bufsize kept).
# NumPy's states are immutable objects, compared by identity; a few exist in a process.
_ignoring = {}
_MAX_STATES = 64


def ignore():
    """Every floating-point error ignored on this thread until restore(token)."""
    if _extobj_contextvar is None:
        state = np.errstate(all="ignore")
        state.__enter__()
        return state
    current = _extobj_contextvar.get()
    ignoring = _ignoring.get(current)
    if ignoring is None:
        ignoring = _make_extobj(all="ignore")  # made from the state in force: `current`
        if len(_ignoring) >= _MAX_STATES:
            _ignoring.clear()
        _ignoring[current] = ignoring
    return _extobj_contextvar.set(ignoring)


def restore(token):
    """The error state as it was before the ignore() that returned `token`."""
    if _extobj_contextvar is None:
        token.__exit__(None, None, None)
    else:
        _extobj_contextvar.reset(token)
