"""tf.train.Coordinator: threads that stop together (TensorFlow's training/coordinator.py).

Threads poll should_stop(); any of them (or the main loop) calls request_stop(), optionally
with the exception that made it stop; join() waits for the registered threads and re-raises
that exception in the caller, as TensorFlow's does.
"""

import contextlib
import sys
import threading
import time

from engine.framework import errors
from engine.platform import tf_logging as logging


class Coordinator:
    """A coordinator of threads: a stop event, the first exception reported, the threads."""

    def __init__(self, clean_stop_exception_types=None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (errors.OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads = set()

    def _filter_exception(self, ex):
        if isinstance(ex, tuple):
            ex2 = ex[1]
        else:
            ex2 = ex
        if isinstance(ex2, self._clean_stop_exception_types):
            ex = None  # a clean stop (the input ran out), not an error
        return ex

    def request_stop(self, ex=None):
        """Asks every thread to stop; `ex` (an exception or exc_info) is re-raised by join()."""
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined:
                if isinstance(ex, tuple):
                    _, ex_instance, _ = ex
                    raise ex_instance
                if ex is not None:
                    _, ex_instance, _ = sys.exc_info()
                    raise ex_instance
            if not self._stop_event.is_set():
                if ex and self._exc_info_to_raise is None:
                    if isinstance(ex, tuple):
                        logging.info("Error reported to Coordinator: %s", str(ex[1]))
                        self._exc_info_to_raise = ex
                    else:
                        logging.info("Error reported to Coordinator: %s, %s", type(ex), ex)
                        self._exc_info_to_raise = (type(ex), ex, ex.__traceback__)
                    if (len(self._exc_info_to_raise) != 3 or not self._exc_info_to_raise[0]
                            or not self._exc_info_to_raise[1]):
                        raise ValueError("ex must be a tuple or sys.exc_info must return the "
                                         f"current exception: {self._exc_info_to_raise}")
                self._stop_event.set()

    def clear_stop(self):
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            if self._stop_event.is_set():
                self._stop_event.clear()

    def should_stop(self):
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """Reports any exception raised in the block to the coordinator (request_stop)."""
        try:
            yield
        except:  # noqa: E722  (every exception stops the threads, as TensorFlow's)
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Waits for the threads (and those registered); re-raises a reported exception."""
        with self._lock:
            if threads is None:
                threads = self._registered_threads
            else:
                threads = self._registered_threads.union(set(threads))
            threads = list(threads)
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        stop_wait_secs = 0.001
        while any(t.is_alive() for t in threads) and stop_grace_period_secs >= 0.0:
            time.sleep(stop_wait_secs)
            stop_grace_period_secs -= stop_wait_secs
            stop_wait_secs = 2 * stop_wait_secs
            stop_wait_secs = min(stop_wait_secs, stop_grace_period_secs)
            stop_wait_secs = max(stop_wait_secs, 0.001)
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise:
                _, ex_instance, _ = self._exc_info_to_raise
                raise ex_instance
            if stragglers:
                if ignore_live_threads:
                    logging.info("Coordinator stopped with threads still running: %s",
                                 " ".join(stragglers))
                else:
                    raise RuntimeError("Coordinator stopped with threads still running: %s"
                                       % " ".join(stragglers))

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        with self._lock:
            if self._exc_info_to_raise:
                _, ex_instance, _ = self._exc_info_to_raise
                raise ex_instance


class LooperThread(threading.Thread):
    """tf.train.LooperThread: calls run_loop() (or `target`) every timer_interval_secs, the
    first time at once (back to back where it is None), until the coordinator stops; an
    exception it raises stops the coordinator."""

    def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
        if not isinstance(coord, Coordinator):
            raise ValueError(f"'coord' argument must be a Coordinator: {coord}")
        super().__init__(daemon=True)
        self._coord, self._timer_interval_secs = coord, timer_interval_secs
        self._target = target
        if target:
            self._args, self._kwargs = args or (), kwargs or {}
        elif args or kwargs:
            raise ValueError("'args' and 'kwargs' argument require that you also pass 'target'")
        coord.register_thread(self)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
        """A started LooperThread calling `target`."""
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper

    def run(self):
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_time = time.time()
                while not self._coord.wait_for_stop(next_time - time.time()):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self):
        """Called when the thread starts."""

    def stop_loop(self):
        """Called when the thread stops."""

    def run_loop(self):
        """Called at each timer boundary."""
        if self._target:
            self._target(*self._args, **self._kwargs)
