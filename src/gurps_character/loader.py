"""One loader for a character however it arrives: a file, text, bytes or parsed data, in the
gurps-character JSON format, in YAML, or as a GCS (``.gcs``) file.

:func:`load_character` picks the reader (:func:`~gurps_character.parse_character`,
:func:`~gurps_character.yaml.parse_yaml_character`, :func:`~gurps_character.import_gcs`) and
returns one result, :class:`LoadedCharacter`, whatever the format. How it tells things apart:

* **A path or text?** An ``os.PathLike`` (``pathlib.Path``) is a path. A ``str`` is text when it
  spans several lines, is blank, or starts (after white space) with ``{``, ``[`` or ``<``: no
  character file fits on one line otherwise, and no sensible file name starts so. Any other
  ``str`` is a path. ``bytes`` are always the file's content, never a path.
* **Which format?** ``kind=`` decides when given. Otherwise a path's suffix does (``.json``,
  ``.yaml``/``.yml``, ``.gcs``, in any case). Otherwise the content does: a mapping, or text
  starting with ``{``, is a document unless it is a GCS file's data (no ``format``, GCS's
  ``version``); text starting with ``<`` is an old XML GCS file (refused with the importer's
  advice); text whose first line is a comment, a YAML directive, ``---`` or a ``key:`` is YAML;
  anything else is read as JSON, whose error says where it goes wrong.

The library's own module :mod:`gurps_character.load` reads and writes the JSON format alone;
this module reads any of the three.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal, NoReturn, TypeAlias

from . import gcs as _gcs
from ._files import UNREADABLE, read_file, too_large
from ._json import copy_json
from .constants import MAX_DOCUMENT_BYTES
from .errors import CharacterError, describe, guarded, json_detail
from .gcs import ImportNote
from .load import check_max_bytes, looks_like_gcs, read_document_or_gcs, require_valid
from .update import format_timestamp

if TYPE_CHECKING:
    from .document import GurpsCharacter
    from .verify import VerificationReport

__all__ = ["CharacterKind", "LoadedCharacter", "load_character"]

CharacterKind: TypeAlias = Literal["json", "yaml", "gcs"]
"""A character's format, the gurps-character JSON format (or a mapping of it), YAML, or GCS."""

SUFFIX_KINDS: Final[Mapping[str, CharacterKind]] = MappingProxyType(
    {".json": "json", ".yaml": "yaml", ".yml": "yaml", ".gcs": "gcs"}
)
"""Lower-case file suffix -> the format it names."""

_KINDS: Final = ("json", "yaml", "gcs")
_BOM: Final = "\ufeff"
_UTF8_BOM: Final = b"\xef\xbb\xbf"
_WHITE: Final = " \t\r\n" + _BOM
_SNIFF: Final = 4096
"""How much of the text detection looks at (a YAML file's first key comes well before)."""
_YAML_KEY: Final = re.compile(r"""(?:"[^"]*"|'[^']*'|[A-Za-z0-9_$][^:#]*?)\s*:(?:\s|$)""")
"""A block mapping key at the start of a line: ``name:``, ``"name":``."""


@dataclass(frozen=True, slots=True)
class LoadedCharacter:
    """A character read by :func:`load_character`, whatever its format.

    Attributes:
        character: A fresh, schema-valid document (plain dicts and lists) owned by the caller.
        report: Its rule check (:func:`~gurps_character.verify_character`).
        notes: For a GCS file, the importer's notes (:class:`~gurps_character.ImportNote`): what
            was approximated, moved to ``extensions`` or not carried. Empty for JSON and YAML.
        kind: The format it was read as: ``"json"``, ``"yaml"`` or ``"gcs"``.
    """

    character: GurpsCharacter
    report: VerificationReport
    notes: tuple[ImportNote, ...]
    kind: CharacterKind

    def to_dict(self) -> dict[str, Any]:
        """The loaded character as JSON data.

        Returns:
            ``{"kind", "character", "report", "notes"}`` (a copy of the document).
        """
        return {
            "kind": self.kind,
            "character": copy_json(self.character),
            "report": self.report.to_dict(),
            "notes": [note.to_dict() for note in self.notes],
        }


# ---------------------------------------------------------------- the source


def _is_text(source: str) -> bool:
    """Whether a ``str`` holds a document rather than naming a file (see the module docstring)."""
    if "\n" in source or "\r" in source:
        return True
    head = source.lstrip(_WHITE)
    return not head or head[0] in "{[<"


def _refuse_source(source: object) -> NoReturn:
    raise CharacterError(
        "invalidArgument",
        "source must be a path (str or os.PathLike), text (str), bytes or a mapping, "
        f"not a {type(source).__name__}.",
        {"name": "source", "value": describe(source)},
    )


def _read(path: str | bytes, limit: int, *, from_str: bool) -> bytes:
    """The file's bytes; the error names the file (and, for a ``str``, how text is told apart)."""
    try:
        return read_file(path, limit)
    except CharacterError as err:
        if err.code != UNREADABLE:
            raise
        shown = os.fsdecode(path)
        hint = ""
        if from_str and _suffix_kind(path) is None and not os.path.lexists(path):
            hint = (
                " (a str is read as a file's path unless it spans several lines or starts with "
                "'{', '[' or '<'; pass other text as bytes)"
            )
        raise CharacterError(
            UNREADABLE,
            f"cannot read the file {describe(shown)}: {err.details['reason']}{hint}.",
            {**err.details, "path": shown},
        ) from None


def _kind_argument(kind: object) -> CharacterKind | None:
    if kind is None or (isinstance(kind, str) and kind in _KINDS):
        return kind  # type: ignore[return-value]
    raise CharacterError(
        "invalidArgument",
        f"kind must be 'json', 'yaml', 'gcs' or None, not {describe(kind)}.",
        {"name": "kind", "value": json_detail(kind)},
    )


def _suffix_kind(path: str | bytes) -> CharacterKind | None:
    return SUFFIX_KINDS.get(os.path.splitext(os.fsdecode(path))[1].lower())


def _without_bom(data: str | bytes, limit: int) -> str | bytes:
    """The content without a leading byte order mark (editors on Windows write one; GCS skips
    it), after the size check of the whole content."""
    if isinstance(data, bytes) and data.startswith(_UTF8_BOM):
        if len(data) > limit:
            raise too_large(len(data), limit)
        return data[len(_UTF8_BOM) :]
    if isinstance(data, str) and data.startswith(_BOM):
        size = len(data.encode("utf-8", "surrogatepass"))
        if size > limit:
            raise too_large(size, limit)
        return data[1:]
    return data


# ---------------------------------------------------------------- the format


def _looks_like_yaml(head: str) -> bool:
    """Whether text that is not a JSON object is YAML: its first line that is not blank is a
    comment, a directive, ``---`` or a mapping key."""
    for line in head.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        return stripped.startswith(("#", "%", "---")) or _YAML_KEY.match(stripped) is not None
    return False


def detected_kind(data: str | bytes | Mapping[str, Any]) -> CharacterKind:
    """The format of content that neither ``kind`` nor a suffix names (a JSON object may still
    turn out to be a GCS file's data: :func:`read_character` looks)."""
    if isinstance(data, Mapping):
        return "gcs" if looks_like_gcs(data) else "json"
    head = data[:_SNIFF]
    text = head.decode("utf-8", "replace") if isinstance(head, bytes) else head
    start = text.lstrip(_WHITE)[:1]
    if start in ("{", "["):
        return "json"
    if start == "<":
        return "gcs"
    return "yaml" if _looks_like_yaml(text) else "json"


# ---------------------------------------------------------------- reading


def _gcs_in_json(path: str | None) -> CharacterError:
    where = ", or give the file the suffix .gcs" if path else ""
    return CharacterError(
        "wrongFormat",
        "Not a gurps-character document (format is missing): this is a GCS character file; "
        f"read it with kind='gcs'{where}.",
        {"format": None},
    )


def _read_json(
    data: str | bytes | Mapping[str, Any], limit: int, *, strict: bool, path: str | None
) -> dict[str, Any] | None:
    """The document (size, JSON, envelope, schema), or None for a GCS file's data when the
    format was found from the content (``strict`` is False)."""
    document = read_document_or_gcs(data, limit)
    if document is None:
        if strict:
            raise _gcs_in_json(path)
        return None
    require_valid(document)
    return document


def _read_yaml(data: str | bytes | Mapping[str, Any], limit: int) -> dict[str, Any]:
    if isinstance(data, Mapping):
        raise CharacterError(
            "invalidArgument",
            "kind='yaml' reads text or bytes; a mapping is data already: leave kind out.",
            {"name": "kind", "value": "yaml"},
        )
    from .yaml import load_yaml_document  # its parser is an optional extra: imported when used

    return load_yaml_document(data, max_bytes=limit)


def _import(
    data: str | bytes | Mapping[str, Any], limit: int, now: datetime | None
) -> tuple[dict[str, Any], tuple[ImportNote, ...]]:
    imported = _gcs.import_gcs(data, max_bytes=limit, now=now)
    require_valid(imported.document)  # the importer's promise, kept for every kind alike
    return imported.document, imported.notes


def read_character(
    source: object,
    *,
    max_bytes: int = MAX_DOCUMENT_BYTES,
    kind: object = None,
    now: datetime | None = None,
) -> tuple[dict[str, Any], tuple[ImportNote, ...], CharacterKind]:
    """:func:`load_character` without the rule check: ``(document, notes, kind)``; the command
    line's ``validate`` needs no more."""
    limit = check_max_bytes(max_bytes)
    wanted = _kind_argument(kind)
    format_timestamp(now)  # a naive time is refused whatever the format
    path: str | bytes | None = None
    data: str | bytes | Mapping[str, Any]
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        data = _read(path, limit, from_str=False)
    elif isinstance(source, str):
        if _is_text(source):
            data = source
        else:
            path = source
            data = _read(path, limit, from_str=True)
    elif isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
    elif isinstance(source, Mapping):
        data = source
    else:
        _refuse_source(source)
    if not isinstance(data, Mapping):
        data = _without_bom(data, limit)
    named = wanted or (_suffix_kind(path) if path is not None else None)
    found: CharacterKind = named or detected_kind(data)
    shown = os.fsdecode(path) if path is not None else None
    if found == "json":
        document = _read_json(data, limit, strict=named is not None, path=shown)
        if document is not None:
            return document, (), "json"
        found = "gcs"
    if found == "yaml":
        return _read_yaml(data, limit), (), "yaml"
    document, notes = _import(data, limit, now)
    return document, notes, "gcs"


@guarded
def load_character(
    source: str | os.PathLike[str] | os.PathLike[bytes] | bytes | bytearray | memoryview | Mapping[str, Any],
    *,
    max_bytes: int = MAX_DOCUMENT_BYTES,
    kind: CharacterKind | None = None,
    now: datetime | None = None,
) -> LoadedCharacter:
    """Reads a character in any format from a file, text, bytes or parsed data, and checks it.

    The format comes from ``kind``, else from a path's suffix, else from the content (the
    module documentation has the rules, and how a ``str`` path is told from text). JSON is
    checked as :func:`~gurps_character.parse_character` checks it, YAML as
    :func:`~gurps_character.yaml.parse_yaml_character`, and a GCS file is imported with
    :func:`~gurps_character.import_gcs`; every document is then schema-valid and gets its rule
    report. A byte order mark at the start is skipped, whatever the format.

    Args:
        source: A path (``str`` or ``os.PathLike``), the content as text (``str``) or bytes, or
            already parsed data (a mapping: a document or a GCS file's data; copied, never kept
            or modified).
        max_bytes: The size limit, in bytes: a file larger than this is refused before it is
            read, and so is text or bytes of that size.
        kind: ``"json"``, ``"yaml"`` or ``"gcs"`` to name the format; None finds it.
        now: For a GCS file, the import time to record (default: the current time); a
            timezone-aware ``datetime``.

    Returns:
        A :class:`LoadedCharacter` with ``character``, ``report``, ``notes`` (a GCS file's import
        notes, else empty) and ``kind``.

    Raises:
        CharacterError: ``unreadable`` (``{reason, path}``: a missing file, a directory, no
            permission); ``invalidArgument`` (a source of another type, ``kind``, ``max_bytes``,
            ``now``); ``tooLarge``; and the format's own codes: ``invalidJson``,
            ``notAnObject``, ``legacyFormat``, ``wrongFormat``, ``unsupportedVersion``,
            ``newerVersion``, ``schema`` (JSON and YAML); ``invalidYaml``, ``missingExtra``
            (YAML without the ``yaml`` extra); ``notGcs``, ``unsupportedGcsVersion`` (GCS).
        TypeError: ``now`` is naive.
    """
    from .verify import verify_character

    document, notes, found = read_character(source, max_bytes=max_bytes, kind=kind, now=now)
    return LoadedCharacter(document, verify_character(document), notes, found)  # type: ignore[arg-type]
