"""The YAML functions behind :mod:`gurps_character.yaml` (see there)."""

from __future__ import annotations

from typing import Any

from ._json import JsonTextError, NotJsonError, copy_json
from ._pointer import tokens_of
from ._yaml_read import MAX_YAML_DEPTH, YamlDataError, locate, read_yaml, require_ruamel
from ._yaml_text import line_and_column
from ._yaml_write import unwritable, write_yaml
from .constants import MAX_DOCUMENT_BYTES
from .errors import CharacterError, describe, not_json_error
from .load import Parsed, check_envelope, check_max_bytes, require_valid, schema_error, text_of
from .validate import ValidationError, validate_character

__all__ = ["dump_yaml_character", "load_yaml_document", "parse_yaml_character"]


def parse_yaml_character(
    source: str | bytes | bytearray | memoryview, *, max_bytes: int = MAX_DOCUMENT_BYTES
) -> Parsed:
    """Loads a character written in YAML and checks it completely, as
    :func:`~gurps_character.parse_character` does a JSON one.

    The checks run in this order: size (UTF-8 bytes), YAML (and that it is JSON data), format
    and version, schema; then the rules are recomputed (:func:`~gurps_character.verify_character`).

    Args:
        source: YAML text (``str`` or UTF-8 ``bytes``).
        max_bytes: The size limit.

    Returns:
        ``Parsed(character, report)``, a fresh document and its verification report.

    Raises:
        CharacterError: ``missingExtra`` (ruamel.yaml is not installed), ``invalidArgument``
            (``max_bytes``, or a source that is not text), ``tooLarge``, ``invalidYaml``
            (``{line, column}``), ``notAnObject``, ``legacyFormat``, ``wrongFormat``,
            ``unsupportedVersion``, ``newerVersion`` or ``schema`` (each error with its
            ``line`` and ``column``).
    """
    from .verify import verify_character

    document = load_yaml_document(source, max_bytes=max_bytes)
    return Parsed(document, verify_character(document))  # type: ignore[arg-type]


def load_yaml_document(
    source: str | bytes | bytearray | memoryview, *, max_bytes: int = MAX_DOCUMENT_BYTES
) -> dict[str, Any]:
    """:func:`parse_yaml_character` without the rule check: what ``validate`` needs.

    Args:
        source: YAML text (``str`` or UTF-8 ``bytes``).
        max_bytes: The size limit.

    Returns:
        A fresh document that passed the size, YAML, envelope and schema checks.

    Raises:
        CharacterError: as :func:`parse_yaml_character` (schema errors placed in the YAML).
    """
    require_ruamel()
    limit = check_max_bytes(max_bytes)
    if not isinstance(source, str | bytes | bytearray | memoryview):
        raise CharacterError(
            "invalidArgument",
            f"source must be YAML text (str or UTF-8 bytes), not {describe(source)}.",
            {"name": "source"},
        )
    try:
        text, _ = text_of(source, limit)
        document, out_of_range = read_yaml(text)
    except JsonTextError as err:  # bytes that are not UTF-8, placed by YAML's line breaks
        assert not isinstance(source, str)
        before = bytes(source).decode("utf-8", "replace")[: err.position]
        raise _invalid_yaml(err.reason, *line_and_column(before, err.position)) from None
    except YamlDataError as err:
        raise _invalid_yaml(err.reason, err.line, err.column) from None
    check_envelope(document)
    result = validate_character(document)
    if not result.valid:
        raise schema_error(result.errors, lambda errors: _positions(text, errors))
    if out_of_range is not None:
        # As for JSON text: 1e400 (an infinity to JavaScript) is a schema error where a number
        # belongs; anywhere else (in extensions) the text is refused.
        raise _invalid_yaml(out_of_range.reason, out_of_range.line, out_of_range.column)
    assert isinstance(document, dict)
    return document


def dump_yaml_character(document: Any) -> str:
    """The YAML text of a valid document: block style, keys in their order, text quoted
    wherever a YAML reader (1.2 or 1.1) would take it for something else. Needs no optional
    library.

    Args:
        document: A character document.

    Returns:
        YAML text that :func:`parse_yaml_character` reads back as an equal document.

    Raises:
        CharacterError: the document is not a gurps-character object of a supported version
            (see :func:`~gurps_character.check_envelope`), does not match the schema (``schema``), is not JSON
            data (``invalidJson``, also for an integer no double holds), or is nested deeper
            than YAML is read (``tooLarge``, ``{pointer, limit}``).
    """
    check_envelope(document)
    require_valid(document)
    try:
        data = copy_json(document)
    except NotJsonError as err:
        raise not_json_error(err) from None
    too_deep = unwritable(data)
    if too_deep is not None:
        raise CharacterError(
            "tooLarge",
            f"The document is nested more than {MAX_YAML_DEPTH} levels deep at {too_deep}, "
            "deeper than YAML is read; keep it as JSON.",
            {"pointer": too_deep, "limit": MAX_YAML_DEPTH},
        )
    return write_yaml(data)


def _invalid_yaml(reason: str, line: int, column: int) -> CharacterError:
    return CharacterError(
        "invalidYaml",
        f"Invalid YAML (line {line}, column {column}): {reason}.",
        {"line": line, "column": column},
    )


def _positions(text: str, errors: tuple[ValidationError, ...]) -> list[tuple[int, int] | None]:
    """Where each schema error stands in the YAML: the offending value, or for a property name
    that is not allowed (an unknown property, a bad ``extensions`` key), that key."""
    wanted: list[tuple[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]]] = []
    for error in errors:
        tokens = tokens_of(error.pointer)
        name = error.property_name
        if name is None and error.keyword == "additionalProperties":
            name = error.params.get("additionalProperty")
        value = ("value", tokens)
        wanted.append(((("key", (*tokens, name)) if isinstance(name, str) else value), value))
    # A second pass over the text, paid only when the document is invalid: the first pass keeps
    # no positions, which would cost memory for every value of every valid document.
    found = locate(text, [target for pair in wanted for target in pair])
    return [found.get(first) or found.get(second) for first, second in wanted]
