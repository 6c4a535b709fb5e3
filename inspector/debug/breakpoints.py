"""Breakpoints: on a node's name, op or device (regexes), or on a condition over its outputs.

>>> bp = Breakpoint(op="Log")
>>> bp.label
'op~Log'
>>> bp.matches_node("loss/Log", "Log", "/device:CPU:0")
True
>>> Breakpoint(name="^a$").matches_node("ab", "Add", "")
False
>>> Breakpoint.parse("op=Log").label
'op~Log'
>>> Breakpoint.parse("nan").label
'has_inf_or_nan'
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from inspector.debug.tensors import has_inf_or_nan

_ids = itertools.count(1)

# Conditions over a produced tensor, by the name the prompt and the TUI know them by.
CONDITIONS = {"has_inf_or_nan": has_inf_or_nan}


@dataclass
class Breakpoint:
    """Stops after a node runs when every given part matches.

    name/op/device: regexes searched in the node's name, op type and device; predicate: a
    function of one produced value, true to stop (has_inf_or_nan, or any Python function).
    """

    name: str | None = None
    op: str | None = None
    device: str | None = None
    predicate: object = None
    enabled: bool = True
    number: int = field(default_factory=lambda: next(_ids))
    hits: int = 0

    def __post_init__(self):
        if isinstance(self.predicate, str):
            if self.predicate not in CONDITIONS:
                raise ValueError(f"unknown condition: {self.predicate!r} "
                                 f"(must be one of {sorted(CONDITIONS)})")
            self.predicate = CONDITIONS[self.predicate]
        if self.name is None and self.op is None and self.device is None and self.predicate is None:
            raise ValueError("a breakpoint needs a name, op or device regex, or a predicate")
        self._regexes = [(part, re.compile(pattern)) for part, pattern in
                         (("name", self.name), ("op", self.op), ("device", self.device))
                         if pattern is not None]

    @classmethod
    def parse(cls, text):
        """From the prompt's words: "REGEX" (a node name), "op=REGEX", "device=REGEX", "nan"."""
        text = text.strip()
        if text in ("nan", "inf", "has_inf_or_nan"):
            return cls(predicate=has_inf_or_nan)
        part, sep, pattern = text.partition("=")
        if sep and part in ("name", "op", "device"):
            return cls(**{part: pattern})
        return cls(name=text)

    @property
    def label(self):
        parts = [f"{part}~{regex.pattern}" for part, regex in self._regexes]
        if self.predicate is not None:
            parts.append(getattr(self.predicate, "__name__", "predicate"))
        return " ".join(parts)

    def matches_node(self, name, op_type, device):
        values = {"name": name, "op": op_type, "device": device or ""}
        return all(regex.search(values[part]) for part, regex in self._regexes)

    def fires(self, name, op_type, device, outputs):
        """The output tensor that made it fire (or the node name), None when it does not."""
        if not self.enabled or not self.matches_node(name, op_type, device):
            return None
        if self.predicate is None:
            return name
        for tensor, value in outputs:
            try:
                if self.predicate(value):
                    return tensor
            except Exception:  # noqa: BLE001  (a user's predicate failing must not kill the run)
                continue
        return None
