"""Hostile GCS files: the importer gives a valid, honest document or a ``CharacterError``.

A ``.gcs`` file comes from another program, a download or a person with a text editor. Whatever it
holds, :func:`~gurps_character.import_gcs` returns or raises ``CharacterError`` (``TypeError`` only
for a naive ``now``), never changes its input, shares no dict or list with it, and what it returns
is a document that passes :func:`~gurps_character.validate_character` and whose integrity block
matches :func:`~gurps_character.verify_character`'s recomputation (``claim_consistent``).

The inputs come from ``gcs_strategies.py`` (GCS characters of every file version, plausible or
assembled at random, with odd values, keys and nesting); ``scripts/fuzz.py`` runs the same
generators for as long as you like and measures the time each import takes.
"""

from __future__ import annotations

import json
import tracemalloc
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from gurps_character import (
    MAX_DOCUMENT_BYTES,
    CharacterError,
    GcsImport,
    ImportNote,
    export_gcs,
    import_gcs,
    serialize_character,
    validate_character,
    verify_character,
)
from gurps_character._json import loads
from gurps_character.errors import describe
from gurps_character.gcs import EXTENSION, KEPT_TEXT
from gurps_character.gcs.format.json_text import compact_text
from gurps_character.gcs.importing.reading import read_gcs
from gurps_character.load import read_json
from tests.support import gcs_samples
from tests.support.gcs_strategies import gcs_documents, gcs_sources
from tests.support.strategies import hostile_values, nested, shared_containers, snapshot

HOSTILE_GCS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
"""Each example imports, validates and verifies a character: few examples, many kinds."""

IMPORT_CODES = {"tooLarge", "invalidJson", "notGcs", "unsupportedGcsVersion", "invalidArgument"}
NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)
DEEP = 25_000
"""Deeper than any recursion could go (the limit is 1,000 frames); scripts/fuzz.py goes further."""


def import_checked(source: Any) -> GcsImport | str:
    """Imports ``source`` and checks every promise; returns the import, or the error code."""
    before = snapshot(source)
    try:
        result = import_gcs(source, now=NOW)
    except CharacterError as err:
        assert err.code in IMPORT_CODES, err.to_dict()
        assert snapshot(source) == before, "the input was modified"
        return err.code
    assert snapshot(source) == before, "the input was modified"
    assert isinstance(result, GcsImport)
    assert not shared_containers(result.document, source), "the document shares a dict or list with the input"
    validity = validate_character(result.document)
    assert validity.valid, [error.message for error in validity.errors[:5]]
    report = verify_character(result.document)
    assert report.claim_consistent, report.to_dict()
    assert all(isinstance(note, ImportNote) and note.kind and note.message for note in result.notes)
    serialize_character(result.document, indent=0)  # plain JSON data, however deep
    check_values(_data_of(source), result.document)
    check_kept(source, result.document)
    return result


def check_kept(source: Any, document: dict[str, Any]) -> None:
    """What the import accepts, the library reads again and writes back: the document is within
    the limit documents are read with, keeps the file's data as the importer read it, and is
    written back with and without the file."""
    text = serialize_character(document)
    assert len(text.encode()) <= MAX_DOCUMENT_BYTES
    kept = document["extensions"][EXTENSION][KEPT_TEXT]
    assert kept == compact_text(read_gcs(source, 10**9).data)
    assert isinstance(loads(export_gcs(document, now=NOW).text), dict)
    if isinstance(source, str | bytes):
        export_gcs(document, base=source, now=NOW)


def _data_of(source: Any) -> Any:
    """The JSON data of an import's source (without recursion, as the importer reads it)."""
    if isinstance(source, bytes | bytearray | memoryview):
        raw = bytes(source)
        return read_json(raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw, 10**9)
    if isinstance(source, str):
        return read_json(source[1:] if source.startswith("\ufeff") else source, 10**9)
    return source


def _carried(items: Any) -> int:
    """How many JSON objects the equipment tree holds (its children 64 levels down at most)."""
    count = 0
    stack = [(items, 0)]
    while stack:
        nodes, depth = stack.pop()
        for node in nodes if type(nodes) is list else ():
            if type(node) is dict:
                count += 1
                if type(node.get("children")) is list and depth + 1 < 64:
                    stack.append((node["children"], depth + 1))
    return count


def check_values(data: Any, document: dict[str, Any]) -> None:
    """What holds of any file, however hostile: every carried item is an entry; the name is the
    profile's, trimmed; a tech level of ASCII digits is read; the points spent add up."""
    assert len(document["equipment"]) == _carried(data.get("equipment"))
    profile = data.get("profile")
    name = profile.get("name") if type(profile) is dict else None
    assert document["profile"]["name"] == (name.strip() if type(name) is str else "")
    tech_level = profile.get("tech_level") if type(profile) is dict else None
    digits = tech_level.strip() if type(tech_level) is str else ""
    if digits.isascii() and digits.isdigit() and len(digits) <= 3:
        assert document["techLevel"]["level"] == int(digits)
    points = document["points"]
    assert points["spent"] == pytest.approx(sum(points["breakdown"].values()), abs=1e-6)
    if points["budget"] is not None:
        assert points["unspent"] == pytest.approx(points["budget"] - points["spent"], abs=1e-6)


@HOSTILE_GCS
@given(gcs_documents())
def test_hostile_gcs_documents_give_valid_documents_or_character_errors(document: Any) -> None:
    import_checked(document)


@HOSTILE_GCS
@given(gcs_sources())
def test_hostile_gcs_text_and_bytes_give_valid_documents_or_character_errors(source: Any) -> None:
    import_checked(source)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_values(deep=500))
def test_any_value_as_a_gcs_file_gives_a_character_error_or_a_document(value: Any) -> None:
    import_checked(value)


@pytest.mark.parametrize("version", [2, 4, 5])
def test_plausible_characters_of_each_version_import(version: int) -> None:
    character = gcs_samples.character(units=12, version=version)
    result = import_checked(character)
    assert isinstance(result, GcsImport)
    assert result.document["profile"]["name"] == "Ailsa Brand"
    names = {skill["name"] for skill in result.document["skills"]}
    assert {skill["name"] for skill in character["skills"]} <= names  # and the technique


@pytest.mark.parametrize("version", [1, 2, 4, 5])
def test_minimal_characters_of_each_version_import(version: int) -> None:
    result = import_checked(gcs_samples.text_of(gcs_samples.minimal(version)))
    assert isinstance(result, GcsImport)
    assert result.document["attributes"]["st"]["value"] == 11


@pytest.mark.parametrize("key", ["traits", "skills", "equipment", "notes", "spells", "other_equipment"])
@pytest.mark.parametrize("form", ["mapping", "text"])
def test_containers_nested_far_too_deep_are_handled_without_recursion(key: str, form: str) -> None:
    leaf: dict[str, Any] = {"id": "leaf", "name": "leaf", "description": "leaf"}
    node: dict[str, Any] = leaf
    for _ in range(DEEP):
        node = {"id": "T0000000000000000", "type": "trait_container", "name": "deep", "children": [node]}
    document = {**gcs_samples.character(units=2), key: [node]}
    if form == "mapping":
        import_checked(document)
        return
    # json.dumps recurses: the text is written by hand, one level at a time
    opening = '{"id": "T0000000000000000", "type": "trait_container", "name": "deep", "children": ['
    chain = opening * DEEP + json.dumps(leaf) + "]}" * DEEP
    text = json.dumps({**document, key: "CHAIN"}).replace('"CHAIN"', "[" + chain + "]")
    import_checked(text)


@pytest.mark.parametrize("shape", ["list", "dict", "mixed"])
def test_deep_data_anywhere_is_handled_without_recursion(shape: str) -> None:
    document = gcs_samples.character(units=2)
    document["third_party"] = {"deep": nested(DEEP, 1, shape)}
    document["profile"]["portrait"] = nested(DEEP, "x", shape)
    document["skills"][0]["features"] = [nested(DEEP, {"type": "skill_bonus"}, shape)]
    import_checked(document)


@pytest.mark.parametrize("form", ["mapping", "text"])
def test_memory_stays_linear_on_deep_and_wide_input(form: str) -> None:
    # 4,000 levels around 4,000 small lists: 44 kB of text. A pointer string per container built
    # up front costs depth x width (about 30 MB here); the import itself needs about 1 MB.
    levels = 4_000
    text = json.dumps({"version": 5, "third_party": "X"}).replace(
        '"X"', '{"a":' * levels + json.dumps([[1]] * levels) + "}" * levels
    )
    source: Any = text if form == "text" else read_json(text)  # read without recursion
    tracemalloc.start()
    try:
        import_gcs(source, now=NOW)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10_000_000, f"{peak:,} bytes at the peak"


def _with(path: tuple[Any, ...], value: Any, version: int = 5) -> dict[str, Any]:
    document = gcs_samples.character(units=4, version=version)
    target: Any = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return document


ODD_NUMBERS = [
    1e300,
    -1e300,
    1.7976931348623157e308,
    5e-324,
    -0.0,
    0.3,
    2**53 + 1,
    2**63,
    10**400,
    -(10**400),
]


@pytest.mark.parametrize(
    "path",
    [
        ("total_points",),
        ("profile", "SM"),
        ("attributes", 0, "adj"),
        ("attributes", 0, "calc", "value"),
        ("attributes", 11, "adj"),
        ("attributes", 11, "calc", "value"),
        ("attributes", 14, "damage"),
        ("traits", 0, "levels"),
        ("traits", 0, "points_per_level"),
        ("traits", 1, "base_points"),
        ("traits", 1, "cr"),
        ("skills", 0, "points"),
        ("skills", 0, "calc", "level"),
        ("equipment", 0, "quantity"),
    ],
    ids=lambda path: "/".join(map(str, path)),
)
@pytest.mark.parametrize("number", ODD_NUMBERS, ids=describe)
def test_numbers_no_character_has_give_valid_documents_or_character_errors(
    path: tuple[Any, ...], number: Any
) -> None:
    document = _with(path, number)
    import_checked(document)
    import_checked(json.dumps(document))  # as a file: numbers beyond doubles are invalid JSON


@pytest.mark.parametrize(
    "text",
    ["NaN", "Infinity", "-Infinity", "1e400", "9" * 400, "", " ", "x0", "x2", "-80%", "1e9999 lb", "@x@"],
)
@pytest.mark.parametrize(
    "path",
    [
        ("equipment", 0, "base_value"),
        ("equipment", 0, "base_weight"),
        ("equipment", 0, "calc", "extended_weight"),
        ("settings", "attributes", 0, "base"),
        ("settings", "attributes", 13, "thresholds", 0, "expression"),
        ("profile", "height"),
        ("profile", "weight"),
        ("skills", 0, "difficulty"),
        ("calc", "basic_lift"),
        ("calc", "swing"),
        ("traits", 2, "modifiers", 0, "cost_adj"),
    ],
    ids=lambda path: "/".join(map(str, path)),
)
def test_nan_like_text_gives_valid_documents_or_character_errors(path: tuple[Any, ...], text: str) -> None:
    import_checked(_with(path, text))


@pytest.mark.parametrize("key", ["", "__proto__", "constructor", "calc", "\x00", "\ud800", "💥"])
def test_odd_keys_are_carried_or_ignored(key: str) -> None:
    document = gcs_samples.character(units=2)
    document[key] = {key: key}
    document["skills"][0][key] = [key]
    result = import_checked(document)
    assert isinstance(result, GcsImport)


def test_placeholders_that_name_themselves_are_filled_once() -> None:
    document = gcs_samples.character(units=4)
    trait = document["traits"][1]
    trait["replacements"] = {"Whose": "@Whose@@Whose@", "": "@@"}
    trait["name"] = "@Whose@" * 2_000
    result = import_checked(document)
    assert isinstance(result, GcsImport)
    assert max(len(json.dumps(item)) for item in result.document["traits"]) < 100_000


def test_the_same_list_many_times_over_is_refused_or_imported_in_bounded_size() -> None:
    document = gcs_samples.character(units=2)
    skills: list[Any] = document["skills"]
    for _ in range(40):  # 2**40 skills if every reference were copied
        skills = [skills, skills]
    document["skills"] = skills
    import_checked(document)


@pytest.mark.parametrize("version", [5, 4, 2, 1])
def test_an_import_of_the_byte_limit_is_refused_one_byte_over(version: int) -> None:
    text = gcs_samples.text_of(gcs_samples.minimal(version))
    assert isinstance(import_checked(text), GcsImport)
    size = len(text.encode())
    assert isinstance(import_gcs(text, max_bytes=size), GcsImport)
    with pytest.raises(CharacterError) as caught:
        import_gcs(text, max_bytes=size - 1)
    assert caught.value.code == "tooLarge"
