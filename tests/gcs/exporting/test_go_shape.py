"""Exported files have the shape GCS reads: every member of the parts the export writes is one
that GCS's Go structs (richardwilkes/gcs, model/gurps) have a field for, of the JSON type that
field reads, in the order GCS writes its fields, and the members GCS always writes are there, since
GCS reads an absent one as Go's zero value (a display of ``not_shown`` hides the notes the export
puts on traits, skills and items). The rules are this project's own table of the parts it writes.

When ../shared is present, GCS's shape judge (../shared/gcs/shape.py) also runs over new files
(the examples, generated documents, the conformance documents, the shared GCS files exported anew)
and over write-back output: every new file comes out clean, and a write-back adds no finding to
the file it writes into.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from gurps_character import CharacterError, apply_damage, export_gcs, import_gcs, parse_character
from tests.gcs.exporting.test_shape import EXPORTED
from tests.support.gcs_roundtrip import NOW
from tests.support.paths import REPOSITORY

SHARED = REPOSITORY.parent / "shared"
JUDGE = SHARED / "gcs" / "shape.py"
ALWAYS: Final = True
"""A member GCS always writes (its struct field has no ``omitempty``): the export writes it too."""

# (JSON kind, always written, the TID kinds that keep it or "" for every kind), in the order of
# the Go struct's fields, which is the order GCS writes them in. Kinds: text, number (a fixed-point
# or whole number), whole, bool, texts (a list of texts), wholes, a part's name, or [part] for a
# list of them; "feature" is dispatched on the feature's type.
Rule = tuple[str, bool, str]
PARTS: Final[dict[str, dict[str, Rule]]] = {
    # entity.go: the character
    "Entity": {
        "version": ("whole", ALWAYS, ""),
        "id": ("text", ALWAYS, ""),
        "total_points": ("number", ALWAYS, ""),
        "points_record": ("[PointsRecord]", False, ""),
        "profile": ("Profile", ALWAYS, ""),
        "settings": ("SheetSettings", ALWAYS, ""),  # absent: the opening user's own settings
        "attributes": ("[Attribute]", ALWAYS, ""),  # absent: every attribute at +0
        "traits": ("[Trait]", False, ""),
        "skills": ("[Skill]", False, ""),
        "equipment": ("[Equipment]", False, ""),
        "notes": ("[Note]", False, ""),
        "created_date": ("text", ALWAYS, ""),
        "modified_date": ("text", ALWAYS, ""),
        "calc": ("EntityCalc", False, ""),
    },
    "PointsRecord": {
        "when": ("text", ALWAYS, ""),
        "points": ("number", ALWAYS, ""),
        "reason": ("text", False, ""),
    },
    "Profile": {
        "name": ("text", False, ""),
        "age": ("text", False, ""),
        "height": ("text", False, ""),
        "weight": ("text", False, ""),
        "player_name": ("text", False, ""),
        "tech_level": ("text", False, ""),
        "SM": ("whole", False, ""),
    },
    # sheet_settings.go: the displays and show_spell_adj at GCS's factory values (see below)
    "SheetSettings": {
        "attributes": ("[AttributeDef]", False, ""),
        "body_type": ("Body", False, ""),
        "damage_progression": ("text", ALWAYS, ""),
        "default_length_units": ("text", ALWAYS, ""),
        "default_weight_units": ("text", ALWAYS, ""),
        "user_description_display": ("text", ALWAYS, ""),
        "modifiers_display": ("text", ALWAYS, ""),
        "notes_display": ("text", ALWAYS, ""),
        "skill_level_adj_display": ("text", ALWAYS, ""),
        "show_spell_adj": ("bool", ALWAYS, ""),  # omitted by GCS when false; absent reads as false
    },
    # attribute_def.go, pool_threshold.go
    "AttributeDef": {
        "id": ("text", ALWAYS, ""),
        "type": ("text", ALWAYS, ""),
        "name": ("text", ALWAYS, ""),
        "full_name": ("text", False, ""),
        "base": ("text", False, ""),
        "cost_per_point": ("number", False, ""),
        "cost_adj_percent_per_sm": ("number", False, ""),
        "thresholds": ("[PoolThreshold]", False, ""),
    },
    "PoolThreshold": {
        "state": ("text", ALWAYS, ""),
        "value": ("text", ALWAYS, ""),
        "explanation": ("text", False, ""),
        "ops": ("texts", False, ""),
    },
    # body.go, hit_location.go
    "Body": {
        "name": ("text", False, ""),
        "roll": ("text", ALWAYS, ""),
        "locations": ("[HitLocation]", False, ""),
    },
    "HitLocation": {
        "id": ("text", ALWAYS, ""),
        "choice_name": ("text", ALWAYS, ""),
        "table_name": ("text", ALWAYS, ""),
        "slots": ("whole", False, ""),
        "hit_penalty": ("whole", False, ""),
        "dr_bonus": ("whole", False, ""),
        "description": ("text", False, ""),
        "calc": ("HitLocationCalc", False, ""),
    },
    "HitLocationCalc": {"roll_range": ("text", False, ""), "dr": ("DR", False, "")},
    "DR": {"all": ("whole", False, "")},
    # attribute.go
    "Attribute": {
        "attr_id": ("text", ALWAYS, ""),
        "adj": ("number", ALWAYS, ""),
        "damage": ("number", False, ""),
        "calc": ("AttributeCalc", False, ""),
    },
    "AttributeCalc": {
        "value": ("number", False, ""),
        "current": ("number", False, ""),
        "points": ("number", False, ""),
    },
    "EntityCalc": {
        "swing": ("text", False, ""),
        "thrust": ("text", False, ""),
        "basic_lift": ("text", False, ""),
        "lifting_st_bonus": ("number", False, ""),
        "striking_st_bonus": ("number", False, ""),
        "throwing_st_bonus": ("number", False, ""),
        "dodge_bonus": ("number", False, ""),
        "parry_bonus": ("number", False, ""),
        "block_bonus": ("number", False, ""),
        "move": ("wholes", False, ""),
        "dodge": ("wholes", False, ""),
    },
    # trait.go, trait_modifier.go (containers: T, M)
    "Trait": {
        "id": ("text", ALWAYS, ""),
        "name": ("text", False, ""),
        "reference": ("text", False, ""),
        "local_notes": ("text", False, ""),
        "tags": ("texts", False, ""),
        "modifiers": ("[TraitModifier]", False, ""),
        "base_points": ("number", False, "t"),
        "points_per_level": ("number", False, "t"),
        "weapons": ("[Weapon]", False, "t"),
        "features": ("[feature]", False, "t"),
        "can_level": ("bool", False, "t"),
        "levels": ("number", False, "t"),
        "children": ("[Trait]", False, "T"),
        "calc": ("TraitCalc", False, ""),
    },
    "TraitCalc": {"points": ("number", False, ""), "current_level": ("number", False, "")},
    "TraitModifier": {
        "id": ("text", ALWAYS, ""),
        "name": ("text", False, ""),
        "local_notes": ("text", False, ""),
        "cost_adj": ("text", False, "m"),
        "disabled": ("bool", False, "m"),
    },
    # skill.go (techniques q are not written)
    "Skill": {
        "id": ("text", ALWAYS, ""),
        "name": ("text", False, ""),
        "reference": ("text", False, ""),
        "local_notes": ("text", False, ""),
        "tags": ("texts", False, ""),
        "specialization": ("text", False, "s"),
        "difficulty": ("text", ALWAYS, "s"),  # absent: ST at Easy
        "weapons": ("[Weapon]", False, "s"),
        "features": ("[feature]", False, "s"),
        "tech_level": ("text", False, "s"),
        "points": ("number", False, "s"),
        "defaults": ("[SkillDefault]", False, "s"),
        "children": ("[Skill]", False, "S"),
        "calc": ("SkillCalc", False, ""),
    },
    "SkillCalc": {"level": ("number", False, ""), "rsl": ("text", False, "")},
    # equipment.go
    "Equipment": {
        "id": ("text", ALWAYS, ""),
        "description": ("text", False, ""),
        "reference": ("text", False, ""),
        "local_notes": ("text", False, ""),
        "tech_level": ("text", False, ""),
        "legality_class": ("text", False, ""),
        "tags": ("texts", False, ""),
        "base_value": ("text", False, ""),
        "base_weight": ("text", False, ""),
        "weapons": ("[Weapon]", False, ""),
        "features": ("[feature]", False, ""),
        "quantity": ("number", ALWAYS, ""),  # absent: 0, an item that weighs and costs nothing
        "equipped": ("bool", False, ""),
        "children": ("[Equipment]", False, "E"),
        "calc": ("EquipmentCalc", False, ""),
    },
    "EquipmentCalc": {
        "value": ("number", False, ""),
        "extended_value": ("number", False, ""),
        "weight": ("text", False, ""),
        "extended_weight": ("text", False, ""),
    },
    # note.go
    "Note": {"id": ("text", ALWAYS, ""), "markdown": ("text", False, ""), "children": ("[Note]", False, "N")},
    # weapon.go (w melee, W ranged), weapon_damage.go, skill_default.go
    "Weapon": {
        "id": ("text", ALWAYS, ""),
        "sv": ("whole", ALWAYS, ""),  # absent: 0, an old weapon whose damage GCS moves
        "damage": ("WeaponDamage", ALWAYS, ""),
        "strength": ("text", False, ""),
        "usage": ("text", False, ""),
        "usage_notes": ("text", False, ""),
        "reach": ("text", False, "w"),
        "parry": ("text", False, "w"),
        "block": ("text", False, "w"),
        "accuracy": ("text", False, "W"),
        "range": ("text", False, "W"),
        "rate_of_fire": ("text", False, "W"),
        "shots": ("text", False, "W"),
        "bulk": ("text", False, "W"),
        "recoil": ("text", False, "W"),
        "defaults": ("[SkillDefault]", False, ""),
        "calc": ("WeaponCalc", False, ""),
    },
    "WeaponDamage": {
        "type": ("text", ALWAYS, ""),
        "st": ("text", False, ""),
        "base": ("text", False, ""),
        "armor_divisor": ("number", False, ""),
        "fragmentation": ("text", False, ""),
        "fragmentation_armor_divisor": ("number", False, ""),
        "fragmentation_type": ("text", False, ""),
        "modifier_per_die": ("number", False, ""),
    },
    "SkillDefault": {
        "type": ("text", ALWAYS, ""),
        "name": ("text", False, ""),
        "specialization": ("text", False, ""),
        "modifier": ("number", False, ""),
    },
    "WeaponCalc": {
        "level": ("number", False, ""),
        "damage": ("text", False, ""),
        "parry": ("text", False, ""),
        "block": ("text", False, ""),
        "range": ("text", False, ""),
    },
    # features (attribute_bonus.go, reaction_bonus.go, dr_bonus.go, skill_bonus.go, cost_reduction.go)
    "attribute_bonus": {
        "type": ("text", ALWAYS, ""),
        "limitation": ("text", False, ""),
        "attribute": ("text", ALWAYS, ""),
        "amount": ("number", ALWAYS, ""),
    },
    "reaction_bonus": {
        "type": ("text", ALWAYS, ""),
        "situation": ("text", False, ""),
        "amount": ("number", ALWAYS, ""),
    },
    "dr_bonus": {
        "type": ("text", ALWAYS, ""),
        "locations": ("texts", False, ""),
        "specialization": ("text", False, ""),
        "amount": ("number", ALWAYS, ""),
    },
    "skill_bonus": {
        "type": ("text", ALWAYS, ""),
        "selection_type": ("text", ALWAYS, ""),
        "name": ("TextCriteria", False, ""),
        "specialization": ("TextCriteria", False, ""),
        "amount": ("number", ALWAYS, ""),
    },
    "cost_reduction": {
        "type": ("text", ALWAYS, ""),
        "attribute": ("text", False, ""),
        "percentage": ("number", False, ""),
    },
    "TextCriteria": {"compare": ("text", False, ""), "qualifier": ("text", False, "")},
}

DISPLAYS: Final = {"not_shown", "inline", "tooltip", "inline_and_tooltip"}
"""GCS's display options (display.Option); anything else reads as the first, ``not_shown``."""


def _is(kind: str, value: Any) -> bool:
    """Whether a JSON value is of a scalar kind of the table."""
    if kind == "text":
        return type(value) is str
    if kind == "bool":
        return type(value) is bool
    if kind == "whole":
        return type(value) is int
    if kind == "number":
        return type(value) is int or type(value) is float
    if kind in ("texts", "wholes"):
        item = str if kind == "texts" else int
        return type(value) is list and all(type(entry) is item for entry in value)
    raise AssertionError(f"no kind {kind}")


def findings(value: Any, part: str = "Entity", path: str = "$") -> list[str]:
    """Where an exported file departs from the table: each finding as ``path: what``."""
    if part == "feature":
        part = str(value.get("type")) if type(value) is dict else ""
    rules = PARTS.get(part)
    if rules is None:
        return [f"{path}: no part {part!r} GCS reads"]
    if type(value) is not dict:
        return [f"{path}: not an object"]
    found: list[str] = []
    node_kind = value["id"][:1] if type(value.get("id")) is str and part != "Entity" else ""
    known = [key for key in rules if key in value]
    for key, member in value.items():
        rule = rules.get(key)
        if rule is None:
            found.append(f"{path}.{key}: no field of {part}")
            continue
        kind, _, only = rule
        where = f"{path}.{key}"
        if only and node_kind and node_kind not in only:
            found.append(f"{where}: cleared by GCS on a {part} of kind {node_kind}")
        elif kind.startswith("["):
            if type(member) is not list:
                found.append(f"{where}: not a list")
            else:
                for index, entry in enumerate(member):
                    found.extend(findings(entry, kind[1:-1], f"{where}[{index}]"))
        elif kind in PARTS:
            found.extend(findings(member, kind, where))
        elif not _is(kind, member):
            found.append(f"{where}: not {kind}")
    for key, (_, always, only) in rules.items():
        if always and key not in value and (not only or not node_kind or node_kind in only):
            found.append(f"{path}.{key}: missing (GCS always writes it)")
    if [key for key in value if key in rules] != known:
        found.append(f"{path}: members out of GCS's order")
    return found


def _conformance_documents() -> Iterator[tuple[str, dict[str, Any]]]:
    """The valid documents of the conformance corpus (none without ../shared)."""
    for path in sorted((SHARED / "conformance").glob("cases*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                case = json.loads(line)
                for value in case.get("args", {}).values():
                    if isinstance(value, str) and '"gurps-character"' in value:
                        try:
                            yield case["id"], dict(parse_character(value).character)
                        except CharacterError:
                            continue


def _exported(document: dict[str, Any]) -> str | None:
    try:
        return export_gcs(document, now=NOW).text
    except CharacterError:
        return None


def files() -> pytest.MarkDecorator:
    return pytest.mark.parametrize(("name", "text"), EXPORTED, ids=[name for name, _ in EXPORTED])


# ---------------------------------------------------------------- the project's own rules


@files()
def test_an_export_has_the_shape_gcs_reads(name: str, text: str) -> None:
    assert findings(json.loads(text)) == []


@files()
def test_the_sheet_settings_are_gcs_factory_displays(name: str, text: str) -> None:
    """GCS's factory sheet settings (FactorySheetSettings): notes and modifiers shown inline,
    descriptions and skill adjustments in tooltips, spell adjustments shown."""
    settings = json.loads(text)["settings"]
    assert {key: settings[key] for key in list(settings)[5:]} == {
        "user_description_display": "tooltip",
        "modifiers_display": "inline",
        "notes_display": "inline",
        "skill_level_adj_display": "tooltip",
        "show_spell_adj": True,
    }
    assert settings["user_description_display"] in DISPLAYS


def test_a_written_back_export_keeps_the_shape_gcs_reads() -> None:
    text = dict(EXPORTED)["rurik"]
    document = apply_damage(import_gcs(text, now=NOW).document, 3, now=NOW)
    written = export_gcs(document, base=text, now=NOW).text
    assert written != text and findings(json.loads(written)) == []


def test_the_rules_find_what_gcs_would_read_otherwise() -> None:
    data = json.loads(dict(EXPORTED)["rurik"])
    settings = data["settings"]
    del settings["notes_display"]
    settings["show_spell_adj"] = "yes"
    settings["font"] = "serif"
    definition = data["settings"]["attributes"][0]
    data["settings"]["attributes"][0] = {"name": definition["name"], **definition}
    armed = next(index for index, item in enumerate(data["equipment"]) if item.get("weapons"))
    data["equipment"][armed]["weapons"][0]["accuracy"] = "2"  # a ranged weapon's, on a melee one
    del data["equipment"][0]["quantity"]
    assert findings(data) == [
        "$.settings.attributes[0]: members out of GCS's order",
        "$.settings.show_spell_adj: not bool",
        "$.settings.font: no field of SheetSettings",
        "$.settings.notes_display: missing (GCS always writes it)",
        "$.equipment[0].quantity: missing (GCS always writes it)",
        f"$.equipment[{armed}].weapons[0].accuracy: cleared by GCS on a Weapon of kind w",
        f"$.equipment[{armed}].weapons[0]: members out of GCS's order",
    ]


# ---------------------------------------------------------------- GCS's shape judge


def _judged(folder: Path) -> dict[str, list[tuple[str, str, str]]]:
    """shape.py's findings above "info" for each file of ``folder``, by file name."""
    report = folder / "report.json"
    subprocess.run(
        [sys.executable, str(JUDGE), str(folder), "--quiet", "--json", str(report)],
        check=False,
        capture_output=True,
    )
    results = json.loads(report.read_text(encoding="utf-8"))["files"]
    return {
        Path(result["file"]).name: [
            (finding["category"], finding["path"], finding["message"])
            for finding in result["findings"]
            if finding["severity"] != "info"
        ]
        for result in results
    }


@pytest.mark.skipif(not JUDGE.is_file(), reason="../shared/gcs/shape.py (GCS's shape judge) is absent")
def test_gcs_shape_judge_finds_every_new_file_clean(tmp_path: Path) -> None:
    texts = [text for _, text in EXPORTED]
    texts += [text for _, document in _conformance_documents() if (text := _exported(document))]
    for index, text in enumerate(texts):
        (tmp_path / f"{index:04d}.gcs").write_text(text, encoding="utf-8")
    judged = _judged(tmp_path)
    assert len(judged) == len(texts) > 100
    assert {name: found for name, found in judged.items() if found} == {}


@pytest.mark.skipif(not JUDGE.is_file(), reason="../shared/gcs/shape.py (GCS's shape judge) is absent")
def test_gcs_shape_judge_finds_no_new_finding_in_write_back_output(tmp_path: Path) -> None:
    """Play written back (into the file given as base, or into the kept data written as GCS
    writes it) adds no finding to the file: our exports and GCS's own files of the versions
    GCS opens."""
    bases = [(name, text.encode()) for name, text in EXPORTED[:3]]
    bases += [(path.stem, path.read_bytes()) for path in sorted((SHARED / "gcs").glob("*.gcs"))]
    pairs = 0
    for index, (_, raw) in enumerate(bases):
        try:
            document = apply_damage(import_gcs(raw, now=NOW).document, 2, now=NOW)
        except CharacterError:
            continue
        (tmp_path / f"{index:03d}-base.gcs").write_bytes(raw)
        (tmp_path / f"{index:03d}-onto.gcs").write_text(export_gcs(document, base=raw, now=NOW).text, "utf-8")
        (tmp_path / f"{index:03d}-kept.gcs").write_text(export_gcs(document, now=NOW).text, "utf-8")
        pairs += 1
    judged = _judged(tmp_path)
    assert pairs > 40
    added = {}
    for name, found in judged.items():
        base_findings = judged[name[:4] + "base.gcs"]
        if any(category == "version" for category, _, _ in base_findings):
            continue  # version 1, which GCS refuses to open: its members are not version 5's
        if not name.endswith("-base.gcs"):
            base = {(category, path) for category, path, _ in base_findings}
            new = [finding for finding in found if finding[:2] not in base]
            if new:
                added[name] = new
    assert added == {}
