"""``hit``: one hit resolved by the Basic Set, step by step, and (with ``--in-place``) applied.

The damage is a rolled number, or rolled here: a damage notation (``2d+1 cut``, ``sw+2 cut``) or a
weapon of the wielder (``Broadsword``), rolled with :meth:`~gurps_character.WeaponDamage.roll`
(``--seed`` repeats a roll). The resolution is :func:`~gurps_character.resolve_hit`; applying it
is :func:`~gurps_character.apply_hit`, written like the pool commands write (validated, atomic).
"""

from __future__ import annotations

import argparse
import math
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, Final, NoReturn

from .._json import js_number
from ..conditions import FollowUp, PoolChange, Roll
from ..damage import Hit, WeaponDamage, apply_hit, resolve_damage_notation, resolve_hit
from ..errors import CharacterError
from ..load import Parsed
from ..stats import MeleeWeaponStats, RangedWeaponStats, combat_stats
from ._command import Commands, add_command, add_max_bytes_option, integer_text
from ._common import EXIT_OK, INVALID_ARGUMENT, PROG, STDIN, CommandFailure, label
from ._io import parse_character_file
from ._report import WHEN, json_line, roll_text, say
from ._rolling import RandomLocation, parse_seed, random_location
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
  {PROG} hit hero.json 2d+1 cut --seed 7
  {PROG} hit hero.json "sw+2 cut" --attacker ogre.json
  {PROG} hit hero.json Broadsword --attacker rival.json --line 2
  {PROG} hit --in-place hero.gcs Broadsword --attacker rival.gcs --location random

DAMAGE is the basic damage rolled (a whole number, with TYPE), or damage to roll: a notation
(2d+1 cut, sw+2 (2) cut, 6dx2 cr; TYPE may follow it: 2d+1 cut) or the name of a weapon of the
wielder (--line N picks one of its damage lines). thr and sw and weapons are the wielder's: the
character of --attacker FILE, else the character hit. The roll is printed first; --seed N
repeats it. TYPE is one of cr, cut, imp, pi-, pi, pi+,
pi++, burn, cor, tox, fat; --location one of skull, face, eye, neck, torso, vitals, groin,
arm, hand, leg, foot, or the sheet's eyes, arms, hands, legs, feet (default torso); for a
character imported from GCS, one of its body's locations (wing, tail...); --armor-divisor a
number from 0.001 to 1000 (2, 3, 5, 10, 100, 0.5, 0.2, 0.1 as the Basic Set lists them, or
any GCS writes: 4, 1.5) or inf ("ignores DR"). Without --dr, the DR is read from the
sheet (the location's natural DR, such as the skull's 2, is added either way). Pain
thresholds are read from the traits by their English names; for a sheet in another language
pass --pain-threshold.

Without --in-place or -o nothing is written: the resolution is printed (DR, divisor,
penetrating damage, multiplier, injury, shock, major wound, crippling, knockback and the
rolls owed). With --in-place (or -o OUT) the injury is taken off HP (fatigue off FP) and
written atomically like 'damage' (a .gcs file gets it written back into it, as 'export --onto'
writes play); the report then adds the pool's new state and everything owed, in the order a
GM resolves it. --location random rolls where the blow lands (3d on the hit-location table,
B552, or on the body's table of a character imported from GCS; shown first, with --seed it
repeats). --json prints {{"location"?, "roll"?, "hit", "change"?}} (the location and the
damage rolled here, the resolution, the pool's change when applied)."""

_DIVISORS: Final = {
    "inf": math.inf,
    "infinity": math.inf,
    "∞": math.inf,
    "ignores": math.inf,
    "ignoresdr": math.inf,
}
_DECIMAL: Final = re.compile(r"[0-9]+(\.[0-9]+)?|\.[0-9]+")
_RANDOM: Final = "random"
"""``--location random``: rolled on the hit-location table (B552, or the body's)."""


# ================================================================ arguments


@dataclass(frozen=True, slots=True)
class _Rolled:
    """Damage rolled here: what was asked, the dice it came to and the total."""

    asked: str
    weapon: str | None
    damage: WeaponDamage
    total: int
    seed: int | None

    def text(self) -> str:
        """``rolled sw+1 cut = 1d+2 cut (Broadsword): 5``; ``rolled 2d+1 cut: 9``."""
        damage = self.damage
        kind = "tbb" if damage.tight_beam else damage.damage_type
        dice = "" if damage.base == "fixed" else f" = {damage.dice_notation} {kind}"
        source = f" ({self.weapon})" if self.weapon else ""
        return f"rolled {damage.notation}{dice}{source}: {self.total}"

    def to_dict(self) -> dict[str, Any]:
        """``{"asked", "weapon", "damage": WeaponDamage.to_dict(), "total", "seed"}``."""
        return {
            "asked": self.asked,
            "weapon": self.weapon,
            "damage": self.damage.to_dict(),
            "total": self.total,
            "seed": self.seed,
        }


def _refuse_damage(text: str, reason: str) -> NoReturn:
    raise CharacterError(INVALID_ARGUMENT, reason, {"name": "damage", "value": text})


def _rows(wielder: Mapping[str, Any]) -> list[MeleeWeaponStats | RangedWeaponStats]:
    weapons = combat_stats(wielder).weapons
    return [*weapons.melee, *weapons.ranged]


def _spaced(text: str) -> str:
    return " ".join(text.split()).casefold()


def _weapon(wielder: Mapping[str, Any], text: str, line: int | None) -> tuple[WeaponDamage, str] | None:
    """The damage line to roll of the wielder's weapon called ``text`` (case and spaces aside;
    the lines of every weapon so called, melee first), or None when no weapon is called so."""
    rows = [row for row in _rows(wielder) if _spaced(row.name) == _spaced(text)]
    if not rows:
        return None
    name = rows[0].name
    lines = [found for row in rows for found in row.damage]
    listed = "; ".join(f"{index} {found.notation}" for index, found in enumerate(lines, 1))
    if not lines:
        _refuse_damage(text, f"{name} has no damage line to roll.")
    if line is None and len(lines) > 1:
        _refuse_damage(text, f"{name} has {len(lines)} damage lines ({listed}): pick one with --line.")
    if line is not None and not 1 <= line <= len(lines):
        _refuse_damage(text, f"--line {line}: {name} has {len(lines)} damage lines ({listed}).")
    chosen = lines[(line or 1) - 1]
    if chosen.resolved is None:
        _refuse_damage(text, f"{name}: {chosen.notation} is no damage roll: {chosen.unresolved_reason}")
    return chosen.resolved, name


def _damage_to_roll(
    wielder: Mapping[str, Any], text: str, type_text: str | None, line: int | None
) -> tuple[WeaponDamage, str | None]:
    """DAMAGE (and TYPE) that is not a number: a weapon of the wielder, else a notation."""
    weapon = _weapon(wielder, text, line) if type_text is None else None
    if weapon is not None:
        return weapon
    notation = text if type_text is None else f"{text} {type_text}"
    try:
        return resolve_damage_notation(wielder, notation), None
    except CharacterError as err:
        if err.details.get("name") != "notation" or "position" not in err.details:
            raise
        why = f"{err.details['reason']} (at character {err.details['position'] + 1} of {notation!r})"
    if type_text is not None:
        _refuse_damage(text, f"DAMAGE TYPE is not a damage notation: {why}.")
    _refuse_damage(
        text,
        f"DAMAGE must be a whole number (with TYPE), a damage notation or a weapon of the wielder "
        f"({', '.join(dict.fromkeys(row.name for row in _rows(wielder))) or 'none'}), not {text!r}; "
        f"as a notation: {why}.",
    )


def _parse_line(text: str | None) -> int | None:
    if text is None:
        return None
    value = integer_text(text)
    if value is None or value < 1:
        raise CharacterError(
            INVALID_ARGUMENT,
            f"--line must be a whole number of at least 1, not {text!r}.",
            {"name": "--line", "value": text},
        )
    return value


def _parse_divisor(text: str | None) -> float | None:
    """--armor-divisor: a number (``2``, ``0.5``, ``1.5``) or ``inf``; the library checks its
    bounds."""
    if text is None:
        return None
    key = re.sub(r"[\s_-]", "", text.strip().strip("()").lower())
    if key in _DIVISORS:
        return _DIVISORS[key]
    if _DECIMAL.fullmatch(key):
        value = Fraction(key)
        return int(value) if value.denominator == 1 else float(value)
    raise CharacterError(
        INVALID_ARGUMENT,
        f"armor_divisor must be a number from 0.001 to 1000 (1 for none), or inf for 'ignores DR', "
        f"not {text!r}.",
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
    if divisor < 1 and hit.dr == 0:
        return line + "1 (DR 0 counts as 1)"
    times = Fraction(js_number(1 / divisor))
    if divisor < 1 and times.denominator == 1 and hit.dr * times == hit.effective_dr:
        return line + f"{hit.dr} x{times} = {hit.effective_dr}"
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
        number = integer_text(args.damage)
        if number is not None and args.type is None:
            raise CharacterError(
                INVALID_ARGUMENT,
                "TYPE must follow a rolled number: cr, cut, imp, pi-, pi, pi+, pi++, burn, cor, tox or fat.",
                {"name": "damage_type"},
            )
        divisor = _parse_divisor(args.armor_divisor)
        dr = _parse_dr(args.dr)
        now: datetime | None = _parse_now(args.now)
        seed = parse_seed(args.seed)
        line = _parse_line(args.line)
    except CharacterError as err:
        raise CommandFailure(label_text, err) from None
    writing = args.in_place or args.output is not None
    if args.attacker is not None and args.attacker == STDIN == args.path:
        raise CommandFailure(
            label_text,
            CharacterError(
                INVALID_ARGUMENT, "PATH and --attacker cannot both be stdin.", {"name": "--attacker"}
            ),
        )
    attacker = None
    if args.attacker is not None:
        attacker = parse_character_file(args.attacker, max_bytes=args.max_bytes).character
    rolled: list[_Rolled] = []
    located: list[RandomLocation] = []
    rng = random.Random(seed) if seed is not None else random.Random()  # damage first, then location

    def resolve(character: Mapping[str, Any]) -> Hit:
        damage_type: Any = args.type
        armor_divisor = 1 if divisor is None else divisor
        tight_beam: bool = args.tight_beam
        if number is not None:
            basic = number
        else:
            weapon, name = _damage_to_roll(attacker or character, args.damage, args.type, line)
            basic = weapon.roll(rng)
            rolled.append(_Rolled(args.damage, name, weapon, basic, seed))
            damage_type = weapon.damage_type
            armor_divisor = weapon.armor_divisor if divisor is None else divisor
            tight_beam = tight_beam or weapon.tight_beam
        location: str = args.location
        if location.strip().lower() == _RANDOM:
            located.append(random_location(character, rng))
            location = located[0].location
        return resolve_hit(
            character,
            basic,
            damage_type,
            location=location,
            armor_divisor=armor_divisor,
            dr=dr,
            tight_beam=tight_beam,
            pain_threshold=args.pain_threshold,
            vulnerable_groin=args.vulnerable_groin,
        )

    def report(hit: Hit, change: PoolChange | None) -> tuple[str, ...]:
        if args.json:
            out: dict[str, Any] = {"hit": hit.to_dict()}
            if rolled:
                out = {"roll": rolled[0].to_dict(), **out}
            if located:
                out = {"location": {**located[0].to_dict(), "seed": seed}, **out}
            if change is not None:
                out["change"] = change.to_dict()
            return (json_line(out),)
        lines = [rolled[0].text()] if rolled else []
        lines += [found.text() + (f" (seed {seed})" if seed is not None else "") for found in located]
        lines += hit_lines(label_text, hit, rolls=change is None)
        return tuple(lines + (_change_lines(label_text, change) if change is not None else []))

    if not writing:
        parsed = parse_character_file(args.path, max_bytes=args.max_bytes)
        try:
            hit = resolve(parsed.character)
        except CharacterError as err:
            raise CommandFailure(label_text, err) from None
        say(list(report(hit, None)))
        return EXIT_OK

    def apply(parsed: Parsed) -> _Outcome:
        hit = resolve(parsed.character)
        change = apply_hit(parsed.character, hit, now=now)
        return _Outcome(change.document, report(hit, change))

    to_stderr = _destination(args) is None  # the document goes to stdout
    outcome = change_and_write(args, apply)  # --in-place: locked from reading to renaming
    if not args.quiet:
        say(outcome.notes, err=to_stderr)
    return EXIT_OK


def register(commands: Commands) -> None:
    """Adds ``hit``."""
    hit = add_command(commands, "hit", "resolve one hit by the Basic Set (and apply it)", _cmd_hit, _EPILOG)
    hit.add_argument("path", metavar="PATH", help="the character hit: a file, or - for stdin")
    hit.add_argument(
        "damage",
        metavar="DAMAGE",
        help="the basic damage rolled (a whole number), or damage to roll: a notation or a weapon's name",
    )
    hit.add_argument(
        "type",
        metavar="TYPE",
        nargs="?",
        help="cr, cut, imp, pi-, pi, pi+, pi++, burn, cor, tox or fat (a notation or weapon gives its own)",
    )
    hit.add_argument(
        "--attacker", metavar="FILE", help="the wielder, for thr, sw and weapons (default: the character hit)"
    )
    hit.add_argument("--line", metavar="N", help="which damage line of the weapon to roll (1 = the first)")
    hit.add_argument(
        "--seed", metavar="N", help="a whole number: the same seed rolls the same damage and location"
    )
    hit.add_argument(
        "--location",
        default="torso",
        metavar="L",
        help="where the hit lands, or random: rolled on the hit-location table (default: torso, B398)",
    )
    hit.add_argument(
        "--armor-divisor", metavar="D", help="a number from 0.001 to 1000 (2, 3, 5, 10, 0.5, 1.5...) or inf"
    )
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
    add_max_bytes_option(hit)
