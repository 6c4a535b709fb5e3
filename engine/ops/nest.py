"""Nested structures of tensors: the part of tf.nest that tf.while_loop and tf.cond need.

Lists, tuples, namedtuples and dicts (keys in sorted order, as tf.nest orders them).

>>> flatten([1, (2, {"b": 3, "a": 4})])
[1, 2, 4, 3]
>>> pack_sequence_as([0, (0, 0)], [7, 8, 9])
[7, (8, 9)]
"""

def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(value, "_fields")


def flatten(structure):
    if isinstance(structure, dict):
        return [x for key in sorted(structure) for x in flatten(structure[key])]
    if isinstance(structure, (list, tuple)):
        return [x for item in structure for x in flatten(item)]
    return [structure]


def flatten_up_to(shallow, structure):
    """`structure` flattened to the leaves of `shallow` (shape invariants are lists)."""
    if isinstance(shallow, dict):
        return [x for key in sorted(shallow) for x in flatten_up_to(shallow[key], structure[key])]
    if isinstance(shallow, (list, tuple)):
        return [x for s, v in zip(shallow, structure) for x in flatten_up_to(s, v)]
    return [structure]


def pack_sequence_as(structure, flat):
    flat = list(flat)
    position = [0]

    def pack(s):
        if isinstance(s, dict):
            return type(s)((key, pack(s[key])) for key in sorted(s))
        if _is_namedtuple(s):
            return type(s)(*[pack(item) for item in s])
        if isinstance(s, (list, tuple)):
            return type(s)(pack(item) for item in s)
        value = flat[position[0]]
        position[0] += 1
        return value
    return pack(structure)


def map_structure(fn, structure):
    return pack_sequence_as(structure, [fn(x) for x in flatten(structure)])
