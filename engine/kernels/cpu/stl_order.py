"""libstdc++'s std::priority_queue and std::sort, step for step: where a TensorFlow kernel
orders equal keys with them (CombinedNonMaxSuppression's per-class queue and final sort),
only the same algorithm gives the same order (checked against g++ 12 on 300 random
tie-heavy inputs). `less(a, b)` is the C++ comparator.

>>> queue = PriorityQueue(lambda a, b: a[0] < b[0])
>>> for item in [(1, "a"), (3, "b"), (3, "c"), (2, "d")]:
...     queue.push(item)
>>> [queue.pop() for _ in range(4)]
[(3, 'b'), (3, 'c'), (2, 'd'), (1, 'a')]
>>> items = [(1, i) for i in range(20)] + [(2, 0)]
>>> sort(items, lambda a, b: a[0] > b[0])[:3]
[(2, 0), (1, 10), (1, 19)]
"""

_THRESHOLD = 16  # libstdc++'s _S_threshold


def _push_heap(heap, hole, top, value, less):
    parent = (hole - 1) // 2
    while hole > top and less(heap[parent], value):
        heap[hole] = heap[parent]
        hole = parent
        parent = (hole - 1) // 2
    heap[hole] = value


def _adjust_heap(heap, hole, length, value, less, base=0):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(heap[base + child], heap[base + child - 1]):
            child -= 1
        heap[base + hole] = heap[base + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        heap[base + hole] = heap[base + child - 1]
        hole = child - 1
    view = _Offset(heap, base)
    _push_heap(view, hole, top, value, less)


class _Offset:
    """heap[base:] as a list-like view (libstdc++'s heap functions take an iterator)."""

    def __init__(self, items, base):
        self.items, self.base = items, base

    def __getitem__(self, i):
        return self.items[self.base + i]

    def __setitem__(self, i, value):
        self.items[self.base + i] = value


def _pop_heap(items, first, last, result, less):
    """__pop_heap(first, last, result): *result's value sifted in, the top moved to result."""
    value = items[result]
    items[result] = items[first]
    _adjust_heap(items, 0, last - first, value, less, base=first)


class PriorityQueue:
    """std::priority_queue<T, vector<T>, Compare>: push_heap on emplace, pop_heap on pop."""

    def __init__(self, less):
        self.items, self.less = [], less

    def __len__(self):
        return len(self.items)

    def push(self, item):
        self.items.append(item)
        _push_heap(self.items, len(self.items) - 1, 0, item, self.less)

    def pop(self):
        items = self.items
        top = items[0]
        if len(items) > 1:
            _pop_heap(items, 0, len(items) - 1, len(items) - 1, self.less)
        items.pop()
        return top


def _move_median_to_first(items, result, a, b, c, less):
    if less(items[a], items[b]):
        if less(items[b], items[c]):
            pick = b
        elif less(items[a], items[c]):
            pick = c
        else:
            pick = a
    elif less(items[a], items[c]):
        pick = a
    elif less(items[b], items[c]):
        pick = c
    else:
        pick = b
    items[result], items[pick] = items[pick], items[result]


def _unguarded_partition(items, first, last, pivot, less):
    while True:
        while less(items[first], items[pivot]):
            first += 1
        last -= 1
        while less(items[pivot], items[last]):
            last -= 1
        if not first < last:
            return first
        items[first], items[last] = items[last], items[first]
        first += 1


def _heap_sort(items, first, last, less):
    """__partial_sort(first, last, last): make_heap, then sort_heap."""
    length = last - first
    if length > 1:
        parent = (length - 2) // 2
        while True:
            _adjust_heap(items, parent, length, items[first + parent], less, base=first)
            if parent == 0:
                break
            parent -= 1
    while last - first > 1:
        last -= 1
        _pop_heap(items, first, last, last, less)


def _introsort_loop(items, first, last, depth, less):
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_sort(items, first, last, less)
            return
        depth -= 1
        mid = first + (last - first) // 2
        _move_median_to_first(items, first, first + 1, mid, last - 1, less)
        cut = _unguarded_partition(items, first + 1, last, first, less)
        _introsort_loop(items, cut, last, depth, less)
        last = cut


def _linear_insert(items, last, less):
    value = items[last]
    previous = last - 1
    while less(value, items[previous]):
        items[last] = items[previous]
        last = previous
        previous -= 1
    items[last] = value


def _insertion_sort(items, first, last, less):
    for i in range(first + 1, last):
        if less(items[i], items[first]):
            value = items[i]
            items[first + 1:i + 1] = items[first:i]
            items[first] = value
        else:
            _linear_insert(items, i, less)


def sort(items, less):
    """std::sort(items.begin(), items.end(), less) on a copy: introsort, then the final
    insertion sort."""
    items = list(items)
    count = len(items)
    if count > 1:
        _introsort_loop(items, 0, count, 2 * (count.bit_length() - 1), less)
        if count > _THRESHOLD:
            _insertion_sort(items, 0, _THRESHOLD, less)
            for i in range(_THRESHOLD, count):
                _linear_insert(items, i, less)
        else:
            _insertion_sort(items, 0, count, less)
    return items
