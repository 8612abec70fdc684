"""Traits, skills, equipment, hit locations, reactions and the profile of an exported
character, in GCS's nodes, with the features that give the document's skill levels and DR.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from ...locations import DR_COVER
from ..format.json_text import RawJson
from ..format.skill_levels import points_level
from ..format.standard_sheet import ATTRIBUTE_NAMES, HUMANOID, humanoid_body_text
from .sheet import (
    ADJUSTMENTS,
    LIMIT,
    SheetBase,
    Stack,
    as_written,
    fxp_text,
    plain,
    signed,
    text_of,
    trait_node,
)

__all__ = ["ListsPart", "split_skill_name"]

_COMPREHENSION_COST: Final = {"none": 0, "broken": 1, "accented": 2, "native": 3}

_COMPREHENSION_TEXT: Final = {level: level.title() for level in _COMPREHENSION_COST}
_COST_ADJUSTMENT: Final = {cost: f"+{cost}" for cost in _COMPREHENSION_COST.values()}

_TABLED_POINTS: Final = 64
_RELATIVE_LEVELS: Final = {
    difficulty: tuple(points_level(difficulty, points) for points in range(_TABLED_POINTS))
    for difficulty in ("e", "a", "h", "vh")
}
""":func:`~..format.skill_levels.points_level` of each difficulty (not the wildcards') for 0 to 63 points."""

_SIGNED_LOW: Final = 32
_SIGNED: Final = tuple(signed(value) for value in range(-_SIGNED_LOW, _SIGNED_LOW))
"""Whole numbers from -32 to 31 with their sign (:func:`~.sheet.signed`), by value + 32."""

_EMPTY: Final[MappingProxyType[str, Any]] = MappingProxyType({})
"""An object the document leaves out, read as empty (read only: no dict made for each read)."""

_DIFFICULTY_LEVELS: Final = {
    letter: (difficulty, _RELATIVE_LEVELS[difficulty])
    for letter, difficulty in (("E", "e"), ("A", "a"), ("H", "h"), ("VH", "vh"))
}
"""A document skill's difficulty as GCS writes it, with its relative levels for 0 to 63 points."""

_TYPE_TAGS: Final = {
    "advantage": "Advantage",
    "perk": "Perk",
    "disadvantage": "Disadvantage",
    "quirk": "Quirk",
}

_BODY_ORDER: Final = (
    "eye",
    "skull",
    "face",
    "neck",
    "torso",
    "vitals",
    "groin",
    "arm",
    "hand",
    "leg",
    "foot",
)
"""GCS's humanoid locations in the order its body table lists them (the DR entries that cover
each are :data:`~gurps_character.locations.DR_COVER`'s, as :func:`~gurps_character.resolve_hit`
reads them)."""
_BODY_COVER: Final = tuple((place_id, DR_COVER[place_id]) for place_id in _BODY_ORDER)
"""Each location in :data:`_BODY_ORDER` with the DR entries that cover it."""
_SKILL_NAME: Final = re.compile(r"(?P<name>.+?)(?:/TL(?P<tl>[^\s()/]+))?(?: \((?P<spec>[^()]+)\))?")

_QUANTITY_NAME: Final = re.compile(r"(.*\S) ×([0-9]+(?:\.[0-9]{1,4})?)")
"""An item's name as the importer names a stack (``Arrow ×20``: the name, a space, × and the
quantity as GCS shows it)."""

_METRIC_LENGTH: Final = re.compile(r"\s*(\d{1,6}(?:[.,]\d+)?)\s*(m|cm)\s*", re.IGNORECASE)

_FEET_INCHES: Final = re.compile(r"""\s*(\d{1,4}(?:\.\d+)?)\s*'(?:\s*(\d{1,4}(?:\.\d+)?)\s*")?\s*""")

_WEIGHT: Final = re.compile(r"\s*(\d{1,6}(?:[.,]\d+)?)\s*(kg|lb|lbs)\.?\s*", re.IGNORECASE)


class ListsPart(SheetBase):
    """Traits, skills, equipment, hit locations, reactions, profile and notes."""

    def _traits(self) -> None:
        doc = self.doc
        new_id = self.ids.new
        traits = self.traits
        trait_by_name = self.trait_by_name
        for index, trait in enumerate(doc.get("traits", [])):
            name = trait["name"]
            if type(name) is not str or name.strip() != name:
                name = self.name(name, f"/traits/{index}/name", "trait")
            points = trait["points"]
            if type(points) is not int or not -LIMIT <= points <= LIMIT:
                points = self.bounded(points, f"/traits/{index}/points", f"'{name[:40]}' points")
                shown = plain(points)
            else:
                shown = points
            # a valid trait's type is one of the four, its notes text (a str subclass is kept as it is)
            tags = [_TYPE_TAGS[trait["type"]]]
            notes = trait.get("notes")
            level = trait.get("level")
            node: dict[str, Any]
            if level is None or not (
                (type(level) is int or (isinstance(level, int | float) and not isinstance(level, bool)))
                and 1 <= level <= LIMIT
            ):  # the usual trait: its node made at once, its keys in GCS's order (TRAIT_KEYS)
                node = trait_node(new_id("trait"), name, notes, tags, shown)
            else:  # a leveled trait, made at once too
                level = int(level)
                per_level = math.floor(points / level) if points % level == 0 else 0
                rest = points - per_level * level
                if type(rest) is not int:
                    rest = plain(rest)
                node = {
                    "id": new_id("trait"),
                    "name": name,
                    "local_notes": notes,
                    "tags": tags,
                    "modifiers": [],
                    "base_points": rest,
                    "points_per_level": per_level,
                    "weapons": [],
                    "features": [],
                    "can_level": True,
                    "levels": level,
                    "calc": {"points": shown, "current_level": level},
                }
                if not notes:  # (the other keys keep their order)
                    del node["local_notes"]
            traits.append(node)
            if name not in trait_by_name:
                trait_by_name[name] = node
        for index, language in enumerate(doc.get("languages", ())):
            self._language(language, index)
        for index, familiarity in enumerate(doc.get("culturalFamiliarities", ())):
            points = familiarity["points"]
            if type(points) is not int or not -LIMIT <= points <= LIMIT:
                points = self.bounded(points, f"/culturalFamiliarities/{index}/points", "Points")
            name = familiarity["name"]
            if type(name) is not str or name.strip() != name:
                name = self.name(name, f"/culturalFamiliarities/{index}/name", "cultural familiarity")
            full = f"Cultural Familiarity ({name})"
            shown = points if type(points) is int else plain(points)
            node = {
                "id": new_id("trait"),
                "name": full,
                "tags": ["Advantage", "Mental", "Social"],
                "modifiers": [],
                "base_points": shown,
                "weapons": [],
                "features": [],
                "calc": {"points": shown},
            }  # new_trait's node, made here at once
            traits.append(node)
            if full not in trait_by_name:
                trait_by_name[full] = node
        tech_points = doc.get("techLevel", _EMPTY).get("points")
        if tech_points is None or tech_points == 0:  # None: no points, as bounded() reads it
            return
        if type(tech_points) is not int or not -LIMIT <= tech_points <= LIMIT:
            tech_points = self.bounded(tech_points, "/techLevel/points", "Tech level points")
            if not tech_points:
                return
        name = "High TL" if tech_points > 0 else "Low TL"
        self.new_trait(name, tech_points, ["Advantage" if tech_points > 0 else "Disadvantage", "Mental"])

    def _language(self, language: Mapping[str, Any], index: int) -> None:
        spoken, written = language["spoken"], language["written"]
        points = language["points"]
        if type(points) is not int or not -LIMIT <= points <= LIMIT:
            points = self.bounded(points, f"/languages/{index}/points", "Points")
        new_id = self.ids.new
        spoken_cost = _COMPREHENSION_COST[spoken]
        written_cost = _COMPREHENSION_COST[written]
        modifiers: list[dict[str, Any]]
        if spoken_cost == 3 and written_cost == 3:  # native: the document's levels are GCS's words
            native = "Native"
            modifiers = [
                {"id": new_id("trait_modifier"), "name": "Spoken", "local_notes": native, "cost_adj": "+3"},
                {"id": new_id("trait_modifier"), "name": "Written", "local_notes": native, "cost_adj": "+3"},
                {"id": new_id("trait_modifier"), "name": native, "cost_adj": "-6"},
            ]
            costs = 0
        else:
            modifiers = [
                _comprehension(new_id("trait_modifier"), "Spoken", spoken, spoken_cost),
                _comprehension(new_id("trait_modifier"), "Written", written, written_cost),
            ]
            costs = spoken_cost + written_cost
        name = language["name"]
        if type(name) is not str or name.strip() != name:
            name = self.name(name, f"/languages/{index}/name", "language")
        full = "Language: " + name
        node: dict[str, Any] = {
            "id": new_id("trait"),
            "name": full,
            "tags": ["Language", "Mental", "Social"],
            "modifiers": modifiers,
            "base_points": points - costs if type(points) is int else plain(points - costs),
            "weapons": [],
            "features": [],
            "calc": {"points": points if type(points) is int else plain(points)},
        }  # as new_trait makes a trait, with the modifiers and the points before them
        self.traits.append(node)
        trait_by_name = self.trait_by_name
        if full not in trait_by_name:
            trait_by_name[full] = node

    def _equipment(self) -> None:
        new_id = self.ids.new
        nodes = self.equipment
        item_by_name = self.item_by_name
        for index, item in enumerate(self.doc.get("equipment", ())):
            notes = item.get("notes")  # text, or None (a valid item's notes are text)
            location = item.get("location")
            if location:
                notes = f"{notes}\nLocation: {location}" if notes else f"Location: {location}"
            # cost_and_weight's bounds, the pointers made only for a note
            cost = item.get("cost", 0)
            if (type(cost) is not int and type(cost) is not float) or not -LIMIT <= cost <= LIMIT:
                cost = self.bounded(cost, f"/equipment/{index}/cost", "Cost")
            weight = item.get("weight", 0)
            if (type(weight) is not int and type(weight) is not float) or not -LIMIT <= weight <= LIMIT:
                weight = self.bounded(weight, f"/equipment/{index}/weight", "Weight")
            name = item["name"]
            if type(name) is not str or name.strip() != name:
                name = self.name(name, f"/equipment/{index}/name", "item")
            pounds = weight * 2
            if "×" in name:  # only a name with a '×' can end as a stack does
                self.new_item(
                    name, cost, weight, notes or "", self._stack(name, cost, weight, f"/equipment/{index}")
                )
            elif notes and cost and pounds:  # the usual item: new_item's node, made here at once
                if not -1000 < pounds < 1000:
                    weight_text = fxp_text(pounds) + " lb"
                elif type(pounds) is int:  # fxp_text's two first cases, inline
                    weight_text = f"{pounds} lb"
                elif pounds.is_integer():
                    weight_text = f"{int(pounds)} lb"
                else:
                    weight_text = fxp_text(pounds) + " lb"
                value: int | float
                if type(cost) is int:
                    value = cost
                    base_value = str(cost) if -1000 < cost < 1000 else fxp_text(cost).replace(",", "")
                else:
                    value = plain(cost)
                    base_value = fxp_text(cost).replace(",", "")
                node = {
                    "id": new_id("equipment"),
                    "description": name,
                    "local_notes": notes,
                    "base_value": base_value,
                    "base_weight": weight_text,
                    "weapons": [],
                    "features": [],
                    "quantity": 1,
                    "equipped": True,
                    "calc": {
                        "value": value,
                        "extended_value": value,
                        "weight": weight_text,
                        "extended_weight": weight_text,
                    },
                }
                nodes.append(node)
                if name not in item_by_name:
                    item_by_name[name] = node
            else:
                self.new_item(name, cost, weight, notes or "")

    def _stack(self, name: str, cost: float, weight: float, pointer: str) -> Stack | None:
        """The stack an item's name ends with (``Arrow ×20``, as :func:`~.import_gcs` names a
        stack of 20): one item's cost and weight (in pounds) and the quantity when they give the
        document's totals in GCS's four decimals; None for a name without one."""
        found = _QUANTITY_NAME.fullmatch(name)
        if found is None:
            return None
        description, count = found.group(1), float(found.group(2))
        quantity: int | float = int(count) if count.is_integer() else count
        if 0 < count <= LIMIT and _decimal(count) == found.group(2):
            unit_cost, unit_pounds = round(cost / count, 4), round(weight * 2 / count, 4)
            exact = round(unit_cost * count, 4) == round(cost, 4) and round(unit_pounds * count, 4) == round(
                weight * 2, 4
            )
            # one of a name that ends as a stack itself is named with ' ×1' too
            if exact and (quantity != 1 or _QUANTITY_NAME.fullmatch(description)):
                return Stack(description, quantity, unit_cost, unit_pounds)
        self.note(
            f"{pointer}/name",
            "differs",
            f"'{name[:60]}' ends as the importer names a stack of items; the file holds it as one item "
            "of that name, which an import of the file names with ' ×1' added.",
        )
        return None

    def _skills(self) -> None:
        groups: dict[str | tuple[str, str], float] = {}
        skill_names = self.skill_names
        skill_parts = self.skill_parts
        values = self.values
        new_id = self.ids.new
        nodes = self.skills
        for index, skill in enumerate(self.doc.get("skills", ())):
            full = skill_names[index]
            if "(" not in full and "/TL" not in full:  # neither part: split_skill_name's whole name
                name = full
                spec = tech_level = None
            else:
                parts = skill_parts.get(full)
                if parts is None:
                    parts = skill_parts[full] = split_skill_name(full)
                name, spec, tech_level = parts
            attribute = skill["attribute"]
            difficulty, levels = _DIFFICULTY_LEVELS[skill["difficulty"]]
            points = skill["points"]
            if type(points) is not int or not -LIMIT <= points <= LIMIT:
                points = self.bounded(points, f"/skills/{index}/points", "Points")
                shown = plain(points)
                relative = points_level(difficulty, points)
            else:
                shown = points
                relative = (
                    levels[points] if 0 <= points < _TABLED_POINTS else points_level(difficulty, points)
                )
            ident = new_id("skill")  # drawn before the bonuses' holders draw theirs
            level = skill["level"]
            if type(level) is not int or not -LIMIT <= level <= LIMIT:
                level = math.floor(self.bounded(level, f"/skills/{index}/level", "Skill level"))
            value = values[attribute]
            base = value + relative
            # the skills GCS gives the same bonuses: one name and specialization, in any case
            low = name.lower() if name.isascii() else as_written(name).lower()
            key = (low, spec.lower() if spec.isascii() else as_written(spec).lower()) if spec else low
            given = groups.get(key)
            calc: dict[str, Any]
            if given is not None:
                if base + given != level:
                    self.note(
                        f"/skills/{index}/level",
                        "differs",
                        f"'{skill['name'][:60]}' is listed twice; GCS gives both the same skill bonuses, so "
                        "this "
                        f"one is {plain(base + given)} in GCS, not {level}.",
                    )
                calc = _skill_calc(base + given, attribute, value)
            else:
                needed = groups[key] = level - base
                if needed or "bonuses" in skill:
                    self._skill_bonuses(skill, f"/skills/{index}", name, spec, needed)
                if level <= 0 or type(level) is not int or type(value) is not int:
                    calc = _skill_calc(level, attribute, value)
                else:
                    relative = level - value
                    calc = {
                        "level": level,
                        "rsl": ATTRIBUTE_NAMES[attribute]
                        + (
                            _SIGNED[relative + _SIGNED_LOW]
                            if -_SIGNED_LOW <= relative < _SIGNED_LOW
                            else f"{relative:+d}"
                        ),
                    }
            notes = skill.get("notes")
            if notes or spec or tech_level is not None:
                node: dict[str, Any] = {"id": ident, "name": name}
                if notes:
                    node["local_notes"] = notes
                if spec:
                    node["specialization"] = spec
                node["difficulty"] = f"{attribute}/{difficulty}"
                if tech_level is not None:
                    node["tech_level"] = tech_level
                node["weapons"] = []
                node["features"] = []
                node["points"] = shown
                node["calc"] = calc
                nodes.append(node)
            else:  # the usual skill, made at once (the same keys in GCS's order)
                nodes.append(
                    {
                        "id": ident,
                        "name": name,
                        "difficulty": f"{attribute}/{difficulty}",
                        "weapons": [],
                        "features": [],
                        "points": shown,
                        "calc": calc,
                    }
                )

    def _skill_bonuses(
        self, skill: Mapping[str, Any], pointer: str, name: str, spec: str | None, needed: float
    ) -> float:
        """Skill-bonus features giving the skill ``needed`` levels beyond its attribute and
        points: the document's named bonuses on their traits, and the rest on the adjustments."""
        given = 0
        for position, bonus in enumerate(skill.get("bonuses", ())):
            amount = int(bonus["amount"])
            named = bonus["name"]
            if type(named) is not str or named.strip() != named:
                named = self.name(named, f"{pointer}/bonuses/{position}/name", "bonus")
            # holder()'s look-up first: its pointer is made only for a new trait (and its note)
            holder = self.trait_by_name.get(named) or self.item_by_name.get(named)
            if holder is None:
                holder = self.holder(named, f"{pointer}/bonuses/{position}")
            holder["features"].append(_skill_bonus(name, spec, amount))
            given += amount
        rest = needed - given
        if rest:
            self.adjust(
                _skill_bonus(name, spec, rest),
                f"{signed(int(rest))} to {skill['name']}: its level departs from its attribute and points",
            )
            self.note(
                f"{pointer}/level",
                "deviation",
                f"'{skill['name'][:60]}' is {skill['level']}, {signed(int(rest))} beyond what its "
                "attribute, points and "
                f"named bonuses give by the rules{self.why(pointer + '/level')}: in GCS a skill bonus on "
                f"'{ADJUSTMENTS}' "
                "gives it.",
            )
        return needed

    def _body(self) -> RawJson:
        entries = self.doc.get("damageResistance")  # a valid document's entries are objects
        if not entries:
            return _BARE_BODY
        by_id: dict[str, tuple[int, Mapping[str, Any]]] = {}
        for index, entry in enumerate(entries):
            ident = entry.get("locationId")
            if ident is None:
                self.note(
                    f"/damageResistance/{index}",
                    "notCarried",
                    f"The DR of '{text_of(entry.get('location'))[:60]}' is on no location of GCS's humanoid "
                    "body: "
                    "it is not in the file.",
                )
            elif ident in by_id:
                self.note(
                    f"/damageResistance/{index}",
                    "notCarried",
                    f"A second DR entry for '{ident}': the rules read the first, and so does the file.",
                )
            else:
                by_id[ident] = (index, entry)
        covered: dict[int, tuple[int, list[str]]] = {}
        """The entries that give a location DR: each one's DR and the locations it covers."""
        for place_id, covers in _BODY_COVER:
            for place in covers:
                found = by_id.get(place)
                if found is not None:
                    index, entry = found
                    dr = entry["dr"]
                    if type(dr) is not int or not -LIMIT <= dr <= LIMIT:
                        dr = int(self.bounded(dr, f"/damageResistance/{index}/dr", "DR"))
                    if dr:
                        held = covered.get(index)
                        if held is None:
                            covered[index] = (dr, [place_id])
                        else:
                            held[1].append(place_id)
                    break
        if not covered:
            return _BARE_BODY  # the body's text with every DR the location's own
        texts = list(_BODY_TEXTS)
        for index, (dr, places_covered) in covered.items():
            feature = {"type": "dr_bonus", "locations": places_covered, "amount": dr}
            label = entries[index].get("notes")
            label = label.strip() if label else ""
            holder = self.item_by_name.get(label) or self.trait_by_name.get(label) if label else None
            if holder is not None:
                holder["features"].append(feature)
            else:
                where = ", ".join(places_covered)
                self.adjust(feature, f"DR {dr} on {where}" + (f": {label}" if label else ""))
            for place_id in places_covered:
                for slot, own, after in _BODY_PLACE_SLOTS[place_id]:
                    texts[slot] = str(own + dr) + after
        return RawJson("".join(texts))  # humanoid_body_text of these DRs

    def _reactions(self) -> None:
        trait_by_name = self.trait_by_name
        for index, reaction in enumerate(self.doc.get("reactionModifiers", ())):
            description = reaction["description"].strip()  # required text
            amount = reaction.get("modifier")
            if amount is None:
                amount = 0
            elif type(amount) is not int or not -LIMIT <= amount <= LIMIT:
                amount = int(self.bounded(amount, f"/reactionModifiers/{index}/modifier", "Reaction"))
            holder = trait_by_name.get(description)
            if holder is not None:
                holder["features"].append({"type": "reaction_bonus", "amount": amount})
            else:
                self.adjust(
                    {"type": "reaction_bonus", "situation": description or "reactions", "amount": amount},
                    f"{amount:+d} reactions: {description}",  # signed(amount)
                )

    def _profile(self) -> dict[str, Any]:
        profile = self.doc["profile"]  # required, with its name; its other texts are text
        out: dict[str, Any] = {"name": profile["name"]}
        age = profile.get("age")
        if age:
            out["age"] = age
        height = profile.get("height")
        if height and height.strip():
            converted = _feet_and_inches(height)
            if converted is None:
                self.note(
                    "/profile/height",
                    "notCarried",
                    f"GCS writes heights in feet and inches: '{height[:40]}' is not one it can hold.",
                )
            else:
                out["height"] = converted
                if converted != height:
                    self.note(
                        "/profile/height",
                        "approximated",
                        f"Height {height} is {converted} (2.5 cm to the inch, as GCS converts).",
                    )
        weight = profile.get("weight")
        if weight and weight.strip():
            converted = _pounds(weight)
            if converted is None:
                self.note(
                    "/profile/weight",
                    "notCarried",
                    f"GCS writes weights in pounds: '{weight[:40]}' is not one it can hold.",
                )
            else:
                out["weight"] = converted
                if converted != weight:
                    self.note(
                        "/profile/weight",
                        "approximated",
                        f"Weight {weight} is {converted} (2 lb to the kg, as GCS converts).",
                    )
        player = profile.get("player")
        if player:
            out["player_name"] = player
        level = self.doc.get("techLevel", _EMPTY).get("level")
        if type(level) is int or (isinstance(level, int) and not isinstance(level, bool)):
            out["tech_level"] = str(level)
        size = profile.get("sizeModifier")
        if size:  # none or 0: no SM, as bounded() reads them
            if type(size) is not int or not -LIMIT <= size <= LIMIT:
                size = int(self.bounded(size, "/profile/sizeModifier", "Size modifier"))
            if size:
                out["SM"] = size
        return out

    def _notes(self) -> list[dict[str, Any]]:
        found = []
        appearance = self.doc["profile"].get("appearance")
        if appearance:
            appearance = appearance.strip()
            if appearance:
                found.append({"id": self.ids.new("note"), "markdown": "Appearance: " + appearance})
                self.note(
                    "/profile/appearance",
                    "approximated",
                    "GCS's profile has no appearance text: it is the first note.",
                )
        texts = self.doc.get("notes")
        if texts:
            new_id = self.ids.new
            for text in texts:
                if text:  # a valid document's notes are text
                    found.append({"id": new_id("note"), "markdown": text})
        return found

    def _not_carried(self) -> None:
        extensions = self.doc.get("extensions")
        if isinstance(extensions, Mapping) and extensions:
            self.note(
                "/extensions",
                "notCarried",
                f"The document's extensions ({', '.join(sorted(extensions)[:5])}) have no place in a GCS "
                "file.",
            )


def _comprehension(ident: str, label: str, level: str, cost: int) -> dict[str, Any]:
    """A language's ``Spoken`` or ``Written`` modifier at a comprehension level (one of the
    schema's four) costing ``cost``."""
    if cost:
        return {
            "id": ident,
            "name": label,
            "local_notes": _COMPREHENSION_TEXT[level],
            "cost_adj": _COST_ADJUSTMENT[cost],
        }
    return {"id": ident, "name": label, "local_notes": _COMPREHENSION_TEXT[level]}


def _body_parts() -> tuple[str, tuple[tuple[str, int, str], ...]]:
    """:func:`~..format.standard_sheet.humanoid_body_text` cut around its DRs: the text before the first,
    and each location's id, own DR and the text after its DR (joined, they cost less than a
    format of the whole text)."""
    marks = [_DR_MARK + index for index in range(len(HUMANOID))]
    rest = str(humanoid_body_text(marks))
    pieces = []
    for mark in marks:
        before, found, rest = rest.partition(str(mark))
        if not found or str(mark) in rest:
            raise AssertionError("every location's DR is in the body's text once")  # pragma: no cover
        pieces.append(before)
    slots = tuple(
        (ident, own, after) for (ident, *_, own), after in zip(HUMANOID, [*pieces[1:], rest], strict=True)
    )
    return pieces[0], slots


_DR_MARK: Final = 7_390_123_456_000
"""Numbers no body text has but in the places of its DRs."""
_BODY_HEAD, _BODY_SLOTS = _body_parts()
_BARE_BODY: Final = humanoid_body_text([own for *_, own in HUMANOID])
"""The body with no DR but the locations' own."""
_BODY_TEXTS: Final = (_BODY_HEAD, *(str(own) + after for _, own, after in _BODY_SLOTS))
"""The body's text in pieces: the text before the first DR, then each location's own DR with the
text after it (:data:`_BARE_BODY` joined); a location with armor gets its piece made again."""
_BODY_PLACE_SLOTS: Final = {
    place_id: tuple(
        (slot, own, after)
        for slot, (ident, own, after) in enumerate(_BODY_SLOTS, start=1)
        if ident == place_id
    )
    for place_id in _BODY_ORDER
}
"""Each location's pieces in :data:`_BODY_TEXTS` (an arm's and a leg's two, one per side), with
the location's own DR and the text after it."""


def _skill_calc(level: float, attribute: str, value: float) -> dict[str, Any]:
    """A skill's ``calc``: its level and relative level (``DX+1``); GCS writes none at level 0 or below."""
    if level <= 0:
        return {}
    return {"level": plain(level), "rsl": f"{ATTRIBUTE_NAMES[attribute]}{signed(int(level - value))}"}


def _skill_bonus(name: str, spec: str | None, amount: float) -> dict[str, Any]:
    """A ``skill_bonus`` for exactly one skill name and specialization."""
    return {
        "type": "skill_bonus",
        "selection_type": "skills_with_name",
        "name": {"compare": "is", "qualifier": name},
        "specialization": {"compare": "is", "qualifier": spec} if spec else {"compare": "is"},
        "amount": plain(amount),
    }


def split_skill_name(full: str) -> tuple[str, str | None, str | None]:
    """A document skill name as GCS's name, specialization and tech level (``Guns/TL8
    (Pistol)``), when GCS writes them back as the same text; else the whole name."""
    if "/TL" in full:
        return _split_by_pattern(full)
    # no tech level: at most a specialization, in the parentheses the name ends with
    if full.endswith(")"):
        opening = full.rfind("(")
        if opening > 1 and full[opening - 1] == " ":
            name, spec = full[: opening - 1], full[opening + 1 : -1]
            fits = spec and ")" not in spec and "\n" not in name  # the pattern's parts
            if fits and name == name.strip() and spec == spec.strip():
                return name, spec, None
    return full, None, None  # as _split_by_pattern gives it (a test checks them against each other)


def _split_by_pattern(full: str) -> tuple[str, str | None, str | None]:
    """:func:`split_skill_name` by :data:`_SKILL_NAME` (the pattern's name, ``.+?``, has no line
    break; its specialization has no parentheses and is not empty)."""
    match = _SKILL_NAME.fullmatch(full)
    if match:
        name, tech_level, spec = match.group("name"), match.group("tl"), match.group("spec")
        rebuilt = (
            name + (f"/TL{tech_level}" if tech_level is not None else "") + (f" ({spec})" if spec else "")
        )
        if rebuilt == full and name == name.strip() and (spec is None or spec == spec.strip()):
            return name, spec, tech_level
    return full, None, None


def _feet_and_inches(height: str) -> str | None:
    """A height as GCS writes it (``5'8"``): metric converted at 2.5 cm to the inch."""
    imperial = _FEET_INCHES.fullmatch(height) if "'" in height else None  # feet are marked with '
    if imperial is not None:
        inches = round(float(imperial.group(1)) * 12 + float(imperial.group(2) or 0), 1)
    else:
        match = _METRIC_LENGTH.fullmatch(height)
        if match is None:
            return None
        amount = float(match.group(1).replace(",", "."))
        centimetres = amount * 100 if match.group(2).lower() == "m" else amount
        inches = round(centimetres / 2.5, 1)
    feet, rest = divmod(inches, 12)
    rest = round(rest, 1)  # plain() of it is itself (to 4 decimals already), or its int when whole
    if not rest:
        return f"{int(feet)}'"
    return f"{int(feet)}'{int(rest) if rest.is_integer() else rest}\""


def _pounds(weight: str) -> str | None:
    """A weight as GCS writes it (``128 lb``): kilograms at 2 lb each."""
    match = _WEIGHT.fullmatch(weight)
    if match is None:
        return None
    amount = float(match.group(1).replace(",", "."))
    pounds = amount * 2 if match.group(2).lower() == "kg" else amount
    return f"{fxp_text(pounds)} lb"


def _decimal(value: float) -> str:
    """A quantity as GCS shows it, and the importer names a stack with it (``20``, ``0.5``)."""
    return f"{value:.4f}".rstrip("0").rstrip(".")
