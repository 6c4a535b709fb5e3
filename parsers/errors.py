"""The one error every reader raises for bad input: which file, and what is wrong with it."""

from parsers.printable import excerpt, printable

# The longest message printed whole; past it, an excerpt (a 10 MB word must not become a line).
MESSAGE_LIMIT = 1000


class InputError(Exception):
    """A file or directory that cannot be read as what it claims to be.

    The CLI prints it as `error: <path>: <message>` and exits with status 2.

    >>> str(InputError("x.pb", "truncated protobuf at byte 12"))
    'x.pb: truncated protobuf at byte 12'

    The message is kept to one line, so the CLI prints exactly one, and what came from a file
    (a name, a path) cannot drive the terminal:

    >>> InputError("x.pbtxt", "line 1:2: bad\\nthing").message
    'line 1:2: bad thing'
    >>> str(InputError("a\\nb\\x1b[2J.pb", "name \\x1b[31mred"))
    'a\\\\nb\\\\x1b[2J.pb: name \\\\x1b[31mred'
    """

    def __init__(self, path, message):
        message = " ".join(str(message).split("\n"))
        message = excerpt(message, MESSAGE_LIMIT)
        shown_path = printable(path)
        super().__init__(f"{shown_path}: {message}")
        self.path = str(path)
        self.message = message
