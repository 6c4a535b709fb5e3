"""tf.train.basic_train_loop: train_step_fn in a Supervisor's managed session until it says
stop, started again after an AbortedError (TensorFlow's basic_loops.py)."""

from engine.framework import errors


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """Calls train_step_fn(sess, *args, **kwargs) until supervisor.should_stop()."""
    args = [] if args is None else args
    kwargs = {} if kwargs is None else kwargs
    should_retry = True
    while should_retry:
        try:
            should_retry = False
            with supervisor.managed_session(master) as sess:
                while not supervisor.should_stop():
                    train_step_fn(sess, *args, **kwargs)
        except errors.AbortedError:
            should_retry = True
