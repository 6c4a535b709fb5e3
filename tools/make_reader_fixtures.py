"""Write tests/fixtures/readers/: what TensorFlow 2.21's file readers, tf.read_file and
tf.write_file, and tf.decode_csv give for tests/engine/reader_cases.py's cases.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_reader_fixtures.py`.
reads.json: per READ_CASES entry, each read's [key, value] or error, and the reader's
counters after the reads and after a reset. csv.json: per CSV_CASES entry, the graph
decode_csv built, the outputs' static shapes and the values or the kernel's error.
files.json: per FILE_CASES entry, each read or write's result; plus "api", the names
tf.compat.v1 has. The input files are made in a temporary directory, written as <tmp>.
"""

import json
import tempfile

from fixture_common import tf_v1

import reader_cases as cases  # tests/engine: on sys.path through fixture_common


def dump(name, results):
    (cases.FIXTURES / name).write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


def main():
    tf = tf_v1()
    cases.FIXTURES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        cases.write_inputs(tmp)
        dump("reads.json", {name: cases.run_read_case(tf, name, tmp)
                            for name in cases.READ_CASES})
        files = {name: cases.run_file_case(tf, name, tmp) for name in cases.FILE_CASES}
    files["api"] = cases.api_names(tf)
    dump("files.json", files)
    dump("csv.json", {name: cases.run_csv_case(tf, name) for name in cases.CSV_CASES})
    print(f"wrote {len(cases.READ_CASES)} read, {len(cases.FILE_CASES)} file and "
          f"{len(cases.CSV_CASES)} decode_csv results to {cases.FIXTURES}")


if __name__ == "__main__":
    main()
