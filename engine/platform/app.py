"""tf.app.run: absl's app.run, with flags TensorFlow does not know passed on to main's argv."""

import sys

from engine.platform import flags


def _parse_flags_tolerate_undef(argv):
    """Parses the known flags; an unknown one stays in argv instead of stopping the program."""
    return flags.FLAGS(sys.argv if argv is None else argv, known_only=True)


def run(main=None, argv=None):
    """Parses flags, then calls main(argv) and exits with what it returns (absl.app.run)."""
    from absl.app import run as absl_run
    main = main or sys.modules["__main__"].main
    absl_run(main=main, argv=argv, flags_parser=_parse_flags_tolerate_undef)
