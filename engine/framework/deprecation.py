"""TensorFlow's deprecated-argument lookup: a renamed argument given by its new or old name."""


def deprecated_argument_lookup(new_name, new_value, old_name, old_value):
    """The value given by either name (tf's util.deprecation.deprecated_argument_lookup).

    >>> deprecated_argument_lookup("axis", None, "reduction_indices", 1)
    1
    """
    if new_value is not None and old_value is not None:
        raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
    return new_value if new_value is not None else old_value
