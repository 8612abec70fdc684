"""Reading and writing documents: size, JSON, envelope, schema — and back to text."""

from __future__ import annotations

import io
import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from ._json import (
    JsonTextError,
    NotJsonError,
    NumberOutOfRangeError,
    _js_string,
    _scalar,
    copy_json,
    dumps,
    js_number,
    js_property_order,
    loads,
    loads_with_infinities,
    utf8,
)
from .constants import FORMAT, LEGACY_FORMAT, MAX_DOCUMENT_BYTES, SUPPORTED_MAJOR, SUPPORTED_MINOR
from .errors import CharacterError, describe, guarded, json_detail, not_json_error
from .validate import ValidationError, validate_character

if TYPE_CHECKING:
    from .document import GurpsCharacter
    from .verify import VerificationReport

__all__ = [
    "Envelope",
    "Parsed",
    "check_envelope",
    "parse_character",
    "serialize_character",
]

_SUPPORTED = f"{SUPPORTED_MAJOR}.{SUPPORTED_MINOR}"
# The schema's formatVersion pattern (^1\.\d+\.\d+$), with ECMA's ASCII-only digits.
_VERSION = re.compile(r"([0-9]+)\.([0-9]+)\.([0-9]+)")


@dataclass(frozen=True, slots=True)
class Envelope:
    """The format version a document declares: ``major.minor``.

    Attributes:
        major: The major version (the ``1`` of ``1.3``).
        minor: The minor version (the ``3`` of ``1.3``).
    """

    major: int
    minor: int

    def to_dict(self) -> dict[str, int]:
        """The envelope as JSON data.

        Returns:
            ``{"major", "minor"}``, as the reference returns it.
        """
        return {"major": self.major, "minor": self.minor}


class Parsed(NamedTuple):
    """What :func:`parse_character` returns: the document and its rule report."""

    character: GurpsCharacter
    """The document, schema-valid."""
    report: VerificationReport
    """What :func:`verify_character` found in it."""


def _describe(value: object) -> str:
    if isinstance(value, str):
        return describe(value)
    if value is None:
        return "missing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, int | float):
        detail = json_detail(value)  # NaN, infinities and huge integers have no JSON number
        return js_number(detail) if isinstance(detail, int | float) else str(detail)
    return f"a {type(value).__name__}"


def _envelope_detail(value: object) -> Any:
    """A declared format or version for ``details``: an infinity (``1e400`` in a text, which
    ``JSON.parse`` reads as ``Infinity``) is ``None``, as ``JSON.stringify`` writes it."""
    if type(value) is float and not math.isfinite(value):
        return None
    return json_detail(value)


@guarded
def check_envelope(document: object) -> Envelope:
    """Checks that a value is a gurps-character object of a version this library reads.

    Args:
        document: Any value, typically a freshly parsed JSON object.

    Returns:
        The declared major and minor version.

    Raises:
        CharacterError: ``notAnObject``, ``legacyFormat``, ``wrongFormat``, ``unsupportedVersion``
            (major is not 1, or the version is not ``1.x.y``) or ``newerVersion`` (a newer minor:
            update the library).
    """
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    declared = document.get("format")
    if declared == LEGACY_FORMAT:
        raise CharacterError(
            "legacyFormat",
            "This is a legacy gurps-sheet export, not a gurps-character document; "
            "export it again from the sheet editor.",
            {"format": declared},
        )
    if declared != FORMAT or not isinstance(declared, str):
        raise CharacterError(
            "wrongFormat",
            f"Not a gurps-character document (format is {_describe(declared)}).",
            {"format": _envelope_detail(declared)},
        )
    version = document.get("formatVersion")
    match = _VERSION.fullmatch(version) if isinstance(version, str) else None
    if match is None or match.group(1) != str(SUPPORTED_MAJOR):
        raise CharacterError(
            "unsupportedVersion",
            f"Unsupported formatVersion {_describe(version)}: this library reads 1.x.y up to {_SUPPORTED}.",
            _version_details(version),
        )
    minor = _small_integer(match.group(2))
    if minor is None or minor > SUPPORTED_MINOR:
        shown = match.group() if len(match.group()) <= 40 else describe(match.group())
        raise CharacterError(
            "newerVersion",
            f"formatVersion {shown} is newer than this library understands (up to {_SUPPORTED}); "
            "update the library to read it.",
            _version_details(version),
        )
    return Envelope(SUPPORTED_MAJOR, minor)


def _version_details(version: object) -> dict[str, Any]:
    """The details of a refused ``formatVersion``."""
    return {"formatVersion": _envelope_detail(version), "supported": _SUPPORTED}


_MAX_SMALL_DIGITS = 15
"""Digit strings this long or shorter are read as integers; longer ones are only "large"."""


def _small_integer(digits: str) -> int | None:
    """The value of a string of ASCII digits, or None when it has more than 15 significant digits
    (``int()`` of text refuses over 4,300 digits, and no version number needs more than a few)."""
    significant = digits.lstrip("0")
    return int(significant or "0") if len(significant) <= _MAX_SMALL_DIGITS else None


def text_of(source: str | bytes | bytearray | memoryview, max_bytes: int) -> tuple[str, bytes]:
    """The text and its UTF-8 bytes, after the size check (``tooLarge``).

    Raises:
        JsonTextError: the bytes are not UTF-8 (the position of the first bad byte).
    """
    encoded = utf8(source) if isinstance(source, str) else bytes(source)
    size = len(encoded)
    if size > max_bytes:
        raise CharacterError(
            "tooLarge",
            f"The document is {size} bytes, over the limit of {max_bytes}.",
            {"size": size, "limit": max_bytes},
        )
    if isinstance(source, str):
        return source, encoded
    try:
        return encoded.decode("utf-8"), encoded
    except UnicodeDecodeError as err:
        text = encoded[: err.start].decode("utf-8")
        raise JsonTextError("the bytes are not UTF-8", text, len(text), truncated=False) from None


def _invalid_json(err: JsonTextError) -> CharacterError:
    where = "the text ends early" if err.truncated else f"line {err.line}, column {err.column}"
    return CharacterError("invalidJson", f"Invalid JSON ({where}): {err.reason}.", err.details())


def check_max_bytes(max_bytes: object) -> int:
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
        raise CharacterError(
            "invalidArgument",
            f"max_bytes must be a non-negative integer, not {describe(max_bytes)}.",
            {"name": "max_bytes", "value": json_detail(max_bytes)},
        )
    return max_bytes


Locate = Callable[[tuple[ValidationError, ...]], list[tuple[int, int] | None]]
"""Where each validation error stands in the source text: ``(line, column)``, 1-based, or None."""


def schema_error(errors: tuple[ValidationError, ...], locate: Locate | None = None) -> CharacterError:
    """The ``schema`` error for a list of validation errors.

    With ``locate`` (a text format with lines, such as YAML), each error's entry in ``details``
    also has its ``line`` and ``column``, and the message shows them.
    """
    entries = [error.to_dict() for error in errors]
    shown = [error.message for error in errors[:3]]
    if locate is not None:
        for index, position in enumerate(locate(errors)):
            if position is not None:
                entries[index]["line"], entries[index]["column"] = position
                if index < len(shown):
                    shown[index] += f" (line {position[0]}, column {position[1]})"
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    count = "1 error" if len(errors) == 1 else f"{len(errors)} errors"
    return CharacterError(
        "schema",
        f"The document does not match the gurps-character schema ({count}): {'; '.join(shown)}{more}.",
        {"errors": entries},
    )


def require_valid(document: object) -> None:
    """Refuses a document that does not match the schema (``schema``, with every error); valid
    documents cost only the fast check."""
    result = validate_character(document)
    if not result.valid:
        raise schema_error(result.errors)


def read_json(source: object, max_bytes: int = MAX_DOCUMENT_BYTES) -> Any:
    """JSON data owned by the caller: text (``str`` or UTF-8 bytes) after the size check,
    parsed; a mapping copied and checked to be JSON; anything else returned as it is.

    Raises:
        CharacterError: ``invalidArgument`` (``max_bytes``), ``tooLarge`` or ``invalidJson``.
    """
    limit = check_max_bytes(max_bytes)
    if isinstance(source, str | bytes | bytearray | memoryview):
        try:
            return loads(*text_of(source, limit))
        except JsonTextError as err:
            raise _invalid_json(err) from None
    if isinstance(source, Mapping):
        try:
            return copy_json(source)
        except NotJsonError as err:
            raise not_json_error(err) from None
    return source


def looks_like_gcs(data: object) -> bool:
    """Whether JSON data is a GCS file's rather than a document: an object with no ``format``
    but GCS's ``version`` (the schema allows no ``version`` in a document)."""
    return isinstance(data, Mapping) and "format" not in data and "version" in data


class _GcsData(Exception):
    """Raised inside :func:`read_document_or_gcs`'s checks when the data is a GCS file's; it never
    leaves this module."""


def _check_document_envelope(document: object) -> None:
    """:func:`check_envelope`, after telling a GCS file's data apart (:class:`_GcsData`)."""
    if looks_like_gcs(document):
        raise _GcsData
    check_envelope(document)


def _gcs_data_error() -> CharacterError:
    return CharacterError(
        "wrongFormat",
        "Not a gurps-character document (format is missing): this is a GCS character file; "
        "import it with import_gcs, or read it with load_character, which reads GCS, JSON and YAML.",
        {"format": None},
    )


def _refuse_other_source(source: object) -> NoReturn:
    """A path or an open file where text, bytes or a mapping belongs: say what to do instead."""
    raise CharacterError(
        "invalidArgument",
        f"source must be JSON text (str), UTF-8 bytes or a mapping, not a {type(source).__name__}; "
        "to read a file, use load_character(path).",
        {"name": "source", "value": describe(source)},
    )


def read_document_or_gcs(source: object, max_bytes: int = MAX_DOCUMENT_BYTES) -> dict[str, Any] | None:
    """:func:`load_document`, except that a GCS file's data (:func:`looks_like_gcs`) gives None
    instead of ``wrongFormat``: the caller imports the source then."""
    try:
        if isinstance(source, str | bytes | bytearray | memoryview):
            document = _read_character_text(source, check_max_bytes(max_bytes))
        elif isinstance(source, Mapping):
            check_max_bytes(max_bytes)
            document = _read_character_mapping(source)
        elif isinstance(source, os.PathLike | io.IOBase):
            _refuse_other_source(source)
        else:
            document = read_json(source, max_bytes)
        _check_document_envelope(document)
    except _GcsData:
        return None
    assert isinstance(document, dict)
    return document


def load_document(source: object, max_bytes: int = MAX_DOCUMENT_BYTES) -> dict[str, Any]:
    """Size, JSON and envelope checks; a fresh document owned by the caller. A GCS file's data
    is ``wrongFormat`` with a message that says how to read it."""
    document = read_document_or_gcs(source, max_bytes)
    if document is None:
        raise _gcs_data_error()
    return document


def _read_character_text(source: str | bytes | bytearray | memoryview, limit: int) -> Any:
    """The JSON text of a character, after the size check (see :func:`_refuse_infinities`)."""
    out_of_range: NumberOutOfRangeError | None = None
    try:
        text, encoded = text_of(source, limit)
        return loads(text, encoded)
    except NumberOutOfRangeError as err:
        out_of_range = err
    except JsonTextError as err:
        raise _invalid_json(err) from None
    _refuse_infinities(text, out_of_range)


def _read_character_mapping(source: Mapping[str, Any]) -> Any:
    """A mapping's copy. A number no double holds (NaN, an infinity, an integer of 2**1024 or
    more) is refused as ``1e400`` in a text is: where the envelope or the schema refuses it, with
    their error at its pointer, elsewhere (``extensions``) as ``invalidJson``."""
    try:
        return copy_json(source)
    except NotJsonError as err:
        if not err.number:
            raise not_json_error(err) from None
        first = err
    try:
        document = copy_json(source, numbers="infinity")
    except NotJsonError as err:  # something else no JSON holds, after the number
        raise not_json_error(err) from None
    _check_document_envelope(document)
    require_valid(document)
    raise not_json_error(first)


def _refuse_infinities(text: str, first: NumberOutOfRangeError) -> NoReturn:
    """Text holding a number no double can hold (``1e400``): ``JSON.parse`` reads it as
    ``Infinity``, and the reference reports it where the envelope or the schema refuses it
    (a ``schema`` error ``type``: "must be number" at its pointer). We never hold an infinity:
    where the schema would take one (free-form ``extensions``), the text is ``invalidJson``."""
    try:
        document = loads_with_infinities(text)
    except JsonTextError as err:  # a syntax error after the number
        raise _invalid_json(err) from None
    _check_document_envelope(document)
    require_valid(document)
    raise _invalid_json(first)


@guarded
def parse_character(
    source: str | bytes | bytearray | memoryview | Mapping[str, Any], *, max_bytes: int = MAX_DOCUMENT_BYTES
) -> Parsed:
    """Loads a character and checks it completely.

    The checks run in this order: size (UTF-8 bytes, text only), JSON, format and version,
    schema; then the rules are recomputed (:func:`verify_character`).

    To read a file, or a character in any format (GCS, JSON, YAML), use
    :func:`~gurps_character.load_character`.

    Args:
        source: JSON text (``str`` or UTF-8 ``bytes``) or an already-parsed mapping. A mapping is
            copied, never kept or modified.
        max_bytes: The size limit for text input.

    Returns:
        ``Parsed(character, report)``, a fresh document and its verification report.

    Raises:
        CharacterError: ``tooLarge``, ``invalidJson``, ``notAnObject``, ``legacyFormat``,
            ``wrongFormat`` (for a GCS file too: its message says to use ``import_gcs`` or
            ``load_character``), ``unsupportedVersion``, ``newerVersion`` or ``schema``;
            ``invalidArgument`` for a path or an open file (``load_character`` reads files).
    """
    from .verify import verify_character

    document = load_document(source, max_bytes)
    require_valid(document)
    return Parsed(document, verify_character(document))  # type: ignore[arg-type]


@guarded
def serialize_character(document: Mapping[str, Any], *, indent: int | str = 2) -> str:
    """The JSON text of a valid document, byte for byte as the reference writes it.

    Args:
        document: A character document.
        indent: Spaces per level (as JavaScript's ``JSON.stringify``: at most 10, 0 for none) or
            an indent string.

    Returns:
        ``JSON.stringify(document, null, indent)`` followed by a newline.

    Raises:
        CharacterError: the document is not a gurps-character object of a supported version
            (see :func:`check_envelope`), is not JSON data (``invalidJson``), does not match
            the schema (``schema``), or its text would be longer than 2**29 - 24
            characters, the most V8 holds (``tooLarge``: deep data indented);
            ``invalidArgument`` for an ``indent`` that is neither a number of spaces nor a
            string.
    """
    if isinstance(indent, bool) or not isinstance(indent, int | str):
        raise CharacterError(
            "invalidArgument",
            f"indent must be a number of spaces or a string, not {describe(indent)}.",
            {"name": "indent", "value": json_detail(indent)},
        )
    check_envelope(document)
    require_valid(document)
    unit = (" " * max(0, min(10, int(indent)))) if isinstance(indent, int) else indent[:10]
    try:
        document = _in_javascript_order(document)
        # Indentation grows with depth times lines: a 2 MB file nested a million levels deep (in
        # `extensions`, the only free-form place) would need terabytes. Refused before writing.
        if unit and _layout(document.get("extensions"), 1)[2] * len(unit) > MAX_TEXT_LENGTH:
            raise _too_long(_text_length(document, unit))
        text = dumps(document, indent) + "\n"
    except NotJsonError as err:
        raise not_json_error(err) from None
    if len(text) > MAX_TEXT_LENGTH:
        raise _too_long(len(text))
    return text


def _in_javascript_order(document: Mapping[str, Any]) -> Mapping[str, Any]:
    """The document as a JavaScript object holds it: in ``extensions`` (the only place the
    schema leaves property names free), array-index names such as ``"2"`` come first, in numeric
    order, as ``JSON.stringify`` writes them."""
    extensions = document.get("extensions")
    if extensions is None:
        return document
    ordered = js_property_order(extensions)
    return document if ordered is extensions else {**document, "extensions": ordered}


MAX_TEXT_LENGTH = 2**29 - 24
"""The longest text :func:`serialize_character` writes, in characters: the longest string V8 (the
reference's JavaScript engine) can hold, beyond which its ``JSON.stringify`` throws."""


def _too_long(size: int) -> CharacterError:
    return CharacterError(
        "tooLarge",
        f"The JSON text would be {size} characters, over the limit of {MAX_TEXT_LENGTH}; "
        "a smaller indent (0 for none) makes it shorter.",
        {"size": size, "limit": MAX_TEXT_LENGTH},
    )


def _layout(value: Any, depth: int, *, scalars: bool = False) -> tuple[int, int, int, int]:
    """The JSON text of ``value`` (placed ``depth`` levels deep) without writing it: its compact
    length (only with ``scalars``, which measures every scalar too), and what indentation adds
    to it: line breaks, indentation in units, and object keys (each gains a space after the
    colon). Without recursion; a container met again is not walked again."""
    compact = breaks = units = keys = 0
    seen: set[int] = set()
    stack = [(value, depth)]
    pop, push = stack.pop, stack.append
    while stack:
        item, level = pop()
        kind = type(item)
        if kind is not list and kind is not dict and not isinstance(item, Mapping | list | tuple):
            compact += len(_scalar(item)) if scalars else 0
            continue
        if id(item) in seen:
            continue
        seen.add(id(item))
        count = len(item)
        compact += 2 + max(count - 1, 0)  # brackets and commas
        if count:
            breaks += count + 1  # one before each entry, one before the closing bracket
            units += count * (level + 1) + level
        if isinstance(item, Mapping):
            keys += count
            if scalars:
                compact += sum(len(_js_string(key)) + 1 for key in item)  # and a colon each
        level += 1
        for child in item.values() if isinstance(item, Mapping) else item:
            if scalars or type(child) in _CONTAINERS or isinstance(child, Mapping | list | tuple):
                push((child, level))
    return compact, breaks, units, keys


_CONTAINERS = (dict, list)


def _text_length(document: Any, unit: str) -> int:
    """The length of ``dumps(document, unit) + "\\n"``, without writing it."""
    compact, breaks, units, keys = _layout(document, 0, scalars=True)
    return compact + breaks + units * len(unit) + keys + 1
