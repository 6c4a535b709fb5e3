"""Write tests/fixtures/train_hooks/cases.json: tf.train's FeedFnHook, FinalOpsHook,
GlobalStepWaiterHook, CheckpointSaverListener, session creators, assert_global_step and the
SaverDef / ClusterDef / JobDef protos as TensorFlow runs them (tests/engine/train_hook_cases.py).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_train_hook_fixtures.py`.
"""

import json

from fixture_common import FIXTURES, tf_v1

import train_hook_cases as cases  # tests/engine: on sys.path through fixture_common

OUT = FIXTURES / "train_hooks"


def main():
    tf = tf_v1()
    OUT.mkdir(parents=True, exist_ok=True)
    results = {name: build(tf) for name, build in cases.CASES.items()}
    (OUT / "cases.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(results)} cases to {OUT}")


if __name__ == "__main__":
    main()
