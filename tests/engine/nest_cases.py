"""The cases of tests/fixtures/nest/cases.json (tools/make_nest_fixtures.py): tf.nest's five
functions on the structures TF1-era programs pass it (lists, tuples, namedtuples, dicts and
OrderedDicts, None, strings and arrays as leaves), each case an expression over `nest`, `np`,
`Point` and `OrderedDict`, its result or its error recorded as text."""

import collections

import numpy as np

Point = collections.namedtuple("Point", ["x", "y"])
OrderedDict = collections.OrderedDict

CASES = {
    "flatten_nested": "nest.flatten([1, (2, [3, 4]), {'b': 5, 'a': 6}])",
    "flatten_dict_order": "nest.flatten({'zeta': 1, 'alpha': 2, 'mid': {'y': 3, 'x': 4}})",
    "flatten_ordered_dict": "nest.flatten(OrderedDict([('z', 1), ('a', 2)]))",
    "flatten_namedtuple": "nest.flatten(Point(x=[1, 2], y=3))",
    "flatten_leaves": "nest.flatten([None, 'text', b'bytes', 7.5])",
    "flatten_array_leaf": "[a.tolist() for a in nest.flatten([np.arange(3), (np.ones(2),)])]",
    "flatten_empty": "nest.flatten([[], (), {}, [[]]])",
    "flatten_scalar": "nest.flatten(3)",
    "flatten_set_leaf": "len(nest.flatten({1, 2}))",
    "pack": "nest.pack_sequence_as([0, (0, {'b': 0, 'a': 0})], [1, 2, 3, 4])",
    "pack_namedtuple": "nest.pack_sequence_as(Point(x=0, y=[0, 0]), ['a', 'b', 'c'])",
    "pack_ordered_dict": "nest.pack_sequence_as(OrderedDict([('z', 0), ('a', 0)]), [1, 2])",
    "pack_scalar": "nest.pack_sequence_as(0, [9])",
    "pack_too_few": "nest.pack_sequence_as([0, 0, 0], [1, 2])",
    "pack_too_many": "nest.pack_sequence_as([0, 0], [1, 2, 3])",
    "map_one": "nest.map_structure(lambda v: v * 10, {'a': [1, 2], 'b': (3,)})",
    "map_two": "nest.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)])",
    "map_mismatch": "nest.map_structure(lambda a, b: a, [1, 2], [1, 2, 3])",
    "map_type_mismatch": "nest.map_structure(lambda a, b: a, (1, 2), [1, 2])",
    "map_no_check_types": "nest.map_structure(lambda a, b: a + b, (1, 2), [3, 4], check_types=False)",
    "map_no_structure": "nest.map_structure(lambda: 1)",
    "map_bad_kwarg": "nest.map_structure(lambda a: a, [1], bogus=True)",
    "same_ok": "nest.assert_same_structure([1, (2, 3)], ['a', ('b', 'c')])",
    "same_lengths": "nest.assert_same_structure([1, 2], [1, 2, 3])",
    "same_types": "nest.assert_same_structure((1, 2), [1, 2])",
    "same_no_check_types": "nest.assert_same_structure((1, 2), [1, 2], check_types=False)",
    "same_keys": "nest.assert_same_structure({'a': 1}, {'b': 1})",
    "same_leaf_vs_seq": "nest.assert_same_structure([1, 2], [1, [2]])",
    "is_nested": "[nest.is_nested(v) for v in ([1], (1,), {'a': 1}, 'ab', None, np.zeros(2), "
                 "Point(1, 2), {1, 2}, 3)]",
}


def evaluate(nest, expression):
    """('value', repr) or ('error', class name, the message's first line)."""
    try:
        value = eval(expression, {"nest": nest, "np": np, "Point": Point,  # noqa: S307
                                  "OrderedDict": OrderedDict})
    except Exception as error:  # noqa: BLE001 - the class and message are the answer
        return ["error", type(error).__name__, str(error).splitlines()[0] if str(error) else ""]
    return ["value", repr(value)]
