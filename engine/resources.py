"""State that outlives one step: ref variables (Ref) and resource variables (by handle)."""

from dataclasses import dataclass

import numpy as np


class Ref:
    """The mutable buffer a ref-typed tensor (float32_ref, ...) points at.

    A VariableV2 kernel returns its Ref; Assign/AssignAdd mutate it in place and return it;
    consumers of a non-ref input read `.value` when they run, which is TensorFlow 1.x's
    aliasing (seed 002's a, a_i, b, b_i study). `.value` is None until initialised.
    """

    __slots__ = ("name", "dtype", "value")

    def __init__(self, name, dtype, value=None):
        self.name, self.dtype, self.value = name, dtype, value

    @property
    def initialized(self):
        return self.value is not None

    def __repr__(self):
        return f"<Ref {self.name} {'uninitialized' if self.value is None else self.value!r}>"


@dataclass(frozen=True)
class ResourceHandle:
    """The value of a DT_RESOURCE tensor: which resource, where (ResourceHandleProto)."""

    container: str
    name: str
    device: str = ""
    dtype: object = None
    shape: object = None


class ResourceMgr:
    """A session's resources: ref-variable buffers by node name, resource variables by handle."""

    def __init__(self):
        self.refs: dict[str, Ref] = {}
        self.variables: dict[tuple[str, str], Ref] = {}

    def ref(self, name, dtype):
        """The buffer of the ref variable `name`, created (uninitialised) on first use."""
        ref = self.refs.get(name)
        if ref is None:
            ref = self.refs[name] = Ref(name, dtype)
        return ref

    def variable(self, handle: ResourceHandle) -> Ref:
        """The buffer behind a resource handle, created (uninitialised) on first use."""
        key = (handle.container, handle.name)
        buffer = self.variables.get(key)
        if buffer is None:
            buffer = self.variables[key] = Ref(handle.name, handle.dtype)
        return buffer

    def clear(self):
        self.refs.clear()
        self.variables.clear()


def as_array(value, dtype):
    """`value` as an ndarray of NumPy dtype `dtype`, copying only when the type differs."""
    array = np.asarray(value)
    return array if array.dtype == dtype else array.astype(dtype)
