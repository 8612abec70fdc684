"""GCS character files of our own, built in code: for the command-line tests, the benchmark and
as the starting point of the hostile-file generators (``gcs_strategies.py``).

Standard library only (``benchmarks/bench.py`` imports it without the test tools).

:func:`character` builds a plausible character as GCS saves it, in file version 5 (2024 keys),
4 or 2: the standard attribute set with its ``calc`` values, traits with modifiers, features and
natural attacks, skills with defaults and a technique, spells, carried equipment (armor with
``dr_bonus`` features, a sword and a bow with weapon modes), other equipment, notes, a humanoid
body and the top-level ``calc`` block. ``units`` repeats the skill, trait, equipment and spell
entries with distinct names, so :func:`grown` can reach any size: the content of a real file,
scaled. The numbers are GCS's for the standard rules where they are simple to state; the
benchmark and the tests only need a file GCS could have written, not one agreeing with it
everywhere.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["character", "grown", "minimal", "text_of"]

_ATTRIBUTES: tuple[tuple[str, str, str, str, int], ...] = (
    # id, type, name, base (script), cost per point
    ("st", "integer", "ST", "10", 10),
    ("dx", "integer", "DX", "10", 20),
    ("iq", "integer", "IQ", "10", 20),
    ("ht", "integer", "HT", "10", 10),
    ("will", "integer", "Will", "$iq", 5),
    ("fright_check", "integer", "Fright Check", "$will", 2),
    ("per", "integer", "Per", "$iq", 5),
    ("vision", "integer", "Vision", "$per", 2),
    ("hearing", "integer", "Hearing", "$per", 2),
    ("taste_smell", "integer", "Taste & Smell", "$per", 2),
    ("touch", "integer", "Touch", "$per", 2),
    ("basic_speed", "decimal", "Basic Speed", "($dx+$ht)/4", 20),
    ("basic_move", "integer", "Basic Move", "floor($basic_speed)", 5),
    ("fp", "pool", "FP", "$ht", 3),
    ("hp", "pool", "HP", "$st", 2),
)

_VALUES: dict[str, tuple[float, float, int]] = {
    # id: adj, value, points (ST 11, DX 12, IQ 11, HT 11)
    "st": (1, 11, 10),
    "dx": (2, 12, 40),
    "iq": (1, 11, 20),
    "ht": (1, 11, 10),
    "will": (1, 12, 5),
    "fright_check": (0, 12, 0),
    "per": (0, 11, 0),
    "vision": (0, 11, 0),
    "hearing": (0, 11, 0),
    "taste_smell": (0, 11, 0),
    "touch": (0, 11, 0),
    "basic_speed": (0, 5.75, 0),
    "basic_move": (0, 5, 0),
    "fp": (0, 11, 0),
    "hp": (2, 13, 4),
}

_LOCATIONS: tuple[tuple[str, str, str, int, int], ...] = (
    # id, name, roll range, slots, hit penalty
    ("eye", "Eyes", "-", 0, -9),
    ("skull", "Skull", "3-4", 2, -7),
    ("face", "Face", "5", 1, -5),
    ("leg", "Right Leg", "6-7", 2, -2),
    ("arm", "Right Arm", "8", 1, -2),
    ("torso", "Torso", "9-10", 2, 0),
    ("groin", "Groin", "11", 1, -3),
    ("arm", "Left Arm", "12", 1, -2),
    ("leg", "Left Leg", "13-14", 2, -2),
    ("hand", "Hand", "15", 1, -4),
    ("foot", "Foot", "16", 1, -4),
    ("neck", "Neck", "17-18", 2, -5),
    ("vitals", "Vitals", "-", 0, -3),
)

_SKILLS: tuple[tuple[str, str, str], ...] = (
    # name, difficulty, default attribute
    ("Broadsword", "dx/a", "dx"),
    ("Shield", "dx/e", "dx"),
    ("Bow", "dx/a", "dx"),
    ("Stealth", "dx/a", "dx"),
    ("First Aid", "iq/e", "iq"),
    ("Survival", "per/a", "per"),
    ("Tactics", "iq/h", "iq"),
    ("Climbing", "dx/a", "dx"),
    ("Carousing", "ht/e", "ht"),
    ("Intimidation", "will/a", "will"),
)

_RELATIVE = {"e": 0, "a": -1, "h": -2, "vh": -3}
_ATTRIBUTE_VALUE = {"dx": 12, "iq": 11, "ht": 11, "per": 11, "will": 12}


def _tid(kind: str, number: int) -> str:
    """A v5 id: the node kind, then 16 characters."""
    return f"{kind}{number:016d}"


def _uuid(number: int) -> str:
    return f"00000000-0000-4000-8000-{number:012d}"


class _Ids:
    """Node ids (v5 TIDs, older UUIDs) and, before v5, the node's ``type``."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.count = 0

    def node(self, kind: str, old_type: str) -> dict[str, Any]:
        self.count += 1
        if self.version >= 5:
            return {"id": _tid(kind, self.count)}
        if self.version <= 2:
            old_type = old_type.replace("trait", "advantage")
        return {"type": old_type, "id": _uuid(self.count)}


def _skill_level(difficulty: str, points: int) -> tuple[int, str]:
    attribute, level = difficulty.split("/")
    step = 0 if points < 2 else 1 if points < 4 else 1 + points // 4
    relative = _RELATIVE[level] + step
    name = {"per": "Per", "will": "Will"}.get(attribute, attribute.upper())
    return _ATTRIBUTE_VALUE[attribute] + relative, f"{name}{relative:+d}"


def _skill(ids: _Ids, index: int, version: int) -> dict[str, Any]:
    name, difficulty, default = _SKILLS[index % len(_SKILLS)]
    points = (1, 2, 4, 8)[index % 4]
    level, rsl = _skill_level(difficulty, points)
    skill = ids.node("s", "skill")
    skill.update(
        {
            "name": name if index < len(_SKILLS) else f"{name} ({index // len(_SKILLS)})",
            "reference": "B" + str(170 + index % 60),
            "tags": ["Combat/Weapon" if default == "dx" else "Knowledge"],
            "difficulty": difficulty,
            "defaults": [
                {"type": default, "modifier": -5},
                {"type": "skill", "name": "Saber", "modifier": -4},
            ],
            "points": points,
            "calc": {"level": level, "rsl": rsl},
        }
    )
    if index % 3 == 0:
        skill["notes" if version < 5 else "local_notes"] = "Learned from a travelling master."
    return skill


def _technique(ids: _Ids) -> dict[str, Any]:
    technique = ids.node("q", "technique")
    technique.update(
        {
            "name": "Feint",
            "reference": "MA73",
            "difficulty": "h",
            "default": {"type": "skill", "name": "Broadsword"},
            "limit": 4,
            "points": 2,
            "calc": {"level": 12, "rsl": "+0"},
        }
    )
    return technique


def _modifier(ids: _Ids, name: str, percent: int, *, disabled: bool, version: int) -> dict[str, Any]:
    modifier = ids.node("m", "modifier")
    modifier["name"] = name
    if version >= 5:
        modifier["cost_adj"] = f"{percent:+d}%"
    else:
        modifier["cost"] = percent
    if disabled:
        modifier["disabled"] = True
    return modifier


def _trait(ids: _Ids, index: int, version: int) -> dict[str, Any]:
    trait = ids.node("t", "trait")
    kind = index % 4
    if kind == 0:
        trait.update(
            {
                "name": "Acute Vision" if index == 0 else f"Acute Vision ({index})",
                "reference": "B35",
                "can_level": True,
                "levels": 2,
                "points_per_level": 2,
                "features": [
                    {"type": "attribute_bonus", "attribute": "vision", "amount": 1, "per_level": True}
                ],
                "calc": {"points": 4, "current_level": 2},
            }
        )
    elif kind == 1:
        trait.update(
            {
                "name": f"Code of Honor (@Whose@) {index}",
                "reference": "B127",
                "cr": 12,
                "base_points": -10,
                "replacements": {"Whose": "Soldier's"},
                "calc": {"points": -10},
            }
        )
    elif kind == 2:
        trait.update(
            {
                "name": f"Magery {index}",
                "reference": "B66",
                "base_points": 5,
                "can_level": True,
                "levels": 1,
                "points_per_level": 10,
                "modifiers": [
                    _modifier(ids, "One College", -40, disabled=True, version=version),
                    _modifier(ids, "Dance", -40, disabled=True, version=version),
                ],
                # one Magery gives every spell its bonus; the copies of a grown file give none
                # (a real character does not hold hundreds of spell bonuses)
                "features": [{"type": "spell_bonus", "match": "all_colleges", "amount": 1, "per_level": True}]
                if index == 2
                else [],
                "calc": {"points": 15, "current_level": 1},
            }
        )
    else:
        trait.update(
            {
                "name": "Natural Attacks" if index == 3 else f"Natural Attacks ({index})",
                "reference": "B271",
                "weapons": [_punch(ids)],
                "calc": {"points": 0},
            }
        )
    if version < 4:
        trait["categories"] = ["Advantage"] if kind != 1 else ["Disadvantage"]
    else:
        trait["tags"] = ["Advantage", "Physical"] if kind != 1 else ["Disadvantage", "Mental"]
    return trait


def _punch(ids: _Ids) -> dict[str, Any]:
    weapon = ids.node("w", "melee_weapon")
    weapon.update(
        {
            "damage": {"type": "cr", "st": "thr", "base": "-1"},
            "usage": "Punch",
            "reach": "C",
            "parry": "0",
            "defaults": [{"type": "dx"}, {"type": "skill", "name": "Brawling"}],
            "calc": {"level": 12, "damage": "1d-2 cr", "parry": "9"},
        }
    )
    return weapon


def _weight_keys(version: int, value: float, weight: str) -> dict[str, Any]:
    if version >= 5:
        return {"base_value": str(value), "base_weight": weight}
    return {"value": value, "weight": weight}


def _equipment(ids: _Ids, index: int, version: int) -> dict[str, Any]:
    item = ids.node("e", "equipment")
    kind = index % 3
    if kind == 0:
        item.update(
            {
                "description": "Broadsword" if index == 0 else f"Broadsword ({index})",
                "reference": "B271",
                "tech_level": "2",
                "legality_class": "4",
                **_weight_keys(version, 500, "3 lb"),
                "quantity": 1,
                "equipped": True,
                "weapons": [
                    {
                        **ids.node("w", "melee_weapon"),
                        "damage": {"type": "cut", "st": "sw", "base": "1"},
                        "strength": "10",
                        "usage": "Swung",
                        "reach": "1",
                        "parry": "0",
                        "defaults": [{"type": "dx", "modifier": -5}, {"type": "skill", "name": "Broadsword"}],
                        "calc": {"level": 12, "damage": "1d+2 cut", "parry": "9"},
                    },
                    {
                        **ids.node("w", "melee_weapon"),
                        "damage": {"type": "cr", "st": "thr", "base": "1"},
                        "strength": "10",
                        "usage": "Thrust",
                        "reach": "1",
                        "parry": "0",
                        "defaults": [{"type": "dx", "modifier": -5}, {"type": "skill", "name": "Broadsword"}],
                        "calc": {"level": 12, "damage": "1d cr", "parry": "9"},
                    },
                ],
                "calc": {"value": 500, "extended_value": 500, "weight": "3 lb", "extended_weight": "3 lb"},
            }
        )
    elif kind == 1:
        item.update(
            {
                "description": "Leather Armor" if index == 1 else f"Leather Armor ({index})",
                "reference": "B283",
                "tech_level": "1",
                **_weight_keys(version, 100, "10 lb"),
                "quantity": 1,
                "equipped": index == 1,
                "features": [{"type": "dr_bonus", "locations": ["torso", "groin"], "amount": 2}],
                "calc": {"value": 100, "extended_value": 100, "weight": "10 lb", "extended_weight": "10 lb"},
            }
        )
    else:
        item.update(
            {
                "description": "Short Bow" if index == 2 else f"Short Bow ({index})",
                "reference": "B275",
                **_weight_keys(version, 50, "2 lb"),
                "quantity": 1,
                "equipped": index == 2,
                "weapons": [
                    {
                        **ids.node("W", "ranged_weapon"),
                        "damage": {"type": "imp", "st": "thr"},
                        "strength": "7",
                        "usage": "Shoot",
                        "accuracy": "1",
                        "range": "x10/x15",
                        "rate_of_fire": "1",
                        "shots": "1(2)",
                        "bulk": "-6",
                        "defaults": [{"type": "dx", "modifier": -5}, {"type": "skill", "name": "Bow"}],
                        "calc": {"level": 12, "damage": "1d-1 imp", "range": "110/165"},
                    }
                ],
                "calc": {"value": 50, "extended_value": 50, "weight": "2 lb", "extended_weight": "2 lb"},
            }
        )
    return item


def _spell(ids: _Ids, index: int) -> dict[str, Any]:
    spell = ids.node("p", "spell")
    spell.update(
        {
            "name": "Light" if index == 0 else f"Light ({index})",
            "reference": "M110",
            "difficulty": "iq/h",
            "college": ["Light and Darkness"],
            "power_source": "Arcane",
            "spell_class": "Regular",
            "casting_cost": "1",
            "maintenance_cost": "1",
            "casting_time": "1 sec",
            "duration": "1 min",
            "points": 1,
            "calc": {"level": 10, "rsl": "IQ-1"},
        }
    )
    return spell


def _settings(version: int) -> dict[str, Any]:
    base_key = "base" if version >= 5 else "attribute_base"
    definitions: list[dict[str, Any]] = []
    for attribute_id, kind, name, base, cost in _ATTRIBUTES:
        definition: dict[str, Any] = {
            "id": attribute_id,
            "type": kind,
            "name": name,
            base_key: base,
            "cost_per_point": cost,
        }
        if attribute_id in ("st", "hp"):
            definition["cost_adj_percent_per_sm"] = 10
        if kind == "pool":
            definition["thresholds"] = [
                {
                    "state": "Unconscious",
                    "expression": "-$" + attribute_id,
                    "ops": ["halve_move", "halve_dodge"],
                },
                {"state": "Collapse", "expression": "0", "ops": ["halve_move", "halve_dodge"]},
                {
                    "state": "Reeling" if attribute_id == "hp" else "Tired",
                    "expression": f"round(${attribute_id}/3)",
                    "ops": ["halve_move", "halve_dodge"] + (["halve_st"] if attribute_id == "fp" else []),
                },
                {"state": "Healthy", "expression": f"${attribute_id}"},
            ]
        definitions.append(definition)
    body = {
        "name": "Humanoid",
        "roll": "3d",
        "locations": [
            {
                "id": location,
                "choice_name": name,
                "table_name": name,
                "slots": slots,
                "hit_penalty": penalty,
                "dr_bonus": 2 if location == "skull" else 0,
                "calc": {
                    "roll_range": roll,
                    "dr": {"all": 2 if location in ("skull", "torso", "groin") else 0},
                },
            }
            for location, name, roll, slots, penalty in _LOCATIONS
        ],
    }
    return {
        "damage_progression": "basic_set",
        "default_length_units": "ft_in",
        "default_weight_units": "lb",
        "attributes": definitions,
        ("body_type" if version >= 4 else "hit_locations"): body,
    }


def _attributes() -> list[dict[str, Any]]:
    values = []
    for attribute_id, kind, _name, _base, _cost in _ATTRIBUTES:
        adj, value, points = _VALUES[attribute_id]
        calc: dict[str, Any] = {"value": value, "points": points}
        entry: dict[str, Any] = {"attr_id": attribute_id, "adj": adj, "calc": calc}
        if kind == "pool":
            damage = 3 if attribute_id == "hp" else 0
            if damage:
                entry["damage"] = damage
            calc["current"] = value - damage
        values.append(entry)
    return values


def character(*, units: int = 10, version: int = 5, name: str = "Ailsa Brand") -> dict[str, Any]:
    """A GCS character of file version 5, 4 or 2 with ``units`` skills (and about half as many
    traits and pieces of equipment, a quarter as many spells)."""
    if version not in (2, 4, 5):
        raise ValueError("character() writes file versions 2, 4 and 5; minimal() writes version 1")
    ids = _Ids(version)
    skills: list[dict[str, Any]] = [_skill(ids, index, version) for index in range(units)]
    skills.append(_technique(ids))
    traits = [_trait(ids, index, version) for index in range(max(4, units // 2))]
    equipment = [_equipment(ids, index, version) for index in range(max(3, units // 2))]
    spells = [_spell(ids, index) for index in range(max(1, units // 4))]
    note = ids.node("n", "note")
    note["markdown" if version >= 5 else "text"] = "Owes the harbour master 30 silver."
    data: dict[str, Any] = {"version": version}
    if version < 5:
        data["type"] = "character"
    data.update(
        {
            "id": _tid("A", 0) if version >= 5 else _uuid(0),
            "total_points": 150,
            "points_record": [{"when": "2024-03-01T12:00:00Z", "points": 150, "reason": "Initial points"}],
            "profile": {
                "name": name,
                "player_name": "Test Player",
                "age": "27",
                "height": "5'9\"",
                "weight": "160 lb",
                "gender": "Female",
                "tech_level": "3",
                "SM": 0,
            },
            "settings": _settings(version),
            "attributes": _attributes(),
            ("traits" if version >= 4 else "advantages"): traits,
            "skills": skills,
            "spells": spells,
            "equipment": equipment,
            "other_equipment": [_equipment(ids, 1, version)],
            "notes": [note],
            "created_date": "2024-03-01T12:00:00Z" if version >= 4 else "Mar 1, 2024, 12:00 PM",
            "modified_date": "2024-03-02T12:00:00Z" if version >= 4 else "Mar 2, 2024, 12:00 PM",
            "calc": {
                "swing": "1d+1",
                "thrust": "1d-1",
                "basic_lift": "24 lb",
                "move": [5, 4, 3, 2, 1],
                "dodge": [8, 7, 6, 5, 4],
            },
        }
    )
    return data


def minimal(version: int = 5, name: str = "Minimal") -> dict[str, Any]:
    """The smallest file GCS could write for each version: a name and ST/DX/IQ/HT."""
    data: dict[str, Any] = {"version": version}
    if version < 5:
        data["type"] = "character"
    data["profile"] = {"name": name}
    if version == 1:
        data.update({"ST": 11, "DX": 12, "IQ": 10, "HT": 10, "total_points": 60})
    else:
        data["attributes"] = [
            {"attr_id": "st", "adj": 1, "calc": {"value": 11, "points": 10}},
            {"attr_id": "dx", "adj": 2, "calc": {"value": 12, "points": 40}},
        ]
        data["total_points"] = 50
    return data


def text_of(data: dict[str, Any]) -> str:
    """The file's text as GCS writes it (tab-indented)."""
    return json.dumps(data, indent="\t", ensure_ascii=False) + "\n"


def grown(target_bytes: int, *, version: int = 5) -> tuple[dict[str, Any], str]:
    """The smallest character of at least ``target_bytes`` bytes of text (about 15 kB at least),
    found by doubling, then bisection."""
    low, high = 1, 2
    while len(text_of(character(units=high, version=version)).encode()) < target_bytes:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        if len(text_of(character(units=middle, version=version)).encode()) < target_bytes:
            low = middle
        else:
            high = middle
    data = character(units=high, version=version)
    return data, text_of(data)
