"""The values GCS derives from the attributes, for an exported character: the pools' states,
Dodge, Basic Lift (a Lifting ST bonus where the document's departs from its ST), Move and Dodge
per encumbrance level, the top-level ``calc``; each compared with the document's and noted where
they differ.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final

from ...format.progression import basic_lift_formula, basic_lift_pounds
from ..sheet import (
    ADJUSTMENTS,
    LIMIT,
    Derived,
    SheetBase,
    fxp_text,
    number,
    plain,
    signed,
    text_of,
)
from .attributes import _quarters
from .damage_table import _MOST_BONUS, _section
from .pools import _POOLS_READ, _halving, _halving_causes

__all__ = ["DerivedPart"]

_LOADS: Final = (1, 2, 3, 6, 10)


class DerivedPart(SheetBase):
    """Pool states, Dodge, Basic Lift and encumbrance."""

    def _derived(self, derived: Derived) -> None:
        self._pool_states(derived)
        self._dodge(derived)
        encumbrance = _section(self.doc, "encumbrance")
        self._lift(derived, encumbrance)
        self._encumbrance(derived, encumbrance)

    def _pool_states(self, derived: Derived) -> None:
        values = self.values
        for ident, current_key, label, thresholds in _POOLS_READ:
            maximum = values[ident]
            current = values.get(current_key, maximum)
            if maximum >= 0 and current > 0 and current > math.ceil(maximum / 3) - 1:
                continue  # in no state that halves anything (_halving's first test)
            found = _halving(thresholds, maximum, current)
            if found is not None:
                derived.halving.append((label, *found))

    def _dodge(self, derived: Derived) -> None:
        dodge = _section(self.doc, "defenses").get("dodge", {})
        if type(dodge) is not dict and not isinstance(dodge, Mapping):
            dodge = {}
        stored = dodge.get("value")
        speed = max(self.values["basic_speed"], 0)  # GCS counts no Basic Speed below 0 for Dodge
        rules = math.trunc(speed + 3)
        if type(stored) is int and -LIMIT <= stored <= LIMIT:  # the usual: its own floor
            wanted = stored
        else:
            stored = number(stored, math.nan)
            wanted = (
                math.floor(self.bounded(stored, "/defenses/dodge/value", "Dodge"))
                if not math.isnan(stored)
                else rules
            )
        bonus = wanted - rules
        if bonus:
            self.adjust(
                {"type": "attribute_bonus", "attribute": "dodge", "amount": bonus},
                f"{signed(bonus)} Dodge: the document's Dodge {wanted} where Basic Speed gives {rules}",
            )
            self.note(
                "/defenses/dodge/value",
                "deviation",
                f"Dodge {wanted} where Basic Speed gives {rules}{self.why('/defenses/dodge/value')}: GCS "
                "adds "
                f"{signed(bonus)} Dodge from '{ADJUSTMENTS}'.",
            )
            derived.calc_bonuses["dodge_bonus"] = bonus
        derived.dodge_start = speed + 3 + bonus
        derived.wanted_dodge = wanted

    def _lift(self, derived: Derived, encumbrance: Mapping[str, Any]) -> None:
        """Basic Lift as GCS has it: ST²/5 rounded in pounds (Knowing Your Own Strength's table
        under that progression), shown at 1 kg = 2 lb. A document whose Basic Lift departs from its
        ST gets the Lifting ST bonus that gives it, when one does; the pound's rounding itself is
        no deviation (ST 12 lifts 29 lb, 14.5 kg, where the format rounds to 14 kg), only noted."""
        st = int(self.values["st"])
        stored = encumbrance.get("basicLift")
        if type(stored) is not int and type(stored) is not float:
            stored = number(stored, math.nan)
        halved = bool(derived.halving) and any("halve_st" in ops for _, _, ops in derived.halving)
        pounds: float = 0
        kg: float = 0
        if not halved:  # GCS's Basic Lift at the character's ST
            pounds = basic_lift_pounds(st, derived.progression)
            kg = (pounds / 2 if pounds % 2 else pounds // 2) if type(pounds) is int else _kg(pounds)
            if kg == stored:  # the usual: the document's; no Lifting ST bonus, nothing to note (as below)
                derived.lift_pounds, derived.lift_kg = pounds, kg
                return
        formula = basic_lift_formula(st)
        wanted = formula if math.isnan(stored) else stored
        progression = derived.progression
        bonus = 0
        if wanted != formula and (_lift_kg(st, 0, progression) if halved else kg) != wanted:
            found = next((b for b in _near_zero(st) if _lift_kg(st, b, progression) == wanted), None)
            if found is not None:
                bonus = found
                self.adjust(
                    {
                        "type": "attribute_bonus",
                        "limitation": "lifting_only",
                        "attribute": "st",
                        "amount": bonus,
                    },
                    f"{signed(bonus)} Lifting ST: the document's Basic Lift {plain(wanted)} kg",
                )
                derived.calc_bonuses["lifting_st_bonus"] = bonus
                self.note(
                    "/encumbrance/basicLift",
                    "deviation",
                    f"Basic Lift {plain(wanted)} kg at ST {st}{self.why('/encumbrance/basicLift')}: GCS "
                    f"adds Lifting ST {signed(bonus)} from '{ADJUSTMENTS}'.",
                )
        lifting = st + bonus
        if halved or bonus:  # else GCS's pounds and kg at the character's ST, as found above
            if halved:
                lifting = math.ceil(lifting / 2)
            pounds = basic_lift_pounds(lifting, progression)
            # whole pounds are whole or half kg, as plain(round(...)) gives them
            kg = (pounds / 2 if pounds % 2 else pounds // 2) if type(pounds) is int else _kg(pounds)
        derived.lift_pounds, derived.lift_kg = pounds, kg
        if kg == wanted:
            return
        if halved:
            cause = (
                f"GCS halves ST for Basic Lift while {_halving_causes(derived, 'halve_st')} (B426): "
                f"{fxp_text(derived.lift_pounds)} lb"
            )
        elif wanted == formula:
            cause = f"GCS rounds Basic Lift in pounds: {fxp_text(derived.lift_pounds)} lb at ST {lifting}"
        else:
            cause = (
                f"no lifting ST gives it in GCS, which lifts {fxp_text(derived.lift_pounds)} lb at ST {st}"
            )
        self.note(  # the kg are as plain() writes them
            "/encumbrance/basicLift",
            "differs",
            f"GCS shows Basic Lift {derived.lift_kg} kg, the document {plain(wanted)} kg: {cause}, "
            "at 1 kg = 2 lb.",
        )

    def _encumbrance(self, derived: Derived, encumbrance: Mapping[str, Any]) -> None:
        halving = derived.halving
        move_halvings = min(sum("halve_move" in ops for _, _, ops in halving), 2) if halving else 0
        dodge_halvings = min(sum("halve_dodge" in ops for _, _, ops in halving), 2) if halving else 0
        basic_move = max(self.values["basic_move"], 0)
        move_base = math.ceil(basic_move / (2 * move_halvings)) if move_halvings else basic_move
        dodge_base = (
            math.ceil(derived.dodge_start / (2 * dodge_halvings)) if dodge_halvings else derived.dodge_start
        )
        moves, dodges = _moves_and_dodges(move_base, dodge_base)
        if dodges[0] != derived.wanted_dodge:
            self.note(
                "/defenses/dodge/value",
                "differs",
                f"GCS shows Dodge {dodges[0]}, the document {derived.wanted_dodge}: "
                + (
                    f"GCS halves Dodge while {_halving_causes(derived, 'halve_dodge')} (B419, B426)"
                    if dodge_halvings
                    else "GCS's Dodge is at least 1"
                )
                + ".",
            )
        lift_pounds = derived.lift_pounds
        whole_pounds = type(lift_pounds) is int
        for index, entry in enumerate(encumbrance.get("levels", [])):
            if type(entry) is dict or isinstance(entry, Mapping):
                found = entry.get("level")
            else:
                continue
            if type(found) is int and 0 <= found <= 4:
                level = found
            elif found not in (0, 1, 2, 3, 4) or isinstance(found, bool):
                continue
            else:
                level = int(found)
            # whole pounds: the load is exact in halves, as plain(round(..., 6)) has it
            load = (
                lift_pounds * _LOADS[level] / 2
                if whole_pounds
                else plain(round(lift_pounds * _LOADS[level] / 2, 6))
            )
            move, dodge = moves[level], dodges[level]
            if entry.get("move") == move and entry.get("dodge") == dodge and entry.get("maxLoad") == load:
                continue  # the usual: nothing to note
            shown_load = _quarters(load) if whole_pounds else load  # plain(load): it is in halves, or plain
            for key, got, got_shown in (
                ("move", move, move),
                ("dodge", dodge, dodge),
                ("maxLoad", load, shown_load),
            ):
                stored: Any = entry.get(key)
                kind = type(stored)
                if stored != got and (
                    kind is int or kind is float or (isinstance(stored, int | float) and kind is not bool)
                ):
                    why = (
                        self._move_cause(move_halvings, derived)
                        if key == "move"
                        else self._dodge_cause(dodge_halvings, derived)
                        if key == "dodge"
                        else "GCS's loads are its Basic Lift in pounds times 1, 2, 3, 6 and 10"
                    )
                    self.note(
                        f"/encumbrance/levels/{index}/{key}",
                        "differs",
                        f"GCS shows {got_shown} at encumbrance level {level}, the document "
                        f"{stored if kind is int else plain(stored)}: {why}.",
                    )
        calc = derived.calc  # its thrust and swing are in since _damage_table
        shown = f"{lift_pounds:,}" if type(lift_pounds) is int else fxp_text(lift_pounds)  # as fxp_text
        calc["basic_lift"] = f"{shown} lb"
        bonuses = derived.calc_bonuses
        if bonuses:
            for key in _CALC_BONUSES:
                if bonuses.get(key):
                    calc[key] = bonuses[key]
        calc["move"] = moves
        calc["dodge"] = dodges

    def _move_cause(self, halvings: int, derived: Derived) -> str:
        if halvings:
            return f"GCS halves Move while {_halving_causes(derived, 'halve_move')} (B419, B426)"
        return (
            "GCS's Move is Basic Move times 1, 0.8, 0.6, 0.4 and 0.2, at least 1 while Basic Move is above 0"
        )

    def _dodge_cause(self, halvings: int, derived: Derived) -> str:
        if halvings:
            return f"GCS halves Dodge while {_halving_causes(derived, 'halve_dodge')} (B419, B426)"
        return "GCS's Dodge is Dodge less the level, at least 1"

    def encumbrance_level(self, lift_pounds: float) -> int:
        """The encumbrance level of the items carried with a Basic Lift of ``lift_pounds``,
        asked for by a weapon's fencing parry (the only thing in the file it changes)."""
        equipment = self.equipment
        carried = _carried_pounds(equipment) if equipment else 0
        if carried <= lift_pounds:
            return 0
        for level, factor in enumerate(_LOADS):
            if carried <= lift_pounds * factor:
                return level
        return 4


def _moves_and_dodges(move_base: float, dodge_base: float) -> tuple[list[int], list[int]]:
    """GCS's Move and Dodge at each encumbrance level from Move's base (not below 0) and Dodge's:
    Move times 1, 0.8, 0.6, 0.4 and 0.2, at least 1 while the base is above 0; Dodge less the
    level, at least 1."""
    floor, trunc = math.floor, math.trunc
    moves = [
        floor(move_base * 10 / 10),
        floor(move_base * 8 / 10),
        floor(move_base * 6 / 10),
        floor(move_base * 4 / 10),
        floor(move_base * 2 / 10),
    ]
    dodges = [
        trunc(dodge_base),
        trunc(dodge_base - 1),
        trunc(dodge_base - 2),
        trunc(dodge_base - 3),
        trunc(dodge_base - 4),
    ]
    least_move = 1 if move_base > 0 else 0
    if moves[4] < least_move or dodges[4] < 1:  # both never rise with the level: the last is least
        for level in range(5):
            if moves[level] < least_move:
                moves[level] = least_move
            if dodges[level] < 1:
                dodges[level] = 1
    return moves, dodges


_CALC_BONUSES: Final = (
    "lifting_st_bonus",
    "striking_st_bonus",
    "throwing_st_bonus",
    "dodge_bonus",
    "parry_bonus",
    "block_bonus",
)
"""The bonuses of the file's ``calc`` in GCS's order (written when not 0)."""


def _near_zero(st: int) -> list[int]:
    """ST bonuses to try, smallest first: ±1 .. ±200 (never taking ST below 0)."""
    found = []
    for step in range(1, _MOST_BONUS + 1):
        found.append(step)
        if st - step >= 0:
            found.append(-step)
    return found


def _lift_kg(st: int, bonus: int, progression: str) -> float:
    """GCS's Basic Lift in kg (its pounds at 1 kg = 2 lb) for Lifting ST ``st + bonus``."""
    return _kg(basic_lift_pounds(st + bonus, progression))


def _kg(pounds: float) -> float:
    """Pounds as kg at GCS's 1 kg = 2 lb, as GCS writes them."""
    return plain(round(pounds / 2, 6))


def _carried_pounds(equipment: list[dict[str, Any]]) -> float:
    """The items' weights (``calc.extended_weight``) in pounds: the sum of :func:`_weight_pounds`'s."""
    try:  # the usual: each item's weight as the export writes it, in pounds below 1,000
        return sum([float(node["calc"]["extended_weight"].removesuffix(" lb")) for node in equipment])
    except (AttributeError, KeyError, TypeError, ValueError):  # a thousands separator, or no text
        return sum(_weight_pounds(node) for node in equipment)


def _weight_pounds(node: Mapping[str, Any]) -> float:
    text = text_of(node.get("calc", {}).get("extended_weight")).removesuffix(" lb").replace(",", "")
    try:
        return float(text)
    except ValueError:
        return 0
