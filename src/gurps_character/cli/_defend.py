"""``defend``: the value of one active defense, modifier by modifier, and its roll.

The arithmetic is :func:`~gurps_character.defense`; a roll (``--roll N``, or rolled for the GM:
:mod:`._rolling`) is judged by :func:`~gurps_character.success_roll`, and the hits of a
rapid-fire attack a dodge leaves are :func:`~gurps_character.hits_after_dodge`. Nothing is read
or written, so the command answers at once.

``defend FILE KIND`` reads the base from a character file instead (any format the other
commands read; :func:`~gurps_character.combat_character.character_defense`, imported only then):
a first argument that is no kind and a second that is no number. Every command line that worked
with numbers keeps its meaning.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import Any, Final

from ..combat import CombatModifier, Defense, RollResult, defense, hits_after_dodge
from ..errors import CharacterError
from ._attack import (
    adjustment_rows,
    given_options,
    is_number,
    parse_whole,
    read_character,
    roll_line,
    roll_outcome,
)
from ._command import Commands, add_command, add_max_bytes_option
from ._common import EXIT_OK, INVALID_ARGUMENT, PROG, CommandFailure, label
from ._report import json_line, say, table
from ._rolling import Roll3d, add_roll_options, asked_roll

__all__ = ["register"]

_EPILOG: Final = f"""\
examples:
  {PROG} defend dodge 9 --retreat                   9 + 3 = 12
  {PROG} defend parry 11 --parry-style fencing --retreat --parries-so-far 1
  {PROG} defend block 9 --shield-db 2 --attack-direction side --roll 10
  {PROG} defend dodge 8 --vs-ranged --roll 7 --hits 3
  {PROG} defend hero.json dodge --retreat           the sheet's Dodge, encumbered as it carries
  {PROG} defend hero.gcs parry --weapon Rapier --parries-so-far 1

KIND is dodge, parry or block; BASE the score from the sheet (with Combat Reflexes, Enhanced
Defenses and the weapon's parry modifier; Dodge unencumbered, without the shield's DB). The
options are those of the library's defense(): --maneuver-of-defender (the defender's last
maneuver: attack, all_out_attack_determined, all_out_attack_double, all_out_attack_feint,
all_out_attack_strong, all_out_attack_suppression, move_and_attack, all_out_defense_dodge,
all_out_defense_parry, all_out_defense_block, all_out_defense_double, aim, change_posture,
concentrate, do_nothing, evaluate, feint, move, ready or wait); --parry-style weapon, fencing,
unarmed, boxing, judo or karate; --attack-direction front, side or behind; --posture standing,
crouching, kneeling, sitting, crawling or lying; --encumbrance-level 0 to 4.

With a character file first (.json, .yaml, .gcs, or - for stdin) and then KIND, the base is
the sheet's Dodge, Parry or Block, or with --weapon NAME (--mode for one of several modes) that
weapon's parry or block. Dodge is unencumbered, with the encumbrance level the carried weight
gives, and halved while HP or FP is below 1/3 (B419, B426); a parry takes its style from a
fencing weapon or an unarmed skill; Combat Reflexes (+1, B43) is added where the sheet does not
count it (the trait by name, or --combat-reflexes / --no-combat-reflexes). The options given
win over the sheet's.

Each modifier is printed on its own line with its page, then the defense; when the rules
allow none (after an All-Out Attack, from behind, a parry after a Move and Attack) it says
so, and nothing is rolled. Otherwise the defense is rolled here (--seed N: the same seed gives
the same roll), or --roll N gives the 3d total rolled at the table; --no-roll prints the
arithmetic alone. The roll says whether the defense succeeds, by how much, and whether it is a
critical; with --hits (the hits of a rapid-fire attack) it says how many a dodge leaves.
--json prints {{"defense": {{"value", "modifiers", "reason"}}, "roll"?, "result"?, "rolled"?,
"seed"?, "hitsLeft"?}} ("rolled": true and the seed when rolled here),
and for a character also "kind", "base", "sheetValue", "source", "pointer", "weapon", "skill",
"adjustments" and "options"."""

_DEFENSE_LABELS: Final[Mapping[str, Callable[[Mapping[str, Any]], str]]] = {
    "shield_db": lambda _: "shield DB",
    "all_out_defense": lambda _: "All-Out Defense",
    "retreat": lambda _: "retreat",
    "multiple_parries": lambda options: f"earlier parries ({int(options['parries_so_far'])})",
    "encumbrance": lambda options: f"encumbrance (level {int(options['encumbrance_level'])})",
    "unarmed_vs_weapon": lambda _: "bare hands against a weapon",
    "attack_from_side": lambda _: "attack from the side",
    "posture": lambda options: f"posture ({options['posture']})",
    "stunned": lambda _: "stunned",
    "deceptive": lambda options: f"Deceptive Attack (level {int(options['deceptive'])})",
    "feint": lambda _: "feint",
    "dual_weapon_attack": lambda _: "Dual-Weapon Attack",
}
"""How each modifier of :func:`~gurps_character.defense` reads in the table, from the options
it was given."""

_KINDS: Final = ("dodge", "parry", "block")

_NO_DEFENSE: Final[Mapping[str, str]] = {
    "all_out_attack": "no active defense after an All-Out Attack (B365)",
    "attack_from_behind": "no active defense against an attack from behind (B391)",
    "move_and_attack_no_parry": "no parry after a Move and Attack: dodge or block only (B365)",
}


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`~gurps_character.defense` from the command line;
    ``parry_style`` and ``encumbrance_level`` only when given (a character's sheet fills them)."""
    options: dict[str, Any] = {
        "maneuver_of_defender": args.maneuver_of_defender,
        "retreat": args.retreat,
        "parries_so_far": parse_whole(args.parries_so_far, "parries_so_far"),
        "master": args.master,
        "attack_direction": args.attack_direction,
        "posture": args.posture,
        "stunned": args.stunned,
        "deceptive": parse_whole(args.deceptive, "deceptive"),
        "feint": parse_whole(args.feint, "feint"),
        "dual_weapon_attack": args.dual_weapon_attack,
        "shield_db": parse_whole(args.shield_db, "shield_db"),
        "unarmed_vs_weapon": args.unarmed_vs_weapon,
        "vs_ranged": args.vs_ranged,
    }
    if args.parry_style is not None:
        options["parry_style"] = args.parry_style
    if args.encumbrance_level is not None:
        options["encumbrance_level"] = parse_whole(args.encumbrance_level, "encumbrance_level")
    return options


def _lines(base_rows: list[list[str]], kind: str, options: Mapping[str, Any], result: Defense) -> list[str]:
    if result.value is None:
        return [f"{kind} {base_rows[-1][1]}: {_NO_DEFENSE[str(result.reason)]}"]
    rows = base_rows + _modifier_rows(result.modifiers, options)
    rows.append([f"effective {kind}", str(result.value), ""])
    return table(rows, right=(1,))


def _modifier_rows(modifiers: tuple[CombatModifier, ...], options: Mapping[str, Any]) -> list[list[str]]:
    return [[_DEFENSE_LABELS[name](options), f"{value:+d}", page] for name, value, page in modifiers]


def _hits_left(kind: str, hits: int, outcome: RollResult | None) -> int:
    """The hits of a rapid-fire attack a dodge leaves (B375); without a defense, all of them.
    What a parry or block does against several hits no source says: refused."""
    if kind != "dodge":
        raise CharacterError(
            INVALID_ARGUMENT,
            f"hits counts the hits a dodge leaves (B375), not a {kind}.",
            {"name": "hits", "value": hits, "because": {"kind": kind}},
        )
    if outcome is None:
        return hits_after_dodge(hits, False, 0)
    return hits_after_dodge(hits, outcome.success, outcome.margin, outcome.critical)


def _is_character(args: argparse.Namespace) -> bool:
    """``defend FILE KIND``: a first argument that is no kind and a second that is no number;
    anything else is read as ``defend KIND BASE``, as it always was."""
    return args.kind not in _KINDS and not is_number(args.base)


def _cmd_defend(args: argparse.Namespace) -> int:
    if _is_character(args):
        return _character_defense(args)
    try:
        base = parse_whole(args.base, "base")
        _refuse_without_file(args)
        options = _options(args)
        options.setdefault("parry_style", "weapon")
        options.setdefault("encumbrance_level", 0)
        result = defense(args.kind, base, **options)
        roll, outcome, hits, hits_left = _roll(args, args.kind, result)
    except CharacterError as err:
        raise CommandFailure(None, err) from None
    lines = _lines([[f"base {args.kind}", str(base), ""]], args.kind, options, result)
    _say(args, {"defense": result.to_dict()}, lines, result, roll, outcome, hits, hits_left)
    return EXIT_OK


def _refuse_without_file(args: argparse.Namespace) -> None:
    """--weapon, --mode and --combat-reflexes read a character: refused with numbers."""
    for option, value in (
        ("--weapon", args.weapon),
        ("--mode", args.mode),
        ("--combat-reflexes", args.combat_reflexes),
    ):
        if value is not None:
            raise CharacterError(
                INVALID_ARGUMENT,
                f"{option} needs a character file (defend FILE KIND), not the number {args.base!r}.",
                {"name": option, "value": value},
            )


def _roll(
    args: argparse.Namespace, kind: str, result: Defense
) -> tuple[Roll3d | None, RollResult | None, int | None, int | None]:
    """``(roll, outcome, hits, hits left)`` from --roll (or a roll made here, when a defense is
    possible and --no-roll is not given) and --hits."""
    roll = asked_roll(args, allowed=result.value is not None)
    hits = None if args.hits is None else parse_whole(args.hits, "hits")
    outcome = None
    if roll is not None and result.value is not None:
        outcome = roll_outcome(result.value, roll.total, defense=True)
    hits_left = None
    if hits is not None and roll is not None:
        hits_left = _hits_left(kind, hits, outcome)
    return roll, outcome, hits, hits_left


def _say(
    args: argparse.Namespace,
    report: dict[str, Any],
    lines: list[str],
    result: Defense,
    roll: Roll3d | None,
    outcome: RollResult | None,
    hits: int | None,
    hits_left: int | None,
) -> None:
    if args.json:
        if roll is not None:
            report["roll"] = roll.total
            report["result"] = None if outcome is None else outcome.to_dict()
            report.update(roll.to_dict())
        if hits_left is not None:
            report["hitsLeft"] = hits_left
        say([json_line(report)])
        return
    if roll is not None and result.value is not None:
        lines.append(roll_line(roll, result.value, outcome))
    if hits_left is not None:
        lines.append(f"hits: {hits_left} of {hits} still land")
    say(lines)


def _character_defense(args: argparse.Namespace) -> int:
    """``defend FILE KIND [--weapon NAME]``: the base from the character's sheet."""
    from ..combat_character import character_defense  # needs the schema: only for a file

    path, kind = args.kind, args.base
    character = read_character(path, args.max_bytes)
    try:
        options = given_options(_options(args), defense)
        result = character_defense(
            character,
            kind,
            weapon=args.weapon,
            mode=args.mode,
            combat_reflexes=args.combat_reflexes,
            **options,
        )
        roll, outcome, hits, hits_left = _roll(args, kind, result.defense)
    except CharacterError as err:
        raise CommandFailure(label(path), err) from None
    lines = [f"{character['profile']['name']}: {result.source}"]
    lines += _lines(adjustment_rows(result, f"base {kind}"), kind, result.options, result.defense)
    _say(args, result.to_dict(), lines, result.defense, roll, outcome, hits, hits_left)
    return EXIT_OK


def register(commands: Commands) -> None:
    """Adds ``defend``."""
    defend = add_command(
        commands,
        "defend",
        "the value of one active defense by the Basic Set (and its roll)",
        _cmd_defend,
        _EPILOG,
    )
    defend.add_argument("kind", metavar="KIND", help="dodge, parry or block; or a character file (then KIND)")
    defend.add_argument(
        "base", metavar="BASE", help="the score from the sheet, a whole number; or KIND after a file"
    )
    defend.add_argument(
        "--weapon", metavar="NAME", help="with a character file: the weapon parrying or blocking"
    )
    defend.add_argument("--mode", metavar="MODE", help="with --weapon: which of its modes (GCS's usage ...)")
    defend.add_argument(
        "--combat-reflexes",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with a character file: whether it has Combat Reflexes (default: a trait so called)",
    )
    defend.add_argument(
        "--maneuver-of-defender",
        default="attack",
        metavar="M",
        help="the defender's last maneuver (default: attack)",
    )
    defend.add_argument("--retreat", action="store_true", help="the defender retreats")
    defend.add_argument(
        "--parry-style", metavar="S", help="how the parry is made (default: weapon, or the sheet's)"
    )
    defend.add_argument(
        "--parries-so-far", default="0", metavar="N", help="earlier parries this turn, same hand"
    )
    defend.add_argument("--master", action="store_true", help="Trained by a Master or Weapon Master")
    defend.add_argument("--attack-direction", default="front", metavar="D", help="front, side or behind")
    defend.add_argument("--posture", default="standing", metavar="P", help="the defender's posture")
    defend.add_argument("--stunned", action="store_true", help="the defender is stunned")
    defend.add_argument("--deceptive", default="0", metavar="N", help="the attacker's Deceptive Attack level")
    defend.add_argument("--feint", default="0", metavar="N", help="the attacker's feint margin")
    defend.add_argument(
        "--dual-weapon-attack", action="store_true", help="both attacks of a Dual-Weapon Attack"
    )
    defend.add_argument("--shield-db", default="0", metavar="N", help="the shield's or cloak's DB")
    defend.add_argument(
        "--encumbrance-level",
        metavar="N",
        help="0 (none) to 4 (extra-heavy); default 0, or what a character carries",
    )
    defend.add_argument("--unarmed-vs-weapon", action="store_true", help="a bare-handed parry of a weapon")
    defend.add_argument("--vs-ranged", action="store_true", help="the attack is a ranged one")
    add_roll_options(defend, no_roll=True)
    defend.add_argument(
        "--hits", metavar="N", help="the rapid-fire hits, to count those the dodge rolled leaves"
    )
    defend.add_argument("--json", action="store_true", help="print the result as one JSON object")
    add_max_bytes_option(defend)
