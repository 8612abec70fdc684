"""GCS files built to hurt the importer: shared by the tests, ``scripts/fuzz.py`` and
``benchmarks/bench.py`` (standard library only).

A reviewer found that files mutated a little at a time never reach the importer's worst cases;
these are built for them (issue 22). Each builder takes a count ``n`` and returns a version 5
character (a fresh dict) whose size grows linearly with ``n`` and in which, done naively, every
item of one kind meets every item of another:

* :func:`skill_bonuses`: ``n`` skills without ``calc`` and ``n`` skill bonuses whose name
  criterion is not an exact match (starts with, contains, ends with, is not ...);
* :func:`broad_criteria`: skills, spells and weapons, and bonuses whose criteria accept nearly
  any name (only the importer's budget of comparisons bounds their work);
* :func:`spell_bonuses`: ``n`` spells and ``n`` spell bonuses (by college, power source, name);
* :func:`attribute_bonuses`: ``n`` attributes defined in the settings, ``n`` attribute bonuses
  and cost reductions, no ``calc``;
* :func:`weapon_defaults`: ``n`` weapons without ``calc`` defaulting to a skill ``n`` skills are
  named after (some by criterion);
* :func:`weapon_bonuses`: ``n`` weapons and ``n`` weapon bonuses of every selection;
* :func:`dr_bonuses`: ``n`` hit locations without ``calc.dr`` and ``n`` DR bonuses;
* :func:`techniques`: ``n`` techniques defaulting to skills and to each other;
* :func:`container_modifiers`: a trait container with ``n`` modifiers above ``n`` traits
  without ``calc``;
* :func:`long_names`: containers and weapon owners whose long names every item inside repeats;
* :func:`placeholders`: names and notes whose ``@placeholders@`` multiply the text.

:data:`BUILDERS` names them all; :func:`adversarial` mixes them into one file of about a given
size (the benchmark's 2 MB row).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from tests.support import gcs_samples

__all__ = [
    "BUILDERS",
    "adversarial",
    "attribute_bonuses",
    "broad_criteria",
    "container_modifiers",
    "dr_bonuses",
    "long_names",
    "placeholders",
    "skill_bonuses",
    "spell_bonuses",
    "techniques",
    "weapon_bonuses",
    "weapon_defaults",
    "weapons_and_skills",
    "without_calc",
]

_Data = TypeVar("_Data")
_COMPARES = ("starts_with", "contains", "ends_with", "is")
"""The comparisons an index finds (the others accept nearly anything: see :func:`broad_criteria`)."""
_BROAD = ("is_not", "does_not_contain", "does_not_start_with", "does_not_end_with", "any")


def without_calc(data: _Data) -> _Data:
    """``data`` (changed in place and returned) without any ``calc`` block: every value is left
    to the importer's rules. No recursion."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            item.pop("calc", None)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return data


def _base(traits: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    data = gcs_samples.character(units=2)
    if traits is not None:
        data["traits"] = data["traits"] + traits
    return data


def _trait(index: int, features: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {"id": f"t{index:016d}", "name": f"Trait {index}", "base_points": 1, "features": features, **more}


def _skill(index: int, name: str, **more: Any) -> dict[str, Any]:
    return {
        "id": f"s{index:016d}",
        "name": name,
        "difficulty": "dx/a",
        "points": 1 + index % 8,
        "tags": ["Combat"],
        **more,
    }


def skill_bonuses(n: int) -> dict[str, Any]:
    """``n`` skills and ``n`` skill bonuses with inexact name criteria, no ``calc``."""
    traits = [
        _trait(
            i,
            [
                {
                    "type": "skill_bonus",
                    "selection_type": "skills_with_name",
                    "name": {"compare": _COMPARES[i % len(_COMPARES)], "qualifier": f"Skill {i}."},
                    "specialization": {"compare": "contains", "qualifier": f"s{i % 3}"},
                    "amount": 1,
                }
            ],
        )
        for i in range(n)
    ]
    data = _base(traits)
    data["skills"] = [_skill(i, f"Skill {i}.", specialization=f"s{i}") for i in range(n)]
    return without_calc(data)


def broad_criteria(n: int) -> dict[str, Any]:
    """``n`` skills, spells and weapons, and ``n`` skill, spell and weapon bonuses whose
    criteria accept nearly every name (is not, does not contain ..., any): every bonus may
    reach every item, so only the budget of comparisons keeps the work linear."""
    features: list[dict[str, Any]] = []
    for i in range(n):
        criterion = {"compare": _BROAD[i % len(_BROAD)], "qualifier": f"x{i}"}
        kind = ("skill_bonus", "spell_bonus", "weapon_bonus", "spell_bonus")[i % 4]
        feature: dict[str, Any] = {"type": kind, "name": criterion, "amount": 1}
        if kind == "spell_bonus":
            feature["match"] = "spell_name" if i % 4 == 1 else "all_colleges"
        elif kind == "weapon_bonus":
            feature["selection_type"] = "weapons_with_name"
        features.append(feature)
    data = _base([_trait(0, features)])
    data["skills"] = [_skill(i, f"Skill {i}") for i in range(n)]
    data["spells"] = [
        {"id": f"p{i:016d}", "name": f"Spell {i}", "college": ["Air"], "difficulty": "iq/h", "points": 1}
        for i in range(n)
    ]
    data["equipment"] = [_item(i, f"Blade {i}", [_weapon(i, "Skill 1")]) for i in range(n)]
    return without_calc(data)


def spell_bonuses(n: int) -> dict[str, Any]:
    """``n`` spells and ``n`` spell bonuses matching them by college, power source and name."""
    matches = ("college_name", "power_source_name", "spell_name")
    traits = [
        _trait(
            i,
            [
                {
                    "type": "spell_bonus",
                    "match": matches[i % len(matches)],
                    "name": {"compare": _COMPARES[i % len(_COMPARES)], "qualifier": f"Fire{i}."},
                    "amount": 1,
                }
            ],
        )
        for i in range(n)
    ]
    data = _base(traits)
    data["spells"] = [
        {
            "id": f"p{i:016d}",
            "name": f"Fire{i}. Spell",
            "college": [f"Fire{i}.", "Air"],
            "power_source": f"Fire{i}.",
            "difficulty": "iq/h",
            "points": 1 + i % 4,
        }
        for i in range(n)
    ]
    return without_calc(data)


def attribute_bonuses(n: int) -> dict[str, Any]:
    """``n`` attributes in the settings, ``n`` attribute bonuses and cost reductions to them."""
    data = _base()
    definitions = data["settings"]["attributes"]
    values = data["attributes"]
    for i in range(n):
        definitions.append(
            {"id": f"a{i}", "type": "integer", "name": f"A{i}", "attribute_base": "$iq", "cost_per_point": 5}
        )
        values.append({"attr_id": f"a{i}", "adj": i % 3})
    data["traits"] += [
        _trait(
            i,
            [
                {"type": "attribute_bonus", "attribute": f"a{(i * 7) % max(n, 1)}", "amount": 1},
                {"type": "attribute_bonus", "attribute": "st", "limitation": "none", "amount": 1},
                {"type": "cost_reduction", "attribute": f"a{i}", "percentage": 10},
            ],
        )
        for i in range(n)
    ]
    return without_calc(data)


def _weapon(index: int, skill: Any, **more: Any) -> dict[str, Any]:
    return {
        "id": f"w{index:016d}",
        "damage": {"type": "cut", "st": "sw", "base": "1"},
        "usage": f"Swung {index % 3}",
        "reach": "1",
        "parry": "0",
        "strength": "10",
        "defaults": [{"type": "dx", "modifier": -5}, {"type": "skill", "name": skill, "modifier": 0}],
        **more,
    }


def _item(index: int, name: str, weapons: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {
        "id": f"e{index:016d}",
        "description": name,
        "quantity": 1,
        "equipped": True,
        "base_value": 10,
        "base_weight": "1 lb",
        "weapons": weapons,
        **more,
    }


def weapon_defaults(n: int) -> dict[str, Any]:
    """``n`` weapons without ``calc`` defaulting to ``Sword`` (some by a criterion on the name
    or the specialization), and ``n`` skills named ``Sword``."""
    data = _base()
    data["skills"] = [_skill(i, "Sword", specialization=f"Style {i}") for i in range(n)]
    criteria: tuple[Any, ...] = (
        "Sword",
        {"compare": "is", "qualifier": "Sword"},
        {"compare": "starts_with", "qualifier": "Sw"},
    )
    weapons = []
    for i in range(n):
        weapon = _weapon(i, criteria[i % len(criteria)])
        if i % 2:
            weapon["defaults"][1]["specialization"] = f"Style {(i * 3) % max(n, 1)}"
        weapons.append(weapon)
    data["equipment"] = [_item(i, f"Sword {i}", [weapon]) for i, weapon in enumerate(weapons)]
    return without_calc(data)


def weapon_bonuses(n: int) -> dict[str, Any]:
    """``n`` weapons without ``calc`` and ``n`` weapon bonuses of every selection and kind, each
    reaching a few of them (by their skill's name or theirs)."""
    kinds = ("weapon_bonus", "weapon_parry_bonus", "weapon_min_st_bonus", "weapon_effective_st_bonus")
    selections = ("weapons_with_required_skill", "weapons_with_name", "this_weapon")
    features = []
    for i in range(n):
        selection = selections[i % len(selections)]
        feature: dict[str, Any] = {"type": kinds[i % len(kinds)], "selection_type": selection, "amount": 1}
        if selection == "weapons_with_required_skill":
            feature["name"] = {"compare": _COMPARES[i % len(_COMPARES)], "qualifier": f"Sword {i}."}
            feature["level"] = {"compare": "at_least", "qualifier": -5}
        elif selection == "weapons_with_name":
            feature["name"] = {"compare": _COMPARES[i % len(_COMPARES)], "qualifier": f"Blade {i}."}
        features.append(feature)
        features.append(
            {
                "type": "skill_bonus",
                "selection_type": "weapons_with_name",
                "name": {"compare": "starts_with", "qualifier": f"Blade {i}."},
                "amount": 1,
            }
        )
    data = _base([_trait(0, features)])
    data["skills"] = [_skill(i, f"Sword {i}.") for i in range(n)]
    data["equipment"] = [_item(i, f"Blade {i}.", [_weapon(i, f"Sword {i}.")]) for i in range(n)]
    return without_calc(data)


def dr_bonuses(n: int) -> dict[str, Any]:
    """``n`` hit locations without ``calc.dr`` (half of them in sub-tables) and ``n`` DR bonuses
    to every location, to all of them and to several."""
    locations: list[dict[str, Any]] = []
    for i in range(n):
        location: dict[str, Any] = {"id": f"loc{i % 50}", "choice_name": f"Place {i}", "slots": 1}
        if i % 2:
            location["sub_table"] = {"name": f"Sub {i}", "locations": [{"id": f"sub{i % 7}", "dr_bonus": 1}]}
        locations.append(location)
    features = []
    for i in range(n):
        places: list[str] = [["all"], [f"loc{i % 50}"], [f"sub{i % 7}", "torso", "all"]][i % 3]
        feature: dict[str, Any] = {"type": "dr_bonus", "locations": places, "amount": 1}
        if i % 4 == 0:
            feature["specialization"] = f"kind{i % 20}"
        features.append(feature)
    data = _base([_trait(0, features)])
    data["settings"]["body_type"] = {"name": "Many", "roll": "3d", "locations": locations}
    return without_calc(data)


def techniques(n: int) -> dict[str, Any]:
    """``n`` skills named ``Base``, ``n`` techniques defaulting to ``Base`` and ``n`` to each
    other (a chain that ends nowhere), no ``calc``."""
    data = _base()
    skills: list[dict[str, Any]] = [_skill(i, "Base", specialization=f"S{i}") for i in range(n)]
    for i in range(n):
        skills.append(
            {
                "id": f"q{i:016d}",
                "name": f"Move {i % 3}",
                "difficulty": "h",
                "default": {"type": "skill", "name": "Base", "specialization": f"S{i}", "modifier": -2},
                "points": 2,
            }
        )
        skills.append(
            {
                "id": f"q{n + i:016d}",
                "name": f"Chain {i}",
                "difficulty": "a",
                "default": {"type": "skill", "name": f"Chain {i + 1}", "modifier": -1},
                "points": 1,
            }
        )
    data["skills"] = skills
    return without_calc(data)


def container_modifiers(n: int) -> dict[str, Any]:
    """A trait container (and an alternative-abilities one inside it) with ``n`` modifiers above
    ``n`` traits without ``calc``."""
    modifiers = [
        {"id": f"m{i:016d}", "name": f"Mod {i}", "cost_adj": f"{(i % 9) - 4:+d}%"}
        | ({"use_level_from_trait": True} if i % 5 == 0 else {})
        for i in range(n)
    ]
    leaves = [
        {"id": f"t{i:016d}", "name": f"Leaf {i}", "base_points": 5 + i % 3, "can_level": True}
        | {"levels": i % 3}
        for i in range(n)
    ]
    inner = {
        "id": "T0000000000000001",
        "name": "Powers",
        "container_type": "alternative_abilities",
        "children": leaves[: n // 2],
    }
    outer = {
        "id": "T0000000000000002",
        "name": "Template",
        "container_type": "meta_trait",
        "modifiers": modifiers,
        "children": [inner, *leaves[n // 2 :]],
    }
    data = _base([outer])
    return without_calc(data)


def long_names(n: int) -> dict[str, Any]:
    """Containers whose ``n`` items repeat a name of ``n`` characters (every trait's "Part of",
    every item's location, every weapon's name), and an owner with ``n`` weapons."""
    long = "Long name " * max(n // 10, 1)
    data = _base()
    data["traits"].append(
        {
            "id": "T0000000000000003",
            "name": long,
            "local_notes": long,
            "children": [{"id": f"t{i:016d}", "name": f"Inside {i}", "base_points": 1} for i in range(n)],
        }
    )
    data["equipment"].append(
        _item(
            0,
            long,
            [_weapon(i, "Sword") for i in range(n)],
            children=[_item(i + 1, f"Thing {i}", []) for i in range(n)],
        )
    )
    data["skills"].append(
        {"id": "S0000000000000004", "name": long, "children": [_skill(i, f"Inner {i}") for i in range(n)]}
    )
    return without_calc(data)


def placeholders(n: int) -> dict[str, Any]:
    """Names and notes of ``n`` placeholders each, filled from replacements of ``n`` characters:
    ``n`` squared characters if every one were filled."""
    word = "w" * n
    filled = "@a@" * n
    data = _base()
    data["traits"].append(
        {
            "id": "t0000000000000009",
            "name": filled,
            "local_notes": filled,
            "base_points": 1,
            "replacements": {"a": word},
            "weapons": [_weapon(i, "Sword", usage=filled) for i in range(8)],
        }
    )
    data["skills"].append(_skill(9, filled, specialization=filled, replacements={"a": word}))
    data["equipment"].append(_item(9, filled, [], replacements={"a": word}, local_notes=filled))
    return without_calc(data)


_LORE = "forged in the hill country, reground twice, its tang marked by a smith whose name is lost; "
_ART = "Blade Art {} of the Fold"


def weapons_and_skills(n: int) -> dict[str, Any]:
    """``n`` skills of several words and ``n`` weapons (melee and ranged) that no skill is named
    as, half of them named with a skill's first word: finding a weapon's skill by asking every
    skill costs weapons x skills, in the combat view and in the export of the document
    :func:`typed_document` makes of the import.

    Not one of :data:`BUILDERS`: the importer reads a weapon's skill from its defaults, so this
    file hurts what comes after the import (``benchmarks/bench.py`` times the three)."""
    data = _base()
    data["skills"] = [_skill(i, _ART.format(i)) for i in range(n)]
    equipment = []
    for i in range(n):
        weapon = _weapon(i, _ART.format((i * 7) % max(n, 1)), usage="Swung")
        if i % 2:  # a ranged weapon: no reach or parry; accuracy and range instead
            del weapon["reach"], weapon["parry"]
            weapon["id"] = f"W{i:016d}"  # (a TID's first letter gives its kind)
            weapon |= {"accuracy": "2", "range": "x1/x1.5", "rate_of_fire": "1", "shots": "T(1)"}
        name = f"Blade Heirloom {i}" if i % 4 < 2 else f"Heirloom {i} from the Vault"
        equipment.append(_item(i, name, [weapon], local_notes=_LORE))
    data["equipment"] = equipment
    return without_calc(data)


def typed_document(imported: dict[str, Any]) -> dict[str, Any]:
    """A document as a person would type it from the import of :func:`weapons_and_skills`: a
    fresh copy without the importer's record (so the combat view and the export find each
    weapon's skill themselves), every weapon's notes long, two in three naming a skill deep
    inside (the others name none)."""
    document: dict[str, Any] = json.loads(json.dumps(imported))
    document.pop("extensions", None)
    names = [skill["name"] for skill in document["skills"]]
    place = 0
    for kind in ("melee", "ranged"):
        for weapon in document["weapons"][kind]:
            named = f"used with {names[(place * 7) % len(names)]}; " if place % 3 else ""
            weapon["notes"] = f"{_LORE * 4}{named}{_LORE}"
            place += 1
    return document


BUILDERS: dict[str, Callable[[int], dict[str, Any]]] = {
    "skill_bonuses": skill_bonuses,
    "spell_bonuses": spell_bonuses,
    "broad_criteria": broad_criteria,
    "attribute_bonuses": attribute_bonuses,
    "weapon_defaults": weapon_defaults,
    "weapon_bonuses": weapon_bonuses,
    "dr_bonuses": dr_bonuses,
    "techniques": techniques,
    "container_modifiers": container_modifiers,
    "long_names": long_names,
    "placeholders": placeholders,
}
"""Every builder by name."""


def _size(data: dict[str, Any]) -> int:
    return len(json.dumps(data).encode())


def adversarial(target_bytes: int) -> tuple[dict[str, Any], str]:
    """Every builder's file at the same ``n``, merged into one character of about
    ``target_bytes`` bytes of text (the largest ``n`` that stays below it)."""

    base = _base()
    known = {
        json.dumps(without_calc(item), sort_keys=True)
        for key in ("traits", "skills", "spells", "equipment")
        for item in base[key]
    }

    def merged(n: int) -> dict[str, Any]:
        data = _base()
        for build in BUILDERS.values():
            part = build(n)
            for key in ("traits", "skills", "spells", "equipment"):
                extra = part.get(key, [])
                data[key] += [item for item in extra if json.dumps(item, sort_keys=True) not in known]
            data["attributes"] += part["attributes"][len(base["attributes"]) :]
            definitions = part["settings"]["attributes"]
            data["settings"]["attributes"] += definitions[len(base["settings"]["attributes"]) :]
            if build is dr_bonuses:
                data["settings"]["body_type"] = part["settings"]["body_type"]
        return without_calc(data)

    low, high = 1, 2
    while _size(merged(high)) < target_bytes:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        if _size(merged(middle)) < target_bytes:
            low = middle
        else:
            high = middle
    data = merged(low)
    return data, json.dumps(data)
