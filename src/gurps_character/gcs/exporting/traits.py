"""The traits of an exported character in GCS's nodes: the document's traits (leveled or
not), its languages (with GCS's comprehension modifiers), its cultural familiarities and its tech
level's points as a trait; and its reaction modifiers, as features on the traits they name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from .sheet import (
    LIMIT,
    SheetBase,
    plain,
    trait_node,
)

__all__ = ["TraitsPart"]


_COMPREHENSION_COST: Final = {"none": 0, "broken": 1, "accented": 2, "native": 3}

_COMPREHENSION_TEXT: Final = {level: level.title() for level in _COMPREHENSION_COST}
_COST_ADJUSTMENT: Final = {cost: f"+{cost}" for cost in _COMPREHENSION_COST.values()}


_EMPTY: Final[MappingProxyType[str, Any]] = MappingProxyType({})
"""An object the document leaves out, read as empty (read only: no dict made for each read)."""


_TYPE_TAGS: Final = {
    "advantage": "Advantage",
    "perk": "Perk",
    "disadvantage": "Disadvantage",
    "quirk": "Quirk",
}


class TraitsPart(SheetBase):
    """Traits, languages, cultural familiarities, the tech level's points and reactions."""

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
