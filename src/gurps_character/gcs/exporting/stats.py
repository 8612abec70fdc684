"""GCS's attributes and the values derived from them, for an exported character: levels bought
(``adj``) and the bonuses that give the document's values; Dodge, Basic Lift, thrust and swing,
Move and Dodge per encumbrance level, as GCS computes them; the points spent.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Mapping
from typing import Any, Final, NamedTuple

from ..format.json_text import RawJson
from ..format.progression import Table, basic_lift_formula, basic_lift_pounds, damage_tables, swing, thrust
from ..format.standard_sheet import (
    ATTRIBUTE_DEFINITIONS,
    ATTRIBUTE_NAMES,
    POOL_THRESHOLDS,
    standard_attributes_text,
)
from .sheet import (
    ADJUSTMENTS,
    LIMIT,
    Derived,
    SheetBase,
    dice_text,
    fxp_text,
    number,
    plain,
    signed,
    signed_number,
    text_of,
)

__all__ = ["StatsPart"]

_CORE: Final = {
    "st": ("/attributes/st", 10),
    "dx": ("/attributes/dx", 20),
    "iq": ("/attributes/iq", 20),
    "ht": ("/attributes/ht", 10),
    "will": ("/secondary/will", 5),
    "per": ("/secondary/per", 5),
    "hp": ("/secondary/hp", 2),
    "fp": ("/secondary/fp", 3),
    "basic_speed": ("/secondary/basicSpeed", 20),
    "basic_move": ("/secondary/basicMove", 5),
}
"""GCS attribute id → the document's place and the points per level."""

_SIZE_DISCOUNT: Final = ("st", "hp")

_LOADS: Final = (1, 2, 3, 6, 10)

_EXTRA_SOURCES: Final = {
    "fright_check": "will",
    "vision": "per",
    "hearing": "per",
    "taste_smell": "per",
    "touch": "per",
}
"""GCS's attributes the document has no place for → the attribute whose value they take."""


class _Attribute(NamedTuple):
    """What an export needs of one attribute the document has, made once."""

    ident: str
    pointer: str
    cost: int
    label: str
    followers: int
    """How many of GCS's own attributes follow it in the file, taking its value (see
    :data:`_EXTRA_SOURCES`)."""
    current: str | None
    """A pool's key in ``values`` for its current value (None: no pool)."""


def _attributes_in_file_order() -> tuple[_Attribute, ...]:
    found: list[_Attribute] = []
    for ident in ATTRIBUTE_DEFINITIONS:
        if ident in _CORE:
            pointer, cost = _CORE[ident]
            current = f"{ident}_current" if ident in _POOLS else None
            found.append(_Attribute(ident, pointer, cost, ATTRIBUTE_NAMES[ident], 0, current))
        elif found and found[-1].ident == _EXTRA_SOURCES[ident]:
            found[-1] = found[-1]._replace(followers=found[-1].followers + 1)
        else:  # pragma: no cover - the standard set lists each right after its source
            raise AssertionError(f"{ident} does not follow the attribute it takes its value from")
    return tuple(found)


_POOLS: Final = frozenset(("hp", "fp"))

_ATTRIBUTES: Final = _attributes_in_file_order()
"""The attributes the document has, in the file's order (which
:meth:`StatsPart._read_values` keeps them in too)."""

_VALUE_PLACES: Final = tuple(
    (ident, [attribute.ident for attribute in _ATTRIBUTES].index(ident), f"{_CORE[ident][0]}/value", label)
    for ident, label in (
        ("st", "ST"),
        ("dx", "DX"),
        ("iq", "IQ"),
        ("ht", "HT"),
        ("hp", "HP"),
        ("will", "Will"),
        ("per", "Per"),
        ("fp", "FP"),
        ("basic_move", "Basic Move"),
    )
)
"""The whole-numbered values read from the document, in the order read (their notes' order): id,
place in :attr:`StatsPart.stored_attributes`, pointer and label."""


def _section(document: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """The object at ``document[key]``, or an empty one (as :func:`member` reads it)."""
    found = document.get(key, {})
    return found if type(found) is dict or isinstance(found, Mapping) else {}


class StatsPart(SheetBase):
    """Attributes, derived values and points."""

    stored_attributes: tuple[Mapping[str, Any], ...]
    """The document's entries of :data:`_ATTRIBUTES`, in that order (read once)."""

    def _read_values(self) -> None:
        doc = self.doc
        values = self.values
        attributes, secondary = doc["attributes"], doc["secondary"]
        stored = self.stored_attributes = (  # in the order of _ATTRIBUTES
            attributes["st"],
            attributes["dx"],
            attributes["iq"],
            attributes["ht"],
            secondary["will"],
            secondary["per"],
            secondary["basicSpeed"],
            secondary["basicMove"],
            secondary["fp"],
            secondary["hp"],
        )
        floor = math.floor
        for ident, index, pointer, label in _VALUE_PLACES:
            value = stored[index].get("value")
            kind = type(value)
            if kind is int and -LIMIT <= value <= LIMIT:
                values[ident] = value  # the usual: a whole number, its own floor
                continue
            if not (kind is float and -LIMIT <= value <= LIMIT):
                value = self.bounded(value, pointer, label)
            values[ident] = floor(value)
        speed = stored[6].get("value")
        kind = type(speed)
        if not ((kind is float or kind is int) and -LIMIT <= speed <= LIMIT):
            speed = self.bounded(speed, "/secondary/basicSpeed/value", "Basic Speed")
        values["basic_speed"] = floor(speed * 4) / 4

    def _attributes(self, progression: str) -> RawJson:
        values = self.values
        stored_size = self.doc.get("profile", {}).get("sizeModifier")
        size = (
            stored_size
            if type(stored_size) is int and -LIMIT <= stored_size <= LIMIT
            else self.bounded(stored_size, "/profile/sizeModifier", "Size modifier")
        )
        st, dx, iq, ht, speed = values["st"], values["dx"], values["iq"], values["ht"], values["basic_speed"]
        bases = (10, 10, 10, 10, iq, iq, (dx + ht) / 4, math.floor(speed), ht, st)  # as _ATTRIBUTES
        spent = self.attribute_points
        discounted = _SIZE_DISCOUNT if size > 0 else ()
        low, high = -LIMIT, LIMIT
        numbers: list[float] = []  # the entries' numbers in the order they are written
        damaged_fp = damaged_hp = False
        # the entries are mappings: _read_values has read them
        for (ident, pointer, cost, label, followers, current_key), stored, base in zip(
            _ATTRIBUTES, self.stored_attributes, bases, strict=True
        ):
            points: Any = stored.get("points")
            if type(points) is not int or not low <= points <= high:  # else within the bounds
                points = self.bounded(points, f"{pointer}/points", "Points")
            value = values[ident]
            adj = value - base  # every level bought, when the points pay for them (see _levels)
            if "costModifiers" in stored or ident in discounted:
                reduction = self._reductions(ident, stored, pointer, size, progression)
                gcs_points = _attribute_cost(adj, cost, reduction)
            else:  # no reduction: what _reductions gives without modifiers or size discount
                reduction = 0.0
                gcs_points = adj * cost if type(adj) is int else _attribute_cost(adj, cost, 0.0)
            if gcs_points != points:
                adj, gcs_points = self._bought(ident, pointer, label, value, base, points, cost, reduction)
            spent[ident] = gcs_points
            if current_key is None:
                if type(value) is int:
                    numbers += (adj, value, gcs_points)
                else:  # Basic Speed, in quarters
                    numbers += (_quarters(adj), _quarters(value), gcs_points)
            else:  # a pool: whole numbers
                current = stored.get("current", stored.get("value"))
                if not (type(current) is int and 0 <= current <= value):  # else within all bounds
                    current = self._current(ident, current, value, pointer, label)
                values[current_key] = current
                if current == value:
                    numbers += (adj, value, current, gcs_points)
                else:
                    if ident == "hp":
                        damaged_hp = True
                    else:
                        damaged_fp = True
                    numbers += (adj, value - current, value, current, gcs_points)
            if followers:
                numbers += (value,) * followers  # GCS's own attributes' values (their base)
            if value < 0 and ident in _PRIMARY:
                self.note(
                    f"{pointer}/value",
                    "differs",
                    f"{label} {plain(value)} is below 0; an import of the file reads it as 0.",
                )
        return standard_attributes_text(numbers, damaged_fp, damaged_hp)

    def _bought(
        self,
        ident: str,
        pointer: str,
        label: str,
        value: float,
        base: float,
        points: float,
        cost: int,
        reduction: float,
    ) -> tuple[float, int]:
        """The levels bought and GCS's points for them, for an attribute whose levels above its
        base the document's points do not pay for (noted; a bonus for levels beyond them)."""
        adj, bonus = _levels(value, base, points, cost, reduction, ident == "basic_speed")
        gcs_points = _attribute_cost(adj, cost, reduction)
        if bonus:
            self.adjust(
                {"type": "attribute_bonus", "attribute": ident, "amount": plain(bonus)},
                f"{signed_number(bonus)} {label}: the document's {label} is beyond the levels its points buy",
            )
            self.note(
                f"{pointer}/value",
                "deviation",
                f"{label} {plain(value)} with {plain(points)} "
                f"points{self.why(pointer + '/points')}: "
                f"GCS charges {plain(gcs_points)} points for {signed_number(adj)} levels and adds "
                f"{signed_number(bonus)} from '{ADJUSTMENTS}'.",
            )
        elif gcs_points != points:
            self.note(
                f"{pointer}/points",
                "approximated",
                f"GCS charges {plain(gcs_points)} points for {label} "
                f"{plain(value)}, the "
                f"document {plain(points)}: the difference is counted on '{ADJUSTMENTS}', so the points "
                "spent agree.",
            )
        return adj, gcs_points

    def _current(self, ident: str, stored: object, value: float, pointer: str, label: str) -> int:
        """A pool's current value as written (``stored``: the document's, or its maximum when it
        has none), noted when it is outside the format's bounds."""
        if type(stored) is int and -LIMIT <= stored <= LIMIT:
            current = stored
        else:
            current = math.floor(self.bounded(stored, f"{pointer}/current", "Current"))
        low = -10 * value if ident == "hp" else -value
        if not min(low, value) <= current <= max(low, value):
            self.note(
                f"{pointer}/current",
                "differs",
                f"{label} {plain(current)} of {plain(value)} is "
                "outside the format's "
                f"bounds; GCS keeps it (damage {plain(value - current)}), an import reads it back within "
                "them.",
            )
        return current

    def _reductions(
        self, ident: str, stored: Mapping[str, Any], pointer: str, size: float, progression: str
    ) -> float:
        """GCS's cost reduction for an attribute in percent: the document's limitations as
        ``cost_reduction`` features, plus the size discount (capped at 80 as GCS caps it)."""
        total = 0.0
        for position, modifier in enumerate(stored.get("costModifiers", [])):
            percent = modifier.get("percent")
            where = f"{pointer}/costModifiers/{position}"
            if isinstance(percent, int) and not isinstance(percent, bool) and -99 <= percent <= -1:
                holder = self.holder(self.name(modifier["name"], f"{where}/name", "cost modifier"), where)
                holder["features"].append(
                    {"type": "cost_reduction", "attribute": ident, "percentage": -percent}
                )
                total -= percent
            else:
                self.note(
                    where,
                    "approximated",
                    f"GCS reduces attribute costs only (1 to 99 %): '{text_of(modifier.get('name'))[:60]}' "
                    f"({percent}%) is not written; the points it makes are counted on '{ADJUSTMENTS}'.",
                )
        if ident in _SIZE_DISCOUNT and size > 0 and not (ident == "hp" and progression == _KYOS):
            total += 10 * size  # GCS gives HP no size discount under Knowing Your Own Strength
        return min(max(total, 0), 80)

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

    def _damage_table(self, derived: Derived) -> None:
        st = int(self.values["st"])
        damage = _section(self.doc, "damage")
        stored_thrust, stored_swing = damage.get("thrust", {}), damage.get("swing", {})
        if 0 <= st <= _RUNS_UP_TO:
            basic_thrust, basic_swing, thrust_text, swing_text = _BASIC_SET[st]
            if (
                type(stored_thrust) is dict
                and type(stored_swing) is dict
                and len(stored_thrust) == 3
                and len(stored_swing) == 3
                and stored_thrust.get("dice") == basic_thrust[0]
                and stored_thrust.get("adds") == basic_thrust[1]
                and stored_swing.get("dice") == basic_swing[0]
                and stored_swing.get("adds") == basic_swing[1]
                and stored_thrust.get("notation") == thrust_text
                and stored_swing.get("notation") == swing_text
            ):  # the usual: the Basic Set's at the character's ST, as GCS's values make them
                derived.progression, derived.striking = "basic_set", 0
                derived.thrust, derived.swing = basic_thrust, basic_swing
                calc = derived.calc
                calc["thrust"], calc["swing"] = thrust_text, swing_text
                return
        else:
            basic_thrust, basic_swing = _basic_thrust(st), _basic_swing(st)
            thrust_text, swing_text = dice_text(*basic_thrust), dice_text(*basic_swing)
        if type(stored_thrust) is not dict and not isinstance(stored_thrust, Mapping):
            stored_thrust = {}
        if type(stored_swing) is not dict and not isinstance(stored_swing, Mapping):
            stored_swing = {}
        wanted_thrust, wanted_swing = _dice_of(stored_thrust), _dice_of(stored_swing)
        if wanted_thrust is None or wanted_swing is None or abs(st) > 10_000:
            found: tuple[str, int] | None = None  # as _striking finds
        elif st >= 0 and basic_thrust == wanted_thrust and basic_swing == wanted_swing:
            found = None  # the Basic Set's at the character's ST, what _striking finds first
        else:
            found = _other_striking(st, wanted_thrust, wanted_swing)
        if found is None or found == ("basic_set", 0):
            progression, bonus = "basic_set", 0
            derived.thrust, derived.swing = basic_thrust, basic_swing
        else:
            progression, bonus = found
            derived.thrust = thrust(st + bonus, progression) or (1, 0)
            derived.swing = swing(st + bonus, progression) or (1, 0)
            thrust_text, swing_text = dice_text(*derived.thrust), dice_text(*derived.swing)
        derived.progression = progression
        derived.striking = bonus
        if bonus:
            self.adjust(
                {
                    "type": "attribute_bonus",
                    "limitation": "striking_only",
                    "attribute": "st",
                    "amount": bonus,
                },
                f"{signed(bonus)} Striking ST: the document's thrust and swing are those of ST {st + bonus}",
            )
            derived.calc_bonuses["striking_st_bonus"] = bonus
            self.note(
                "/damage",
                "deviation",
                f"Thrust and swing of ST {st + bonus} at ST "
                f"{st}{self.why('/damage/swing') or self.why('/damage/thrust')}: "
                f"GCS adds Striking ST {signed(bonus)} from '{ADJUSTMENTS}'.",
            )
        if progression != "basic_set":
            self.note(
                "/damage",
                "deviation",
                f"The document's thrust and swing follow GCS's damage progression '{progression}': the file "
                "uses it.",
            )
        calc = derived.calc
        for key, got, text, stored, target in (
            ("thrust", derived.thrust, thrust_text, stored_thrust, wanted_thrust),
            ("swing", derived.swing, swing_text, stored_swing, wanted_swing),
        ):
            if target is not None and target != got:
                derived.shift[key] = target
            calc[key] = text  # the file's (calc's keys are put in order at the end)
            if type(stored) is dict:  # the dict GCS's values make, compared key by key
                same = (
                    len(stored) == 3
                    and stored.get("dice") == got[0]
                    and stored.get("adds") == got[1]
                    and stored.get("notation") == text
                )
            else:
                same = dict(stored) == {"notation": text, "dice": got[0], "adds": got[1]}
            if not same:
                self.note(
                    f"/damage/{key}",
                    "differs",
                    f"GCS's damage table gives {key} {text} at ST {st}, the document "
                    f"{text_of(stored.get('notation'))[:20]}{self.why('/damage/' + key)}; no ST bonus gives "
                    "both thrust "
                    f"and swing: the weapons that use {key} carry the difference in their own damage.",
                )

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

    def _points(self, attributes: RawJson) -> int | float:
        """The file's total points; ``attributes`` (the file's, from :meth:`_attributes`) cost
        what :attr:`attribute_points` says, GCS's own attributes nothing."""
        doc = self.doc
        points = doc.get("points", {})
        spent_gcs: float = sum(self.attribute_points.values())  # whole points: the order is no matter
        traits, skills = self.traits, self.skills
        if traits:  # number() of each (the list's sum is the generator's, in the same order)
            found = [node["calc"]["points"] for node in traits]
            spent_gcs += sum([value if type(value) is int else number(value) for value in found])
        if skills:
            found = [node["points"] for node in skills]
            spent_gcs += sum([value if type(value) is int else number(value) for value in found])
        stored = points.get("spent")
        kind = type(stored)
        if kind is not int and kind is not float and (not isinstance(stored, int | float) or kind is bool):
            stored = sum(number(v) for v in points.get("breakdown", {}).values())
        spent = (
            stored
            if (kind is int or kind is float) and -LIMIT <= stored <= LIMIT
            else self.bounded(stored, "/points/spent", "Points spent")
        )
        correction = round(spent - spent_gcs)
        if spent_gcs + correction != spent:
            self.note(
                "/points/spent",
                "differs",
                f"GCS counts {plain(spent_gcs + correction)} points spent, the document {spent:g}: GCS "
                "prices "
                "traits in whole points.",
            )
        if correction:
            node = self.adjustments_trait()
            node["base_points"] = plain(number(node["base_points"]) + correction)
            node["calc"]["points"] = node["base_points"]
            node["tags"] = ["Advantage" if node["base_points"] >= 0 else "Disadvantage"]
            self.adjustment_lines.append(
                f"{signed_number(correction)} points the document counts and GCS prices nowhere else"
            )
            other = number(points.get("breakdown", {}).get("other"))
            self.note(
                "/points/spent",
                "approximated",
                f"{plain(correction)} of the document's {plain(spent)} points have no GCS price"
                + (f" (breakdown.other {plain(other)})" if other else "")
                + f": '{ADJUSTMENTS}' costs them, so GCS's points spent agree.",
            )
        budget = points.get("budget")
        if budget is None:
            self.note(
                "/points/budget",
                "differs",
                f"The document has no point budget: the file's total is the points spent, {plain(spent)}.",
            )
            return plain(spent)
        if type(budget) is int and -LIMIT <= budget <= LIMIT:
            return budget  # the usual: a whole number, as the file has it
        return plain(self.bounded(budget, "/points/budget", "Budget"))


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


def _halving_causes(derived: Derived, op: str) -> str:
    found = [f"{pool} is '{state}'" for pool, state, ops in derived.halving if op in ops]
    return " and ".join(found) or "a pool is low"


def _threshold(script: str) -> Callable[[float], float]:
    """One of :data:`POOL_THRESHOLDS`' scripts as a function of the pool's maximum."""
    if script == "0":
        return lambda maximum: 0
    if script.startswith("Math.round(-$"):
        factor = int(script.rsplit("*", 1)[1].rstrip(")").strip())
        return lambda maximum: math.floor(-maximum * factor + 0.5)
    if script.startswith("-$"):
        return lambda maximum: -maximum
    if script.startswith("Math.ceil"):
        return lambda maximum: math.ceil(maximum / 3) - 1
    if script.endswith("- 1"):
        return lambda maximum: maximum - 1
    return lambda maximum: maximum


def _halving(
    thresholds: tuple[tuple[str, Callable[[float], float], tuple[str, ...]], ...],
    maximum: float,
    current: float,
) -> tuple[str, tuple[str, ...]] | None:
    """The state a pool is in and what GCS halves in it, when it halves anything (``thresholds``
    from :data:`_POOL_RULES`)."""
    if maximum >= 0 and current > 0 and current > math.ceil(maximum / 3) - 1:
        # The states that halve come first, and with a maximum not below 0 none reaches above 0 but
        # Reeling's or Tired's, a third of it less 1: a pool above both is in none of them.
        return None
    for state, limit, ops in thresholds:
        if current <= limit(maximum):
            return (state, ops) if ops else None
    return None


_POOL_RULES: Final = tuple(
    (
        ident,
        ATTRIBUTE_NAMES[ident],
        tuple((state, _threshold(script), ops) for state, script, _, ops in POOL_THRESHOLDS[ident]),
    )
    for ident in ("hp", "fp")
)
"""Each pool's id, label and states (worst first): the name, the highest current value still in
it as a function of the maximum, and what GCS halves meanwhile."""
_POOLS_READ: Final = tuple(
    (ident, f"{ident}_current", label, thresholds) for ident, label, thresholds in _POOL_RULES
)
""":data:`_POOL_RULES` with the keys of the pools' current values in ``values``."""

_CALC_BONUSES: Final = (
    "lifting_st_bonus",
    "striking_st_bonus",
    "throwing_st_bonus",
    "dodge_bonus",
    "parry_bonus",
    "block_bonus",
)
"""The bonuses of the file's ``calc`` in GCS's order (written when not 0)."""


def _dice_of(entry: Mapping[str, Any]) -> tuple[int, int] | None:
    dice, adds = entry.get("dice"), entry.get("adds")
    if type(dice) is int and type(adds) is int:  # the usual: whole numbers
        return (dice, adds) if -LIMIT <= dice <= LIMIT and -LIMIT <= adds <= LIMIT else None
    if (
        isinstance(dice, int | float)
        and isinstance(adds, int | float)
        and abs(dice) <= LIMIT
        and abs(adds) <= LIMIT
    ):
        return int(dice), int(adds)
    return None


_PRIMARY: Final = frozenset(("st", "dx", "iq", "ht"))

_KYOS: Final = "knowing_your_own_strength"
_PROGRESSIONS: Final = (
    "basic_set",
    "thrust_equals_swing_minus_2",
    "swing_equals_thrust_plus_2",
    "no_school_grognard_damage",
    _KYOS,
)
"""GCS's damage progressions tried for a document's thrust and swing, the Basic Set's first."""


def _tables(progression: str) -> tuple[str, Table, Table]:
    tables = damage_tables(progression)
    assert tables is not None  # every progression tried is computed here
    return progression, *tables


_TABLES: Final = tuple(_tables(progression) for progression in _PROGRESSIONS)
""":data:`_PROGRESSIONS` with their thrust and swing as functions of ST."""
_basic_thrust, _basic_swing = _TABLES[0][1:]


_MOST_BONUS: Final = 200
"""The largest ST bonus (striking or lifting) tried for a document's damage or Basic Lift."""


def _near_zero(st: int) -> list[int]:
    """ST bonuses to try, smallest first: ±1 .. ±200 (never taking ST below 0)."""
    found = []
    for step in range(1, _MOST_BONUS + 1):
        found.append(step)
        if st - step >= 0:
            found.append(-step)
    return found


_Dice = tuple[int, int]

_RUNS_UP_TO: Final = 400
"""The highest ST :data:`_RUNS` covers: a character's ST up to 200 with every bonus tried."""


def _runs(thrust_at: Table, swing_at: Table) -> dict[tuple[_Dice, _Dice], tuple[int, int]]:
    """Each thrust and swing a progression gives from ST 0 to :data:`_RUNS_UP_TO`, with the
    lowest and highest ST giving them (both never fall as ST rises: the STs between give them
    too, a test checks it)."""
    strengths = range(_RUNS_UP_TO + 1)
    pairs = list(zip(map(thrust_at, strengths), map(swing_at, strengths), strict=True))
    highest = {pair: strength for strength, pair in enumerate(pairs)}
    runs = {}
    for strength, pair in enumerate(pairs):
        if pair not in runs:
            runs[pair] = (strength, highest[pair])
    return runs


def _basic_set_at(st: int) -> tuple[_Dice, _Dice, str, str]:
    thrust_at, swing_at = _basic_thrust(st), _basic_swing(st)
    return thrust_at, swing_at, dice_text(*thrust_at), dice_text(*swing_at)


_BASIC_SET: Final = tuple(_basic_set_at(st) for st in range(_RUNS_UP_TO + 1))
"""The Basic Set's thrust and swing and their texts at each ST from 0 to :data:`_RUNS_UP_TO`."""

_RUNS: Final = tuple(
    (progression, _runs(thrust_at, swing_at)) for progression, thrust_at, swing_at in _TABLES
)
""":data:`_PROGRESSIONS` with the STs (a run each) that give each of their thrusts and swings."""


def _striking(
    st: int, wanted_thrust: tuple[int, int] | None, wanted_swing: tuple[int, int] | None
) -> tuple[str, int] | None:
    """The progression and Striking ST bonus that give the document's thrust and swing: the
    first progression with an ST between ``st`` ± 200 (not below 0) that gives both, and the
    bonus nearest 0 (the lower of two as near)."""
    if wanted_thrust is None or wanted_swing is None or abs(st) > 10_000:
        return None
    if st >= 0 and _basic_thrust(st) == wanted_thrust and _basic_swing(st) == wanted_swing:
        return "basic_set", 0  # the Basic Set's table at the character's ST: what the search finds first
    return _other_striking(st, wanted_thrust, wanted_swing)


def _other_striking(st: int, wanted_thrust: _Dice, wanted_swing: _Dice) -> tuple[str, int] | None:
    """:func:`_striking` for an ``st`` (within 10,000) whose Basic Set's thrust and swing are
    not the ones wanted, or below 0."""
    high = st + _MOST_BONUS
    if high > _RUNS_UP_TO:
        return _searched_striking(st, wanted_thrust, wanted_swing)
    low = st - _MOST_BONUS
    wanted = (wanted_thrust, wanted_swing)
    for progression, runs in _RUNS:
        run = runs.get(wanted)
        if run is not None:
            first, last = run
            if first < low:
                first = low
            if last > high:
                last = high
            if first <= last:  # the nearest ST of the run: st itself, or the end nearer it
                return progression, (0 if first <= st <= last else first - st if st < first else last - st)
    return None


def _searched_striking(st: int, wanted_thrust: _Dice, wanted_swing: _Dice) -> tuple[str, int] | None:
    """:func:`_striking` searched through the tables (for an ST above :data:`_RUNS`')."""
    low, high = max(st - _MOST_BONUS, 0), st + _MOST_BONUS
    strengths = range(low, high + 1)
    starts: dict[Table, int] = {}  # two progressions share the Basic Set's thrust
    for progression, thrust_at, swing_at in _TABLES:
        # thrust never falls as ST rises: the STs that give the document's thrust are one run
        strength = starts.get(thrust_at)
        if strength is None:
            strength = starts[thrust_at] = low + bisect.bisect_left(strengths, wanted_thrust, key=thrust_at)
        found = []
        while strength <= high and thrust_at(strength) == wanted_thrust:
            if swing_at(strength) == wanted_swing:
                found.append(strength - st)
            strength += 1
        if found:
            return progression, min(found, key=lambda bonus: (abs(bonus), bonus))
    return None


def _lift_kg(st: int, bonus: int, progression: str) -> float:
    """GCS's Basic Lift in kg (its pounds at 1 kg = 2 lb) for Lifting ST ``st + bonus``."""
    return _kg(basic_lift_pounds(st + bonus, progression))


def _kg(pounds: float) -> float:
    """Pounds as kg at GCS's 1 kg = 2 lb, as GCS writes them."""
    return plain(round(pounds / 2, 6))


def _levels(
    value: float, base: float, points: float, cost: int, reduction: float, decimal: bool
) -> tuple[float, float]:
    """Levels bought (``adj``) and the bonus that give an attribute ``value`` for ``points``:
    every level above the base bought when the points pay for them, else the levels the points
    buy and a bonus for the rest."""
    bought = value - base
    if _attribute_cost(bought, cost, reduction) == points:
        return bought, 0
    rate = cost * (100 - reduction) / 100
    if rate > 0:
        step = 0.25 if decimal else 1
        guess = round(points / rate / step) * step
        for adj in (guess, guess - step, guess + step, guess - 2 * step, guess + 2 * step):
            if abs(adj) <= 2 * LIMIT and _attribute_cost(adj, cost, reduction) == points:
                return adj, value - base - adj
    return bought, 0


def _quarters(value: float) -> int | float:
    """:func:`plain` of a multiple of 0.25 (Basic Speed's values; a test checks it): whole
    numbers as ``int``, others as they are (4 decimals hold them)."""
    if type(value) is int:
        return value
    return int(value) if value.is_integer() else value


def _attribute_cost(adj: float, cost: int, reduction: float) -> int:
    """GCS's points for levels bought: reduced by the cost reductions in force, rounded up."""
    return math.ceil(adj * cost * (100 - reduction) / 100 - 1e-9)


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
