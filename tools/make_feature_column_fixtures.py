"""Write tests/fixtures/feature_columns/: for each graph of tests/engine/feature_column_cases.py
the nodes TensorFlow builds (nodes.json.gz, one node a line) and the values a run gives
(values.json), and
the errors its bad columns raise (errors.json).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_feature_column_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, gzip_bytes, node_list, nodes_json, tf_v1

import feature_column_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "feature_columns"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    values, nodes = {}, {}
    for name in cases.BUILDS:
        graph, values[name] = cases.run(tf, name)
        nodes[name] = node_list(graph)
    (OUT / "nodes.json.gz").write_bytes(gzip_bytes(nodes_json(nodes)))
    (OUT / "values.json").write_text(json.dumps(values, indent=1, sort_keys=True) + "\n")
    errors = {name: cases.error_text(tf, name) for name in cases.ERRORS}
    (OUT / "errors.json").write_text(json.dumps(errors, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(values)} graphs, {len(errors)} errors")


if __name__ == "__main__":
    main()
