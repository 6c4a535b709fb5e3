"""Write tests/fixtures/conv_quantized/: tf.conv, the Conv2DBackprop*V2 ops and the quantized
tf.nn ops of tests/engine/conv_quantized_cases.py, from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_conv_quantized_fixtures.py`.
values.npz, shapes.json, nodes.json.gz and errors.json as tools/fixture_common.py's
write_case_fixtures writes them; python_errors.json the graph-building errors; graphs.json
the nodes and static shapes of the ops TensorFlow's CPU cannot run.
"""

import json

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import conv_quantized_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "conv_quantized"


def main():
    tf = tf_v1()
    write_case_fixtures(tf, cases, OUT)
    (OUT / "python_errors.json").write_text(json.dumps(cases.python_errors(tf), indent=1)
                                            + "\n")
    graphs = {name: cases.graph_case(tf, name) for name in cases.GRAPH_CASES}
    (OUT / "graphs.json").write_text(json.dumps(graphs) + "\n")


if __name__ == "__main__":
    main()
