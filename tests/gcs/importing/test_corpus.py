"""import_gcs on the real GCS files in ../shared/gcs (skipped when the folder is absent): every file
imports (XML is refused with unsupportedGcsVersion), the document is valid and claim-consistent,
and its numbers are the numbers GCS computed and saved in the file's ``calc`` blocks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gurps_character import CharacterError, import_gcs, validate_character, verify_character
from tests.support.paths import REPOSITORY

SHARED = REPOSITORY.parent / "shared" / "gcs"
FILES = sorted(SHARED.glob("*.gcs")) if SHARED.is_dir() else []
SECONDARY = {
    "hp": "hp",
    "fp": "fp",
    "will": "will",
    "per": "per",
    "basic_speed": "basicSpeed",
    "basic_move": "basicMove",
}
pytestmark = pytest.mark.skipif(
    not FILES, reason="no GCS files in ../shared/gcs (a clone without shared data)"
)


def _json(path: Path) -> Any:
    text = path.read_text(encoding="utf-8").lstrip("\ufeff")
    return None if text.lstrip().startswith("<") else json.loads(text)


def _nodes(items: Any) -> Iterator[dict[str, Any]]:
    stack = list(reversed(items)) if isinstance(items, list) else []
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(reversed(node.get("children") or []))


def _container(node: dict[str, Any]) -> bool:
    kind = node.get("type") or {"T": "trait_container", "S": "skill_container", "P": "spell_container"}.get(
        str(node.get("id", ""))[:1], ""
    )
    return str(kind).endswith("_container") or (not kind and isinstance(node.get("children"), list))


def _dice(text: str) -> str:
    m = re.fullmatch(r"(\d+)d6?([+-]\d+)?", text.replace(" ", "").lower())
    assert m, text
    adds = int(m.group(2) or 0)
    return f"{int(m.group(1))}d" + (f"{adds:+d}" if adds else "")


def _gcs_spent(data: dict[str, Any]) -> float | None:
    """GCS's points spent: attributes, traits as GCS prices them (group containers transparent,
    disabled ones free), skills and spells."""
    defined = {d.get("id") for d in data.get("settings", {}).get("attributes") or []}
    total = 0.0
    for entry in data.get("attributes") or []:
        if defined and entry.get("attr_id") not in defined:
            continue
        calc = entry.get("calc")
        if not isinstance(calc, dict):
            if entry.get("adj"):
                return None
            continue
        total += calc.get("points", 0)
    stack = list(data.get("traits", data.get("advantages")) or [])
    while stack:
        node = stack.pop()
        if node.get("disabled") is True:
            continue
        if _container(node) and node.get("container_type", "group") == "group":
            stack.extend(node.get("children") or [])
            continue
        if "points" not in (node.get("calc") or {}):
            return None
        total += node["calc"]["points"]
    for key in ("skills", "spells"):
        total += sum(n.get("points", 0) for n in _nodes(data.get(key)) if not _container(n))
    return total


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_real_gcs_file(path: Path) -> None:
    data = _json(path)
    text = path.read_text(encoding="utf-8")
    if data is None:
        with pytest.raises(CharacterError) as caught:
            import_gcs(text)
        assert caught.value.code == "unsupportedGcsVersion"
        return
    document = import_gcs(text).document
    assert validate_character(document).valid, validate_character(document).errors[:3]
    assert verify_character(document).claim_consistent
    values = {
        a["attr_id"]: a["calc"]["value"]
        for a in data.get("attributes") or []
        if isinstance(a.get("calc"), dict) and "value" in a["calc"]
    }
    for ident in ("st", "dx", "iq", "ht"):
        if ident in values:
            assert document["attributes"][ident]["value"] == values[ident], ident
    for ident, key in SECONDARY.items():
        if ident in values:
            assert document["secondary"][key]["value"] == values[ident], ident
    for entry in data.get("attributes") or []:
        if entry.get("damage") and entry.get("attr_id") in ("hp", "fp"):
            assert document["secondary"][entry["attr_id"]]["current"] == entry["calc"]["current"]
    calc = data.get("calc") or {}
    for key in ("thrust", "swing"):
        if key in calc:
            assert _dice(document["damage"][key]["notation"]) == _dice(calc[key]), key
    if "move" in calc:
        assert [level["move"] for level in document["encumbrance"]["levels"]] == calc["move"]
        assert [level["dodge"] for level in document["encumbrance"]["levels"]] == calc["dodge"]
        assert document["defenses"]["dodge"]["value"] == calc["dodge"][0]
    if data.get("total_points") is not None:
        assert document["points"]["budget"] == data["total_points"]
    spent = _gcs_spent(data)
    if spent is not None:
        assert document["points"]["spent"] == pytest.approx(spent)
    _check_skills(data, document, values)
    _check_torso(data, document)
    _check_parry(data, document)


def _check_parry(data: dict[str, Any], document: dict[str, Any]) -> None:
    """The document's parry is the best parry GCS computed for one of the character's melee
    weapons, when GCS computed any."""
    parries = set()
    for key in ("traits", "advantages", "equipment", "skills", "spells"):
        for node in _nodes(data.get(key)):
            for weapon in node.get("weapons") or []:
                found = re.match(r"\s*([+-]?\d+)", str((weapon.get("calc") or {}).get("parry", "")))
                if found:
                    parries.add(int(found.group(1)))
    parry = document["defenses"]["parry"]["value"]
    if parries:  # else GCS saved none: the importer's is by GCS's rules (tests/gcs/importing/test_rules.py)
        assert parry is None or parry in parries


def _check_skills(data: dict[str, Any], document: dict[str, Any], values: dict[str, Any]) -> None:
    """Every leveled skill is in the document at GCS's level (before the encumbrance penalty,
    which GCS's level includes and its relative level does not)."""
    levels: dict[str, list[int]] = {}
    for skill in document["skills"]:
        key = re.sub(r"/TL[^\s()/]*", "", skill["name"]).lower()
        levels.setdefault(key, []).append(skill["level"])
    for node in _nodes(data.get("skills")):
        calc = node.get("calc") or {}
        attribute, _, difficulty = str(node.get("difficulty", "")).lower().partition("/")
        if _container(node) or node.get("type") == "technique" or str(node.get("id", ""))[:1] == "q":
            continue
        if node.get("points", 0) < 1 or difficulty not in ("e", "a", "h", "vh") or "level" not in calc:
            continue
        if attribute not in ("st", "dx", "iq", "ht", "will", "per"):
            continue
        name = node["name"] + (f" ({node['specialization']})" if node.get("specialization") else "")
        for placeholder, value in (node.get("replacements") or {}).items():
            name = name.replace(f"@{placeholder}@", str(value))
        rsl = re.search(r"([+-]\d+)$", str(calc.get("rsl", "")))
        wanted = {calc["level"]} | (
            {values[attribute] + int(rsl.group(1))} if rsl and attribute in values else set()
        )
        assert wanted & set(levels.get(name.lower(), [])), (name, wanted, levels.get(name.lower()))


def _check_torso(data: dict[str, Any], document: dict[str, Any]) -> None:
    settings = data.get("settings") or {}
    body = settings.get("body_type") or settings.get("hit_locations") or {}
    torso = [loc for loc in body.get("locations") or [] if loc.get("id") == "torso"]
    drs = {
        loc["calc"]["dr"].get("all", 0)
        for loc in torso
        if isinstance((loc.get("calc") or {}).get("dr"), dict)
    }
    if len(drs) == 1:
        entries = [e["dr"] for e in document["damageResistance"] if e.get("locationId") == "torso"]
        assert entries and set(entries) == drs
