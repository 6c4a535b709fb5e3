"""The one error every reader raises for bad input: which file, and what is wrong with it."""


class InputError(Exception):
    """A file or directory that cannot be read as what it claims to be.

    The CLI prints it as `error: <path>: <message>` and exits with status 2.

    >>> str(InputError("x.pb", "truncated protobuf at byte 12"))
    'x.pb: truncated protobuf at byte 12'

    The message is kept to one line, so the CLI prints exactly one:

    >>> InputError("x.pbtxt", "line 1:2: bad\\nthing").message
    'line 1:2: bad thing'
    """

    def __init__(self, path, message):
        message = " ".join(str(message).split("\n"))
        super().__init__(f"{path}: {message}")
        self.path = str(path)
        self.message = message
