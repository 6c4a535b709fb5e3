"""tf.train's session machinery of TF 1.x: MonitoredTrainingSession and its hooks."""
