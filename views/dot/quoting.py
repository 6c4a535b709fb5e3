"""DOT text from hostile names: identifiers and escString attributes, never HTML by accident.

Names come from files: `x\\` ends a quoted DOT string early, `<<IMG .../>>` reads as an HTML
label, a `:` in an edge end reads as a port, and control characters make SVG that is not
well-formed XML. Every identifier goes through dot_id, every text attribute through dot_text,
and only the legend's table (Html) is HTML.

>>> dot_id("x"), dot_id("x\\\\"), dot_id("/job:a/b"), dot_id("node")
('x', '"x\\\\\\\\"', '"/job:a/b"', '"node"')
>>> dot_text("esc\\x1b" + "\\\\")
'esc\\\\\\\\x1b\\\\\\\\'
"""

from __future__ import annotations

import hashlib

import graphviz
from graphviz import quoting as _graphviz_quoting

from parsers.printable import excerpt, printable

# dot refuses a string longer than 16,384 bytes; names (and so ids) can be longer.
ID_LIMIT = 1000
TEXT_LIMIT = 500


class Html(str):
    """An attribute value meant as a Graphviz HTML-like label (`<...>`)."""


def dot_text(text, limit=TEXT_LIMIT):
    """Raw text (a name, a path) as escString: controls visible, backslashes literal, at most
    an excerpt of `limit` characters."""
    return excerpt(text, limit).replace("\\", "\\\\")


def _short_id(name):
    """`name`, or when too long for dot its start and a digest (still one id per name)."""
    if len(name) <= ID_LIMIT:
        return name
    digest = hashlib.sha1(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{name[:ID_LIMIT - 40]}…{digest}"


def dot_id(name):
    """A DOT ID for a node, cluster or edge end: bare where DOT allows, else quoted, with a
    `:` part of the name (never a port) and a trailing backslash kept inside the quotes."""
    name = _short_id(str(name))
    if _graphviz_quoting.ID.match(name) and name.lower() not in _graphviz_quoting.KEYWORDS:
        return name
    return '"' + printable(name).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text_only(value):
    """An attribute value as text unless marked Html; controls made visible as a last guard."""
    if value is None or isinstance(value, Html):
        return value
    return graphviz.nohtml(printable(value))


def _a_list(label=None, kwargs=None, attributes=None):
    kwargs = None if kwargs is None else {k: _text_only(v) for k, v in dict(kwargs).items()}
    if attributes is not None:
        items = attributes.items() if hasattr(attributes, "items") else attributes
        attributes = [(k, _text_only(v)) for k, v in items]
    return _graphviz_quoting.a_list(_text_only(label), kwargs=kwargs, attributes=attributes)


def _attr_list(label=None, kwargs=None, attributes=None):
    content = _a_list(label, kwargs=kwargs, attributes=attributes)
    return f" [{content}]" if content else ""


class Digraph(graphviz.Digraph):
    """graphviz.Digraph quoting through dot_id and _text_only (its subgraphs are too)."""

    _quote = staticmethod(dot_id)
    _quote_edge = staticmethod(dot_id)
    _a_list = staticmethod(_a_list)
    _attr_list = staticmethod(_attr_list)
