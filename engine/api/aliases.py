"""TensorFlow's other names for the engine's functions: tf.sigmoid is also tf.math.sigmoid and
tf.nn.sigmoid, tf.reduce_sum also tf.math.reduce_sum, and so on, as tf.compat.v1 binds them.

tf_aliases.json (written by tools/extract_api_aliases.py from TensorFlow 2.21's tf.compat.v1)
lists each group of names TensorFlow gives one object. When engine/api/ loads, every name of a
group the engine lacks is bound to the object the engine has under another name of the group,
where the namespace it lives in exists here: the engine's table of what it offers stays its
own modules, and TensorFlow's word decides which names are one API. A namespace that is an
engine module (tf.nn is engine/ops/nn.py, tf.dtypes engine/framework/dtypes.py) gets the name
as a module attribute; nothing the engine binds is replaced. A group of which the engine has
two different objects is left alone (a test reports it).
"""

import json
from pathlib import Path

_TABLE = Path(__file__).with_name("tf_aliases.json")


def groups():
    """TensorFlow's alias groups, each a list of qualified names ("tf.math.sigmoid")."""
    return json.loads(_TABLE.read_text())["aliases"]


def _owner_and_leaf(api_module, qualified):
    """(the namespace holding `qualified` in the engine, or None; the last name)."""
    *parents, leaf = qualified.split(".")[1:]
    owner = api_module
    for part in parents:
        owner = vars(owner).get(part) if hasattr(owner, "__dict__") else None
        if owner is None:
            return None, leaf
    return owner, leaf


def _lookup(api_module, qualified):
    owner, leaf = _owner_and_leaf(api_module, qualified)
    return None if owner is None else vars(owner).get(leaf)


def install(api_module):
    """Binds the missing names of each group; returns the groups the engine has two
    different objects for (left as they are)."""
    conflicts = []
    for names in groups():
        present = {id(value): value for value in (_lookup(api_module, n) for n in names)
                   if value is not None}
        if len(present) != 1:
            if len(present) > 1:
                conflicts.append(names)
            continue
        (value,) = present.values()
        for name in names:
            owner, leaf = _owner_and_leaf(api_module, name)
            if owner is not None and leaf not in vars(owner):
                setattr(owner, leaf, value)
    return conflicts
