"""Write tests/fixtures/random_gen_math/: TensorFlow's values, static shapes, graph nodes, run
errors (errors.json) and build errors (api_errors.json) of tests/engine/random_gen_math_cases.py
(tf.random.Generator, tf.random_index_shuffle, tf.math.sobol_sample, approximate top-k, the
N-d FFTs, tf.lookup.StaticVocabularyTable, the SDCA ops).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_random_gen_math_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, node_list, tf_v1, write_case_fixtures

import random_gen_math_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "random_gen_math"


def main():
    tf = tf_v1()
    write_case_fixtures(tf, cases, OUT)
    graphs = {}
    for name in cases.GRAPH_CASES:
        shapes, dtypes = cases.graph_case(tf, name)
        with tf.Graph().as_default() as graph:
            cases.build_case(tf, name)
        graphs[name] = {"shapes": shapes, "dtypes": dtypes, "nodes": node_list(graph)}
    api_errors = {name: list(cases.run_api_error_case(tf, name))
                  for name in cases.API_ERROR_CASES}
    api_errors["fftnd_gradient"] = list(cases.fftnd_gradient_error(tf))
    api_errors["generator_split"] = list(cases.generator_split_error(tf))
    graphs["global_generator"] = cases.global_generator_structure(tf)
    (OUT / "graphs.json").write_text(json.dumps(graphs, indent=0) + "\n")
    (OUT / "api_errors.json").write_text(json.dumps(api_errors, indent=0) + "\n")


if __name__ == "__main__":
    main()
