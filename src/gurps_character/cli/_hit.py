"""``hit``: one hit resolved by the Basic Set, step by step, and (with ``--in-place``) applied.

The resolution is :func:`~gurps_character.resolve_hit`; applying it is
:func:`~gurps_character.apply_hit`, written like the pool commands write (validated, atomic).
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Mapping
from datetime import datetime
from fractions import Fraction
from typing import Any, Final

from .._json import js_number
from ..conditions import FollowUp, PoolChange, Roll
from ..damage import Hit, apply_hit, resolve_hit
from ..errors import CharacterError
from ..load import Parsed
from ._command import Commands, add_command, integer_text
from ._common import EXIT_OK, INVALID_ARGUMENT, PROG, CommandFailure, label
from ._io import load_character
from ._report import WHEN, json_line, roll_text, say
from ._update import (
    _change_line,
    _destination,
    _follow_up_text,
    _Outcome,
    _parse_now,
    change_and_write,
)

__all__ = ["hit_lines", "register"]

_EPILOG: Final = f"""\
examples:
  {PROG} hit hero.json 9 cut --location neck
  {PROG} hit hero.json 8 imp --location skull --armor-divisor 2
  {PROG} hit --in-place hero.json 12 cr --dr 0

DAMAGE is the basic damage rolled (a whole number); TYPE one of cr, cut, imp, pi-, pi, pi+,
pi++, burn, cor, tox, fat; --location one of skull, face, eye, neck, torso, vitals, groin,
arm, hand, leg, foot, or the sheet's eyes, arms, hands, legs, feet (default torso); for a
character imported from GCS, one of its body's locations (wing, tail...); --armor-divisor 2,
3, 5, 10, 100, 0.5, 0.2, 0.1 or inf ("ignores DR"). Without --dr, the DR is read from the
sheet (the location's natural DR, such as the skull's 2, is added either way). Pain
thresholds are read from the traits by their English names; for a sheet in another language
pass --pain-threshold.

Without --in-place or -o nothing is written: the resolution is printed (DR, divisor,
penetrating damage, multiplier, injury, shock, major wound, crippling, knockback and the
rolls owed). With --in-place (or -o OUT) the injury is taken off HP (fatigue off FP) and
written atomically like 'damage'; the report then adds the pool's new state and everything
owed, in the order a GM resolves it. --json prints {{"hit": ..., "change"?: ...}}."""

_DIVISORS: Final = {
    "inf": math.inf,
    "infinity": math.inf,
    "∞": math.inf,
    "ignores": math.inf,
    "ignoresdr": math.inf,
}
_DECIMAL: Final = re.compile(r"[0-9]+(\.[0-9]+)?|\.[0-9]+")


# ================================================================ arguments


def _parse_damage(text: str) -> int:
    """DAMAGE: a whole number (a negative one is left to the library to refuse by name)."""
    return _parse_whole(text, "basic_damage")


def _parse_divisor(text: str | None) -> float:
    """--armor-divisor: a number (``2``, ``0.5``) or ``inf``; the library checks the list."""
    if text is None:
        return 1
    key = re.sub(r"[\s_-]", "", text.strip().strip("()").lower())
    if key in _DIVISORS:
        return _DIVISORS[key]
    if _DECIMAL.fullmatch(key):
        value = Fraction(key)
        return int(value) if value.denominator == 1 else float(value)
    raise CharacterError(
        INVALID_ARGUMENT,
        f"armor_divisor must be one of 1, 2, 3, 5, 10, 100, 0.5, 0.2, 0.1 or inf, not {text!r}.",
        {"name": "armor_divisor", "value": text},
    )


def _parse_dr(text: str | None) -> int | None:
    if text is None:
        return None
    return _parse_whole(text, "dr")


def _parse_whole(text: str, name: str) -> int:
    value = integer_text(text)
    if value is not None:
        return value
    raise CharacterError(
        INVALID_ARGUMENT,
        f"{name} must be a whole number of at least 0, not {text!r}.",
        {"name": name, "value": text},
    )


# ================================================================ the report


def _number(value: float) -> str:
    return "ignores DR" if value == math.inf else js_number(value)


def _dr_line(hit: Hit) -> str:
    """``DR 6 (4 listed + 2 skull), armor divisor (2): effective DR 6 / 2 = 3 (rounded down)``."""
    natural = (
        f" ({hit.dr - hit.natural_dr} listed + {hit.natural_dr} {hit.location})" if hit.natural_dr else ""
    )
    line = f"DR {hit.dr}{natural}"
    divisor = hit.armor_divisor
    if divisor == 1:
        return line
    if divisor == math.inf:
        return f"{line}, armor divisor ignores DR: effective DR 0"
    line += f", armor divisor ({_number(divisor)}): effective DR "
    if divisor < 1:
        times = round(1 / divisor)
        return line + ("1 (DR 0 counts as 1)" if hit.dr == 0 else f"{hit.dr} x{times} = {hit.effective_dr}")
    return line + f"{hit.dr} / {_number(divisor)} = {hit.effective_dr} (rounded down)"


def _penetrating_line(hit: Hit) -> str:
    if hit.penetrating:
        return f"penetrating {hit.basic_damage} - {hit.effective_dr} = {hit.penetrating}"
    return f"penetrating 0 ({hit.basic_damage} does not get through DR {hit.effective_dr})"


def _injury_line(hit: Hit) -> str:
    """``injury 5 x1.5 = 7.5 -> 7 (rounded down), 6 suffered (the excess on the arm is lost)``."""
    raw = hit.penetrating * hit.wounding_multiplier
    line = f"injury {hit.penetrating} x{js_number(hit.wounding_multiplier)} = {js_number(raw)}"
    if raw != hit.uncapped_injury:
        why = "at least 1" if hit.uncapped_injury > raw else "rounded down"
        line += f" -> {hit.uncapped_injury} ({why})"
    if hit.injury != hit.uncapped_injury:
        line += f", {hit.injury} suffered (the excess on the {hit.location} is lost)"
    return line + (" FP" if hit.pool == "fp" else "")


def _wound_lines(hit: Hit) -> list[str]:
    """Shock, major wound, crippling and blinding (none of them for fatigue)."""
    if hit.pool == "fp":
        return ["fatigue: no shock, major wound or crippling"]
    pain = {"high": " (High Pain Threshold)", "low": " (Low Pain Threshold)"}.get(hit.pain_threshold, "")
    lines = [f"shock {hit.shock} to DX and IQ on the next turn{pain}" if hit.shock else f"shock none{pain}"]
    lines.append("major wound: " + ("yes" if hit.major_wound else "no"))
    lines.append("crippled: " + ("yes" if hit.crippled else "no"))
    if hit.blinded_eyes:
        lines.append("blinded: " + ("both eyes" if hit.blinded_eyes == 2 else "one eye"))
    return lines


def _roll_line(roll: Roll) -> str:
    """``roll: knockdown, HT-10, immediately (B420)``."""
    what = "knockdown" if roll.kind == "knockdown" else "keep one's feet"
    when = WHEN.get(roll.when, roll.when)
    return f"roll: {what}, {roll_text(roll.attribute, roll.modifier)}, {when} ({roll.reference})"


def hit_lines(label_text: str, hit: Hit, *, rolls: bool = True) -> list[str]:
    """The resolution step by step, as a person reads it (the rolls owed last, with ``rolls``)."""
    where = "" if hit.location == "torso" else f" to the {hit.location}"
    beam = " (tight beam)" if hit.tight_beam else ""
    lines = [f"{label_text}: {hit.basic_damage} {hit.damage_type}{beam}{where}"]
    lines += [_dr_line(hit), _penetrating_line(hit), f"multiplier x{js_number(hit.wounding_multiplier)}"]
    lines += [_injury_line(hit), *_wound_lines(hit)]
    yards = f"{hit.knockback} yard" + ("s" if hit.knockback != 1 else "")
    lines.append(f"knockback: {yards}" if hit.knockback else "knockback: none")
    if rolls:
        lines += [_roll_line(roll) for roll in hit.rolls]
    return lines


def _owed_text(follow_up: FollowUp) -> str:
    """A follow-up of the hit as a person reads it; the pool's as the pool commands say them."""
    page = f"({follow_up.reference})"
    roll = roll_text(follow_up.attribute, follow_up.modifier)
    when = WHEN.get(follow_up.when or "", follow_up.when or "")
    if follow_up.kind == "knockdownCheck":
        return f"knockdown check, {roll}, {when} {page}"
    if follow_up.kind == "keepFeetCheck":
        return f"keep one's feet after {follow_up.amount} yards of knockback, {roll}, {when} {page}"
    if follow_up.kind == "blinding":
        return ("both eyes" if follow_up.amount == 2 else "one eye") + f" blinded {page}"
    return _follow_up_text(follow_up)


def _change_lines(label_text: str, change: PoolChange) -> list[str]:
    lines = [_change_line(label_text, change)]
    if change.spill is not None:
        lines.append(_change_line(label_text, change.spill))
    lines += [f"owed: {_owed_text(follow_up)}" for follow_up in change.follow_ups]
    return lines


# ================================================================ the command


def _cmd_hit(args: argparse.Namespace) -> int:
    label_text = label(args.path)
    try:
        damage = _parse_damage(args.damage)
        divisor = _parse_divisor(args.armor_divisor)
        dr = _parse_dr(args.dr)
        now: datetime | None = _parse_now(args.now)
    except CharacterError as err:
        raise CommandFailure(label_text, err) from None
    writing = args.in_place or args.output is not None

    def resolve(character: Mapping[str, Any]) -> Hit:
        return resolve_hit(
            character,
            damage,
            args.type,
            location=args.location,
            armor_divisor=divisor,
            dr=dr,
            tight_beam=args.tight_beam,
            pain_threshold=args.pain_threshold,
            vulnerable_groin=args.vulnerable_groin,
        )

    if not writing:
        parsed = load_character(args.path)
        try:
            hit = resolve(parsed.character)
        except CharacterError as err:
            raise CommandFailure(label_text, err) from None
        lines = hit_lines(label_text, hit, rolls=True)
        say([json_line({"hit": hit.to_dict()})] if args.json else lines)
        return EXIT_OK

    def apply(parsed: Parsed) -> _Outcome:
        hit = resolve(parsed.character)
        change = apply_hit(parsed.character, hit, now=now)
        if args.json:
            return _Outcome(change.document, (json_line({"hit": hit.to_dict(), "change": change.to_dict()}),))
        lines = hit_lines(label_text, hit, rolls=False) + _change_lines(label_text, change)
        return _Outcome(change.document, tuple(lines))

    to_stderr = _destination(args) is None  # the document goes to stdout
    outcome = change_and_write(args, apply)  # --in-place: locked from reading to renaming
    if not args.quiet:
        say(outcome.notes, err=to_stderr)
    return EXIT_OK


def register(commands: Commands) -> None:
    """Adds ``hit``."""
    hit = add_command(commands, "hit", "resolve one hit by the Basic Set (and apply it)", _cmd_hit, _EPILOG)
    hit.add_argument("path", metavar="PATH", help="the character hit: a file, or - for stdin")
    hit.add_argument("damage", metavar="DAMAGE", help="the basic damage rolled, a whole number")
    hit.add_argument("type", metavar="TYPE", help="cr, cut, imp, pi-, pi, pi+, pi++, burn, cor, tox or fat")
    hit.add_argument("--location", default="torso", metavar="L", help="where the hit lands (default: torso)")
    hit.add_argument("--armor-divisor", metavar="D", help="2, 3, 5, 10, 100, 0.5, 0.2, 0.1 or inf")
    hit.add_argument(
        "--dr", metavar="N", help="the DR listed for the location (default: read from the sheet)"
    )
    hit.add_argument("--tight-beam", action="store_true", help="burning damage from a tight beam (tbb)")
    hit.add_argument(
        "--pain-threshold", choices=("high", "low", "normal"), help="default: read from the traits"
    )
    hit.add_argument(
        "--vulnerable-groin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="a groin hit doubles crushing shock and gives -5 on a major wound (default: yes)",
    )
    hit.add_argument("--json", action="store_true", help='print {"hit": ..., "change"?: ...} as JSON')
    target = hit.add_mutually_exclusive_group()
    target.add_argument(
        "-o", "--output", metavar="OUT", help="apply the hit and write the new document to OUT"
    )
    target.add_argument("-i", "--in-place", action="store_true", help="apply the hit and replace PATH")
    hit.add_argument(
        "--now", metavar="ISO", help="the time for meta.updatedAt, with a time zone (default: now)"
    )
    hit.add_argument("-q", "--quiet", action="store_true", help="when writing, do not print the resolution")
