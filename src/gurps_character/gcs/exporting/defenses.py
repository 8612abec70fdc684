"""The Parry and Block of an exported character: GCS computes them from the weapons that can
parry (or block); the best made the document's by an attribute bonus, and, when no weapon can,
a mode that gives them (a shield's bash for Block, else one on the defense's skill).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, Final

from .sheet import (
    ADJUSTMENTS,
    LIMIT,
    WEAPON_CALC_KEYS,
    Derived,
    dice_text,
    plain,
    reordered,
    signed,
)
from .weapons import WeaponsPart

__all__ = ["DefensesPart"]


_SHIELD: Final = re.compile(r"\bshield\b", re.IGNORECASE)


class DefensesPart(WeaponsPart):
    """Parry and Block."""

    def _defense(self, key: str, derived: Derived) -> None:
        """The best parry (or block) GCS computes from the weapons, made the document's."""
        stored = _defenses(self.doc, key)
        raw = stored.get("value")
        wanted: int | None
        if type(raw) is int and -LIMIT <= raw <= LIMIT:
            wanted = raw
        else:
            wanted = (
                None if raw is None else math.floor(self.bounded(raw, f"/defenses/{key}/value", key.title()))
            )
        best: int | None = None
        able: list[tuple[dict[str, Any], int, str]] = []  # mode, defense, flags
        if key == "parry":  # (the document's weapons give no block: a block comes from _carrier)
            for (node, _, _, _, _, parried, _), base in zip(self._modes, self.defense_bases, strict=True):
                if parried is not None:
                    modifier, flags = parried
                    value = base + modifier
                    able.append((node, value, flags))
                    if best is None or value > best:
                        best = value
        bonus = 0
        if wanted is not None and wanted < 0:
            self.note(
                f"/defenses/{key}/value",
                "differs",
                f"GCS shows no {key.title()} below 0: the document's {wanted} is 0 in GCS.",
            )
            wanted = 0
        if wanted is None:
            if best is not None:
                self.note(
                    f"/defenses/{key}/value",
                    "differs",
                    f"The document has no {key.title()}, but GCS gives {best} with the weapons that can "
                    f"{key}.",
                )
        elif best is None:
            self._carrier(key, stored.get("skill"), wanted, derived)
        elif best != wanted:
            bonus = wanted - best
            self.adjust(
                {"type": "attribute_bonus", "attribute": key, "amount": bonus},
                f"{signed(bonus)} {key.title()}: the document's {key.title()} {wanted} where its best "
                f"weapon gives {best}",
            )
            derived.calc_bonuses[f"{key}_bonus"] = bonus
            derived.calc[f"{key}_bonus"] = bonus
            self.note(
                f"/defenses/{key}/value",
                "deviation",
                f"{key.title()} {wanted} where the weapons give {best}{self.why(f'/defenses/{key}/value')}: "
                "GCS adds "
                f"{signed(bonus)} {key.title()} from '{ADJUSTMENTS}'.",
            )
        for node, value, flags in able:
            text = f"{max(value + bonus, 0)}{flags}"
            calc = node["calc"]
            if text != node[key]:
                calc[key] = text
                if "range" in calc:  # the one key of _weapon_details' that GCS writes after these
                    node["calc"] = reordered(calc, WEAPON_CALC_KEYS)
            elif not calc:  # (left empty: GCS leaves it out)
                del node["calc"]

    def _carrier(self, key: str, skill: object, wanted: int, derived: Derived) -> None:
        """A weapon mode that gives the document's Parry or Block when no weapon of it does: a
        shield's bash for Block (on the document's shield, when it has one), else a mode on the
        skill the defense comes from."""
        skill_name = skill.strip() if isinstance(skill, str) else None
        if skill_name is not None and self._skill_place(skill_name) is None:
            skill_name = None
        level = self._skill_level(skill_name)
        modifier = wanted - 3 - math.trunc(level / 2)
        title = key.title()
        node: dict[str, Any] = {"id": self.ids.new("melee_weapon"), "sv": 1}
        shield = _shield(self.item_by_name) if key == "block" else None
        if shield is not None:
            node["damage"] = {"type": "cr", "st": "thr"}
            node["usage"] = usage = "Shield Bash"
            node["reach"] = "1"
            owner_name = shield["description"]
            owner = shield
        else:
            node["damage"] = {"type": ""}
            node["usage"] = usage = title
            owner = self._skill_node(skill_name) if skill_name is not None else self.adjustments_trait()
            owner_name = skill_name or ADJUSTMENTS
        node[key] = str(modifier)
        node["defaults"] = self._defaults(skill_name)
        calc: dict[str, Any] = {}
        if level > 0:
            calc["level"] = plain(max(level, 0))
        if shield is not None:  # a bash: thrust crushing (_resolved_damage's text of it)
            calc["damage"] = f"{dice_text(*derived.thrust)} cr"
        calc[key] = str(wanted)
        node["calc"] = calc
        owner["weapons"].append(node)
        self.note(
            f"/defenses/{key}/value",
            "added",
            f"GCS computes {title} from a weapon that can {key}; none of the document's does: the "
            "file gives "
            f"'{owner_name[:60]}' a '{usage}' mode with {key} {modifier}, for {title} "
            f"{wanted}.",
        )


def _shield(items: Mapping[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The first of the items (by name) whose name has the word shield, in any case."""
    for name, item in items.items():  # _names_a_shield, inline
        if name.isascii() and "shield" not in name.lower():
            continue  # (the pattern's other cases of the letters are not ASCII)
        if _SHIELD.search(name) is not None:
            return item
    return None


def _names_a_shield(name: str) -> bool:
    """Whether a name has the word shield, in any case."""
    if name.isascii() and "shield" not in name.lower():
        return False  # (the pattern's other cases of the letters are not ASCII)
    return _SHIELD.search(name) is not None


def _defenses(document: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """The document's ``/defenses/<key>`` object, or an empty one (:func:`member`'s answer)."""
    found: Any = document.get("defenses", {})
    if type(found) is dict or isinstance(found, Mapping):
        found = found.get(key, {})
        if type(found) is dict or isinstance(found, Mapping):
            return found
    return {}
