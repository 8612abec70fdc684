"""The bundled schema files: their facts, their own documentation, and their x-gurps annotations.

The facts (every keyword except the human-readable ``description`` texts) must equal the reference
library's schema files; the descriptions are our own wording. The x-gurps annotations are invisible
to jsonschema (unknown keywords are ignored), so they are checked here, at every depth, against the
vocabulary meta-schema.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from gurps_character import _resources
from gurps_character._frozen import thaw
from gurps_character.constants import SCHEMA, VOCABULARY
from tests.support.paths import REPOSITORY

SCHEMA_PATH = REPOSITORY / "schema" / "gurps-character.schema.json"
VOCABULARY_PATH = REPOSITORY / "schema" / "x-gurps-vocabulary.schema.json"
REFERENCE = REPOSITORY.parent / "shared" / "reference"

Path_ = tuple[str, ...]

# Keywords whose value maps names to subschemas (or tables): a member called "description" there is
# a property, definition or table name, which is a fact, not documentation.
NAME_MAPS = frozenset({"properties", "$defs", "patternProperties", "dependentSchemas", "x-gurps-tables"})
# Keywords whose value is instance data: nothing inside them is documentation.
DATA_KEYWORDS = frozenset({"const", "enum", "default", "examples", "entries"})


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def ours() -> list[tuple[str, Any]]:
    return [
        ("gurps-character.schema.json", load(SCHEMA_PATH)),
        ("x-gurps-vocabulary.schema.json", load(VOCABULARY_PATH)),
    ]


def reference_dir() -> Path:
    if not (REFERENCE / "gurps-character.schema.json").is_file():
        pytest.skip(f"the reference schema files are not available ({REFERENCE} does not exist)")
    return REFERENCE


# --- descriptions ---------------------------------------------------------------------------------


NODE, NAMES, DATA = "node", "names", "data"


def kind_of(parent_kind: str, key: str) -> str:
    """What a member of an object is: a schema-like node, a map of names, or instance data."""
    if parent_kind == NAMES:
        return NODE
    if key in NAME_MAPS:
        return NAMES
    if key in DATA_KEYWORDS:
        return DATA
    return NODE


def is_documentation(parent_kind: str, key: str, value: Any) -> bool:
    """A ``description`` text, as opposed to a property that happens to be named "description"."""
    return parent_kind == NODE and key == "description" and isinstance(value, str)


def without_descriptions(node: Any, kind: str = NODE) -> Any:
    """A copy of a schema with every description text removed, at any depth."""
    if kind == DATA:
        return node
    if isinstance(node, dict):
        return {
            key: without_descriptions(value, kind_of(kind, key))
            for key, value in node.items()
            if not is_documentation(kind, key, value)
        }
    if isinstance(node, list):
        return [without_descriptions(item) for item in node]
    return node


def descriptions(node: Any, path: Path_ = (), kind: str = NODE) -> Iterator[tuple[Path_, str]]:
    """Every description text with its location (a JSON Pointer path)."""
    if kind == DATA:
        return
    if isinstance(node, dict):
        for key, value in node.items():
            if is_documentation(kind, key, value):
                yield path, value
            else:
                yield from descriptions(value, (*path, key), kind_of(kind, key))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from descriptions(item, (*path, str(index)))


def test_stripping_keeps_properties_named_description() -> None:
    schema = {
        "description": "documentation",
        "properties": {"description": {"type": "string", "description": "documentation"}},
        "x-gurps": {"role": "input", "description": "documentation"},
        "examples": [{"description": "data"}],
    }
    assert without_descriptions(schema) == {
        "properties": {"description": {"type": "string"}},
        "x-gurps": {"role": "input"},
        "examples": [{"description": "data"}],
    }
    assert [("/".join(path), text) for path, text in descriptions(schema)] == [
        ("", "documentation"),
        ("properties/description", "documentation"),
        ("x-gurps", "documentation"),
    ]


def test_reaction_modifier_description_property_is_a_fact() -> None:
    stripped = without_descriptions(load(SCHEMA_PATH))
    reaction = stripped["$defs"]["reactionModifier"]
    assert reaction["properties"]["description"] == {"type": "string"}
    assert reaction["required"] == ["source", "description"]


@pytest.mark.parametrize("name", ["gurps-character.schema.json", "x-gurps-vocabulary.schema.json"])
def test_facts_equal_the_reference(name: str) -> None:
    reference = load(reference_dir() / name)
    mine = dict(ours())[name]
    assert without_descriptions(mine) == without_descriptions(reference)


@pytest.mark.parametrize("name", ["gurps-character.schema.json", "x-gurps-vocabulary.schema.json"])
def test_descriptions_are_our_own_words(name: str) -> None:
    reference = dict(descriptions(load(reference_dir() / name)))
    mine = dict(descriptions(dict(ours())[name]))
    missing = sorted("/".join(path) for path in reference.keys() - mine.keys())
    assert not missing, f"descriptions dropped: {missing}"
    too_close = []
    for path in reference.keys() & mine.keys():
        ratio = difflib.SequenceMatcher(None, mine[path].lower(), reference[path].lower()).ratio()
        if mine[path] == reference[path] or ratio >= 0.8:
            too_close.append(("/".join(path), round(ratio, 2)))
    assert not too_close, f"descriptions too close to the reference wording: {sorted(too_close)}"


def test_the_top_level_description_points_to_our_readme() -> None:
    description = load(SCHEMA_PATH)["description"]
    assert "gurps_character" in description
    assert "README" in description
    assert "@gurps-sheet" not in description


def test_every_description_is_non_empty_text() -> None:
    for _, document in ours():
        for path, text in descriptions(document):
            assert text.strip() == text and text, "/".join(path)


# --- the files as files ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", [SCHEMA_PATH, VOCABULARY_PATH], ids=lambda path: path.name)
def test_files_are_pretty_printed_utf8(path: Path) -> None:
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert "\t" not in text and "\r" not in text
    lines = text.splitlines()
    assert len(lines) > 10
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0, line


def test_portuguese_labels_are_stored_as_utf8_text() -> None:
    text = SCHEMA_PATH.read_text(encoding="utf-8")
    assert '"pt-BR": "Percepção"' in text
    assert "\\u00e7" not in text


@pytest.mark.parametrize("path", [SCHEMA_PATH, VOCABULARY_PATH], ids=lambda path: path.name)
def test_is_a_valid_draft_2020_12_schema(path: Path) -> None:
    document = load(path)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(document)


# --- loading through the package -------------------------------------------------------------------


def test_constants_hold_the_bundled_files() -> None:
    assert thaw(SCHEMA) == load(SCHEMA_PATH)
    assert thaw(VOCABULARY) == load(VOCABULARY_PATH)
    assert SCHEMA["$id"] == "urn:gurps-sheet:schema:gurps-character:1.3.0"
    assert VOCABULARY["$id"] == "urn:gurps-sheet:schema:x-gurps-vocabulary:1.2.0"


def test_resource_text_finds_the_files() -> None:
    assert json.loads(_resources.resource_text(_resources.SCHEMA_FILE)) == load(SCHEMA_PATH)
    assert json.loads(_resources.resource_text(_resources.VOCABULARY_FILE)) == load(VOCABULARY_PATH)
    assert _resources.read_json_resource(_resources.SCHEMA_FILE)["title"] == "GURPS 4th Edition Character"


def test_constants_are_read_only() -> None:
    with pytest.raises(TypeError):
        SCHEMA["title"] = "changed"  # type: ignore[index]
    with pytest.raises(TypeError):
        SCHEMA["properties"]["format"]["const"] = "changed"
    with pytest.raises(TypeError):
        VOCABULARY["$defs"]["annotation"]["properties"]["role"]["enum"][0] = "changed"
    with pytest.raises(TypeError):
        del SCHEMA["$defs"]  # type: ignore[attr-defined]
    assert SCHEMA["title"] == "GURPS 4th Edition Character"


def test_reading_twice_gives_independent_copies() -> None:
    first = _resources.read_json_resource(_resources.SCHEMA_FILE)
    first["title"] = "changed"
    assert _resources.read_json_resource(_resources.SCHEMA_FILE)["title"] == "GURPS 4th Edition Character"


# --- x-gurps annotations ---------------------------------------------------------------------------


def annotation_nodes(node: Any, path: Path_ = (), kind: str = NODE) -> Iterator[tuple[Path_, str, Any]]:
    """Every ``x-gurps`` and ``x-gurps-tables`` value of a schema, at any depth."""
    if kind == DATA:
        return
    if isinstance(node, Mapping):
        for key, value in node.items():
            if kind == NODE and key in ("x-gurps", "x-gurps-tables"):
                yield (*path, key), key, value
            else:
                yield from annotation_nodes(value, (*path, key), kind_of(kind, key))
    elif isinstance(node, list | tuple):
        for index, item in enumerate(node):
            yield from annotation_nodes(item, (*path, str(index)))


def annotation_checkers(vocabulary: Mapping[str, Any]) -> dict[str, Any]:
    """One validator per annotation keyword, resolving into the vocabulary through a registry."""
    resource: Resource[Any] = DRAFT202012.create_resource(thaw(vocabulary))
    registry: Registry[Any] = Registry().with_resource(vocabulary["$id"], resource)
    return {
        keyword: Draft202012Validator({"$ref": f"{vocabulary['$id']}#/$defs/{definition}"}, registry=registry)
        for keyword, definition in (("x-gurps", "annotation"), ("x-gurps-tables", "tables"))
    }


def annotation_errors(schema: Any, vocabulary: Mapping[str, Any] = VOCABULARY) -> list[str]:
    """Every violation of the vocabulary, as "<pointer>: <message>" lines."""
    checkers = annotation_checkers(vocabulary)
    found = []
    for path, keyword, value in annotation_nodes(thaw(schema)):
        for error in checkers[keyword].iter_errors(value):
            inner = "".join(f"/{part}" for part in error.absolute_path)
            found.append(f"/{'/'.join(path)}{inner}: {error.message}")
    return found


def test_annotations_are_found_at_every_depth() -> None:
    paths = {"/".join(path) for path, _, _ in annotation_nodes(SCHEMA)}
    assert "x-gurps-tables" in paths
    assert "properties/profile/properties/name/x-gurps" in paths
    assert "properties/secondary/properties/hp/x-gurps" in paths
    assert "properties/secondary/properties/hp/properties/current/x-gurps" in paths
    assert "$defs/skill/properties/level/x-gurps" in paths
    assert "$defs/comprehension/x-gurps" in paths
    assert "$defs/rangedWeapon/properties/range/properties/max/x-gurps" in paths
    assert len(paths) > 100


def test_every_annotation_follows_the_vocabulary() -> None:
    assert annotation_errors(SCHEMA) == []


def test_the_vocabulary_defines_both_keywords() -> None:
    assert set(VOCABULARY["$defs"]) == {"annotation", "tables"}


def test_state_values_carry_bounds() -> None:
    states = [
        ("/".join(path), value)
        for path, keyword, value in annotation_nodes(SCHEMA)
        if keyword == "x-gurps" and value.get("role") == "state"
    ]
    assert [path for path, _ in states] == [
        "properties/secondary/properties/hp/properties/current/x-gurps",
        "properties/secondary/properties/fp/properties/current/x-gurps",
    ]
    for _, annotation in states:
        assert set(annotation["bounds"]) == {"min", "max"}


HP_CURRENT = ("properties", "secondary", "properties", "hp", "properties", "current", "x-gurps")


def broken(path: Path_, change: dict[str, Any]) -> Any:
    """A mutable copy of the schema with ``change`` merged into the annotation at ``path``."""
    schema = thaw(SCHEMA)
    node = schema
    for part in path:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node.update(change)
    return schema


@pytest.mark.parametrize(
    ("path", "change", "expected"),
    [
        (
            HP_CURRENT,
            {"role": "bogus"},
            "/properties/secondary/properties/hp/properties/current/x-gurps/role",
        ),
        (
            HP_CURRENT,
            {"bounds": {"min": "-10 * value", "maximum": "value"}},
            "/properties/secondary/properties/hp/properties/current/x-gurps/bounds",
        ),
        (HP_CURRENT, {"bounds": {"min": "", "max": "value"}}, "x-gurps/bounds/min"),
        (
            ("$defs", "skill", "properties", "level", "x-gurps"),
            {"override": "free"},
            "$defs/skill/properties/level/x-gurps/override",
        ),
        (
            ("$defs", "skill", "properties", "level", "x-gurps"),
            {"formula": ""},
            "$defs/skill/properties/level/x-gurps/formula",
        ),
        (
            ("$defs", "skill", "properties", "level", "x-gurps"),
            {"formulae": "1"},
            "$defs/skill/properties/level/x-gurps:",
        ),
        (
            ("$defs", "comprehension", "x-gurps"),
            {"label": {"Portuguese": "x"}},
            "$defs/comprehension/x-gurps/label",
        ),
        (
            ("properties", "attributes", "properties", "st", "x-gurps"),
            {"reference": "p14"},
            "st/x-gurps/reference",
        ),
        (
            ("properties", "attributes", "properties", "st", "x-gurps"),
            {"costPerLevel": "10"},
            "st/x-gurps/costPerLevel",
        ),
        (("properties", "points", "properties", "spent", "x-gurps"), {"unit": "pts"}, "spent/x-gurps/unit"),
        (("x-gurps-tables",), {"thrust": {"mode": "steps", "entries": []}}, "/x-gurps-tables/thrust/mode"),
        (("x-gurps-tables",), {"swing": {"mode": "step"}}, "/x-gurps-tables/swing:"),
        (
            ("x-gurps-tables", "skillCost"),
            {"extrapolate": {"from": 2, "every": 0, "add": 4}},
            "/x-gurps-tables/skillCost/extrapolate/every",
        ),
        (
            ("x-gurps-tables", "difficultyOffset"),
            {"entries": "E=-1"},
            "/x-gurps-tables/difficultyOffset/entries",
        ),
    ],
)
def test_the_checker_catches_bad_annotations(path: Path_, change: dict[str, Any], expected: str) -> None:
    errors = annotation_errors(broken(path, change))
    assert len(errors) == 1, errors
    assert expected in errors[0]


# --- the nested checking the vocabulary alone cannot do --------------------------------------------
# A meta-schema that extends draft 2020-12 with the two keywords. Its "$dynamicAnchor": "meta" makes
# the draft's "$dynamicRef": "#meta" land back here for every subschema, so nested annotations are
# checked too. It lives in this test: the vocabulary file itself stays equal to the reference.

META_ID = "urn:gurps-character:test:meta-schema-with-x-gurps"


def meta_validator() -> Any:
    vocabulary_id = VOCABULARY["$id"]
    meta = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": META_ID,
        "$dynamicAnchor": "meta",
        "allOf": [{"$ref": "https://json-schema.org/draft/2020-12/schema"}],
        "properties": {
            "x-gurps": {"$ref": f"{vocabulary_id}#/$defs/annotation"},
            "x-gurps-tables": {"$ref": f"{vocabulary_id}#/$defs/tables"},
        },
    }
    registry: Registry[Any] = Registry().with_resources(
        [
            (vocabulary_id, DRAFT202012.create_resource(thaw(VOCABULARY))),
            (META_ID, DRAFT202012.create_resource(meta)),
        ]
    )
    return Draft202012Validator(meta, registry=registry)


def test_meta_schema_accepts_the_schema() -> None:
    assert [error.message for error in meta_validator().iter_errors(load(SCHEMA_PATH))] == []


@pytest.mark.parametrize(
    ("path", "change"),
    [
        (HP_CURRENT, {"role": "bogus"}),
        (("$defs", "skill", "properties", "level", "x-gurps"), {"formulae": "1"}),
        (("x-gurps-tables",), {"swing": {"mode": "step"}}),
    ],
)
def test_meta_schema_catches_nested_bad_annotations(path: Path_, change: dict[str, Any]) -> None:
    assert not meta_validator().is_valid(broken(path, change))


# --- formulas -------------------------------------------------------------------------------------


def formulas(schema: Any) -> list[tuple[str, Any]]:
    """Every formula in the schema: x-gurps.formula and x-gurps.bounds.min/max, with their location."""
    found: list[tuple[str, Any]] = []
    for path, keyword, value in annotation_nodes(schema):
        if keyword != "x-gurps":
            continue
        where = "/" + "/".join(path)
        if "formula" in value:
            found.append((f"{where}/formula", value["formula"]))
        for end in ("min", "max"):
            if end in value.get("bounds", {}):
                found.append((f"{where}/bounds/{end}", value["bounds"][end]))
    return found


def test_every_formula_is_a_non_empty_string() -> None:
    found = formulas(SCHEMA)
    assert len(found) >= 40
    for where, formula in found:
        assert isinstance(formula, str) and formula.strip(), where
    texts = dict(found)
    base = "/properties/secondary/properties/hp/properties/current/x-gurps/bounds"
    assert texts[f"{base}/min"] == "-10 * value"
    assert texts[f"{base}/max"] == "value"
    assert texts["/properties/points/properties/unspent/x-gurps/formula"] == "budget - spent"
