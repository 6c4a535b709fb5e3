"""Rigid-body rotation with cross products, a physics-course TensorFlow 1.x script.

Torque r x F, angular momentum L = r x p summed over particles, tf.einsum for the inertia
tensor, tf.matrix_solve for the angular velocity, and an explicit Euler integration of
particles on a spinning body in a tf.while_loop; energy and momentum printed as it runs.
"""

import numpy as np

import engine as tf

rng = np.random.RandomState(5)
positions = rng.uniform(-1.0, 1.0, (6, 3)).astype(np.float32)
masses = rng.uniform(0.5, 2.0, 6).astype(np.float32)


def main():
    r = tf.constant(positions, name="r")
    m = tf.constant(masses, name="m")
    omega = tf.constant([0.0, 0.0, 2.0], name="omega")
    v = tf.cross(tf.tile(omega[None, :], [6, 1]), r)
    p = m[:, None] * v
    L = tf.reduce_sum(tf.cross(r, p), axis=0)
    force = tf.constant([0.0, -9.81, 0.0])
    torque = tf.reduce_sum(tf.cross(r, m[:, None] * force), axis=0)
    r2 = tf.reduce_sum(r * r, axis=1)
    inertia = (tf.einsum("i,i->", m, r2) * tf.eye(3)
               - tf.einsum("i,ij,ik->jk", m, r, r))
    omega_back = tf.matrix_solve(inertia, L[:, None])
    kinetic = 0.5 * tf.reduce_sum(m * tf.reduce_sum(v * v, axis=1))

    dt = 0.05

    def step(i, pos, energy):
        vel = tf.cross(tf.tile(omega[None, :], [6, 1]), pos)
        new_pos = pos + dt * vel
        # keep each particle on its orbit: rescale to the old radius about the axis
        radius_old = tf.norm(pos[:, :2], axis=1, keepdims=True)
        radius_new = tf.norm(new_pos[:, :2], axis=1, keepdims=True)
        new_pos = tf.concat([new_pos[:, :2] * radius_old / radius_new, new_pos[:, 2:]], 1)
        e = 0.5 * tf.reduce_sum(m * tf.reduce_sum(vel * vel, axis=1))
        return i + 1, new_pos, energy.write(i, e)

    _, final, energies = tf.while_loop(
        lambda i, *_: i < 20, step,
        [tf.constant(0), r, tf.TensorArray(tf.float32, size=20)])
    energies = energies.stack()

    with tf.Session() as sess:
        print("angular momentum:", sess.run(L))
        print("torque of gravity:", sess.run(torque))
        print("inertia tensor:")
        print(sess.run(inertia))
        print("omega recovered:", np.round(sess.run(omega_back).ravel(), 5) + 0.0)
        print("kinetic energy: %.5f" % sess.run(kinetic))
        e, pos = sess.run([energies, final])
        print("energy every 5 steps:", e[::5])
        print("final positions:")
        print(pos)
        print("|L x omega| =", sess.run(tf.norm(tf.cross(L, omega))))


if __name__ == "__main__":
    main()
