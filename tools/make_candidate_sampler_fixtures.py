"""Write tests/fixtures/candidate_samplers/: the all, fixed-unigram and learned-unigram
candidate samplers' draws and expected counts over three runs, from TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_candidate_sampler_fixtures.py`.
The graphs are tests/engine/candidate_sampler_cases.py's (values.npz, shapes.json,
nodes.json.gz and errors.json as tools/fixture_common.py's write_case_fixtures describes them).
"""

from fixture_common import FIXTURES, tf_v1, write_case_fixtures

import candidate_sampler_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "candidate_samplers"


def main():
    write_case_fixtures(tf_v1(), cases, OUT)


if __name__ == "__main__":
    main()
