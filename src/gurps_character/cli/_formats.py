"""The file formats the command line reads, by file suffix: the one place a new format plugs in.

A loader turns a file's bytes into what :func:`~gurps_character.parse_character` and
:func:`~gurps_character.load.load_document` accept: the bytes themselves (JSON, which the library
checks for size, encoding and syntax) or an already-parsed mapping. It raises
:class:`~gurps_character.CharacterError` (with a stable code) for input it cannot convert.

The suffixes and formats are :func:`~gurps_character.load_character`'s (``loader.SUFFIX_KINDS``),
so the command line and the library read the same files the same way. To read another format,
add it there and its loader to :data:`_LOADERS`. Every command then reads it: ``check``,
``validate``, ``stats``, ``recompute``, the pool commands and ``update`` by the path's suffix, and
``check``/``validate`` also pick such files up in folders. A path with no known suffix is read as
JSON; stdin (``-``) is read in the format its content shows, as
:func:`~gurps_character.load_character` finds it.

A format the library can also write lists its writer in :data:`WRITERS`: the writing commands
write the new document in the format of the destination's suffix (``-o OUT``, the ``--in-place``
file, ``convert``'s ``-o OUT``), or else in the input's (stdout), or else JSON. A writer must
refuse an invalid document (:func:`~gurps_character.serialize_character` validates).

YAML (``.yaml``, ``.yml``) is read by :func:`gurps_character.yaml.load_yaml_document`, which
checks the schema itself so that schema errors carry the line and column in the YAML file.

GCS files (``.gcs``) are *imported* (:func:`~gurps_character.import_gcs`) and never get a
gurps-character document written over them (:data:`IMPORTED`, :func:`is_imported`): a writing
command's ``--in-place`` (or ``-o OUT.gcs``) writes play back into the GCS file it read instead,
as ``export --onto`` does (:func:`~gurps_character.export_gcs` with the file as base).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeAlias

from ..constants import MAX_DOCUMENT_BYTES
from ..errors import CharacterError
from ..load import read_document_or_gcs
from ..loader import SUFFIX_KINDS, CharacterKind, detected_kind
from ._common import STDIN, with_limit_hint

if TYPE_CHECKING:
    from ..gcs import GcsImport

__all__ = [
    "DEFAULT_SUFFIX",
    "FORMATS",
    "GCS_SUFFIX",
    "IMPORTED",
    "IMPORT_FAILED",
    "WRITERS",
    "DocumentLoader",
    "DocumentWriter",
    "Source",
    "document_suffixes",
    "gcs_import",
    "import_failed",
    "is_imported",
    "loader_for",
    "writer_for",
]

Source: TypeAlias = bytes | Mapping[str, Any]
"""What a loader gives: JSON bytes for the library to parse, or a parsed document."""


class DocumentLoader(Protocol):
    """Turns a file's bytes into a :data:`Source`, a document of at most ``max_bytes`` (a GCS
    file's is larger than the file); raises ``CharacterError`` on bad input."""

    def __call__(self, data: bytes, max_bytes: int = MAX_DOCUMENT_BYTES, /) -> Source: ...


def _json_source(data: bytes, max_bytes: int = MAX_DOCUMENT_BYTES, /) -> Source:
    # The library parses JSON itself, with its size, encoding and duplicate-key checks.
    return data


def _yaml_source(data: bytes, max_bytes: int = MAX_DOCUMENT_BYTES, /) -> Source:
    from ..yaml import load_yaml_document  # its parser is an optional extra: imported when used

    return load_yaml_document(data, max_bytes=max_bytes)


IMPORT_FAILED: Final = "importFailed"
"""A CLI error code: the importer stopped on something other than a ``CharacterError``."""


def gcs_import(data: bytes, max_bytes: int = MAX_DOCUMENT_BYTES) -> GcsImport:
    """Imports a ``.gcs`` file's bytes (:func:`~gurps_character.import_gcs`), its document within
    ``max_bytes`` (``--max-bytes``).

    The command line promises no traceback for any input: should the importer fail on a file in
    a way it does not describe (a bug), that becomes an ``importFailed`` error naming the file
    instead of ending the whole run.

    Raises:
        CharacterError: The importer's own refusal (``notGcs``, ``tooLarge`` naming
            ``--max-bytes`` ...) or ``importFailed``.
    """
    from ..gcs import import_gcs  # only a .gcs file pays for importing the importer

    try:
        return import_gcs(data, max_bytes=max_bytes)
    except CharacterError as err:
        raise with_limit_hint(err) from None
    except Exception as err:  # the boundary: one bad file must not end a run over many
        raise import_failed(err) from None


def import_failed(err: Exception) -> CharacterError:
    """The ``importFailed`` error for a failure the library does not describe (a bug)."""
    what = f"{type(err).__name__}: {err}"[:300]
    return CharacterError(
        IMPORT_FAILED,
        f"the GCS import failed on this file ({what}); please report it with the file.",
        {"reason": what},
    )


def _gcs_source(data: bytes, max_bytes: int = MAX_DOCUMENT_BYTES, /) -> Source:
    # Imported on the fly; the notes are for the `import` command, which prints them.
    return gcs_import(data, max_bytes).document


def _detected_source(data: bytes, max_bytes: int = MAX_DOCUMENT_BYTES, /) -> Source:
    """stdin: the format its content shows (:func:`~gurps_character.load_character`'s rules); a
    JSON object that is a GCS file's data is imported."""
    found = detected_kind(data)
    if found != "json":
        return _LOADERS[found](data, max_bytes)
    document = read_document_or_gcs(data, max_bytes)
    return gcs_import(data, max_bytes).document if document is None else document


DEFAULT_SUFFIX: Final = ".json"
GCS_SUFFIX: Final = ".gcs"

_LOADERS: Final[Mapping[CharacterKind, DocumentLoader]] = MappingProxyType(
    {"json": _json_source, "yaml": _yaml_source, "gcs": _gcs_source}
)
"""Each format's loader."""

FORMATS: Final[Mapping[str, DocumentLoader]] = MappingProxyType(
    {suffix: _LOADERS[kind] for suffix, kind in SUFFIX_KINDS.items()}
)
"""Lower-case file suffix -> loader, for the suffixes :func:`~gurps_character.load_character` knows."""

IMPORTED: Final = frozenset({GCS_SUFFIX})
"""Suffixes of other programs' files: read through an importer, never written over."""


DocumentWriter: TypeAlias = Callable[[Mapping[str, Any]], str]
"""Writes a valid document as text; raises ``CharacterError`` for one it refuses (invalid ...)."""


def _json_text(document: Mapping[str, Any]) -> str:
    from ..load import serialize_character

    return serialize_character(document)


def _yaml_text(document: Mapping[str, Any]) -> str:
    from ..yaml import dump_yaml_character

    return dump_yaml_character(document)


WRITERS: Final[Mapping[str, DocumentWriter]] = MappingProxyType(
    {
        DEFAULT_SUFFIX: _json_text,
        ".yaml": _yaml_text,
        ".yml": _yaml_text,
    }
)
"""Lower-case file suffix -> writer, for the formats that can be written."""


def writer_for(path: str) -> DocumentWriter | None:
    """The writer for a path, by its suffix (case-insensitive); None when the suffix names no
    format that can be written."""
    return WRITERS.get(os.path.splitext(path)[1].lower())


def loader_for(path: str) -> DocumentLoader:
    """The loader for a path, by its suffix (case-insensitive); JSON when the suffix is unknown;
    for stdin (``-``), by the content."""
    if path == STDIN:
        return _detected_source
    suffix = os.path.splitext(path)[1].lower()
    return FORMATS.get(suffix, FORMATS[DEFAULT_SUFFIX])


def document_suffixes() -> tuple[str, ...]:
    """The suffixes a folder is searched for (``check``/``validate``), JSON first."""
    return tuple(FORMATS)


def is_imported(path: str) -> bool:
    """Whether ``path`` is another program's file (``.gcs``): read it, never write over it."""
    return os.path.splitext(path)[1].lower() in IMPORTED
