"""GCS's JSON text: a file as GCS (version 5.x, written in Go) saves it.

GCS indents with one tab per level, puts ``": "`` after keys and ``,`` at line ends, writes empty
lists and objects as ``[]`` and ``{}``, writes text as UTF-8 with only what JSON requires escaped
plus ``&``, ``<``, ``>``, U+2028 and U+2029 (as ``\\u0026``...), and ends the file with a newline.
That is Python's ``json.dumps(data, indent="\\t", ensure_ascii=False)`` with those five characters
escaped, which reproduces GCS's own files byte for byte; this writer produces the same text,
without recursion (kept GCS data may nest deeply) and faster than :mod:`json`'s indenting encoder.
"""

from __future__ import annotations

import json
import math
import re
from json.encoder import encode_basestring
from typing import Any, Final

__all__ = [
    "MAX_TEXT_LENGTH",
    "GcsJsonError",
    "GcsTextTooLong",
    "RawJson",
    "TooDeepToRecurse",
    "as_gcs_file",
    "compact_text",
    "container_text",
    "gcs_text",
    "gcs_text_checked",
    "scalar_text",
]

MAX_TEXT_LENGTH: Final = 2**29 - 24
"""The longest text written (as :func:`~gurps_character.serialize_character`'s limit): deeply
nested data takes one more tab per level on every line."""

_ESCAPES: Final = (
    ("&", "\\u0026"),
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)
_SURROGATE: Final = re.compile("[\ud800-\udfff]")

_KEY_TEXT: Final[dict[str, str]] = {
    key: encode_basestring(key) + ": "
    for key in (
        "id", "calc", "name", "value", "type", "points", "base", "attr_id", "adj", "tags", "local_notes",
        "amount", "compare", "level", "base_points", "damage", "features", "attribute", "difficulty",
        "weight", "specialization", "description", "quantity", "equipped", "extended_value",
        "extended_weight", "rsl", "qualifier", "selection_type", "sv", "defaults", "base_weight",
        "base_value", "weapons", "parry", "percentage", "modifier", "cost_adj", "current", "can_level",
        "levels", "current_level", "st", "reach", "modifiers", "block", "range", "usage", "strength",
        "points_per_level", "tech_level", "accuracy", "rate_of_fire", "shots", "bulk", "recoil",
        "legality_class", "limitation", "armor_divisor", "text", "markdown", "situation",
    )
}  # fmt: skip
"""Keys GCS files hold many times, as written before their value (read only: made once)."""


class GcsJsonError(ValueError):
    """A value GCS's JSON cannot hold (a NaN or an infinity, a key that is not text, a Python
    object that is not JSON data)."""


class GcsTextTooLong(GcsJsonError):
    """The text would be longer than :data:`MAX_TEXT_LENGTH` (data nested very deeply)."""


class RawJson(str):
    """Text written as it is: JSON already laid out for the place it goes (its first line without
    indentation, the following ones indented for that depth)."""

    __slots__ = ()


def scalar_text(value: Any) -> str:
    """A value that is not a container with content, as GCS writes it.

    Raises:
        GcsJsonError: ``value`` is not JSON data (or a NaN or an infinity).
    """
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        if not math.isfinite(value):
            raise GcsJsonError(f"{value!r} is not a JSON number")
        return float.__repr__(value)
    if kind is RawJson:
        return str.__str__(value)
    if kind is dict:
        return "{}"  # an empty one: a container with content is written as a container
    if kind is list:
        return "[]"
    raise GcsJsonError(f"a {kind.__name__} is not JSON data")


def compact_text(data: Any, *, acyclic: bool = False) -> str:
    """``data`` as JSON text without any white space, numbers as Python writes them (so that
    reading the text gives the same data back, floats and integers alike), other characters as
    they are: the text of a GCS file kept inside a document, whose length (unlike an indented
    text's) does not grow with how deeply the data nests. Without recursion at any depth.

    Args:
        data: The data.
        acyclic: The caller knows ``data`` holds no cycle (JSON text's data, or a copy by
            :func:`~gurps_character._json.copy_json`): the encoder's check for one, a tenth of
            its time, is left out.

    Raises:
        GcsJsonError: ``data`` is not JSON data (or holds a NaN or an infinity).
    """
    try:
        return json.dumps(
            data, ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=not acyclic
        )
    except RecursionError:
        pass  # nested too deeply for json's encoder: the loop below writes the same text
    except (TypeError, ValueError) as err:
        raise GcsJsonError(str(err)) from None
    parts: list[str] = []
    add = parts.append
    stack: list[tuple[Any, str]] = [(data, "")]  # a value, and what is written before it
    while stack:
        value, before = stack.pop()
        add(before)
        kind = type(value)
        if kind is dict and value:
            add("{")
            stack.append((_CLOSE_OBJECT, ""))
            members = list(value.items())
            for index in range(len(members) - 1, -1, -1):
                key, item = members[index]
                if type(key) is not str:
                    raise GcsJsonError(f"the key {key!r} is not text")
                stack.append((item, ("," if index else "") + encode_basestring(key) + ":"))
        elif kind is list and value:
            add("[")
            stack.append((_CLOSE_LIST, ""))
            for index in range(len(value) - 1, -1, -1):
                stack.append((value[index], "," if index else ""))
        elif value is _CLOSE_OBJECT:
            add("}")
        elif value is _CLOSE_LIST:
            add("]")
        elif kind is float:
            if not math.isfinite(value):
                raise GcsJsonError(f"{value!r} is not a JSON number")
            add(float.__repr__(value))
        elif kind is str:
            add(json.dumps(value, ensure_ascii=False))
        else:
            add(scalar_text(value))
    return "".join(parts)


_CLOSE_OBJECT: Final = object()
_CLOSE_LIST: Final = object()


def gcs_text(data: Any, limit: int = MAX_TEXT_LENGTH) -> str:
    """``data`` as GCS writes a file: tab-indented JSON ending with a newline.

    Raises:
        GcsTextTooLong: the text would be longer than ``limit`` characters.
        GcsJsonError: ``data`` holds something GCS's JSON cannot.
    """
    return gcs_text_checked(data, limit)[0]


def gcs_text_checked(data: Any, limit: int = MAX_TEXT_LENGTH) -> tuple[str, bool]:
    """:func:`gcs_text`, and whether text that is not Unicode (lone UTF-16 surrogates) was
    written as U+FFFD, as GCS writes it.

    Raises:
        GcsTextTooLong: the text would be longer than ``limit`` characters.
        GcsJsonError: ``data`` holds something GCS's JSON cannot.
    """
    out: list[str] = []
    try:
        _write_nested(data, "", out.append, 0)
    except TooDeepToRecurse:
        out = []
        _write_deep(data, out.append, min(limit, MAX_TEXT_LENGTH))
    text, replaced = as_gcs_file("".join(out))
    if len(text) > limit:
        raise GcsTextTooLong(f"the text would be over {limit} characters")
    return text, replaced


def as_gcs_file(body: str, *, ended: bool = False) -> tuple[str, bool]:
    """The JSON text ``body`` as GCS writes a file: with a final newline (``ended``: it has it
    already), the characters GCS escapes escaped, lone UTF-16 surrogates written as U+FFFD; and
    whether there were any."""
    text = body if ended else body + "\n"
    for character, escaped in _ESCAPES:
        if character in text:
            text = text.replace(character, escaped)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: Go writes U+FFFD for what is not UTF-8
            return _SURROGATE.sub("\ufffd", text), True
    return text, False


class TooDeepToRecurse(Exception):
    """Data nested deeper than the recursive writer goes (:func:`container_text`)."""


_FAST_DEPTH: Final = 200
"""Deeper data is written by the loop of :func:`_write_deep` (the recursion is faster)."""


def _write_nested(value: Any, indent: str, write: Any, depth: int) -> None:
    """Writes a value: a container as the text :func:`container_text` joins."""
    kind = type(value)
    if (kind is dict or kind is list) and value:
        write(container_text(value, indent, depth))
    else:
        write(scalar_text(value))


def container_text(value: dict[Any, Any] | list[Any], indent: str, depth: int) -> str:
    """A non-empty container's text at ``depth`` (``indent`` is its tabs): its items' texts
    joined (one join per container is faster than a write per item), the containers inside it by
    recursion.

    Raises:
        TooDeepToRecurse: the data nests too deeply for recursion.
        GcsJsonError: the data holds something GCS's JSON cannot.
    """
    if depth > _FAST_DEPTH:
        raise TooDeepToRecurse
    inner = indent + "\t"
    parts: list[str] = []
    add = parts.append
    if type(value) is dict:
        known = _KEY_TEXT
        for key, item in value.items():
            head = known.get(key) if type(key) is str else None
            if head is None:
                if type(key) is not str:
                    raise GcsJsonError(f"the key {key!r} is not text")
                head = encode_basestring(key) + ": "
            kind = type(item)
            if kind is str:
                add(head + encode_basestring(item))
            elif kind is int:
                add(head + int.__repr__(item))
            elif (kind is dict or kind is list) and item:
                add(head + container_text(item, inner, depth + 1))
            else:
                add(head + scalar_text(item))
        return "{\n" + inner + (",\n" + inner).join(parts) + "\n" + indent + "}"
    for item in value:
        kind = type(item)
        if kind is str:
            add(encode_basestring(item))
        elif kind is int:
            add(int.__repr__(item))
        elif (kind is dict or kind is list) and item:
            add(container_text(item, inner, depth + 1))
        else:
            add(scalar_text(item))
    return "[\n" + inner + (",\n" + inner).join(parts) + "\n" + indent + "]"


def _write_deep(data: Any, write_part: Any, limit: int) -> None:
    """The same text as :func:`_write_nested`, with a stack of open containers instead of
    recursion, refused (:class:`GcsTextTooLong`) once it grows past ``limit`` characters."""
    written = 0

    def write(part: str) -> None:
        nonlocal written
        written += len(part)
        if written > limit:
            raise GcsTextTooLong(f"the text would be over {limit} characters")
        write_part(part)

    stack: list[tuple[Any, bool, str]] = []
    value: Any = data
    indent = ""
    while True:
        kind = type(value)
        if (kind is dict or kind is list) and value:
            write("{\n" if kind is dict else "[\n")
            items = iter(value.items()) if kind is dict else iter(value)
            stack.append((items, kind is dict, indent))
            indent += "\t"
            value = _next(items, kind is dict, indent, write, first=True)
            continue
        write("{}" if kind is dict else "[]" if kind is list else scalar_text(value))
        # the value is written: on to the next item of the innermost open container
        while stack:
            items, is_dict, outer = stack[-1]
            value = _next(items, is_dict, outer + "\t", write, first=False)
            if value is not _DONE:
                indent = outer + "\t"
                break
            stack.pop()
            write("\n" + outer + ("}" if is_dict else "]"))
        else:
            return


_DONE: Final = object()


def _next(items: Any, is_dict: bool, indent: str, write: Any, *, first: bool) -> Any:
    """Writes the separator and key of the container's next item and returns its value, or
    ``_DONE`` when the container has no more items."""
    for item in items:
        prefix = indent if first else ",\n" + indent
        if is_dict:
            key, item = item
            if type(key) is not str:
                raise GcsJsonError(f"the key {key!r} is not text")
            write(prefix + encode_basestring(key) + ": ")
        else:
            write(prefix)
        return item
    return _DONE
