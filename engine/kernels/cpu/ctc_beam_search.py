"""TensorFlow's CTC beam search (ctc_beam_search.h with its default scorer) and the
gtl::TopN that holds its leaves, with libstdc++'s heap and sort steps, so that leaves of
equal probability come out in TensorFlow's order."""

import math

import numpy as np

_LOG_ZERO = -np.inf


def log_sum_exp(a, b):
    """ctc_loss_util.h's LogSumExp: exact when a side is log(0), else the larger plus
    log1pf(expf(smaller - larger)), in float whatever the type of a and b."""
    if a == _LOG_ZERO:
        return b
    if b == _LOG_ZERO:
        return a
    small, large = (b, a) if a > b else (a, b)
    return large + type(large)(np.log1p(np.exp(np.float32(small - large))))


class _Probability:
    __slots__ = ("total", "blank", "label")

    def __init__(self):
        self.reset()

    def reset(self):
        self.total = self.blank = self.label = _LOG_ZERO

    def copy_from(self, other):
        self.total, self.blank, self.label = other.total, other.blank, other.label


class _Entry:
    """A beam: the labels from the root to here, and P(blank), P(label), P(total)."""

    __slots__ = ("parent", "label", "children", "oldp", "newp")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.oldp, self.newp = _Probability(), _Probability()

    def active(self):
        return self.newp.total != _LOG_ZERO

    def child(self, label):
        if label not in self.children:
            self.children[label] = _Entry(self, label)
        return self.children[label]

    def label_seq(self, merge_repeated):
        labels, previous, entry = [], -1, self
        while entry.parent is not None:
            if not merge_repeated or entry.label != previous:
                labels.append(entry.label)
            previous, entry = entry.label, entry.parent
        return labels[::-1]


def _better(a, b):
    """TensorFlow's BeamComparer: a before b when its total probability is higher."""
    return a.newp.total > b.newp.total


# -- libstdc++'s heap and sort, with `less` = _better (so the heap's front is the worst) ----

def _push_heap(items, hole, top, value):
    parent = (hole - 1) // 2
    while hole > top and _better(items[parent], value):
        items[hole] = items[parent]
        hole, parent = parent, (parent - 1) // 2
    items[hole] = value


def _adjust_heap(items, hole, length, value):
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if _better(items[child], items[child - 1]):
            child -= 1
        items[hole] = items[child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        items[hole] = items[child - 1]
        hole = child - 1
    _push_heap(items, hole, top, value)


def _make_heap(items, length):
    if length < 2:
        return
    for parent in range((length - 2) // 2, -1, -1):
        _adjust_heap(items, parent, length, items[parent])


def _pop_heap(items, length):
    """Moves the front to position length - 1 and re-heaps the rest."""
    if length > 1:
        value = items[length - 1]
        items[length - 1] = items[0]
        _adjust_heap(items, 0, length - 1, value)


def _sort_heap(items, length):
    while length > 1:
        _pop_heap(items, length)
        length -= 1


def _insertion_sort(items, first, last):
    for i in range(first + 1, last):
        value = items[i]
        if _better(value, items[first]):
            items[first + 1:i + 1] = items[first:i]
            items[first] = value
        else:
            j = i
            while _better(value, items[j - 1]):
                items[j] = items[j - 1]
                j -= 1
            items[j] = value


def _unguarded_insertion_sort(items, first, last):
    for i in range(first, last):
        value, j = items[i], i
        while _better(value, items[j - 1]):
            items[j] = items[j - 1]
            j -= 1
        items[j] = value


def _move_median_to_first(items, result, a, b, c):
    def swap(i, j):
        items[i], items[j] = items[j], items[i]
    if _better(items[a], items[b]):
        if _better(items[b], items[c]):
            swap(result, b)
        elif _better(items[a], items[c]):
            swap(result, c)
        else:
            swap(result, a)
    elif _better(items[a], items[c]):
        swap(result, a)
    elif _better(items[b], items[c]):
        swap(result, c)
    else:
        swap(result, b)


def _partition(items, first, last, pivot):
    while True:
        while _better(items[first], items[pivot]):
            first += 1
        last -= 1
        while _better(items[pivot], items[last]):
            last -= 1
        if first >= last:
            return first
        items[first], items[last] = items[last], items[first]
        first += 1


def _introsort(items, first, last, depth):
    while last - first > 16:
        if depth == 0:
            part = items[first:last]
            _make_heap(part, len(part))
            _sort_heap(part, len(part))
            items[first:last] = part
            return
        depth -= 1
        _move_median_to_first(items, first, first + 1, first + (last - first) // 2, last - 1)
        cut = _partition(items, first + 1, last, first)
        _introsort(items, cut, last, depth)
        last = cut


def _std_sort(items):
    n = len(items)
    if n < 2:
        return
    _introsort(items, 0, n, 2 * int(math.log2(n)))
    if n > 16:
        _insertion_sort(items, 0, 16)
        _unguarded_insertion_sort(items, 16, n)
    else:
        _insertion_sort(items, 0, n)


class TopN:
    """gtl::TopN<BeamEntry*, BeamComparer>: the best `limit` entries pushed."""

    _UNORDERED, _BOTTOM_KNOWN, _HEAP_SORTED = range(3)

    def __init__(self, limit):
        self.limit = limit
        self.reset()

    def reset(self):
        self.items, self.state = [], self._UNORDERED

    def size(self):
        return len(self.items)

    def push(self, value):
        if self.limit == 0:
            return
        items = self.items
        if self.state != self._HEAP_SORTED:
            items.append(value)
            if len(items) == self.limit + 1:
                _make_heap(items, len(items))
                _pop_heap(items, len(items))
                items.pop()
                self.state = self._HEAP_SORTED
            elif self.state != self._UNORDERED and not _better(items[-1], items[0]):
                items[0], items[-1] = items[-1], items[0]
        elif _better(value, items[0]):
            _pop_heap(items, len(items))
            items[-1] = value
            _push_heap(items, len(items) - 1, 0, value)

    def peek_bottom(self):
        items = self.items
        if self.state == self._UNORDERED:
            bottom = 0
            for i in range(1, len(items)):
                if _better(items[bottom], items[i]):
                    bottom = i
            items[0], items[bottom] = items[bottom], items[0]
            self.state = self._BOTTOM_KNOWN
        return items[0]

    def unsorted(self):
        return list(self.items)

    def extract(self):
        """The entries, best first; the TopN is left empty."""
        items, state = self.items, self.state
        self.reset()
        if state != self._HEAP_SORTED:
            _std_sort(items)
        else:
            _sort_heap(items, len(items))
        return items


class BeamSearch:
    """One batch entry's search: step() per time step, then top_paths()."""

    def __init__(self, num_classes, beam_width, dtype):
        self.num_classes, self.blank, self.dtype = num_classes, num_classes - 1, dtype
        self.leaves = TopN(beam_width)
        root = _Entry(None, -1)
        root.newp.total = root.newp.blank = dtype.type(0)
        self.leaves.push(root)

    def leaf_count(self):
        return self.leaves.size()

    def step(self, logits):
        leaves = self.leaves
        max_coeff = logits.max()
        total = self.dtype.type(0)
        for value in logits - max_coeff:   # in order, as TensorFlow's loop adds them
            total += np.exp(value)
        norm_offset = max_coeff + np.log(total)
        branches = leaves.extract()
        for entry in branches:
            entry.oldp.copy_from(entry.newp)
        for entry in branches:
            if entry.parent is not None:
                parent = entry.parent
                if parent.active():
                    previous = (parent.oldp.blank if entry.label == parent.label
                                else parent.oldp.total)
                    entry.newp.label = log_sum_exp(entry.newp.label, previous)
                entry.newp.label = entry.newp.label + (logits[entry.label] - norm_offset)
            entry.newp.blank = entry.oldp.total + logits[self.blank] - norm_offset
            entry.newp.total = log_sum_exp(entry.newp.blank, entry.newp.label)
            leaves.push(entry)

        def is_candidate(probability):
            return probability.total > _LOG_ZERO and (
                leaves.size() < leaves.limit
                or probability.total > leaves.peek_bottom().newp.total)

        for entry in branches:
            if not is_candidate(entry.oldp):
                continue
            for label in range(self.num_classes):
                if label == self.blank:
                    continue
                child = entry.child(label)
                if child.active():
                    continue
                child.newp.blank = _LOG_ZERO
                previous = entry.oldp.blank if label == entry.label else entry.oldp.total
                child.newp.label = logits[label] - norm_offset + previous
                child.newp.total = child.newp.label
                if is_candidate(child.newp):
                    if leaves.size() == leaves.limit:
                        leaves.peek_bottom().newp.reset()
                    leaves.push(child)
                else:
                    child.oldp.reset()
                    child.newp.reset()

    def top_paths(self, count, merge_repeated):
        """[(labels, log probability)] of the `count` best leaves, best first."""
        best = TopN(count)
        for entry in self.leaves.unsorted():
            best.push(entry)
        return [(entry.label_seq(merge_repeated), entry.newp.total)
                for entry in best.extract()[:count]]
