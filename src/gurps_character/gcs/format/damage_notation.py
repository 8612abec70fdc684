"""A resolved weapon mode's damage as the format's damage entry: a notation that
``resolve_damage_notation`` resolves to GCS's dice, adds, multiplier, armor divisor and type
(GCS's damage type text split into the damage word, modifiers, per points, a step of dice per
point and a divisor), or GCS's text for damage that is not dice."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from ..._notation import HIT_TYPES, MODIFIERS
from .gcs_dice import MAX_COUNT, GcsDice, bounded, fixed_point, writable_divisor, written_divisor
from .weapon_damage import WeaponDamageResult, Wielder

__all__ = ["damage_entry"]

_MAX_NOTATION: Final = 900_000
"""The largest dice, adds and multiplier written in a notation (which takes six digits)."""
_PROSE: Final = frozenset({"per", "point", "points", "pt", "pts"})
_PER_TEXT: Final = re.compile(r"(?:/|\bper\s+)\s*([0-9]+)?\s*points?\b", re.IGNORECASE)
_STEP_TEXT: Final = re.compile(r"\+\s*([0-9]+)d([+-][0-9]+)?", re.IGNORECASE)
_DIVISOR_TEXT: Final = re.compile(r"\(\s*([0-9.]+|∞|inf)\s*\)", re.IGNORECASE)
_WORDS: Final = re.compile(r"[A-Za-z][A-Za-z+\-]*\.?")
"""A word of GCS's damage type text; a period may end it (``spec.``)."""
_SCHEMA_TYPES: Final = frozenset(
    {"cr", "cut", "imp", "pi-", "pi", "pi+", "pi++", "burn", "cor", "fat", "tox", "tbb", "aff", "spec"}
)


def damage_entry(
    result: WeaponDamageResult, wielder: Wielder, raw_type: str
) -> tuple[dict[str, Any], list[str]]:
    """The format's damage entry for a resolved weapon mode (a notation that
    ``resolve_damage_notation`` resolves to GCS's dice, adds, multiplier, armor divisor and
    type), and what the notes should add (text the notation leaves out). An entry without
    ``base`` is GCS's text for damage that is not dice."""
    notes: list[str] = []
    roll = result.roll
    parts = _rollable_parts(result)
    if roll is None or parts is None:
        return _not_dice(result, raw_type), notes
    divisor = result.divisor
    if parts.divisor is not None and divisor == 1:
        divisor = parts.divisor
    if not writable_divisor(divisor):
        notes.append(
            f"GCS's armor divisor ({written_divisor(divisor)}) is beyond what the notation holds "
            "(0.001 to 1000): left out"
        )
        divisor = 1
    entry: dict[str, Any] = {}
    base_text = _base_text(roll, result.thrust_or_swing, wielder, entry)
    notation = base_text + (f" ({written_divisor(divisor)})" if divisor != 1 else "")
    notation += f" {parts.word}"
    if parts.modifiers:
        notation += " " + " ".join(parts.modifiers)
    if parts.step is not None:
        dice, adds = parts.step
        notation += f" +{dice}d" + (f"{adds:+d}" if adds else "")
    if parts.per_points:
        notation += "/point" if parts.per_points == 1 else f"/{parts.per_points} points"
    entry = {"notation": notation, **entry}
    if parts.word.rstrip(".") in _SCHEMA_TYPES:
        entry["type"] = parts.word.rstrip(".")
    if parts.word == "damage" and not result.type_text:
        notes.append("GCS names no damage type")
    elif parts.leftover:
        notes.append(f"GCS's damage text '{result.type_text}' is more than the notation holds")
    return entry, notes


@dataclass(frozen=True, slots=True)
class _TypeParts:
    word: str
    modifiers: tuple[str, ...]
    per_points: int
    step: tuple[int, int] | None
    divisor: float | None
    leftover: str


def _type_parts(type_text: str) -> _TypeParts:
    """GCS's damage type text split into what the notation holds: the damage word (the first
    type a hit resolves, else the first plain word, a period after it kept: ``aff``, ``spec.``,
    ``ctrl``), modifiers (``ex``), per points, a step of dice per point, a divisor written in
    the text, and what is left over."""
    plain = type_text.strip().lower()
    if plain in HIT_TYPES:  # the usual text: one damage type
        return _TypeParts(plain, (), 0, None, None, "")
    rest = type_text if len(type_text) < 400 else type_text[:400]
    per_points = 0
    step: tuple[int, int] | None = None
    divisor: float | None = None
    found_per = _PER_TEXT.search(rest)
    if found_per:
        per_points = max(1, min(int((found_per.group(1) or "1")[:8]), MAX_COUNT))
        rest = rest[: found_per.start()] + " " + rest[found_per.end() :]
    found_step = _STEP_TEXT.search(rest)
    if found_step and per_points:
        step = (
            min(int(found_step.group(1)[:8]), MAX_COUNT),
            bounded(int((found_step.group(2) or "0")[:8])),
        )
        rest = rest[: found_step.start()] + " " + rest[found_step.end() :]
    found_divisor = _DIVISOR_TEXT.search(rest)
    if found_divisor:
        value = found_divisor.group(1).lower()
        amount = 0.0
        if value in ("∞", "inf"):
            amount = math.inf
        elif len(value) < 20 and value.count(".") <= 1 and value != ".":
            amount = float(fixed_point(Fraction(value)))
        if amount > 0 and writable_divisor(amount):
            divisor = amount
            rest = rest[: found_divisor.start()] + " " + rest[found_divisor.end() :]
    words = [(m.group(0), m.start(), m.end()) for m in _WORDS.finditer(rest)]
    lowered = [w.lower() for w, _, _ in words]
    bare = [w.rstrip(".") for w in lowered]
    chosen: int | None = next((i for i, w in enumerate(bare) if w in HIT_TYPES), None)
    word = bare[chosen] if chosen is not None else "damage"
    if chosen is None:  # a damage word no hit resolves (ctrl, aff, spec.): the dice still roll
        chosen = next(
            (i for i, w in enumerate(bare) if w.isalpha() and w not in _PROSE and w not in MODIFIERS),
            None,
        )
        word = lowered[chosen] if chosen is not None else word
    modifiers: list[str] = []
    kept = set() if chosen is None else {chosen}
    for i, w in enumerate(bare):
        if w in MODIFIERS and w not in modifiers and i != chosen:
            modifiers.append(w)
            kept.add(i)
        elif w in _PROSE:
            kept.add(i)
    leftover = rest
    for i in sorted(kept, reverse=True):
        _, start, end = words[i]
        leftover = leftover[:start] + " " + leftover[end:]
    leftover = " ".join(leftover.replace("/", " ").split()).strip(" ,;")
    return _TypeParts(word, tuple(modifiers), per_points, step, divisor, leftover)


def _rollable_parts(result: WeaponDamageResult) -> _TypeParts | None:
    """The parts of GCS's damage type text when the damage is six-sided dice the notation can
    hold (``1d aff`` and ``2d spec.`` too); None when it is not (no dice: ``HT-3 aff``,
    ``spec.``; a fixed amount of 0 or less, numbers beyond six digits)."""
    roll = result.roll
    if roll is None or roll.sides != 6 or (roll.count == 0 and roll.modifier <= 0):
        return None
    if max(roll.count, abs(roll.modifier), roll.multiplier) > _MAX_NOTATION:
        return None  # more than a notation writes (six digits, the wielder's adds included)
    return _type_parts(result.type_text)


def _base_text(roll: GcsDice, thrust_or_swing: str, wielder: Wielder, entry: dict[str, Any]) -> str:
    """``thr+2`` when the dice are the wielder's thrust (or swing) dice plus adds, else the
    dice; fills the entry's ``base``, ``dice`` and ``adds``."""
    if thrust_or_swing and roll.multiplier == 1:
        dice, adds = wielder.thrust if thrust_or_swing == "thr" else wielder.swing
        if roll.count == dice:
            extra = roll.modifier - adds
            entry.update(base="thrust" if thrust_or_swing == "thr" else "swing", adds=extra)
            return thrust_or_swing + (f"{extra:+d}" if extra else "")
    entry.update(base="fixed", dice=roll.count, adds=roll.modifier)
    times = f"x{roll.multiplier}" if roll.multiplier != 1 else ""
    if roll.count == 0:
        return f"{roll.modifier}{times}"
    return f"{roll.count}d" + (f"{roll.modifier:+d}" if roll.modifier else "") + times


def _not_dice(result: WeaponDamageResult, raw_type: str) -> dict[str, Any]:
    """GCS's text for damage that is not dice (an affliction, ``spec.``): not rollable."""
    shown = result.text.strip() or raw_type.strip() or "-"
    entry: dict[str, Any] = {"notation": shown}
    first = raw_type.strip().split(" ")[0].lower().rstrip(".") if raw_type.strip() else ""
    if first in _SCHEMA_TYPES:
        entry["type"] = first
    return entry
