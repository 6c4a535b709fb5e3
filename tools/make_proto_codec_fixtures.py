"""Write tests/fixtures/proto_codec/: sample.desc (the FileDescriptorSet of
tests/engine/proto_codec_cases.py's message) and TensorFlow's decode_proto/encode_proto
results for its cases.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_proto_codec_fixtures.py`.
values.npz, shapes.json, nodes.json.gz, errors.json as tools/fixture_common.py's
write_case_fixtures writes them; python_errors.json the graph-building errors (none: TensorFlow
checks these graphs only when they run).
"""

import json

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import proto_codec_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "proto_codec"


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "sample.desc").write_bytes(cases.descriptor_set().SerializeToString())
    tf = tf_v1()
    write_case_fixtures(tf, cases, OUT)
    (OUT / "python_errors.json").write_text(json.dumps(cases.python_errors(tf), indent=1)
                                            + "\n")


if __name__ == "__main__":
    main()
