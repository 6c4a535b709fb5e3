"""Control flow, TensorFlow 1.x's: tf.cond, tf.case and tf.while_loop built from Switch, Merge,
Enter, Exit and NextIteration (v1, v1_ops) inside their contexts (context, cond_context,
while_context), group/tuple/with_dependencies (ops), and their gradients (grad, state,
while_grad_loops)."""
