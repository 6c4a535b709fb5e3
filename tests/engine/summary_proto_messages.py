"""Proto messages built through TensorFlow's or the engine's exported classes, the same way
(tools/make_summary_proto_fixtures.py and test_summary_protos.py)."""


def messages(tf):
    """{class name: message} for tf.HistogramProto, SummaryMetadata, LogMessage, TensorInfo
    and tf.train.ServerDef."""
    histogram = tf.HistogramProto(min=-1.5, max=4.0, num=5, sum=6.5, sum_squares=21.25,
                                  bucket_limit=[0.0, 1.0, 4.0], bucket=[1, 2, 2])
    metadata = tf.SummaryMetadata(display_name="loss", summary_description="training loss")
    metadata.plugin_data.plugin_name = "scalars"
    metadata.plugin_data.content = b"\x08\x01"
    log = tf.LogMessage(level=tf.LogMessage.WARN, message="disk almost full")
    info = tf.TensorInfo(name="x:0", dtype=tf.float32.as_datatype_enum)
    info.tensor_shape.dim.add(size=-1)
    info.tensor_shape.dim.add(size=3)
    server = tf.train.ServerDef(job_name="worker", task_index=1, protocol="grpc", port=2222)
    job = server.cluster.job.add(name="worker")
    job.tasks[0] = "localhost:2222"
    job.tasks[1] = "localhost:2223"
    server.default_session_config.intra_op_parallelism_threads = 2
    return {"HistogramProto": histogram, "SummaryMetadata": metadata, "LogMessage": log,
            "TensorInfo": info, "ServerDef": server}
