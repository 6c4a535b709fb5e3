"""bench/tf2_saved_model.py: the SavedModel it makes without TensorFlow reads as a TF2 one (its
functions, objects, checkpoint names and variables), on a two-layer model."""

import bench
import parsers
from bench import tf2_saved_model
from parsers.saved_variables import SavedVariables
from views.body_search import BodySearch


def test_a_small_model_reads_as_a_tf2_saved_model(tmp_path):
    assert "bench.tf2_saved_model" in bench.WORKLOADS
    top, functions, body_nodes = tf2_saved_model.synthesize(tmp_path / "model", layers=2)
    loaded = parsers.load(tmp_path / "model")
    assert len(loaded.graphs[0].graph_def.node) == top and len(loaded.functions) == functions
    assert sum(f.node_count for f in loaded.functions) == body_nodes
    reached = [f.name for f in loaded.functions.reached_from("serve")]
    assert reached[:2] == ["__inference_signature_wrapper_serving_default", "__inference_model_call_0"]
    assert "__inference_layer_1_call_fn_1" in reached
    assert "__inference_layer_1_call_fn_0" not in reached  # the training variant: uncalled
    names = sorted(info.name for info in loaded.checkpoint.variables)
    assert names == ["layer_0/conv/bias", "layer_0/conv/kernel", "layer_1/conv/bias",
                     "layer_1/conv/kernel"]
    saved = SavedVariables(loaded)
    layer = loaded.functions.get("__inference_layer_1_call_fn_1")
    assert saved.info_of(layer.label, "layer_1/conv/Conv2D/ReadVariableOp").name == "layer_1/conv/kernel"
    search = BodySearch(loaded.functions, "serve")
    assert search.summary(search.find("Relu")) == "8 matches in 8 functions"
