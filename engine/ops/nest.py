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


def is_nested(value):
    """Whether `value` is a structure (list, tuple, namedtuple, dict) rather than a leaf."""
    return isinstance(value, (list, tuple, dict))


def _describe(value):
    return f"type={type(value).__name__} str={value}"


def _first_difference(a, b):
    """(error class, what differs) for the first place `a` and `b` part ways, or None."""
    if is_nested(a) != is_nested(b):
        seq, leaf = (a, b) if is_nested(a) else (b, a)
        return ValueError, (f'Substructure "{_describe(seq)}" is a sequence, while '
                            f'substructure "{_describe(leaf)}" is not')
    if not is_nested(a):
        return None
    if type(a) is not type(b) and not (isinstance(a, dict) and isinstance(b, dict)):
        return TypeError, (f"The two namedtuples don't have the same sequence type. First "
                           f"structure {_describe(a)} has type {type(a).__name__}, while "
                           f"second structure {_describe(b)} has type {type(b).__name__}")
    if isinstance(a, dict) and sorted(a) != sorted(b):
        return ValueError, (f"The two dictionaries don't have the same set of keys. First "
                            f"structure has keys {sorted(a)}, while second structure has "
                            f"keys {sorted(b)}.")
    if len(a) != len(b):
        return ValueError, (f"The two structures don't have the same number of elements. "
                            f"First structure: {_describe(a)}, second structure: "
                            f"{_describe(b)}")
    pairs = ((a[k], b[k]) for k in sorted(a)) if isinstance(a, dict) else zip(a, b)
    for x, y in pairs:
        difference = _first_difference(x, y)
        if difference:
            return difference
    return None


def assert_same_structure(a, b):
    """Raises as tf.nest does when `a` and `b` nest differently: ValueError, or TypeError
    where only a sequence's type differs (a tuple against a list).

    >>> assert_same_structure((1, [2]), ("a", ["b"]))
    >>> assert_same_structure((1, 2), [1, 2])
    Traceback (most recent call last):
    ...
    TypeError: The two structures don't have the same nested structure.
    <BLANKLINE>
    First structure: type=tuple str=(1, 2)
    <BLANKLINE>
    Second structure: type=list str=[1, 2]
    <BLANKLINE>
    More specifically: The two namedtuples don't have the same sequence type. First structure type=tuple str=(1, 2) has type tuple, while second structure type=list str=[1, 2] has type list
    Entire first structure:
    (., .)
    Entire second structure:
    [., .]
    """
    difference = _first_difference(a, b)
    if difference:
        error, detail = difference
        raise error(f"The two structures don't have the same nested structure.\n\nFirst "
                    f"structure: {_describe(a)}\n\nSecond structure: {_describe(b)}\n\n"
                    f"More specifically: {detail}\nEntire first structure:\n{_outline(a)}\n"
                    f"Entire second structure:\n{_outline(b)}")


class _Dot:
    def __repr__(self):
        return "."


def _outline(structure):
    """The structure with each leaf a dot, as TensorFlow's nest prints it ("[., (., .)]")."""
    return str(map_structure(lambda _: _Dot(), structure))
