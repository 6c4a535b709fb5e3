"""A counter shared by worker threads through a tf.CriticalSection: each worker's run reads
the count, adds to it and writes it back as separate ops, which the section makes atomic;
then three executes of one run and a section returning an assign. Prints the final counts
and the values the runs saw, sorted (a section promises one at a time, not an order)."""

import threading

import engine as tf

WORKERS, STEPS = 4, 20


def build():
    """The counter, its section and what runs it; returns them by role."""
    count = tf.get_variable("count", initializer=0, use_resource=True)
    section = tf.CriticalSection(name="counter_section")

    def bump():
        seen = count.read_value()
        with tf.control_dependencies([count.assign(seen + 1)]):
            return tf.identity(seen)
    step = section.execute(bump, name="bump")
    three = [section.execute(bump) for _ in range(3)]
    add_ten = section.execute(lambda: count.assign_add(10), name="add_ten")
    return {"count": count, "step": step, "three": three, "add_ten": add_ten,
            "init": tf.global_variables_initializer()}


def main():
    g = build()
    with tf.Session() as sess:
        sess.run(g["init"])
        seen = []

        def worker():
            for _ in range(STEPS):
                seen.append(int(sess.run(g["step"])))
        threads = [threading.Thread(target=worker) for _ in range(WORKERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print("count after the workers:", sess.run(g["count"]))
        print("every value seen once:", sorted(seen) == list(range(WORKERS * STEPS)))
        print("three executes of one run:", sorted(int(v) for v in sess.run(g["three"])))
        print("add_ten returns:", sess.run(g["add_ten"]))
        print("final count:", sess.run(g["count"]))


if __name__ == "__main__":
    main()
