"""Nested elements of a dataset, as tf.data's nest sees them: tuples, namedtuples and dicts hold
components (dict keys in sorted order); a list is one component, a tensor made from it. A dict
packed keeps its own key order, the values going in by sorted key (tf.nest.pack_sequence_as).

>>> flatten(({"b": 1, "a": 2}, 3))
[2, 1, 3]
>>> pack_as(({"b": 0, "a": 0}, 0), [7, 8, 9])
({'b': 8, 'a': 7}, 9)
"""


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(value, "_fields")


def flatten(structure):
    if isinstance(structure, dict):
        return [x for key in sorted(structure) for x in flatten(structure[key])]
    if isinstance(structure, tuple):
        return [x for item in structure for x in flatten(item)]
    return [structure]


def pack_as(structure, flat):
    """The values of `flat` in the nesting of `structure`."""
    values = iter(flat)
    result = _pack(structure, values)
    if next(values, _END) is not _END:
        raise ValueError("Too many values to pack into the dataset's element structure")
    return result


_END = object()


def _pack(structure, values):
    if isinstance(structure, dict):
        packed = {key: _pack(structure[key], values) for key in sorted(structure)}
        return type(structure)((key, packed[key]) for key in structure)
    if _is_namedtuple(structure):
        return type(structure)(*[_pack(item, values) for item in structure])
    if isinstance(structure, tuple):
        return tuple(_pack(item, values) for item in structure)
    value = next(values, _END)
    if value is _END:
        raise ValueError("Too few values to pack into the dataset's element structure")
    return value


def map_structure(fn, *structures):
    """`fn` applied to the leaves of `structures` (of one nesting), in that nesting."""
    flats = [flatten(s) for s in structures]
    return pack_as(structures[0], [fn(*leaves) for leaves in zip(*flats)])


def assert_same_structure(a, b):
    if _shape_of(a) != _shape_of(b):
        raise ValueError(f"The two structures don't have the same nested structure.\n\n"
                         f"First structure: {a!r}\n\nSecond structure: {b!r}")


def _shape_of(structure):
    if isinstance(structure, dict):
        return ("dict", tuple((key, _shape_of(structure[key])) for key in sorted(structure)))
    if isinstance(structure, tuple):
        return ("tuple", tuple(_shape_of(item) for item in structure))
    return "leaf"
