"""tf.train: optimizers, the Saver and checkpoints (object-based too: Checkpoint and
CheckpointManager), hooks and monitored sessions, queue runners and input producers,
learning-rate schedules, tf.train.Example, ClusterSpec and Server, and the SaverDef, ClusterDef,
JobDef and ServerDef protos."""

from engine.framework.api_namespace import Namespace as _Namespace

from engine.checkpoint import management as _checkpoint_management
from engine.checkpoint import reader as _checkpoint_reader, state as _checkpoint_state
from engine.cluster import cluster_spec as _cluster_spec, server as _cluster_server
from engine.framework.devices import replica_device_setter as _replica_device_setter
from engine.ops import learning_rate_decay as _decay, meta_graph as _meta_graph
from engine.ops import optimizers as _optimizers, optimizers_tf1 as _optimizers_tf1
from engine.ops import saver as _saver, train as _train
from engine.proto import cluster_pb2 as _cluster_pb2, saver_pb2 as _saver_pb2
from engine.proto import tensorflow_server_pb2 as _tensorflow_server_pb2
from engine.proto import example_pb2 as _example_pb2, feature_pb2 as _feature_pb2
from engine.summary.reader import summary_iterator as _summary_iterator
from engine.training import basic_hooks as _hooks, checkpoint_hooks as _checkpoint_hooks
from engine.training import basic_loops as _basic_loops, checkpoint_init as _checkpoint_init
from engine.training import checkpoint_object as _checkpoint_object
from engine.training import coordinator as _coordinator, input as _input
from engine.training import profiler_hook as _profiler_hook
from engine.training import monitored_session as _monitored
from engine.training import moving_averages as _moving_averages
from engine.training import queue_runner as _queue_runner
from engine.training import session_creators as _session_creators, step_hooks as _step_hooks
from engine.training import session_manager as _session_manager, supervisor as _supervisor
from engine.training import sync_replicas_optimizer as _sync_replicas
from engine.training import warm_starting as _warm_starting
from engine.training import session_run_hook as _run_hook


def _members(module, names):
    return {name: getattr(module, name) for name in names}


train = _Namespace(
    "tf.train", write_graph=_train.write_graph, global_step=_train.global_step,
    get_global_step=_train.get_global_step, create_global_step=_train.create_global_step,
    get_or_create_global_step=_train.get_or_create_global_step,
    assert_global_step=_train.assert_global_step,
    # Optimizers.
    **_members(_optimizers, ("Optimizer", "GradientDescentOptimizer", "MomentumOptimizer",
                             "AdamOptimizer", "RMSPropOptimizer", "AdagradOptimizer")),
    **_members(_optimizers_tf1, ("AdadeltaOptimizer", "FtrlOptimizer",
                                 "ProximalGradientDescentOptimizer", "ProximalAdagradOptimizer",
                                 "AdagradDAOptimizer")),
    ExponentialMovingAverage=_moving_averages.ExponentialMovingAverage,
    **_members(_decay, ("cosine_decay", "exponential_decay", "inverse_time_decay",
                        "natural_exp_decay", "piecewise_constant", "piecewise_constant_decay",
                        "polynomial_decay", "linear_cosine_decay", "cosine_decay_restarts",
                        "noisy_linear_cosine_decay")),
    # Checkpoints and meta graphs.
    Saver=_saver.Saver, import_meta_graph=_saver.import_meta_graph,
    export_meta_graph=_meta_graph.export_meta_graph,
    **_members(_checkpoint_state, ("latest_checkpoint", "get_checkpoint_state",
                                   "checkpoint_exists", "update_checkpoint_state")),
    **_members(_checkpoint_management, ("generate_checkpoint_state_proto",
                                        "get_checkpoint_mtimes", "remove_checkpoint",
                                        "checkpoints_iterator")),
    init_from_checkpoint=_checkpoint_init.init_from_checkpoint,
    **_members(_checkpoint_object, ("Checkpoint", "CheckpointManager", "CheckpointOptions")),
    warm_start=_warm_starting.warm_start, VocabInfo=_warm_starting.VocabInfo,
    **_members(_checkpoint_reader, ("NewCheckpointReader", "load_checkpoint", "list_variables",
                                    "load_variable")),
    # Hooks and monitored sessions.
    **_members(_hooks, ("LoggingTensorHook", "NanLossDuringTrainingError", "NanTensorHook",
                        "SecondOrStepTimer", "StepCounterHook", "StopAtStepHook",
                        "SummarySaverHook")),
    CheckpointSaverHook=_checkpoint_hooks.CheckpointSaverHook,
    ProfilerHook=_profiler_hook.ProfilerHook,
    CheckpointSaverListener=_checkpoint_hooks.CheckpointSaverListener,
    **_members(_step_hooks, ("FeedFnHook", "FinalOpsHook", "GlobalStepWaiterHook")),
    **_members(_session_creators, ("SessionCreator", "ChiefSessionCreator",
                                   "WorkerSessionCreator")),
    **_members(_run_hook, ("SessionRunArgs", "SessionRunContext", "SessionRunHook",
                           "SessionRunValues")),
    **_members(_monitored, ("MonitoredSession", "MonitoredTrainingSession", "Scaffold",
                            "SingularMonitoredSession")),
    summary_iterator=_summary_iterator, basic_train_loop=_basic_loops.basic_train_loop,
    # Queue runners and the input producers built on them.
    Coordinator=_coordinator.Coordinator, LooperThread=_coordinator.LooperThread,
    QueueRunner=_queue_runner.QueueRunner,
    add_queue_runner=_queue_runner.add_queue_runner,
    start_queue_runners=_queue_runner.start_queue_runners,
    queue_runner=_Namespace("tf.train.queue_runner", QueueRunner=_queue_runner.QueueRunner,
                            add_queue_runner=_queue_runner.add_queue_runner,
                            start_queue_runners=_queue_runner.start_queue_runners),
    **_members(_input, ("match_filenames_once", "limit_epochs", "input_producer",
                        "string_input_producer", "range_input_producer", "slice_input_producer", "batch",
                        "shuffle_batch", "batch_join", "shuffle_batch_join", "maybe_batch",
                        "maybe_batch_join", "maybe_shuffle_batch", "maybe_shuffle_batch_join")),
    # tf.train.Example and its parts: the protocol messages (engine/proto/example.proto).
    **_members(_example_pb2, ("Example", "SequenceExample")),
    **_members(_feature_pb2, ("Features", "Feature", "FeatureList", "FeatureLists",
                              "BytesList", "FloatList", "Int64List")),
    # Clusters, and the sessions of their tasks.
    replica_device_setter=_replica_device_setter, ClusterSpec=_cluster_spec.ClusterSpec,
    ClusterDef=_cluster_pb2.ClusterDef, JobDef=_cluster_pb2.JobDef,
    SaverDef=_saver_pb2.SaverDef, ServerDef=_tensorflow_server_pb2.ServerDef,
    Server=_cluster_server.Server, Supervisor=_supervisor.Supervisor,
    SessionManager=_session_manager.SessionManager,
    SyncReplicasOptimizer=_sync_replicas.SyncReplicasOptimizer)
