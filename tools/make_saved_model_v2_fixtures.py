"""Write tests/fixtures/saved_model_v2/: what TensorFlow 2.21 does with
tf.compat.v1.saved_model.save and load_v2 in graph mode (v2 behaviour disabled), on
tests/engine/saved_model_v2_cases.py's module.

    .venv-tf/bin/python tools/make_saved_model_v2_fixtures.py

TensorFlow's behaviour, as these cases record it:
- save takes a Trackable (a tf.Module); anything else is a ValueError ("Expected an object of
  type `Trackable` ..."). A signature must be a tf.function with an input_signature or a
  concrete function (ValueError "Expected a TensorFlow function for which to generate a
  signature ..."); without `signatures=` the root's only traced tf.function with an input
  signature serves as serving_default. Ref variables cannot be saved (a TypeError from its
  restore function's Assign): the module's variables are resource ones.
- save reads the variables' values with the default session; without one it is a
  RuntimeError ("Unable to save checkpoint to ... without a default session").
- A function may capture tracked variables and graph tensors with a static value (saved as a
  Const and a `constant` object, `capture_<i>` of the functions); a variable no saved object
  holds is an AssertionError ("Tried to export a function which references an 'untracked'
  resource ..."), a placeholder a ValueError ("Unable to save function ... cannot be converted
  to a constant with `tf.get_static_value`"); the signature functions are checked first.
- It writes saved_model.pb (one `serve` MetaGraphDef: VarHandleOps named after the
  variables, `<key>_<input>` placeholders and a StatefulPartitionedCall of
  `__inference_signature_wrapper_<fn>_N` per signature, the `NoOp` init op as
  `__saved_model_init_op` and the saved_model_main_op collection, the object graph as a Const,
  a SaverDef over `__inference__traced_save_N` / `_restore_N` calls, the SavedObjectGraph:
  root, variables, functions with their traces `trace_0`, `signatures` map), variables/ (each
  variable by its object path and _CHECKPOINTABLE_OBJECT_GRAPH), fingerprint.pb and an
  empty assets/.
- load_v2 in a graph returns a user object whose variables are resource variables of the
  graph, uninitialized until their initializer (a RestoreV2 and AssignVariableOp) runs, as
  tf.global_variables_initializer() does; its tf.functions and `.signatures` build
  StatefulPartitionedCall ops in the graph; a signature takes its inputs by keyword and
  returns a dict; a tf.function saved with an input signature refuses arguments that do not
  fit it (TypeError "Binding inputs to tf.function failed ..."). Tags other than the one meta
  graph's are a ValueError ("Got an incompatible argument to `tags` ..."), a missing
  directory OSError "SavedModel file does not exist at: ...", a damaged saved_model.pb
  OSError "Cannot parse file b'...': ...".

Writes, per cases.PROGRAMS entry, tf_<name>/ (TensorFlow's SavedModel, without fingerprint.pb,
which no reader here needs), its cases.structure in structure.json and what load_v2 of it runs
to in outputs.json; and errors.json.
"""

import json
import shutil
import tempfile
from pathlib import Path

from fixture_common import FIXTURES, tf_v1

import saved_model_v2_cases as cases

OUT = FIXTURES / "saved_model_v2"


def main():
    tf = tf_v1()
    from tensorflow.core.protobuf import saved_model_pb2, trackable_object_graph_pb2
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    structures, outputs = {}, {}
    for name, (save, run) in cases.PROGRAMS.items():
        model = OUT / f"tf_{name}"
        save(tf, model)
        (model / "fingerprint.pb").unlink()
        saved_model = saved_model_pb2.SavedModel()
        saved_model.ParseFromString((model / "saved_model.pb").read_bytes())
        structures[name] = cases.structure(
            saved_model, trackable_object_graph_pb2.TrackableObjectGraph())
        outputs[name] = {key: {"dtype": str(value.dtype), "shape": list(value.shape),
                               "values": value.ravel().tolist()}
                         for key, value in run(tf, model).items()}
    (OUT / "structure.json").write_text(json.dumps(structures, indent=1) + "\n")
    (OUT / "outputs.json").write_text(json.dumps(outputs, indent=1, sort_keys=True) + "\n")
    errors = {}
    with tempfile.TemporaryDirectory() as root:
        for name in cases.ERROR_CASES:
            errors[name] = cases.error_of(tf, name, Path(root) / name)
    (OUT / "errors.json").write_text(json.dumps(errors, indent=1) + "\n")
    print(f"{sum(map(len, outputs.values()))} outputs, {len(errors)} errors; wrote {OUT}")


if __name__ == "__main__":
    main()
