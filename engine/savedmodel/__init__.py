"""tf.saved_model as TF 1.x had it: SavedModelBuilder, simple_save, loader.load, signature helpers;
and TF2's save and load_v2 as tf.compat.v1 runs them in a graph (save.py, load.py).

engine/api/input_output.py binds `tf.saved_model` to SAVED_MODEL below (a namespace, not this
package, whose submodules are not the API's: tf.saved_model.builder is a namespace of one class).
"""

from engine.framework.api_namespace import Namespace
from engine.savedmodel import builder as _builder, constants as _constants, loader as _loader
from engine.savedmodel import signatures as _signatures
from engine.savedmodel import save_options as _save_options
from engine.savedmodel import load as _load, save as _save

_SIGNATURE_UTILS = {name: getattr(_signatures, name) for name in (
    "build_signature_def", "classification_signature_def", "is_valid_signature",
    "predict_signature_def", "regression_signature_def")}
_UTILS = {name: getattr(_signatures, name) for name in ("build_tensor_info", "get_tensor_from_tensor_info")}


def _constants_of(names):
    return {name: getattr(_constants, name) for name in names}


SAVED_MODEL = Namespace(
    "tf.saved_model",
    builder=Namespace("tf.saved_model.builder", SavedModelBuilder=_builder.SavedModelBuilder),
    Builder=_builder.SavedModelBuilder,
    loader=Namespace("tf.saved_model.loader", load=_loader.load,
                     maybe_saved_model_directory=_loader.maybe_saved_model_directory),
    load=_loader.load,
    maybe_saved_model_directory=_loader.maybe_saved_model_directory,
    contains_saved_model=_loader.maybe_saved_model_directory,
    simple_save=_builder.simple_save,
    save=_save.save, load_v2=_load.load,
    main_op=Namespace("tf.saved_model.main_op", main_op=_builder.main_op,
                      main_op_with_restore=_builder.main_op_with_restore),
    main_op_with_restore=_builder.main_op_with_restore,
    signature_def_utils=Namespace("tf.saved_model.signature_def_utils", **_SIGNATURE_UTILS),
    utils=Namespace("tf.saved_model.utils", **_UTILS),
    tag_constants=Namespace("tf.saved_model.tag_constants", **_constants_of(_constants.TAG_CONSTANTS)),
    signature_constants=Namespace("tf.saved_model.signature_constants",
                                  **_constants_of(_constants.SIGNATURE_CONSTANTS)),
    constants=Namespace("tf.saved_model.constants", **_constants_of(_constants.CONSTANTS)),
    SaveOptions=_save_options.SaveOptions, Asset=_save_options.Asset,
    **_SIGNATURE_UTILS, **_UTILS, **_constants_of(_constants.TAG_CONSTANTS),
    **_constants_of(_constants.SIGNATURE_CONSTANTS), **_constants_of(_constants.CONSTANTS))
