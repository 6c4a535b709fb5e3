"""Write tests/fixtures/print/print.json: what TensorFlow prints for tests/engine/print_cases.py
(the bytes on file descriptors 1 and 2 and in a "file://" stream, the graph's nodes), what
tf.strings.format gives, the errors for bad input, and the LOG lines of the logging streams
at each TF_CPP_MIN_LOG_LEVEL.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_print_fixtures.py`.
"""

import json
import os
import sys
import tempfile

from fixture_common import FIXTURES, tf_v1

import print_cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "print" / "print.json"


def main():
    tf = tf_v1()
    with tempfile.TemporaryDirectory() as directory:
        printed = {name: print_cases.run_case(tf, name, directory) for name in print_cases.CASES}
    fixture = {"print": printed,
               "format": {name: print_cases.run_format_case(tf, name)
                          for name in print_cases.FORMAT_CASES},
               "errors": {name: print_cases.run_error(tf, name) for name in print_cases.ERRORS},
               "log_levels": {level: print_cases.run_log_program(
                   sys.executable, "import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()",
                   level, os.environ) for level in print_cases.LOG_LEVELS}}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(fixture['print'])} print cases, {len(fixture['format'])} format "
          f"cases, {len(fixture['errors'])} errors")


if __name__ == "__main__":
    main()
