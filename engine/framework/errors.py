"""TensorFlow's error classes and codes, raised by the engine as TensorFlow raises them."""

import os

# The engine's own directory (the parent of framework/): frames under it are the engine's, not
# the user's.
ENGINE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def is_engine_file(filename):
    """Whether a stack frame's file is the engine's own (not the user's program)."""
    return os.path.abspath(filename).startswith(ENGINE_DIR)

# error_codes.proto's Code values.
OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION = 6, 7, 8, 9
ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS = 10, 11, 12, 13, 14, 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """An error raised while building or running a graph, naming the node where it can.

    `node_def` and `op` are those of the failing node (or None); `message` is TensorFlow's
    text. str() adds where the node was created, as TensorFlow 1.x appended "Caused by op ...".
    An error from running a node (engine.runtime.node_run.node_error) also carries, as fields, the
    node's name, its op type and the kernel's own message, and for a node inlined from a
    function that function's name; None elsewhere.
    """

    error_code = UNKNOWN
    node_name = op_type = kernel_message = function_name = None

    def __init__(self, node_def, op, message, error_code=None):
        super().__init__(message)
        self._node_def, self._op, self._message = node_def, op, message
        if error_code is not None:
            self.error_code = error_code

    @property
    def message(self):
        return self._message

    def __reduce__(self):
        """Picklable, as errors of a cluster run cross processes; the Operation stays behind."""
        state = {k: v for k, v in self.__dict__.items() if k != "_op"}
        return (_rebuilt, (type(self), self._node_def, self._message), state)

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    def __str__(self):
        text = self._message
        op = self._op
        if op is not None and getattr(op, "traceback", None):
            frame = _user_frame(op.traceback)
            if frame is not None:
                filename, lineno, _, line = frame
                text += (f"\n\nCaused by op {op.name!r} ({op.type}), defined at "
                         f"{filename}:{lineno}: {line}")
        return text


def _rebuilt(cls, node_def, message):
    return cls(node_def, None, message)


def _user_frame(traceback):
    """The innermost creation frame outside the engine: the line of the user's program."""
    for frame in reversed(traceback):
        if not is_engine_file(frame[0]):
            return frame
    return traceback[-1] if traceback else None


def _make(name, code):
    def __init__(self, node_def, op, message, *args, **kwargs):
        OpError.__init__(self, node_def, op, message, code)
    cls = type(name, (OpError,), {"__init__": __init__, "error_code": code})
    cls.__module__ = __name__
    return cls


CancelledError = _make("CancelledError", CANCELLED)
UnknownError = _make("UnknownError", UNKNOWN)
InvalidArgumentError = _make("InvalidArgumentError", INVALID_ARGUMENT)
DeadlineExceededError = _make("DeadlineExceededError", DEADLINE_EXCEEDED)
NotFoundError = _make("NotFoundError", NOT_FOUND)
AlreadyExistsError = _make("AlreadyExistsError", ALREADY_EXISTS)
PermissionDeniedError = _make("PermissionDeniedError", PERMISSION_DENIED)
ResourceExhaustedError = _make("ResourceExhaustedError", RESOURCE_EXHAUSTED)
FailedPreconditionError = _make("FailedPreconditionError", FAILED_PRECONDITION)
AbortedError = _make("AbortedError", ABORTED)
OutOfRangeError = _make("OutOfRangeError", OUT_OF_RANGE)
UnimplementedError = _make("UnimplementedError", UNIMPLEMENTED)
InternalError = _make("InternalError", INTERNAL)
UnavailableError = _make("UnavailableError", UNAVAILABLE)
DataLossError = _make("DataLossError", DATA_LOSS)
UnauthenticatedError = _make("UnauthenticatedError", UNAUTHENTICATED)

_BY_CODE = {cls.error_code: cls for cls in (
    CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
    AlreadyExistsError, PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError,
    AbortedError, OutOfRangeError, UnimplementedError, InternalError, UnavailableError,
    DataLossError, UnauthenticatedError)}


def exception_type_from_error_code(error_code):
    return _BY_CODE[error_code]


def error_code_from_exception_type(cls):
    return cls.error_code


# A name TensorFlow has here and the engine lacks says so (engine/framework/api_namespace.py).
from engine.framework.api_namespace import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("tf.errors")
