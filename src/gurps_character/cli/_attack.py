"""``attack``: the effective skill of one attack, modifier by modifier, and its roll.

The arithmetic is :func:`~gurps_character.attack_skill`; a roll is judged by
:func:`~gurps_character.success_roll` once :func:`~gurps_character.can_attempt` allows it, and
rapid-fire hits are :func:`~gurps_character.rapid_fire_hits`. The roll is ``--roll N``, or rolled
for the GM (:mod:`._rolling`: ``--seed N`` repeats it, ``--no-roll`` skips it). Nothing is read
or written: the command never loads the schema, so it answers at once.

A first argument that is not a number names a character file (``attack hero.json --weapon
Broadsword``, any format the other commands read): the base skill, ``ranged``, Acc and Bulk then
come from the sheet (:func:`~gurps_character.combat_character.character_attack_skill`, imported
only then, with the schema it needs), and the table starts with where the base came from.

The helpers the ``defend`` command shares (parsing numbers, the modifier table, the roll line,
reading a character) live here.
"""

from __future__ import annotations

import argparse
import inspect
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from ..combat import (
    AttackSkill,
    CombatModifier,
    RollResult,
    attack_skill,
    can_attempt,
    rapid_fire_hits,
    success_roll,
)
from ..constants import MAX_DOCUMENT_BYTES
from ..errors import CharacterError
from ..locations import rule_location
from ._command import Commands, add_command, add_max_bytes_option, integer_text
from ._common import EXIT_OK, INVALID_ARGUMENT, PROG, CommandFailure, label
from ._io import parse_character_file
from ._report import json_line, plural, say, table
from ._rolling import Roll3d, add_roll_options, asked_roll

if TYPE_CHECKING:
    from ..combat_character import CharacterAttack, CharacterDefense

__all__ = [
    "adjustment_rows",
    "given_options",
    "is_number",
    "modifier_rows",
    "parse_whole",
    "parse_yards",
    "read_character",
    "register",
    "roll_line",
    "roll_outcome",
]

_EPILOG: Final = f"""\
examples:
  {PROG} attack 14 --location skull                 a called shot: 14 - 7 = 7
  {PROG} attack 14 --maneuver move_and_attack       14 - 4 = 10, at most 9
  {PROG} attack 13 --ranged --distance-yards 8 --aim-turns 1 --acc 2 --roll 9
  {PROG} attack 14 --ranged --rof 10 --distance-yards 20 --roll 6 --recoil 2
  {PROG} attack hero.json --weapon Broadsword --location arm --roll 10
  {PROG} attack hero.gcs --weapon Spear --mode Thrown --distance-yards 5
  {PROG} attack hero.yaml --skill Brawling --shock -2

SKILL is the skill with the weapon, a whole number. The options are those of the library's
attack_skill(): --maneuver attack, all_out_attack_determined, all_out_attack_double,
all_out_attack_feint, all_out_attack_strong or move_and_attack; --location torso, vitals,
groin, arm, leg, hand, foot, face, neck, skull or eye (arms, legs, ... too); --posture
standing, crouching, kneeling, sitting, crawling or lying. --bulk, --shock and --visibility
are penalties as printed (0 or less). Aim, Acc, bracing, Bulk, RoF, distance and speed are
for --ranged attacks; Deceptive Attack, Rapid Strike and Evaluate for melee ones.

In SKILL's place, a character file (.json, .yaml, .gcs, or - for stdin) and --weapon NAME
(--mode picks one of several modes: GCS's usage in parentheses, melee, ranged, swing or
thrust) or --skill NAME: the base is the sheet's (the weapon's level, or the skill's), the
weapon says whether the attack is ranged and gives Acc, Bulk and Rcl, and a ranged weapon's
minimum ST costs -1 per point the character's ST (halved while tired) falls short (B270).
The options given win over the weapon's. The sheet keeps no shock: pass the last hit's.

Each modifier is printed on its own line with its page, then the effective skill, then the
roll: rolled here (--seed N: the same seed gives the same roll), or the 3d total rolled at the
table (--roll N); --no-roll prints the arithmetic alone. It says whether the attack hits, by
how much, and whether it is a critical; with --recoil (the weapon's Rcl) it also counts the
rapid-fire hits. Nothing is rolled when the effective skill is under 3 (B344). --json prints
{{"attack": {{"effective", "modifiers", "capped"}}, "canAttempt", "roll"?, "result"?,
"rolled"?, "seed"?, "hits"?}} ("rolled": true and the seed when rolled here),
and for a character also "base", "sheetValue", "source", "pointer", "weapon", "skill",
"adjustments" and "options"."""

_ATTACK_LABELS: Final[Mapping[str, Callable[[Mapping[str, Any]], str]]] = {
    "all_out_attack_determined": lambda _: "All-Out Attack (Determined)",
    "move_and_attack": lambda _: "Move and Attack",
    "evaluate": lambda options: f"Evaluate ({plural(int(options['evaluate_turns']), 'turn')})",
    "aim": lambda options: (
        f"Aim ({plural(int(options['aim_turns']), 'turn')}, Acc {int(options.get('acc', 0))})"
    ),
    "braced": lambda _: "braced",
    "rapid_fire": lambda options: f"rapid fire ({int(options['rof'])} shots)",
    "hit_location": lambda options: f"hit location ({rule_location(options['location'])})",
    "size": lambda _: "target's SM",
    "speed_range": lambda _: "speed/range",
    "deceptive": lambda options: f"Deceptive Attack (level {int(options['deceptive'])})",
    "rapid_strike": lambda _: "Rapid Strike",
    "dual_weapon": lambda _: "Dual-Weapon Attack",
    "off_hand": lambda _: "off hand",
    "posture": lambda options: f"posture ({options['posture']})",
    "shock": lambda _: "shock",
    "visibility": lambda _: "visibility",
}
"""How each modifier of :func:`~gurps_character.attack_skill` reads in the table, from the
options it was given."""

_ADJUSTMENT_LABELS: Final[Mapping[str, str]] = {
    "combat_reflexes": "Combat Reflexes (not on the sheet)",
    "encumbrance": "encumbrance",
    "hp_halving": "halved: HP below 1/3",
    "fp_halving": "halved: FP below 1/3",
    "minimum_st": "under the weapon's minimum ST",
}
"""How each adjustment of the character layer to the sheet's number reads in the table."""

_DECIMAL: Final = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


# ================================================================ arguments (shared with defend)


def parse_whole(text: str, name: str) -> int:
    """A whole number written in ASCII digits (a sign allowed); ``invalidArgument`` naming the
    library's argument otherwise (the library checks the range)."""
    value = integer_text(text)
    if value is not None:
        return value
    raise CharacterError(
        INVALID_ARGUMENT, f"{name} must be a whole number, not {text!r}.", {"name": name, "value": text}
    )


def parse_yards(text: str, name: str) -> int | float:
    """A number of yards of at least 0 (``8``, ``2.5``); a whole number stays an ``int``."""
    if _DECIMAL.fullmatch(text):
        value = integer_text(text)
        number: int | float = value if value is not None else float(text)
        if number >= 0:
            return number
    raise CharacterError(
        INVALID_ARGUMENT,
        f"{name} must be a number of at least 0, not {text!r}.",
        {"name": name, "value": text},
    )


def is_number(text: str) -> bool:
    """Whether a positional argument is written as a number (``14``, ``-2``, ``3.5``): a number
    keeps the meaning it always had; anything else names a character file."""
    return _DECIMAL.fullmatch(text) is not None


def given_options(options: Mapping[str, Any], function: Callable[..., Any]) -> dict[str, Any]:
    """The options that differ from ``function``'s defaults: what the command line asked for
    (the others are left to the function, or to the sheet, to fill)."""
    defaults = {
        name: parameter.default
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.default is not inspect.Parameter.empty
    }
    return {
        name: value
        for name, value in options.items()
        if name not in defaults or type(value) is not type(defaults[name]) or value != defaults[name]
    }


def read_character(path: str, max_bytes: int = MAX_DOCUMENT_BYTES) -> Mapping[str, Any]:
    """A character file, read and checked as every command reads one (any format, ``-`` for
    stdin; within ``max_bytes``, ``--max-bytes``); failures name the file."""
    return parse_character_file(path, max_bytes=max_bytes).character


# ================================================================ the report (shared with defend)


def modifier_rows(
    base_label: str, base: int, modifiers: tuple[CombatModifier, ...], label_of: Callable[[str], str]
) -> list[list[str]]:
    """``base``, then one row per modifier: its label, its signed value and its page."""
    rows = [[base_label, str(base), ""]]
    rows += [[label_of(name), f"{value:+d}", page] for name, value, page in modifiers]
    return rows


def adjustment_rows(result: CharacterAttack | CharacterDefense, base_label: str) -> list[list[str]]:
    """Where a character's base came from: the sheet's number and its JSON Pointer, then what the
    layer did to it (each with its page) and the base; the base alone when nothing was done."""
    if not result.adjustments:
        return [[base_label, str(result.base), result.pointer]]
    rows = [["from the sheet", str(result.sheet_value), result.pointer]]
    rows += [[_ADJUSTMENT_LABELS[name], f"{value:+d}", page] for name, value, page in result.adjustments]
    rows.append([base_label, str(result.base), ""])
    return rows


def roll_outcome(effective: int, roll: int, *, defense: bool) -> RollResult | None:
    """The roll judged, or None when the rules allow no roll (an effective skill under 3,
    B344); a roll outside 3-18 is refused either way."""
    result = success_roll(effective, roll)
    return result if can_attempt(effective, defense=defense) else None


def roll_line(roll: Roll3d, effective: int, result: RollResult | None) -> str:
    """``roll 9 against 12: success, margin +3``, ``rolled 9 (seed 7) against 12: ...`` for a
    roll made here (or why no roll may be made)."""
    if result is None:
        why = "no roll, an effective skill under 3 cannot be attempted (B344)"
        return f"{roll.text()} against {effective}: {why}"
    outcome = "success" if result.success else "failure"
    if result.critical:
        outcome = f"critical {outcome}"
    return f"{roll.text()} against {effective}: {outcome}, margin {result.margin:+d}"


# ================================================================ the command


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`~gurps_character.attack_skill` from the command line;
    ``acc`` and ``bulk`` only when given (a weapon fills them)."""
    distance = None if args.distance_yards is None else parse_yards(args.distance_yards, "distance_yards")
    options: dict[str, Any] = {
        "ranged": args.ranged,
        "maneuver": args.maneuver,
        "location": args.location,
        "target_sm": parse_whole(args.target_sm, "target_sm"),
        "distance_yards": distance,
        "target_speed_yards": parse_yards(args.target_speed_yards, "target_speed_yards"),
        "aim_turns": parse_whole(args.aim_turns, "aim_turns"),
        "braced": args.braced,
        "rof": parse_whole(args.rof, "rof"),
        "deceptive": parse_whole(args.deceptive, "deceptive"),
        "rapid_strike": args.rapid_strike,
        "master": args.master,
        "dual_weapon": args.dual_weapon,
        "off_hand": args.off_hand,
        "ambidextrous": args.ambidextrous,
        "evaluate_turns": parse_whole(args.evaluate_turns, "evaluate_turns"),
        "posture": args.posture,
        "shock": parse_whole(args.shock, "shock"),
        "visibility": parse_whole(args.visibility, "visibility"),
    }
    for name, text in (("acc", args.acc), ("bulk", args.bulk)):
        if text is not None:
            options[name] = parse_whole(text, name)
    return options


def _lines(base_rows: list[list[str]], options: Mapping[str, Any], result: AttackSkill) -> list[str]:
    rows = base_rows + [
        [_ATTACK_LABELS[name](options), f"{value:+d}", page] for name, value, page in result.modifiers
    ]
    base = int(base_rows[-1][1])
    total = base + sum(value for _, value, _ in result.modifiers)
    note = f"({total} capped at {result.effective}, B365)" if result.capped else ""
    rows.append(["effective skill", str(result.effective), note])
    return table(rows, right=(1,))


def _refuse_without_file(args: argparse.Namespace) -> None:
    """--weapon, --mode and --skill read a character: refused when SKILL is a number."""
    for option, value in (("--weapon", args.weapon), ("--mode", args.mode), ("--skill", args.skill_name)):
        if value is not None:
            raise CharacterError(
                INVALID_ARGUMENT,
                f"{option} needs a character file in SKILL's place, not the number {args.skill!r}.",
                {"name": option, "value": value},
            )


def _weapon_recoil(character: Mapping[str, Any], result: CharacterAttack) -> int | None:
    """The Rcl of the ranged weapon attacked with, when it has one."""
    from ..stats import combat_stats  # loaded with the character already

    if result.weapon is None or result.options.get("ranged") is not True:
        return None
    for row in combat_stats(character).weapons.ranged:
        if row.name == result.weapon:
            recoil = row.entry.get("recoil")
            return int(recoil) if isinstance(recoil, int | float) and not isinstance(recoil, bool) else None
    return None


def _cmd_attack(args: argparse.Namespace) -> int:
    if not is_number(args.skill):
        return _character_attack(args)
    try:
        base = parse_whole(args.skill, "base_skill")
        _refuse_without_file(args)
        options = _options(args)
        options.setdefault("acc", 0)
        options.setdefault("bulk", 0)
        result = attack_skill(base, **options)
        roll = asked_roll(args, allowed=can_attempt(result.effective))
        recoil = None if args.recoil is None else parse_whole(args.recoil, "recoil")
        outcome = None if roll is None else roll_outcome(result.effective, roll.total, defense=False)
        hits = _hits(options, roll, recoil, outcome)
    except CharacterError as err:
        raise CommandFailure(None, err) from None
    report: dict[str, Any] = {"attack": result.to_dict()}
    lines = _lines([["base skill", str(base), ""]], options, result)
    _say(args, report, lines, result, roll, outcome, hits, recoil)
    return EXIT_OK


def _hits(
    options: Mapping[str, Any], roll: Roll3d | None, recoil: int | None, outcome: RollResult | None
) -> int | None:
    """The rapid-fire hits of a roll (B374), when a roll is made and a recoil given."""
    if roll is None or recoil is None:
        return None
    # a 3 or 4 that succeeds under skill 4 has a margin below 0: it scores one hit
    margin = max(0, outcome.margin) if outcome is not None and outcome.success else -1
    return rapid_fire_hits(options.get("rof", 1), recoil, margin)


def _say(
    args: argparse.Namespace,
    report: dict[str, Any],
    lines: list[str],
    result: AttackSkill,
    roll: Roll3d | None,
    outcome: RollResult | None,
    hits: int | None,
    recoil: int | None,
) -> None:
    if args.json:
        report["canAttempt"] = can_attempt(result.effective)
        if roll is not None:
            report["roll"] = roll.total
            report["result"] = None if outcome is None else outcome.to_dict()
            report.update(roll.to_dict())
        if hits is not None:
            report["hits"] = hits
        say([json_line(report)])
        return
    if roll is not None:
        lines.append(roll_line(roll, result.effective, outcome))
    elif not can_attempt(result.effective):
        lines.append("an effective skill under 3 cannot be attempted (B344)")
    if hits is not None:
        lines.append(f"hits: {hits} of {args.rof} shots (Rcl {recoil})")
    say(lines)


def _character_attack(args: argparse.Namespace) -> int:
    """``attack FILE --weapon NAME | --skill NAME``: the base from the character's sheet."""
    from ..combat_character import character_attack_skill  # needs the schema: only for a file

    character = read_character(args.skill, args.max_bytes)
    try:
        options = given_options(_options(args), attack_skill)
        result = character_attack_skill(
            character, weapon=args.weapon, mode=args.mode, skill=args.skill_name, **options
        )
        roll = asked_roll(args, allowed=can_attempt(result.effective))
        recoil = None if args.recoil is None else parse_whole(args.recoil, "recoil")
        if recoil is None and roll is not None and parse_whole(args.rof, "rof") > 1:
            recoil = _weapon_recoil(character, result)
        outcome = None if roll is None else roll_outcome(result.effective, roll.total, defense=False)
        hits = _hits(result.options, roll, recoil, outcome)
    except CharacterError as err:
        raise CommandFailure(label(args.skill), err) from None
    name = character["profile"]["name"]
    lines = [f"{name}: {result.source}"]
    lines += _lines(adjustment_rows(result, "base skill"), result.options, result.attack)
    _say(args, result.to_dict(), lines, result.attack, roll, outcome, hits, recoil)
    return EXIT_OK


def register(commands: Commands) -> None:
    """Adds ``attack``."""
    attack = add_command(
        commands,
        "attack",
        "the effective skill of one attack by the Basic Set (and its roll)",
        _cmd_attack,
        _EPILOG,
    )
    attack.add_argument(
        "skill",
        metavar="SKILL",
        help="the skill with the weapon, a whole number; or a character file (with --weapon or --skill)",
    )
    attack.add_argument("--weapon", metavar="NAME", help="with a character file: the weapon attacked with")
    attack.add_argument("--mode", metavar="MODE", help="with --weapon: which of its modes (GCS's usage ...)")
    attack.add_argument(
        "--skill", dest="skill_name", metavar="NAME", help="with a character file: the skill attacked with"
    )
    attack.add_argument("--ranged", action="store_true", help="a ranged attack (default: melee)")
    attack.add_argument(
        "--maneuver", default="attack", metavar="M", help="the attacker's maneuver (default: attack)"
    )
    attack.add_argument(
        "--location", default="torso", metavar="L", help="the location aimed at (default: torso)"
    )
    attack.add_argument("--target-sm", default="0", metavar="N", help="the target's Size Modifier")
    attack.add_argument("--distance-yards", metavar="Y", help="ranged: the range in yards")
    attack.add_argument(
        "--target-speed-yards", default="0", metavar="Y", help="ranged: the target's speed (yd/s)"
    )
    attack.add_argument("--aim-turns", default="0", metavar="N", help="ranged: turns of Aim just before")
    attack.add_argument("--acc", metavar="N", help="ranged: the weapon's Accuracy (with an Aim)")
    attack.add_argument("--braced", action="store_true", help="ranged: the weapon is braced (+1 with an Aim)")
    attack.add_argument("--bulk", metavar="N", help="ranged: the weapon's Bulk, e.g. -4")
    attack.add_argument("--rof", default="1", metavar="N", help="ranged: the shots fired (default: 1)")
    attack.add_argument("--deceptive", default="0", metavar="N", help="melee: the level of Deceptive Attack")
    attack.add_argument("--rapid-strike", action="store_true", help="melee: one attack of a Rapid Strike")
    attack.add_argument("--master", action="store_true", help="Trained by a Master or Weapon Master")
    attack.add_argument("--dual-weapon", action="store_true", help="one attack of a Dual-Weapon Attack")
    attack.add_argument("--off-hand", action="store_true", help="an attack with the off hand")
    attack.add_argument("--ambidextrous", action="store_true", help="the attacker is Ambidextrous")
    attack.add_argument(
        "--evaluate-turns", default="0", metavar="N", help="melee: turns of Evaluate on this foe"
    )
    attack.add_argument("--posture", default="standing", metavar="P", help="the attacker's posture")
    attack.add_argument("--shock", default="0", metavar="N", help="the shock penalty from last turn, e.g. -2")
    attack.add_argument("--visibility", default="0", metavar="N", help="the darkness penalty, -10 to 0")
    add_roll_options(attack, no_roll=True)
    attack.add_argument(
        "--recoil", metavar="N", help="the weapon's Rcl, to count the rapid-fire hits of the roll"
    )
    attack.add_argument("--json", action="store_true", help="print the result as one JSON object")
    add_max_bytes_option(attack)
