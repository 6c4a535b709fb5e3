"""Write tests/fixtures/train_utilities/cases.json: noisy_linear_cosine_decay, the checkpoint
helpers and basic_train_loop as TensorFlow runs them (tests/engine/train_utility_cases.py).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_train_utility_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import train_utility_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "train_utilities"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    results = {name: build(tf) for name, build in cases.CASES.items()}
    (OUT / "cases.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(results)} cases to {OUT}")


if __name__ == "__main__":
    main()
