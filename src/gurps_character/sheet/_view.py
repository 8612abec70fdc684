"""What a sheet shows, worked out from a document by the library's own functions, as plain rows
for the templates (which only lay them out: no rule is applied in a template)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .._extension import importer_record
from ..combat import hit_location, location_penalty
from ..conditions import Condition, PoolState, Threshold, get_condition
from ..conditions import _thresholds as _pool_thresholds  # the one table of B419/B426's thresholds

# The DR a hit at a location meets, as resolve_hit reads it from the sheet (its own entry or the
# covering one, B398) and the body (the skull's 2, B399): one reading, not a second copy.
from ..damage import _listed_dr, _natural_dr
from ..locations import DR_COVER, HIT_LOCATIONS, Body, body_of, rule_location
from ..stats import (
    ENCUMBRANCE_NAMES,
    CombatStats,
    MeleeWeaponStats,
    RangedWeaponStats,
    WeaponDamageLine,
    combat_stats,
)
from ._text import number, signed, weight_unit

if TYPE_CHECKING:
    from ..gcs import ImportNote

__all__ = [
    "DrRow",
    "PoolView",
    "SheetView",
    "WeaponRow",
    "damage_text",
    "dr_rows",
    "effects",
    "pool_thresholds",
    "pool_view",
    "sheet_view",
    "weapon_rows",
]

Row = tuple[str, ...]
"""One table row's cells, as text."""

_TRAIT_GROUPS: Final = (
    ("advantage", "Advantages"),
    ("perk", "Perks"),
    ("disadvantage", "Disadvantages"),
    ("quirk", "Quirks"),
)
_ATTRIBUTE_NAMES: Final = {"st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT", "will": "Will", "per": "Per"}
_STATE_WORDS: Final = {
    "healthy": "Healthy",
    "wounded": "Wounded",
    "reeling": "Reeling",
    "collapse": "Collapse",
    "dying": "Dying",
    "dead": "Dead",
    "destroyed": "Destroyed",
    "rested": "Rested",
    "tiring": "Tiring",
    "tired": "Tired",
    "unconscious": "Unconscious",
}
_ROLL_WORDS: Final = {
    "consciousnessCheck": "HT roll each turn to stay conscious",
    "actWhileCollapsed": "Will roll before each maneuver to act",
}


@dataclass(frozen=True, slots=True)
class PoolView:
    """HP or FP: the numbers, the state and the thresholds below it."""

    key: str
    label: str
    current: int
    max: int
    state: str
    thresholds: tuple[Row, ...]
    """``(state, at)`` of each threshold, best first."""


@dataclass(frozen=True, slots=True)
class DrRow:
    """One hit location's DR."""

    location: str
    roll: str
    penalty: str
    dr: str
    extra: str
    notes: str


@dataclass(frozen=True, slots=True)
class WeaponRow:
    """One weapon (mode) as the tables and the card show it."""

    name: str
    skill: str
    level: str
    damage: tuple[str, ...]
    reach: str
    parry: str
    block: str
    extra: Mapping[str, str]
    """Ranged columns (``acc``, ``range``, ``rof``, ``shots``, ``st``, ``bulk``, ``rcl``), or
    none for a melee weapon."""
    notes: str


@dataclass(frozen=True, slots=True)
class SheetView:
    """Everything the sheet template lays out."""

    name: str
    profile: tuple[Row, ...]
    attributes: tuple[Row, ...]
    secondary: tuple[Row, ...]
    other_attributes: tuple[Row, ...]
    hp: PoolView
    fp: PoolView
    effects: tuple[str, ...]
    weight_unit: str
    carried: str
    overloaded: bool
    encumbrance: tuple[Row, ...]
    current_level: int
    defenses: tuple[Row, ...]
    body: str
    dr: tuple[DrRow, ...]
    reactions: tuple[Row, ...]
    traits: tuple[tuple[str, tuple[Row, ...]], ...]
    languages: tuple[Row, ...]
    cultures: tuple[Row, ...]
    skills: tuple[Row, ...]
    techniques: tuple[Row, ...]
    spells: tuple[Row, ...]
    melee: tuple[WeaponRow, ...]
    ranged: tuple[WeaponRow, ...]
    equipment: tuple[Row, ...]
    possessions: Row
    notes: tuple[str, ...]
    points: tuple[Row, ...]
    experimental: bool
    compliant: bool
    deviations: tuple[Row, ...]
    issues: tuple[Row, ...]
    import_notes: tuple[Row, ...]


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return number(value)
    return str(value)


def _threshold(threshold: Threshold) -> Row:
    word = _STATE_WORDS.get(threshold.state, threshold.state)
    return (f"{word} {threshold.n}" if threshold.n is not None else word, number(threshold.at))


def pool_view(key: str, state: PoolState, thresholds: Sequence[Threshold]) -> PoolView:
    """A pool's numbers, state word and thresholds."""
    word = _STATE_WORDS.get(state.state, state.state)
    if state.n is not None:
        word = f"{word} {state.n}"
    return PoolView(
        key, key.upper(), state.current, state.max, word, tuple(_threshold(each) for each in thresholds)
    )


def pool_thresholds(key: str, state: PoolState) -> tuple[Threshold, ...]:
    """The pool's thresholds, from the conditions module's one table of B419 and B426."""
    return _pool_thresholds("hp" if key == "hp" else "fp", state.max)


def effects(condition: Condition) -> tuple[str, ...]:
    """The condition's effects and rolls, in words."""
    found: list[str] = []
    if condition.effects.halve_move:
        found.append("Move and Dodge halved (rounded up)")
    if condition.effects.halve_st:
        found.append(f"ST halved: {condition.st}")
    for roll in condition.rolls:
        words = _ROLL_WORDS.get(roll.kind, roll.kind)
        modifier = f" at {signed(roll.modifier)}" if roll.modifier else ""
        found.append(f"{words}{modifier} ({roll.reference})")
    return tuple(found)


def damage_text(line: WeaponDamageLine) -> str:
    """A damage line for the wielder: the dice it comes to, then the rest as written (``sw+1
    cut`` with swing 1d+1 is ``1d+2 cut``; ``thr-1 cr +1d/point`` is ``1d-1 cr +1d/point``); as
    written when it is no dice roll (an affliction, ``spec.``)."""
    resolved = line.resolved
    if resolved is None:
        return line.notation
    if resolved.dice == 0 and resolved.multiplier == 1:
        dice = number(resolved.adds)  # fixed damage: "2 burn"
    else:
        dice = resolved.dice_notation
    rest = line.notation.split(None, 1)[1] if " " in line.notation.strip() else ""
    if rest.startswith("(") and ")" in rest:  # "thr (2) pi": the divisor is shown with the dice
        rest = rest.partition(")")[2].strip()
    if resolved.armor_divisor != 1:
        shown = "∞" if resolved.armor_divisor == float("inf") else number(resolved.armor_divisor)
        dice += f"({shown})"
    return f"{dice} {rest}" if rest else dice


def _skill_row(index: int, skill: Mapping[str, Any]) -> Row:
    attribute = _ATTRIBUTE_NAMES.get(skill["attribute"], skill["attribute"])
    return (
        str(index),
        skill["name"],
        f"{attribute}/{skill['difficulty']}",
        number(skill["level"]),
        f"{attribute}{'+' if skill['relativeLevel'] >= 0 else ''}{number(skill['relativeLevel'])}",
        number(skill["points"]),
        _text(skill.get("notes")),
    )


def _skill_kind(skill: Mapping[str, Any]) -> str:
    """``technique``, ``spell`` or ``skill``: the format has one list; a GCS import says which
    entries are techniques and spells in the first lines of their notes."""
    notes = skill.get("notes")
    lines = notes.split("\n") if isinstance(notes, str) else []
    if any(line.startswith("Technique:") for line in lines):
        return "technique"
    if any(line.startswith(("College:", "Ritual magic", "Class:")) for line in lines):
        return "spell"
    return "skill"


def _skills(skills: Sequence[Mapping[str, Any]], kind: str) -> tuple[Row, ...]:
    """The rows of one kind, each with its index in the document's skills."""
    return tuple(_skill_row(index, skill) for index, skill in enumerate(skills) if _skill_kind(skill) == kind)


def _melee_row(weapon: MeleeWeaponStats) -> WeaponRow:
    parry = weapon.parry
    block = weapon.block.value
    return WeaponRow(
        weapon.name,
        weapon.skill or "",
        number(weapon.level) if weapon.level is not None else "—",
        tuple(damage_text(line) for line in weapon.damage),
        weapon.reach or "",
        number(parry.value) + ("U" if parry.unbalanced else "") if parry.value is not None else "No",
        number(block) if block is not None else "No",
        {},
        _text(weapon.entry.get("notes")),
    )


def _ranged_row(weapon: RangedWeaponStats) -> WeaponRow:
    entry = weapon.entry
    extra = {
        "acc": weapon.accuracy or "",
        "range": weapon.range or "",
        "rof": _text(entry.get("rateOfFire")),
        "shots": _text(entry.get("shots")),
        "st": _text(entry.get("minST")),
        "bulk": _text(entry.get("bulk")),
        "rcl": _text(entry.get("recoil")),
    }
    return WeaponRow(
        weapon.name,
        weapon.skill or "",
        number(weapon.level) if weapon.level is not None else "—",
        tuple(damage_text(line) for line in weapon.damage),
        "",
        "",
        "",
        extra,
        _text(entry.get("notes")),
    )


def weapon_rows(stats: CombatStats) -> tuple[tuple[WeaponRow, ...], tuple[WeaponRow, ...]]:
    """The melee and ranged rows of the combat view's weapons."""
    return (
        tuple(_melee_row(weapon) for weapon in stats.weapons.melee),
        tuple(_ranged_row(weapon) for weapon in stats.weapons.ranged),
    )


def _dr_text(dr: Mapping[str, int]) -> tuple[str, str]:
    """GCS's DR by damage type: ``all``, and what other types add on top (``4 vs crushing``)."""
    base = dr.get("all", 0)
    extra = ", ".join(f"{base + amount} vs {kind}" for kind, amount in dr.items() if kind != "all")
    return number(base), extra


def _humanoid_rolls() -> dict[str, str]:
    """The 3d rolls that hit each location (B552), read from :func:`hit_location`."""
    rolls: dict[str, list[int]] = {}
    for roll in range(3, 19):
        found = rule_location(hit_location(roll))
        if found is not None:
            rolls.setdefault(found, []).append(roll)
    return {location: _ranges(numbers) for location, numbers in rolls.items()}


def _ranges(numbers: list[int]) -> str:
    parts: list[str] = []
    start = previous = numbers[0]
    for value in [*numbers[1:], None]:
        if value is not None and value == previous + 1:
            previous = value
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if value is not None:
            start = previous = value
    return ", ".join(parts)


def _dr_notes(document: Mapping[str, Any]) -> dict[str, str]:
    found: dict[str, str] = {}
    for entry in document.get("damageResistance") or ():
        notes = entry.get("notes")
        if isinstance(notes, str):
            for key in (entry.get("locationId"), entry["location"].casefold()):
                if isinstance(key, str):
                    found.setdefault(key, notes)
    return found


def dr_rows(document: Mapping[str, Any], body: Body | None) -> tuple[DrRow, ...]:
    """DR at each hit location: the body table of a GCS import (GCS's DR there, natural DR
    included), else the Basic Set's humanoid locations, each with the DR the sheet lists or the
    covering entry's (B398), plus the skull's natural DR (B399), as a hit there meets it."""
    notes = _dr_notes(document)
    if body is not None:
        rows = []
        for place in body.locations:
            dr, extra = _dr_text(place.dr)
            rows.append(
                DrRow(
                    place.table_name or place.name,
                    place.roll_range,
                    signed(place.hit_penalty),
                    dr,
                    extra,
                    notes.get(place.name.casefold(), notes.get(place.table_name.casefold(), "")),
                )
            )
        return tuple(rows)
    rolls = _humanoid_rolls()
    rows = []
    for location in HIT_LOCATIONS:
        total = _listed_dr(document, location, None) + _natural_dr(location, None)
        note = next((notes[key] for key in (*DR_COVER[location], location) if key in notes), "")
        rows.append(
            DrRow(
                location.capitalize(),
                rolls.get(location, "-"),
                signed(location_penalty(location)),
                number(total),
                "",
                note,
            )
        )
    return tuple(rows)


def _attribute_rows(document: Mapping[str, Any]) -> tuple[Row, ...]:
    attributes = document["attributes"]
    return tuple(
        (key, _ATTRIBUTE_NAMES[key], number(attributes[key]["value"]), number(attributes[key]["points"]))
        for key in ("st", "dx", "iq", "ht")
    )


def _secondary_rows(document: Mapping[str, Any], unit: str) -> tuple[Row, ...]:
    secondary = document["secondary"]
    rows: list[Row] = []
    for key, label in (
        ("hp", "HP"),
        ("will", "Will"),
        ("per", "Per"),
        ("fp", "FP"),
        ("basicSpeed", "Basic Speed"),
        ("basicMove", "Basic Move"),
    ):
        holder = secondary[key]
        rows.append((key, label, number(holder["value"]), number(holder.get("points", 0))))
    damage = document["damage"]
    rows.append(("basicLift", "Basic Lift", f"{number(document['encumbrance']['basicLift'])} {unit}", ""))
    rows.append(("thrust", "Thrust", damage["thrust"]["notation"], ""))
    rows.append(("swing", "Swing", damage["swing"]["notation"], ""))
    return tuple(rows)


def _other_attributes(document: Mapping[str, Any]) -> tuple[Row, ...]:
    """The attributes a GCS import keeps beyond the format's (Vision, Hearing ...)."""
    kept = importer_record(document, "attributes")
    rows: list[Row] = []
    for record in kept if isinstance(kept, list) else ():
        if isinstance(record, Mapping) and isinstance(record.get("value"), int | float):
            name = record.get("name") or record.get("id")
            points = record.get("points")
            rows.append(
                (
                    _text(record.get("id")),
                    _text(name),
                    number(record["value"]),
                    number(points) if isinstance(points, int | float) else "",
                )
            )
    return tuple(rows)


def _profile(document: Mapping[str, Any]) -> tuple[Row, ...]:
    profile = document["profile"]
    rows: list[Row] = [
        (label, _text(profile[key]))
        for key, label in (
            ("player", "Player"),
            ("age", "Age"),
            ("height", "Height"),
            ("weight", "Weight"),
            ("sizeModifier", "Size Modifier"),
            ("appearance", "Appearance"),
        )
        if profile.get(key) not in (None, "")
    ]
    tech = document.get("techLevel")
    if isinstance(tech, Mapping):
        rows.append(("Tech Level", f"TL{number(tech['level'])}"))
    return tuple(rows)


def _traits(document: Mapping[str, Any]) -> tuple[tuple[str, tuple[Row, ...]], ...]:
    groups: list[tuple[str, tuple[Row, ...]]] = []
    traits = document["traits"]
    known = {kind for kind, _ in _TRAIT_GROUPS}
    for kind, title in (*_TRAIT_GROUPS, ("", "Other traits")):
        rows = tuple(
            (
                trait["name"] + (f" {number(trait['level'])}" if trait.get("level") is not None else ""),
                number(trait["points"]),
                _text(trait.get("notes")),
            )
            for trait in traits
            if (trait["type"] == kind if kind else trait["type"] not in known)
        )
        if rows:
            groups.append((title, rows))
    return tuple(groups)


def _encumbrance(stats: CombatStats, unit: str) -> tuple[Row, ...]:
    return tuple(
        (
            str(level.level),
            ENCUMBRANCE_NAMES.get(level.id, level.id),
            f"{number(level.max_load)} {unit}",
            number(level.move),
            number(level.dodge),
        )
        for level in stats.encumbrance
    )


def _defenses(stats: CombatStats) -> tuple[Row, ...]:
    rows: list[Row] = [
        ("dodge", "Dodge", number(stats.dodge), f"now {stats.current_dodge}"),
        ("move", "Move", number(stats.basic_move), f"now {stats.current_move}"),
    ]
    for key, label, defense in (("parry", "Parry", stats.parry), ("block", "Block", stats.block)):
        value = number(defense.value) if defense.value is not None else "—"
        rows.append((key, label, value, defense.skill or ""))
    return tuple(rows)


def _points(document: Mapping[str, Any]) -> tuple[Row, ...]:
    points = document["points"]
    breakdown = points["breakdown"]
    rows: list[Row] = [
        (label, number(breakdown[key]))
        for key, label in (
            ("attributes", "Attributes"),
            ("advantages", "Advantages"),
            ("disadvantages", "Disadvantages"),
            ("skills", "Skills"),
            ("other", "Other"),
        )
        if key in breakdown
    ]
    rows.append(("Spent", number(points["spent"])))
    if points.get("budget") is not None:
        rows.append(("Budget", number(points["budget"])))
    if points.get("unspent") is not None:
        rows.append(("Unspent", number(points["unspent"])))
    return tuple(rows)


def _equipment(document: Mapping[str, Any], unit: str, currency: str) -> tuple[tuple[Row, ...], Row]:
    rows = tuple(
        (
            item["name"],
            _text(item.get("location")),
            f"{currency}{number(item['cost'])}" if item.get("cost") is not None else "",
            f"{number(item['weight'])} {unit}" if item.get("weight") is not None else "",
            _text(item.get("notes")),
        )
        for item in document.get("equipment") or ()
    )
    total = document.get("possessionsTotal")
    totals: Row = ()
    if isinstance(total, Mapping):
        totals = (f"{currency}{number(total['cost'])}", f"{number(total['weight'])} {unit}")
    return rows, totals


def _integrity(document: Mapping[str, Any]) -> tuple[bool, bool, tuple[Row, ...], tuple[Row, ...]]:
    integrity = document.get("integrity")
    if not isinstance(integrity, Mapping):
        return False, True, (), ()
    deviations = tuple(
        (
            entry["pointer"],
            _text(entry.get("label") or entry.get("sheetField")),
            _text(entry["expected"]),
            _text(entry["actual"]),
            _text(entry.get("justification")),
        )
        for entry in integrity["deviations"]
    )
    issues = tuple(
        (entry["code"], _text(entry.get("pointer")), entry["message"]) for entry in integrity["issues"]
    )
    return bool(integrity["experimental"]), bool(integrity["rulesCompliant"]), deviations, issues


def sheet_view(document: Mapping[str, Any], import_notes: Sequence[ImportNote]) -> SheetView:
    """The whole sheet of a schema-valid document (:func:`combat_stats` checks it first)."""
    stats = combat_stats(document)
    condition = get_condition(document)
    ruleset = document["ruleset"]
    unit = weight_unit(ruleset.get("units"))
    currency = ruleset.get("currency") or "$"
    body = body_of(document)
    melee, ranged = weapon_rows(stats)
    skills = document["skills"]
    equipment, possessions = _equipment(document, unit, currency)
    experimental, compliant, deviations, issues = _integrity(document)
    return SheetView(
        name=stats.name,
        profile=_profile(document),
        attributes=_attribute_rows(document),
        secondary=_secondary_rows(document, unit),
        other_attributes=_other_attributes(document),
        hp=pool_view("hp", condition.hp, pool_thresholds("hp", condition.hp)),
        fp=pool_view("fp", condition.fp, pool_thresholds("fp", condition.fp)),
        effects=effects(condition),
        weight_unit=unit,
        carried=number(stats.carried_weight),
        overloaded=stats.overloaded,
        encumbrance=_encumbrance(stats, unit),
        current_level=stats.current_encumbrance.level,
        defenses=_defenses(stats),
        body=body.name if body is not None else "Humanoid",
        dr=dr_rows(document, body),
        reactions=tuple(
            (_text(entry["description"]), _text(entry["source"]), signed(entry.get("modifier") or 0))
            for entry in document.get("reactionModifiers") or ()
        ),
        traits=_traits(document),
        languages=tuple(
            (entry["name"], _text(entry["spoken"]), _text(entry["written"]), number(entry["points"]))
            for entry in document.get("languages") or ()
        ),
        cultures=tuple(
            (entry["name"], number(entry["points"])) for entry in document.get("culturalFamiliarities") or ()
        ),
        skills=_skills(skills, "skill"),
        techniques=_skills(skills, "technique"),
        spells=_skills(skills, "spell"),
        melee=melee,
        ranged=ranged,
        equipment=equipment,
        possessions=possessions,
        notes=tuple(document.get("notes") or ()),
        points=_points(document),
        experimental=experimental,
        compliant=compliant,
        deviations=deviations,
        issues=issues,
        import_notes=tuple((note.source or "(root)", note.kind, note.message) for note in import_notes),
    )
