"""The counter graph, then every operation's name, type, edges, NodeDef, OpDef and traceback."""

import engine as tf

import counter


def show_operations(graph):
    for operation in graph.get_operations():
        print("======================")
        print("=== name ===")
        print(operation.name)
        print("=== type ===")
        print(operation.type)
        print("=== inputs ===")
        for tensor in operation.inputs:
            print(tensor)
        print("=== control_inputs ===")
        for control_input in operation.control_inputs:
            print(control_input)
        print("=== outputs ===")
        for tensor in operation.outputs:
            print(tensor)
        print("=== node_def ===")
        print(operation.node_def)
        print("=== op_def ===")
        print(operation.op_def)
        print("=== traceback ===")
        print(operation.traceback)
        print("")


def main():
    g = counter.build()
    with tf.Session() as sess:
        sess.run(g["init"])
        print(sess.run(g["state"]))
        for _ in range(3):
            sess.run(g["update"])
            print(sess.run(g["state"]))
    show_operations(tf.get_default_graph())


if __name__ == "__main__":
    main()
