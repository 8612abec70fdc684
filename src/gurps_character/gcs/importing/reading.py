"""Reading a GCS file: size, JSON, and which of GCS's file versions it is."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..._json import loads_unrounded
from ..._pointer import pointer_of
from ...errors import CharacterError, describe, json_detail
from ...load import check_max_bytes, read_json, text_of
from ..format.fields import MAX_MAGNITUDE, Node, mapping, node_list, number_text, walk_nodes
from .notes import shortened

__all__ = ["SUPPORTED_VERSIONS", "GcsFile", "numbers_beyond_bounds", "read_gcs"]

SUPPORTED_VERSIONS = (1, 2, 4, 5)
"""The JSON file versions GCS has written: 1 and 2 (GCS 4.x, Java), 4 (GCS 5.0 to 5.2x) and 5."""

_XML_ADVICE = (
    "Current GCS (5.x) cannot open XML files either, but the last Java releases of GCS 4 read them "
    "and save JSON: open the file there, save it, and import the saved file"
)
_UTF8_BOM = b"\xef\xbb\xbf"
_XML_VERSION = re.compile(r"<character\b[^>]*?\bversion\s*=\s*[\"']([^\"']{0,20})[\"']")
_CHARACTER_KEYS = ("profile", "attributes", "traits", "advantages", "skills", "total_points", "settings")


@dataclass(frozen=True, slots=True)
class GcsFile:
    """A GCS character file, read.

    Attributes:
        data: The whole file as JSON data owned by the importer (never the caller's objects).
        version: The file's ``version``: 1, 2, 4 or 5.
        variant: Which key spellings the file uses (GCS renamed keys inside version 5):
            ``"v1"``, ``"v2"``, ``"v4"``, ``"v5"`` (2024 keys) or ``"v5-2025"`` (``local_notes``,
            ``base_value``, ``markdown``... from mid 2025).
    """

    data: Node
    version: int
    variant: str
    numbers_bounded: bool = False
    """True when the file holds no number beyond ±10^9 (:func:`numbers_beyond_bounds` would
    find none), as found while reading it; False when it may."""


def read_gcs(source: object, max_bytes: int) -> GcsFile:
    """Reads a GCS file from text, UTF-8 bytes or an already parsed mapping.

    Raises:
        CharacterError: ``invalidArgument``, ``tooLarge``, ``invalidJson`` (as
            :func:`~gurps_character.parse_character`), ``notGcs`` or ``unsupportedGcsVersion``.
    """
    if isinstance(source, bytes | bytearray | memoryview):
        raw = bytes(source)
        body: str | bytes = raw[len(_UTF8_BOM) :] if raw.startswith(_UTF8_BOM) else raw
    elif isinstance(source, str):
        body = source[1:] if source.startswith("\ufeff") else source  # GCS skips a byte order mark
    elif isinstance(source, Mapping):
        body = ""
    else:
        raise CharacterError(
            "invalidArgument",
            f"source must be text, UTF-8 bytes or a mapping, not a {type(source).__name__}.",
            {"name": "source"},
        )
    if isinstance(source, Mapping):
        data = read_json(source, max_bytes)
        _as_read_from_text(data)
        return _classify(data, numbers_bounded=False)
    try:
        data, bounded = _read_text(body, max_bytes)
    except CharacterError as err:
        if err.code == "invalidJson":
            _refuse_xml(body)
        raise
    return _classify(data, numbers_bounded=bounded)


def _read_text(body: str | bytes, max_bytes: int) -> tuple[Any, bool]:
    """The file's JSON data (as :func:`~gurps_character.load.read_json` reads it) and whether it
    holds no number beyond ±10^9.

    The walk that answers the second question (the import needs the answer) also finds the
    integers beyond 2**53, which JSON readers round: so the text is first read without the scan
    for such integers that :func:`~gurps_character._json.loads` makes, and read again by
    ``read_json`` only when the walk finds a number beyond the bounds that is one, or when the
    first reading fails (``read_json`` then says why, as it does for any text)."""
    try:
        data = loads_unrounded(text_of(body, check_max_bytes(max_bytes))[0])
    except (CharacterError, ValueError, RecursionError):
        return read_json(body, max_bytes), False
    if type(data) is not dict:  # no GCS file: read_json tells what it is
        return read_json(body, max_bytes), False
    if not _holds_numbers_beyond_bounds(data):
        return data, True
    if _holds_long_integers(data):
        return read_json(body, max_bytes), False
    return data, False


def _holds_long_integers(data: Any) -> bool:
    """Whether JSON data holds an integer beyond 2**53 (which a JSON reader rounds). No recursion."""
    stack: list[Any] = [data]
    while stack:
        container = stack.pop()
        for value in container.values() if type(container) is dict else container:
            kind = type(value)
            if kind is dict or kind is list:
                if value:
                    stack.append(value)
            elif kind is int and not -(2**53) <= value <= 2**53:
                return True
    return False


_Link = tuple[Any, "_Link"] | None
"""Where a container sits: (its key in the parent, the parent's link); the root has None."""


def _as_read_from_text(data: Any) -> None:
    """Makes a copied mapping what its JSON text would have given: integers beyond 2**53 become
    the double a JSON reader sees, and one no double can hold is refused (``invalidJson``, as in
    text). Walks the importer's own copy, without recursion; a container's JSON Pointer is built
    only for an error (memory stays linear in the number of containers, however deep)."""
    stack: list[tuple[Any, _Link]] = [(data, None)]
    while stack:
        container, link = stack.pop()
        pairs = container.items() if type(container) is dict else enumerate(container)
        for key, value in pairs:
            kind = type(value)
            if kind is dict or kind is list:
                if value:
                    stack.append((value, (key, link)))
            elif kind is int and not -(2**53) <= value <= 2**53:
                try:
                    container[key] = int(float(value))
                except OverflowError:
                    where = _pointer((key, link))
                    raise CharacterError(
                        "invalidJson",
                        f"The document is not JSON data at {where}: an integer no JSON number can hold.",
                        {"pointer": where, "reason": "an integer no JSON number can hold"},
                    ) from None


_NUMBER_LIKE = re.compile(r"\s*[+-]?[0-9][0-9,]*(?:\.[0-9]+)?\s*")


def numbers_beyond_bounds(data: Node, shown: int) -> tuple[list[str], int]:
    """Where the file holds a number beyond ±10^9, as a JSON number or as text that is nothing
    but one (``"1111111111111111111111111111111"``): the JSON Pointers of the first ``shown``, and
    how many there are. The importer reads such numbers as absent. Without recursion; pointers
    are built only for those shown."""
    found: list[str] = []
    count = 0
    if not _holds_numbers_beyond_bounds(data):
        return found, count  # the usual answer, found without building the links for pointers
    stack: list[tuple[Any, _Link]] = [(data, None)]
    while stack:
        container, link = stack.pop()
        pairs = container.items() if type(container) is dict else enumerate(container)
        for key, value in pairs:
            kind = type(value)
            if kind is dict or kind is list:
                if value:
                    stack.append((value, (key, link)))
                continue
            if _beyond_bounds(value, kind):
                count += 1
                if len(found) < shown:
                    found.append(_pointer((key, link)))
    return found, count


def _beyond_bounds(value: Any, kind: type) -> bool:
    """Whether a value of a JSON container is a number beyond ±10^9, or text that is nothing but
    one (``kind`` is its type)."""
    if kind is str:
        return len(value) > 10 and value[-1] in "0123456789" and _numeric_text_beyond(value)
    return (kind is int or kind is float) and not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE


def _numeric_text_beyond(value: str) -> bool:
    return _NUMBER_LIKE.fullmatch(value) is not None and number_text(value) is None


def _holds_numbers_beyond_bounds(data: Node) -> bool:
    """Whether :func:`numbers_beyond_bounds` finds anything: :func:`_beyond_bounds` for every
    value, inline (it runs for every value of the file), on a walk that keeps no keys: the usual
    answer, no, costs less than the walk that can tell where."""
    stack: list[Any] = [data]
    while stack:
        container = stack.pop()
        for value in container.values() if type(container) is dict else container:
            kind = type(value)
            if kind is str:
                if len(value) > 10 and value[-1] in "0123456789" and _numeric_text_beyond(value):
                    return True
            elif kind is dict or kind is list:
                if value:
                    stack.append(value)
            elif (kind is int or kind is float) and not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
                return True
    return False


def _pointer(link: _Link) -> str:
    path: list[Any] = []
    while link is not None:
        key, link = link
        path.append(key)
    return pointer_of(reversed(path))


def _refuse_xml(body: str | bytes) -> None:
    """GCS 4.x and older saved XML, which current GCS no longer reads either; the last Java
    releases of GCS 4 read XML and save JSON. (Text that starts with ``<`` is taken for such a
    file; a version-control conflict marker is named as such.)"""
    head = body[:4096]
    head_text = head.decode("utf-8", "replace").lstrip() if isinstance(head, bytes) else head.lstrip()
    if not head_text.startswith("<"):
        return
    if head_text.startswith("<<<<<<<"):
        raise CharacterError(
            "unsupportedGcsVersion",
            "This file starts with a version-control conflict marker, not GCS JSON: resolve the conflict "
            "(keep one version of the file), then import it.",
            {"version": None, "format": "conflict"},
        )
    found = _XML_VERSION.search(head_text)
    version = found.group(1) if found else None
    raise CharacterError(
        "unsupportedGcsVersion",
        "This is an XML GCS file (saved by GCS 4.x or older), which this importer does not read. "
        f"{_XML_ADVICE}.",
        {"version": version, "format": "xml"},
    )


def _not_gcs(reason: str) -> CharacterError:
    return CharacterError("notGcs", f"This JSON is not a GCS character file: {reason}.", {"reason": reason})


def _classify(data: Any, *, numbers_bounded: bool) -> GcsFile:
    if type(data) is not dict:
        raise _not_gcs("the file is not a JSON object")
    version = data.get("version")
    if "version" not in data:
        raise _not_gcs("it has no version")
    if type(version) is not int:
        raise _not_gcs("its version is not a whole number")
    declared = data.get("type", "character")
    if declared != "character":
        if type(declared) is not str:
            raise _not_gcs("its type is not text")
        raise _not_gcs(f"its type is {shortened(declared, 60)!r}, not 'character'")
    if version not in SUPPORTED_VERSIONS:
        raise CharacterError(
            "unsupportedGcsVersion",
            f"GCS file version {describe(version)} is not one this importer knows: GCS has written "
            "characters as versions 1, 2, 4 and 5.",
            {"version": json_detail(version)},
        )
    if type(data.get("rows")) is list and not any(key in data for key in _CHARACTER_KEYS):
        raise _not_gcs("it is a GCS list (rows), not a character")
    return GcsFile(data, version, _variant(data, version), numbers_bounded)


_SAMPLE = 200
"""Nodes looked at for the key spelling."""
_NEW_KEYS = ("local_notes", "base_value", "base_weight", "markdown", "cost_adj", "base")


def _variant(data: Node, version: int) -> str:
    """``v5-2025`` when a version 5 file uses the keys GCS renamed without a version bump."""
    if version != 5:
        return f"v{version}"
    for definition in node_list(mapping(data, "settings"), "attributes"):
        if type(definition) is dict and "base" in definition:
            return "v5-2025"
    # GCS writes every key of a file the same way, so a sample of the nodes tells
    looked_at = 0
    for key in ("traits", "skills", "spells", "equipment", "other_equipment", "notes"):
        for node in walk_nodes(node_list(data, key)):
            if any(name in node for name in _NEW_KEYS):
                return "v5-2025"
            looked_at += 1
            if looked_at >= _SAMPLE:
                return "v5"
    return "v5"
