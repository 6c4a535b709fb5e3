"""Nested structures of tensors: tf.nest, and what tf.while_loop and tf.cond need of it.

Lists, tuples, namedtuples and dicts (OrderedDicts too) are structures; everything else is a
leaf (None, strings, arrays, sets). A dict's values go in its sorted keys' order, and a packed
dict keeps the template's own key order, as tf.nest does (tests/engine/test_nest.py compares
with TensorFlow 2.21's tf.nest).

>>> flatten([1, (2, {"b": 3, "a": 4})])
[1, 2, 4, 3]
>>> pack_sequence_as([0, (0, 0)], [7, 8, 9])
[7, (8, 9)]
"""

def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(value, "_fields")


def flatten(structure, expand_composites=False):
    """The leaves of `structure`, a dict's in its sorted keys' order (tf.nest.flatten)."""
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


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """`flat_sequence`'s values in `structure`'s shape (tf.nest.pack_sequence_as)."""
    flat = list(flat_sequence)
    atoms = len(flatten(structure))
    if atoms != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {atoms} atoms, but "
                         f"flat_sequence had {len(flat)} items.  Structure: {structure}, "
                         f"flat_sequence: {flat_sequence}.")
    position = [0]

    def pack(s):
        if isinstance(s, dict):
            packed = {key: pack(s[key]) for key in sorted(s)}
            return type(s)((key, packed[key]) for key in s)  # the template's key order
        if _is_namedtuple(s):
            return type(s)(*[pack(item) for item in s])
        if isinstance(s, (list, tuple)):
            return type(s)(pack(item) for item in s)
        value = flat[position[0]]
        position[0] += 1
        return value
    return pack(structure)


def map_structure(func, *structure, **kwargs):
    """func over the leaves of one or more structures of the same shape (tf.nest's)."""
    if not structure:
        raise ValueError("Must provide at least one structure")
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", False)
    if kwargs:
        raise ValueError("Only valid keyword arguments are `check_types` and "
                         f"`expand_composites`, not: `{'`, `'.join(kwargs)}`")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    leaves = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*values) for values in zip(*leaves)])


def is_nested(value):
    """Whether `value` is a structure (list, tuple, namedtuple, dict) rather than a leaf."""
    return isinstance(value, (list, tuple, dict))


def _describe(value):
    return f"type={type(value).__name__} str={value}"


def _first_difference(a, b, check_types=True):
    """(error class, what differs) for the first place `a` and `b` part ways, or None;
    without check_types a tuple and a list of the same leaves do not differ."""
    if is_nested(a) != is_nested(b):
        seq, leaf = (a, b) if is_nested(a) else (b, a)
        return ValueError, (f'Substructure "{_describe(seq)}" is a sequence, while '
                            f'substructure "{_describe(leaf)}" is not')
    if not is_nested(a):
        return None
    if (check_types and type(a) is not type(b)
            and not (isinstance(a, dict) and isinstance(b, dict))):
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
        difference = _first_difference(x, y, check_types)
        if difference:
            return difference
    return None


def assert_same_structure(a, b, check_types=True, expand_composites=False):
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
    difference = _first_difference(a, b, check_types)
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
