"""tf.CriticalSection's mutexes: TensorFlow's Mutex resource (core/kernels/mutex_ops.cc).

A MutexV2 node's handle names a mutex of the session's resources, made when a MutexLock
first looks it up (TensorFlow's LookupOrCreateResource). MutexLock waits for the mutex and
outputs a `HeldLock` (its DT_VARIANT value); the mutex is free again once that value is
consumed (ConsumeMutexLock) or dropped, as TensorFlow frees it when the lock's tensor is
destroyed: a lock nobody reads dies where it is made, and a run that fails drops its values.

The executor runs one step on one thread, so a step must never wait for a lock it holds
itself: the plan orders each mutex's sections one after another (engine/runtime/
mutex_order.py), and a lock taken again on the thread that holds it is an error here where
TensorFlow would wait for ever. Runs on other threads (concurrent Session.run calls) wait
for the lock as TensorFlow's do, within their deadline. What a failed run still holds when
it ends is released then (`release_held_by_this_thread`, called by the session).
"""

import itertools
import threading
import weakref

from engine.runtime import deadline

# How long a waiting lock sleeps between looks at its run's deadline.
_WAIT_SECONDS = 0.05
_lock_numbers = itertools.count()
_registry_lock = threading.RLock()  # the held-lock tables; reentrant: __del__ may run inside


class Mutex:
    """One mutex of a session: a lock, and which HeldLock holds it (by its number, so that
    the mutex does not keep its lock's value alive) on which thread."""

    __slots__ = ("name", "_lock", "_holder", "_holder_thread")

    def __init__(self, name):
        self.name = name
        self._lock = threading.Lock()
        self._holder = self._holder_thread = None

    def label(self):
        return f"Mutex[{self.name}]"

    def held_by_this_thread(self):
        return self._holder is not None and self._holder_thread == threading.get_ident()

    def acquire(self, held_locks):
        """A HeldLock of this mutex, once it is free (the caller checked that this thread
        does not hold it); `held_locks` is the session's table of the locks each thread
        holds."""
        thread = threading.get_ident()
        while not self._lock.acquire(timeout=_WAIT_SECONDS):
            deadline.check()
        held = HeldLock(self, next(_lock_numbers), thread, held_locks)
        self._holder, self._holder_thread = held.number, thread
        with _registry_lock:  # weakly: the lock's value alone keeps the mutex locked
            held_locks.setdefault(thread, weakref.WeakSet()).add(held)
        return held

    def _release(self, number):
        if self._holder == number:
            self._holder = self._holder_thread = None
            self._lock.release()


class HeldLock:
    """The value of a MutexLock's output: the mutex stays locked while it is alive."""

    __slots__ = ("mutex", "number", "thread", "_held_locks", "_released", "__weakref__")

    def __init__(self, mutex, number, thread, held_locks):
        self.mutex, self.number, self.thread = mutex, number, thread
        self._held_locks, self._released = held_locks, False

    def release(self):
        if self._released:
            return
        self._released = True
        with _registry_lock:
            mine = self._held_locks.get(self.thread)
            if mine is not None:
                mine.discard(self)
                if not mine:  # the session looks here after each run only while any is held
                    del self._held_locks[self.thread]
        self.mutex._release(self.number)

    def __del__(self):
        self.release()

    def __repr__(self):
        return f"<HeldLock {self.mutex.name}{' released' if self._released else ''}>"


def release_held_by_this_thread(held_locks):
    """Frees the mutexes a run on this thread still holds when it ends (it failed between
    a lock and its consumer)."""
    for held in list(held_locks.get(threading.get_ident(), ())):
        held.release()
