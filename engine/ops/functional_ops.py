"""tf.map_fn, tf.scan, tf.foldl and tf.foldr as TensorFlow 1.x builds them (map_fn.py and
functional_ops.py in graph mode): the elements unstacked into TensorArrays, one tf.while_loop
whose body reads element i, calls `fn` and (map_fn, scan) writes the result into another
TensorArray, stacked after the loop. The graphs are TensorFlow's node for node, so gradients
flow as TensorFlow's do: through the while loop's gradient and the TensorArray gradients.

TensorFlow also sets the variable scope's caching device for the loop (so variables read in
`fn` are cached beside their reader); that only changes device strings, which the engine's
placer decides alone, so it is left out.
"""

from engine.framework.default_graph import name_scope
from engine.ops import array_ops, nest
from engine.ops.constant_op import constant
from engine.ops.control_flow.while_loop import while_loop
from engine.ops.convert import convert_to_tensor
from engine.ops.tensor_array_ops import TensorArray
from engine.framework.tensor_shape import Dimension, TensorShape, dimension_value


def _check_callable(fn, message):
    if not callable(fn):
        raise TypeError(message.format(name=getattr(fn, "__name__", repr(fn))))


def _static_length(elems_flat):
    """The elements' common static length (a Dimension, maybe unknown), checked as TF does."""
    n_static = Dimension(dimension_value(elems_flat[0].shape.with_rank_at_least(1)[0]))
    for elem in elems_flat[1:]:
        n_static.assert_is_compatible_with(
            Dimension(dimension_value(elem.shape.with_rank_at_least(1)[0])))
    return n_static


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """fn applied to each element of `elems` (unpacked on axis 0), the results stacked."""
    if fn_output_signature is None:
        fn_output_signature = dtype
    _check_callable(fn, "The provided function {name} is not callable.fn must be callable.")
    parallel_iterations = parallel_iterations or 10
    elems_flat = nest.flatten(elems)
    if not elems_flat:
        raise ValueError(f"elems must be a Tensor or (possibly nested) sequence of Tensors. "
                         f"Got {elems}, which does not contain any Tensors.")
    with name_scope(name, "map", elems_flat):
        elems_flat = [convert_to_tensor(t, name="elem") for t in elems_flat]
        if elems_flat[0].shape.ndims is not None and elems_flat[0].shape.ndims < 1:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
        if fn_output_signature is None:
            # TensorFlow's "most general" spec of each input: its dtype, shape unknown.
            result_dtypes, result_structure = [t.dtype for t in elems_flat], elems
        else:
            result_dtypes = nest.flatten(fn_output_signature)
            result_structure = fn_output_signature
        n_static = _static_length(elems_flat)
        n = n_static.value or array_ops.shape(elems_flat[0])[0]
        elems_ta = [TensorArray(dtype=t.dtype, size=n, dynamic_size=False, infer_shape=True)
                    for t in elems_flat]
        elems_ta = [ta.unstack(t) for ta, t in zip(elems_ta, elems_flat)]
        i = constant(0)
        results_ta = [TensorArray(dtype=d, size=n, dynamic_size=False, infer_shape=infer_shape,
                                  element_shape=TensorShape(None)) for d in result_dtypes]

        def compute(i, tas):
            value = nest.pack_sequence_as(elems, [ta.read(i) for ta in elems_ta])
            result = fn(value)
            nest.assert_same_structure(result_structure, result)
            tas = [ta.write(i, v) for ta, v in zip(tas, nest.flatten(result))]
            return (i + 1, tas)

        _, results_ta = while_loop(lambda i, _: i < n, compute, (i, results_ta),
                                   parallel_iterations=parallel_iterations,
                                   back_prop=back_prop, swap_memory=swap_memory,
                                   maximum_iterations=n)
        results = [ta.stack() for ta in results_ta]
        for r in results:
            r.set_shape(TensorShape([n_static]).concatenate(r.shape[1:]))
        return nest.pack_sequence_as(result_structure, results)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """Every accumulator fn(a, element) gives, stacked: a[i] = fn(a[i-1], elems[i])."""
    _check_callable(fn, "{name} is not callable. Please provide a callable function.")
    input_is_sequence = nest.is_nested(elems)

    def input_pack(flat):
        return nest.pack_sequence_as(elems, flat) if input_is_sequence else flat[0]

    output_structure = elems if initializer is None else initializer
    output_is_sequence = nest.is_nested(output_structure)

    def output_flatten(value):
        return nest.flatten(value) if output_is_sequence else [value]

    def output_pack(flat):
        return nest.pack_sequence_as(output_structure, flat) if output_is_sequence else flat[0]

    elems_flat = nest.flatten(elems) if input_is_sequence else [elems]
    with name_scope(name, "scan", elems_flat):
        elems_flat = [convert_to_tensor(elem, name="elem") for elem in elems_flat]
        n = dimension_value(elems_flat[0].shape[0])
        if n is None:
            n = array_ops.shape(elems_flat[0])[0]
        elems_ta = [TensorArray(dtype=elem.dtype, size=n, dynamic_size=False,
                                element_shape=elem.shape[1:], infer_shape=True)
                    for elem in elems_flat]
        elems_ta = [ta.unstack(elem) for ta, elem in zip(elems_ta, elems_flat)]
        if initializer is None:
            a_flat = [elem.read(n - 1 if reverse else 0) for elem in elems_ta]
            i = 1
        else:
            a_flat = [convert_to_tensor(init) for init in output_flatten(initializer)]
            i = 0
        accs_ta = [TensorArray(dtype=init.dtype, size=n,
                               element_shape=init.shape if infer_shape else None,
                               dynamic_size=False, infer_shape=infer_shape) for init in a_flat]
        if initializer is None:
            accs_ta = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(accs_ta, a_flat)]

        def compute(i, a_flat, tas):
            packed_elems = input_pack([elem_ta.read(i) for elem_ta in elems_ta])
            a_out = fn(output_pack(a_flat), packed_elems)
            nest.assert_same_structure(output_structure, a_out)
            flat_a_out = output_flatten(a_out)
            tas = [ta.write(i, value) for ta, value in zip(tas, flat_a_out)]
            return (i - 1 if reverse else i + 1, flat_a_out, tas)

        if reverse:
            initial_i = n - 1 - i
            condition = lambda i, _1, _2: i >= 0  # noqa: E731
        else:
            initial_i = i
            condition = lambda i, _1, _2: i < n  # noqa: E731
        _, _, results_ta = while_loop(condition, compute, (initial_i, a_flat, accs_ta),
                                      parallel_iterations=parallel_iterations,
                                      back_prop=back_prop, swap_memory=swap_memory,
                                      maximum_iterations=n)
        results_flat = [r.stack() for r in results_ta]
        n_static = _static_length(elems_flat)
        for r in results_flat:
            r.set_shape(TensorShape([n_static]).concatenate(r.shape[1:]))
        return output_pack(results_flat)


def _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, right):
    """foldl (right=False) or foldr: the accumulator after the last element."""
    _check_callable(fn, "{name} is not callable. Please provide a callable function.")
    with name_scope(name, "foldr" if right else "foldl", [elems]):
        elems_flat = [convert_to_tensor(elem, name="elem") for elem in nest.flatten(elems)]
        n = dimension_value(elems_flat[0].shape[0]) or array_ops.shape(elems_flat[0])[0]
        # TensorFlow unstacks the structure as given, not the tensors converted above: a
        # Python or NumPy element becomes a second constant, as here.
        elems_ta = nest.pack_sequence_as(elems, [
            TensorArray(dtype=converted.dtype, size=n, dynamic_size=False,
                        infer_shape=True).unstack(elem)
            for elem, converted in zip(nest.flatten(elems), elems_flat)])
        if right:
            if initializer is None:
                i = n - 1
                a = nest.map_structure(lambda elem: elem.read(i), elems_ta)
            else:
                i, a = n, initializer

            def compute(i, a):
                i -= 1
                a_out = fn(a, nest.map_structure(lambda elem: elem.read(i), elems_ta))
                return [i, a_out]

            condition = lambda i, a: i > 0  # noqa: E731
        else:
            if initializer is None:
                a = nest.map_structure(lambda elem: elem.read(0), elems_ta)
                i = constant(1)
            else:
                a, i = initializer, constant(0)

            def compute(i, a):
                a = fn(a, nest.map_structure(lambda elem: elem.read(i), elems_ta))
                return [i + 1, a]

            condition = lambda i, a: i < n  # noqa: E731
        _, r_a = while_loop(condition, compute, [i, a], parallel_iterations=parallel_iterations,
                            back_prop=back_prop, swap_memory=swap_memory,
                            maximum_iterations=n)
        return r_a


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """fn folded over `elems` from the first element: fn(...fn(fn(init, e0), e1)..., en)."""
    return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name,
                 right=False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """fn folded over `elems` from the last element: fn(...fn(fn(init, en), en-1)..., e0)."""
    return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name,
                 right=True)
