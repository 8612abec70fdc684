"""JSON data as readable YAML: block style, keys in their order, text quoted where it must be.

Written by hand rather than by a YAML library, because what matters here is what any reader
makes of the text, and readers disagree: a YAML 1.1 reader (PyYAML, many tools) takes ``no``
for false, ``1:30`` for 90, ``0777`` for 511 and ``2001-01-01`` for a date, where YAML 1.2 reads
text, 777, text, text. So text stays plain (unquoted) only when every reader sees text: it starts
with a letter (or ``$``, ``(``, ``_``, ``/``), holds no ``: `` or `` #``, no character needing an
escape, and is not one of the words YAML gives a meaning (``yes``, ``no``, ``on``, ``off``,
``y``, ``n``, ``true``, ``false``, ``null`` in any case). Everything else is double-quoted with
JSON's escapes, which YAML shares, plus escapes for what YAML forbids or folds (C1 controls,
U+2028, U+2029, BOMs, lone surrogates).

Numbers are written as JavaScript writes them (``1e+21``), which YAML 1.2 reads as the same
double. Keys longer than YAML's 1024-character limit for implicit keys are written explicitly
(``? "key"``). Nesting is at most :data:`MAX_YAML_DEPTH` levels, what the reader accepts, so
the text is never more than a few hundred spaces of indentation per line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ._json import unquoted_scalar
from ._pointer import escape_token
from ._yaml_read import MAX_YAML_DEPTH

__all__ = ["unwritable", "write_yaml"]

_INDENT = "  "
_PLAIN_START = re.compile(r"[^\W\d]|[$(_/]")  # a letter, or a character with no meaning there
_RESERVED = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})
_LONG_KEY = 1000  # characters of a written key beyond which it is written as an explicit key
_NOT_PRINTABLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]"
)  # what YAML forbids, treats as a line break, or reads as a byte order mark
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE = re.compile('["\\\\]|' + _NOT_PRINTABLE.pattern)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _quoted(text: str) -> str:
    return '"' + _NEEDS_ESCAPE.sub(_escape, text) + '"'


def _plain_is_text(text: str) -> bool:
    """Whether ``text`` may be written unquoted: every YAML reader takes it for this text."""
    return (
        _PLAIN_START.match(text) is not None
        and text.lower() not in _RESERVED
        and text == text.strip()
        and text.isprintable()
        and ": " not in text
        and " #" not in text
        and not text.endswith(":")
    )


def _text(text: str) -> str:
    return text if _plain_is_text(text) else _quoted(text)


def _scalar(value: Any) -> str:
    return _text(value) if isinstance(value, str) else unquoted_scalar(value)


def _opens(value: Any) -> bool:
    """Whether a value is written on lines of its own (a non-empty mapping or sequence)."""
    return isinstance(value, dict | list) and len(value) > 0


def _empty(value: Any) -> str | None:
    if isinstance(value, dict) and not value:
        return "{}"
    if isinstance(value, list) and not value:
        return "[]"
    return None


def unwritable(document: Any) -> str | None:
    """The JSON Pointer of the first container YAML text cannot carry back: one nested deeper
    than :data:`MAX_YAML_DEPTH`. (Integers no double holds never get here: copying the document
    as JSON data refuses them.)"""
    stack: list[tuple[Any, int, str]] = [(document, 1, "")]
    while stack:
        value, depth, pointer = stack.pop()
        if depth > MAX_YAML_DEPTH:
            return pointer
        entries = value.items() if isinstance(value, dict) else enumerate(value)
        for token, child in entries:
            if isinstance(child, dict | list):  # empty ones too: the reader counts "[]" as a level
                stack.append((child, depth + 1, f"{pointer}/{escape_token(str(token))}"))
    return None


def write_yaml(document: dict[str, Any]) -> str:
    """The YAML text of plain JSON data (dicts, lists, finite scalars; no sharing), nested at
    most :data:`MAX_YAML_DEPTH` levels, integers a double holds (see :func:`unwritable`)."""
    return "".join(_lines(document))


def _lines(document: Any) -> Iterator[str]:
    if not _opens(document):
        yield (_empty(document) or _scalar(document)) + "\n"
        return
    # Each frame: the entries of a container, whether it is a mapping, its indentation, and
    # what starts its first line ("- " of the sequence holding it, or its indentation).
    frames: list[tuple[Iterator[Any], bool, str, str]] = []

    def push(value: Any, indent: str, lead: str) -> None:
        is_map = isinstance(value, dict)
        frames.append((iter(value.items() if is_map else value), is_map, indent, lead))

    push(document, "", "")
    while frames:
        entries, is_map, indent, lead = frames[-1]
        entry = next(entries, _END)
        if entry is _END:
            frames.pop()
            continue
        head = lead
        if lead != indent:
            frames[-1] = (entries, is_map, indent, indent)  # the next entry starts a plain line
        child_indent = indent + _INDENT
        if is_map:
            key, value = entry
            written = _text(key)
            if len(written) > _LONG_KEY:  # an explicit key: "? key", then ": value"
                yield f"{head}? {written}\n"
                head, written = indent, ""
            if _opens(value):
                yield f"{head}{written}:\n"
                push(value, child_indent, child_indent)
            else:
                yield f"{head}{written}: {_empty(value) or _scalar(value)}\n"
        else:
            if _opens(entry):
                push(entry, child_indent, head + "- ")
            else:
                yield f"{head}- {_empty(entry) or _scalar(entry)}\n"


_END: Any = object()
