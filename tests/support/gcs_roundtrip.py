"""The round trip through GCS's rules, as the export tests and the fuzzer check it: a document
exported with ``export_gcs`` and imported back with ``import_gcs`` (as written, and with every
``calc`` block removed, so that the importer computes every value by GCS's rules) gives the
document's numbers, except where the export said GCS differs (a ``differs`` note at the number's
place, or at the entry it belongs to).

Standard library and the library only (``scripts/fuzz.py`` imports it).
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from gurps_character import (
    CharacterError,
    ExportNote,
    GcsExport,
    export_gcs,
    import_gcs,
    resolve_damage_notation,
)
from gurps_character.gcs.importing.notes import shortened
from gurps_character.locations import HIT_LOCATIONS

__all__ = [
    "NOW",
    "NUMBERS",
    "Difference",
    "differences",
    "imported_back",
    "listed_dr",
    "without_calc",
]

NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)

NUMBERS = (
    "/attributes/st/value",
    "/attributes/dx/value",
    "/attributes/iq/value",
    "/attributes/ht/value",
    "/secondary/hp/value",
    "/secondary/fp/value",
    "/secondary/will/value",
    "/secondary/per/value",
    "/secondary/basicSpeed/value",
    "/secondary/basicMove/value",
    "/defenses/dodge/value",
    "/defenses/parry/value",
    "/defenses/block/value",
    "/encumbrance/basicLift",
    "/damage/thrust",
    "/damage/swing",
    "/points/budget",
    "/points/spent",
)
"""The single values the round trip keeps (the lists are compared entry by entry)."""

_COVER = {
    "skull": ("skull", "head"),
    "face": ("face", "head"),
    "eye": ("eyes",),
    "neck": ("neck",),
    "torso": ("torso",),
    "vitals": ("vitals", "torso"),
    "groin": ("groin", "torso"),
    "arm": ("arms",),
    "hand": ("hands",),
    "leg": ("legs",),
    "foot": ("feet",),
}
"""Which DR entries cover a location, first found first (B398), as ``resolve_hit`` reads them."""
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_ENTRY_NAME = 200
"""The importer's longest owner name in a weapon entry's name (``gcs/weapons.py``)."""

Difference = tuple[str, Any, Any]
"""(document pointer, the document's value, the value imported back)."""


def without_calc(data: Any) -> Any:
    """A copy of GCS data without any ``calc`` block."""
    copied = copy.deepcopy(data)
    stack = [copied]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            node.pop("calc", None)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return copied


def imported_back(document: Mapping[str, Any]) -> tuple[GcsExport, dict[str, Any], dict[str, Any]]:
    """The export of ``document`` and its import, as written and without ``calc`` blocks."""
    exported = export_gcs(document, now=NOW)
    data = json.loads(exported.text)
    return (
        exported,
        import_gcs(data, now=NOW).document,
        import_gcs(without_calc(data), now=NOW).document,
    )


def _at(document: Any, pointer: str) -> Any:
    node = document
    for token in pointer.strip("/").split("/"):
        if isinstance(node, list):
            node = node[int(token)] if token.isdigit() and int(token) < len(node) else None
        elif isinstance(node, Mapping):
            node = node.get(token)
        else:
            return None
    return node


def _name(value: Any) -> Any:
    """A name as the file holds it: no spaces around it, lone surrogates as U+FFFD."""
    return _SURROGATE.sub("\ufffd", value).strip() if isinstance(value, str) else value


def listed_dr(document: Mapping[str, Any], location: str) -> tuple[Any, str | None]:
    """The DR the sheet lists for a location (its own entry, or the covering one; 0 without),
    and the pointer of the entry read."""
    entries = document.get("damageResistance") or []
    for location_id in _COVER[location]:
        for index, entry in enumerate(entries):
            if isinstance(entry, Mapping) and entry.get("locationId") == location_id:
                return entry.get("dr"), f"/damageResistance/{index}"
    return 0, None


def _resolved(document: Mapping[str, Any], notation: str) -> str:
    """A damage line as the character deals it (dice, type, divisor), or its text when it is none."""
    try:
        found = resolve_damage_notation(document, notation).to_dict()
    except CharacterError:
        return json.dumps(_name(notation) or "-")
    return json.dumps({key: found[key] for key in ("roll", "damageType", "armorDivisor", "multiplier")})


def _lines(weapon: Mapping[str, Any], kind: str) -> list[str]:
    damage = weapon.get("damage")
    if kind == "ranged":
        return [damage["notation"]] if isinstance(damage, Mapping) else []
    return [line["notation"] for line in damage or []]


def _current(document: Mapping[str, Any], pool: str) -> Any:
    entry = document["secondary"][pool]
    return entry.get("current", entry.get("value"))


def differences(
    document: Mapping[str, Any], imported: Mapping[str, Any], notes: Sequence[ExportNote]
) -> list[Difference]:
    """Every number and name of the issue's list where the import does not give the document's,
    and the export did not say GCS differs there."""
    said = {note.source for note in notes if note.kind == "differs"}

    def excused(pointer: str | None) -> bool:
        return pointer is not None and any(
            pointer == place or pointer.startswith(place + "/") or place.startswith(pointer + "/")
            for place in said
        )

    found: list[Difference] = []

    def check(pointer: str, wanted: Any, got: Any, place: str | None = None) -> None:
        if wanted != got and not excused(place or pointer):
            found.append((pointer, wanted, got))

    for pointer in NUMBERS:
        check(pointer, _at(document, pointer), _at(imported, pointer))
    for pool in ("hp", "fp"):
        check(f"/secondary/{pool}/current", _current(document, pool), _current(imported, pool))
    levels = {entry["level"]: entry for entry in imported["encumbrance"]["levels"]}
    for index, entry in enumerate(document["encumbrance"]["levels"]):
        other = levels.get(entry["level"], {})
        for key in ("maxLoad", "move", "dodge"):
            check(f"/encumbrance/levels/{index}/{key}", entry[key], other.get(key))
    for location in HIT_LOCATIONS:
        wanted, place = listed_dr(document, location)
        check(f"/damageResistance[{location}]", wanted, listed_dr(imported, location)[0], place)
    found.extend(_skill_differences(document, imported, excused))
    found.extend(_weapon_differences(document, imported, excused))
    found.extend(_name_differences(document, imported, excused))
    return found


def _skill_differences(
    document: Mapping[str, Any], imported: Mapping[str, Any], excused: Any
) -> Iterator[Difference]:
    levels: dict[str, list[Any]] = {}
    for skill in imported["skills"]:
        levels.setdefault(skill["name"], []).append(skill["level"])
    for index, skill in enumerate(document["skills"]):
        pointer = f"/skills/{index}"
        found = levels.get(_name(skill["name"]), [])
        got = found.pop(0) if found else None
        if skill["level"] != got and not excused(f"{pointer}/level") and not excused(f"{pointer}/name"):
            yield f"{pointer}/level", skill["level"], got


def _weapon_differences(
    document: Mapping[str, Any], imported: Mapping[str, Any], excused: Any
) -> Iterator[Difference]:
    for kind in ("melee", "ranged"):
        dealt: dict[str, Counter[str]] = {}
        for weapon in imported["weapons"][kind]:
            dealt.setdefault(weapon["name"], Counter()).update(
                _resolved(imported, line) for line in _lines(weapon, kind)
            )
        for index, weapon in enumerate((document.get("weapons") or {}).get(kind, [])):
            pointer = f"/weapons/{kind}/{index}"
            wanted = Counter(_resolved(document, line) for line in _lines(weapon, kind))
            shown = _weapon_name(weapon["name"])
            missing = wanted - dealt.get(shown, Counter())
            if missing and not excused(pointer):
                yield pointer, sorted(wanted), sorted(dealt.get(shown, Counter()))


def _weapon_name(name: Any) -> Any:
    """A weapon's name as the importer names its entry: the name the file holds, its spaces
    collapsed and shortened as the importer shortens an entry's name."""
    return shortened(_name(name), _MAX_ENTRY_NAME) if isinstance(name, str) else name


def _name_differences(
    document: Mapping[str, Any], imported: Mapping[str, Any], excused: Any
) -> Iterator[Difference]:
    traits = {trait["name"] for trait in imported["traits"]}
    traits |= {f"Language: {item['name']}" for item in imported["languages"]}
    traits |= {f"Cultural Familiarity ({item['name']})" for item in imported["culturalFamiliarities"]}
    for index, trait in enumerate(document["traits"]):
        name = _name(trait["name"])
        moved = name.lower().startswith(("high tl", "low tl", "cultural familiarity", "language"))
        if name not in traits and not moved and not excused(f"/traits/{index}/name"):
            yield f"/traits/{index}/name", name, None
    items = {item["name"] for item in imported["equipment"]}
    for index, item in enumerate(document.get("equipment") or []):
        if _name(item["name"]) not in items and not excused(f"/equipment/{index}/name"):
            yield f"/equipment/{index}/name", _name(item["name"]), None
