"""Thrust and swing as GCS has them: the damage progression and Striking ST bonus that give the
document's (the Basic Set's table at the character's ST, the usual, found first), noted where
none does; the progressions' tables and the runs of ST that give each thrust and swing, made once.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any, Final

from ...format.progression import Table, damage_tables, swing, thrust
from ..sheet import (
    ADJUSTMENTS,
    LIMIT,
    Derived,
    SheetBase,
    dice_text,
    signed,
    text_of,
)

__all__ = ["DamageTablePart"]


def _section(document: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """The object at ``document[key]``, or an empty one (as :func:`member` reads it)."""
    found = document.get(key, {})
    return found if type(found) is dict or isinstance(found, Mapping) else {}


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


class DamageTablePart(SheetBase):
    """The file's damage progression, thrust and swing (and ``calc``'s)."""

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
