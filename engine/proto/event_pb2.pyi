from engine.proto import summary_pb2 as _summary_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class WorkerHealth(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OK: _ClassVar[WorkerHealth]
    RECEIVED_SHUTDOWN_SIGNAL: _ClassVar[WorkerHealth]
    INTERNAL_ERROR: _ClassVar[WorkerHealth]
    SHUTTING_DOWN: _ClassVar[WorkerHealth]

class WorkerShutdownMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEFAULT: _ClassVar[WorkerShutdownMode]
    NOT_CONFIGURED: _ClassVar[WorkerShutdownMode]
    WAIT_FOR_COORDINATOR: _ClassVar[WorkerShutdownMode]
    SHUTDOWN_AFTER_TIMEOUT: _ClassVar[WorkerShutdownMode]
OK: WorkerHealth
RECEIVED_SHUTDOWN_SIGNAL: WorkerHealth
INTERNAL_ERROR: WorkerHealth
SHUTTING_DOWN: WorkerHealth
DEFAULT: WorkerShutdownMode
NOT_CONFIGURED: WorkerShutdownMode
WAIT_FOR_COORDINATOR: WorkerShutdownMode
SHUTDOWN_AFTER_TIMEOUT: WorkerShutdownMode

class Event(_message.Message):
    __slots__ = ("wall_time", "step", "file_version", "graph_def", "summary", "log_message", "session_log", "tagged_run_metadata", "meta_graph_def", "source_metadata")
    WALL_TIME_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    FILE_VERSION_FIELD_NUMBER: _ClassVar[int]
    GRAPH_DEF_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    LOG_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    SESSION_LOG_FIELD_NUMBER: _ClassVar[int]
    TAGGED_RUN_METADATA_FIELD_NUMBER: _ClassVar[int]
    META_GRAPH_DEF_FIELD_NUMBER: _ClassVar[int]
    SOURCE_METADATA_FIELD_NUMBER: _ClassVar[int]
    wall_time: float
    step: int
    file_version: str
    graph_def: bytes
    summary: _summary_pb2.Summary
    log_message: LogMessage
    session_log: SessionLog
    tagged_run_metadata: TaggedRunMetadata
    meta_graph_def: bytes
    source_metadata: SourceMetadata
    def __init__(self, wall_time: _Optional[float] = ..., step: _Optional[int] = ..., file_version: _Optional[str] = ..., graph_def: _Optional[bytes] = ..., summary: _Optional[_Union[_summary_pb2.Summary, _Mapping]] = ..., log_message: _Optional[_Union[LogMessage, _Mapping]] = ..., session_log: _Optional[_Union[SessionLog, _Mapping]] = ..., tagged_run_metadata: _Optional[_Union[TaggedRunMetadata, _Mapping]] = ..., meta_graph_def: _Optional[bytes] = ..., source_metadata: _Optional[_Union[SourceMetadata, _Mapping]] = ...) -> None: ...

class SourceMetadata(_message.Message):
    __slots__ = ("writer",)
    WRITER_FIELD_NUMBER: _ClassVar[int]
    writer: str
    def __init__(self, writer: _Optional[str] = ...) -> None: ...

class LogMessage(_message.Message):
    __slots__ = ("level", "message")
    class Level(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        UNKNOWN: _ClassVar[LogMessage.Level]
        DEBUGGING: _ClassVar[LogMessage.Level]
        INFO: _ClassVar[LogMessage.Level]
        WARN: _ClassVar[LogMessage.Level]
        ERROR: _ClassVar[LogMessage.Level]
        FATAL: _ClassVar[LogMessage.Level]
    UNKNOWN: LogMessage.Level
    DEBUGGING: LogMessage.Level
    INFO: LogMessage.Level
    WARN: LogMessage.Level
    ERROR: LogMessage.Level
    FATAL: LogMessage.Level
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    level: LogMessage.Level
    message: str
    def __init__(self, level: _Optional[_Union[LogMessage.Level, str]] = ..., message: _Optional[str] = ...) -> None: ...

class SessionLog(_message.Message):
    __slots__ = ("status", "checkpoint_path", "msg")
    class SessionStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        STATUS_UNSPECIFIED: _ClassVar[SessionLog.SessionStatus]
        START: _ClassVar[SessionLog.SessionStatus]
        STOP: _ClassVar[SessionLog.SessionStatus]
        CHECKPOINT: _ClassVar[SessionLog.SessionStatus]
    STATUS_UNSPECIFIED: SessionLog.SessionStatus
    START: SessionLog.SessionStatus
    STOP: SessionLog.SessionStatus
    CHECKPOINT: SessionLog.SessionStatus
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_PATH_FIELD_NUMBER: _ClassVar[int]
    MSG_FIELD_NUMBER: _ClassVar[int]
    status: SessionLog.SessionStatus
    checkpoint_path: str
    msg: str
    def __init__(self, status: _Optional[_Union[SessionLog.SessionStatus, str]] = ..., checkpoint_path: _Optional[str] = ..., msg: _Optional[str] = ...) -> None: ...

class TaggedRunMetadata(_message.Message):
    __slots__ = ("tag", "run_metadata")
    TAG_FIELD_NUMBER: _ClassVar[int]
    RUN_METADATA_FIELD_NUMBER: _ClassVar[int]
    tag: str
    run_metadata: bytes
    def __init__(self, tag: _Optional[str] = ..., run_metadata: _Optional[bytes] = ...) -> None: ...

class WatchdogConfig(_message.Message):
    __slots__ = ("timeout_ms",)
    TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    timeout_ms: int
    def __init__(self, timeout_ms: _Optional[int] = ...) -> None: ...

class RequestedExitCode(_message.Message):
    __slots__ = ("exit_code",)
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    exit_code: int
    def __init__(self, exit_code: _Optional[int] = ...) -> None: ...

class WorkerHeartbeatRequest(_message.Message):
    __slots__ = ("shutdown_mode", "watchdog_config", "exit_code")
    SHUTDOWN_MODE_FIELD_NUMBER: _ClassVar[int]
    WATCHDOG_CONFIG_FIELD_NUMBER: _ClassVar[int]
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    shutdown_mode: WorkerShutdownMode
    watchdog_config: WatchdogConfig
    exit_code: RequestedExitCode
    def __init__(self, shutdown_mode: _Optional[_Union[WorkerShutdownMode, str]] = ..., watchdog_config: _Optional[_Union[WatchdogConfig, _Mapping]] = ..., exit_code: _Optional[_Union[RequestedExitCode, _Mapping]] = ...) -> None: ...

class WorkerHeartbeatResponse(_message.Message):
    __slots__ = ("health_status", "worker_log", "hostname")
    HEALTH_STATUS_FIELD_NUMBER: _ClassVar[int]
    WORKER_LOG_FIELD_NUMBER: _ClassVar[int]
    HOSTNAME_FIELD_NUMBER: _ClassVar[int]
    health_status: WorkerHealth
    worker_log: _containers.RepeatedCompositeFieldContainer[Event]
    hostname: str
    def __init__(self, health_status: _Optional[_Union[WorkerHealth, str]] = ..., worker_log: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., hostname: _Optional[str] = ...) -> None: ...
