from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class CheckpointState(_message.Message):
    __slots__ = ("model_checkpoint_path", "all_model_checkpoint_paths", "all_model_checkpoint_timestamps", "last_preserved_timestamp")
    MODEL_CHECKPOINT_PATH_FIELD_NUMBER: _ClassVar[int]
    ALL_MODEL_CHECKPOINT_PATHS_FIELD_NUMBER: _ClassVar[int]
    ALL_MODEL_CHECKPOINT_TIMESTAMPS_FIELD_NUMBER: _ClassVar[int]
    LAST_PRESERVED_TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    model_checkpoint_path: str
    all_model_checkpoint_paths: _containers.RepeatedScalarFieldContainer[str]
    all_model_checkpoint_timestamps: _containers.RepeatedScalarFieldContainer[float]
    last_preserved_timestamp: float
    def __init__(self, model_checkpoint_path: _Optional[str] = ..., all_model_checkpoint_paths: _Optional[_Iterable[str]] = ..., all_model_checkpoint_timestamps: _Optional[_Iterable[float]] = ..., last_preserved_timestamp: _Optional[float] = ...) -> None: ...
