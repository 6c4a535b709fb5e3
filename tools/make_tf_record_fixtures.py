"""Write tests/fixtures/tf_record/: TFRecord files by TensorFlow, and what its readers make of
damaged ones.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_tf_record_fixtures.py`.
records.{plain,gzip,zlib}.tfrecord hold tests/engine/tf_record_cases.py's records (three
tf.train.Examples, an empty record, a 10 KB one) written by tf.python_io.TFRecordWriter
without compression, GZIP and ZLIB. errors.json holds, per damaged file of the cases module,
what tf.python_io.tf_record_iterator and tf.data.TFRecordDataset read: the number of
records before the error, and the error (class, message; the dataset's is the kernel's line);
its "api" entry the errors of misused writers and options (cases.api_errors).
parse_example.json holds, per cases.PARSE_CASES entry, what tf.parse_example or
tf.parse_single_example built (nodes, static shapes) and gave (values, or the kernel's error).
"""

import json
import tempfile
from pathlib import Path

from fixture_common import tf_v1

import tf_record_cases as cases  # tests/engine: on sys.path through fixture_common


def main():
    tf = tf_v1()
    cases.FIXTURES.mkdir(parents=True, exist_ok=True)
    records = cases.records(tf)
    for compression in cases.COMPRESSIONS:
        options = tf.python_io.TFRecordOptions(compression)
        with tf.python_io.TFRecordWriter(str(cases.fixture_path(compression)), options) as w:
            for record in records:
                w.write(record)
    plain = cases.fixture_path("").read_bytes()
    damaged = {**cases.damaged(plain),
               **cases.damaged_compressed(cases.fixture_path("GZIP").read_bytes(),
                                          cases.fixture_path("ZLIB").read_bytes())}
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (compression, data) in damaged.items():
            path = Path(tmp) / f"{name}.tfrecord"
            path.write_bytes(data)
            got, error = cases.read_with_iterator(tf, path, compression)
            assert got == records[:len(got)], name
            got_ds, error_ds = cases.read_with_dataset(tf, path, compression)
            assert got_ds == records[:len(got_ds)], name
            results[name] = {"iterator": [len(got), error], "dataset": [len(got_ds), error_ds]}
        results["api"] = cases.api_errors(tf, tmp)
    text = json.dumps(results, indent=1).replace(str(tmp), "<tmp>")
    (cases.FIXTURES / "errors.json").write_text(text + "\n")
    parsed = {name: cases.run_parse_case(tf, name) for name in cases.PARSE_CASES}
    (cases.FIXTURES / "parse_example.json").write_text(json.dumps(parsed, indent=0) + "\n")
    print(f"wrote {len(cases.COMPRESSIONS)} record files and {len(results)} damaged-file "
          f"results to {cases.FIXTURES}")


if __name__ == "__main__":
    main()
