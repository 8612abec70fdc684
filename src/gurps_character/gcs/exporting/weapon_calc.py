"""Each exported weapon's computed values, as GCS fills its ``calc`` block: its level (less a
minimum ST above the wielder's and a fencing parry's encumbrance), its resolved damage and a
muscle-powered range in yards; and where GCS's thrust or swing is not the document's, or GCS
would cap the damage at three times the minimum ST, the damage made to give the document's.
"""

from __future__ import annotations

import math
import re
from types import MappingProxyType
from typing import Any, Final

from .damage_fields import _recipe_text, _resolved_damage
from .sheet import (
    Derived,
    dice_text,
    order_damage,
    plain,
    signed,
)
from .weapons import WeaponsPart

__all__ = ["WeaponCalcPart"]


_BASE_NAMES: Final = MappingProxyType({"thr": "thrust", "sw": "swing"})
"""The document's names of GCS's ``st`` bases."""


class WeaponCalcPart(WeaponsPart):
    """The weapons' computed values, and their damage made the document's."""

    def _weapon_details(self, derived: Derived) -> None:
        """Each weapon's computed values (level, resolved damage, parry) and the document's
        thrust or swing difference carried in its damage."""
        modes = self._modes
        if not modes:
            return
        st = self.values["st"]
        striking = st + derived.striking
        encumbrance: int | None = None  # worked out for the first fencing parry: most have none
        shift = derived.shift
        shifted = bool(shift)
        thrust = derived.thrust
        swing = derived.swing
        bases = self.defense_bases
        levels: dict[str | None, float] = {}  # a skill's level read once (a note on it is made once anyway)
        for node, skill, index, line, minimum, parried, recipe in modes:
            level = levels.get(skill)
            if level is None:
                level = levels[skill] = self._skill_level(skill)
            if minimum is not None and minimum > striking:
                level -= minimum - striking
            if parried is not None and "F" in parried[1]:  # a fencing parry loses the encumbrance level
                if encumbrance is None:
                    encumbrance = self.encumbrance_level(derived.lift_pounds)
                penalty = encumbrance
            else:
                penalty = 0
            # GCS's parry and block halve the default's level before the fencing penalty and
            # the floor at 0 (truncating toward zero)
            bases.append(3 + math.trunc(level / 2) - penalty)
            level -= penalty
            if level < 0:
                level = 0
            if shifted and _BASE_NAMES.get(node["damage"].get("st", "")) in shift:  # (_shift_damage's test)
                self._shift_damage(node, _mode_pointer(index, line), derived)
                recipe = None  # (the damage may be another now)
            if minimum is not None and minimum > 0 and 3 * minimum < striking:  # (_uncap_damage's test)
                self._uncap_damage(node, _mode_pointer(index, line), minimum, striking)
            calc: dict[str, Any] = {}
            if level:
                calc["level"] = level if type(level) is int else plain(level)
            if recipe is None:
                resolved = _resolved_damage(node["damage"], {"thr": thrust, "sw": swing})
                if resolved:
                    calc["damage"] = resolved
            else:
                calc["damage"] = _recipe_text(recipe, thrust, swing)
            if line < 0:  # a ranged weapon's muscle-powered range
                reach = node.get("range")
                if reach and isinstance(reach, str):
                    muscle = _muscle_range(reach, st)
                    if muscle:
                        calc["range"] = muscle
            if calc or parried is not None:  # (GCS leaves an empty calc out; a parry may fill this one)
                node["calc"] = calc

    def _uncap_damage(self, node: dict[str, Any], pointer: str, minimum: int | None, striking: float) -> None:
        """GCS figures a weapon's thrust or swing at no more than 3 times its minimum ST; where the
        wielder's ST is above that, the minimum is left out, so GCS deals the document's damage."""
        if minimum is None or minimum <= 0 or striking <= 3 * minimum:
            return
        if node["damage"].get("st") not in ("thr", "sw"):
            return
        del node["strength"]
        self.note(
            f"{pointer}/minST",
            "notCarried",
            f"The minimum ST {minimum} is not in the file: GCS would figure the damage at ST "
            f"{3 * minimum} at most (3 times the minimum), where the document figures it at the "
            f"wielder's ST {plain(striking)}.",
        )

    def _shift_damage(self, node: dict[str, Any], pointer: str, derived: Derived) -> None:
        damage = node["damage"]
        base = _BASE_NAMES.get(damage.get("st", ""))
        if base is None or base not in derived.shift:
            return
        want, got = derived.shift[base], derived.thrust if base == "thrust" else derived.swing
        adds = int(damage.get("base", "0") or 0)
        if want[0] == got[0]:
            adds += want[1] - got[1]
            damage.pop("base", None)
            if adds:
                damage["base"] = str(adds)
            if "armor_divisor" in damage:  # the one key GCS writes after the base
                order_damage(damage)
            self.note(
                pointer,
                "approximated",
                f"In GCS this damage is {damage.get('st')}{signed(adds) if adds else ''}: the document's "
                f"{base} "
                f"{dice_text(*want)} is not GCS's {dice_text(*got)}.",
            )
            return
        fixed = dice_text(want[0], want[1] + adds)
        damage.pop("st", None)
        damage["base"] = fixed
        if "armor_divisor" in damage:
            order_damage(damage)
        self.note(
            pointer,
            "approximated",
            f"In GCS this damage is a fixed {fixed}: the document's {base} {dice_text(*want)} is not GCS's "
            f"{dice_text(*got)}, so it no longer follows ST in GCS.",
        )


def _mode_pointer(index: int, line: int) -> str:
    """The document's pointer of a weapon mode (:data:`_Mode`'s index and line)."""
    return f"/weapons/ranged/{index}" if line < 0 else f"/weapons/melee/{index}/damage/{line}"


_MUSCLE_RANGE: Final = re.compile(r"\s*x(\d+(?:\.\d+)?)\s*(?:/\s*x(\d+(?:\.\d+)?))?\s*", re.IGNORECASE)
_MULTIPLES: Final = (
    "0.2", "0.5", "1", "1.5", "2", "2.5", "3", "4", "5", "10", "12", "15", "16", "20", "25", "30",
)  # fmt: skip
"""The usual multiples of ST in a muscle-powered range (``x1/x1.5``)."""
_MUSCLE_FACTORS: Final = MappingProxyType(
    {f"x{near}": (float(near), None) for near in _MULTIPLES}
    | {f"x{near}/x{far}": (float(near), float(far)) for near in _MULTIPLES for far in _MULTIPLES}
)
"""The usual muscle-powered ranges' multiples of ST, as :data:`_MUSCLE_RANGE` reads them."""


def _muscle_factors(raw: str) -> tuple[float, float | None] | None:
    """A muscle-powered range's multiples of ST (the far one None when it has one), or None
    when it is no such range."""
    factors = _MUSCLE_FACTORS.get(raw)
    if factors is not None:
        return factors
    match = _MUSCLE_RANGE.fullmatch(raw)
    if match is None:
        return None
    near, far = match.groups()
    return float(near), None if far is None else float(far)


def _muscle_range(raw: str, st: float) -> str:
    """A muscle-powered range (``x1/x1.5``, times ST) in yards as GCS resolves it (``10/15``)."""
    factors = _muscle_factors(raw)
    if factors is None or st <= 0:
        return ""
    near, far = factors
    text = str(math.trunc(near * st))
    return text if far is None else f"{text}/{math.trunc(far * st)}"
