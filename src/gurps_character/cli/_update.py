"""The writing commands: the pool commands (``damage``, ``heal``, ``fatigue``, ``recover``) and ``update``.

They never leave a half-written file: the new document is validated
(:func:`~gurps_character.serialize_character`) and written with :func:`~._io.atomic_write` (or to
stdout). A ``.gcs`` file updated in place (or ``-o OUT.gcs`` from one) gets play written back into
it, every other byte kept (:func:`~gurps_character.export_gcs` with the file read as base, locked
from reading to renaming), never a gurps-character document over it.

The pool commands go through :func:`~gurps_character.change_pool` and report on stderr the pool's
new state (B419, B426) and the follow-ups the rules now owe, as text or, with
``--follow-ups-json``, as :meth:`PoolChange.to_dict` on one JSON line.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from .._json import JsonTextError, js_number, loads
from ..conditions import FollowUp, PoolChange, change_pool
from ..errors import CharacterError
from ..load import Parsed, parse_character
from ..update import PoolName, update_character
from ._command import Commands, add_command, add_max_bytes_option, integer_text
from ._common import EXIT_OK, INVALID_ARGUMENT, PROG, STDIN, STDIN_LABEL, CommandFailure, label
from ._formats import DEFAULT_SUFFIX, WRITERS, is_imported, writer_for
from ._io import atomic_write, locked_for_update, read_input, read_source, unwritable, write_output
from ._report import WHEN, json_line, roll_text, say, state_text

__all__ = ["add_write_options", "change_and_write", "register"]

_POOL_EPILOGS: Final = {
    "damage": f"""\
examples:
  {PROG} damage hero.json 5 > hurt.json
  {PROG} damage --in-place hero.json 5
  {PROG} damage --in-place hero.gcs 5      written into the GCS file (its damage and date)
  {PROG} damage -o hurt.json --now 2026-10-05T10:00:00Z hero.json 5

HP stop at -10 x HP. The new document goes to stdout, to -o OUT or back to the file
(--in-place), written atomically; on any error nothing is written and the exit status is 2.
A .gcs file (--in-place, or -o OUT.gcs from one) gets play written back into it as 'export
--onto' writes it: HP and FP damage and the date changed, every other byte kept.

stderr (unless -q) reports the change, the pool's new state and what the rules now owe:
  hero.json: HP 11 -> -19 (max 13): dying (1)
  owed: consciousness check, HT-1, at the start of the next turn (B419)
  owed: death check at -13 HP, HT (B419)
A change stopped by a bound adds '; clamped: took -141 of -1000'. With --follow-ups-json
the report is instead one JSON line: {{"pool", "requested", "taken", "clamped", "before",
"after", "crossed", "followUps", "spill"?}}.""",
    "heal": f"""\
examples:
  {PROG} heal --in-place hero.json 3

HP never go above the maximum. Output and report as for 'damage' (healing owes nothing).""",
    "fatigue": f"""\
examples:
  {PROG} fatigue --in-place hero.json 2
  {PROG} fatigue --in-place --spill hero.json 5

FP stop at -FP (unconscious). Each FP spent at or below 0 FP also costs 1 HP (B426): the
report says 'owed: 3 HP injury from fatigue below 0 FP (B426), not applied; use --spill';
with --spill that injury is taken off HP in the same write (both pools change or neither)
and the HP change and its follow-ups are reported too. Output and report as for 'damage'.""",
    "recover": f"""\
examples:
  {PROG} recover --in-place hero.json 2

FP never go above the maximum. Output and report as for 'damage' (recovery owes nothing).""",
}

_UPDATE_EPILOG: Final = f"""\
examples:
  {PROG} update --in-place hero.json /secondary/hp/current=-3
  {PROG} update hero.json /secondary/hp/current=10 /secondary/fp/current=4 > new.json

VALUE is JSON (text in double quotes). All changes apply or none does; see '{PROG} fields'
for what may change and its bounds. Output as for 'damage'."""

_POOL_HELP: Final = {
    "damage": "take AMOUNT hit points off",
    "heal": "restore AMOUNT hit points",
    "fatigue": "spend AMOUNT fatigue points",
    "recover": "recover AMOUNT fatigue points",
}

_POOL_ACTIONS: Final[dict[str, tuple[PoolName, int]]] = {
    "damage": ("hp", -1),
    "heal": ("hp", 1),
    "fatigue": ("fp", -1),
    "recover": ("fp", 1),
}
"""Each pool command: the pool it changes and the sign of the change."""


# ================================================================ arguments


def _parse_now(text: str | None) -> datetime | None:
    """``--now``: an ISO 8601 time with a time zone (``2026-10-05T10:00:00Z``), or None."""
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None or moment.utcoffset() is None:
        reason = "is not an ISO 8601 time" if moment is None else "has no time zone"
        raise CharacterError(
            INVALID_ARGUMENT,
            f"--now {text!r} {reason}; write it like 2026-10-05T10:00:00Z or 2026-10-05T12:00:00+02:00.",
            {"name": "--now", "value": text},
        )
    return moment


def _parse_amount(text: str) -> int:
    """AMOUNT: a non-negative whole number written in ASCII digits.

    A negative amount is refused here with the library's own code, wording and details
    (``apply_damage(doc, -5)`` refuses it the same way): :func:`change_pool` takes a signed
    change, and ``damage -5`` must not heal.
    """
    amount = integer_text(text)
    if amount is not None and amount >= 0:
        return amount
    if amount is not None:
        raise CharacterError(
            "invalidAmount",
            f"The amount must be a non-negative integer, not {amount!r}.",
            {"amount": amount},
        )
    raise CharacterError(
        "invalidAmount",
        f"The amount must be a non-negative integer, not {text!r}.",
        {"amount": text},
    )


def _parse_change(text: str) -> tuple[str, Any]:
    """``POINTER=VALUE`` with VALUE as JSON: ``/secondary/hp/current=-3``."""
    pointer, equals, value = text.partition("=")
    if not equals or not pointer.startswith("/"):
        raise CharacterError(
            INVALID_ARGUMENT,
            f"{text!r} is not POINTER=VALUE (for example /secondary/hp/current=-3).",
            {"name": "POINTER=VALUE", "value": text},
        )
    try:
        return pointer, loads(value)
    except JsonTextError as err:
        raise CharacterError(
            "invalidValue",
            f"{pointer}: {value!r} is not a JSON value ({err.reason}); write text in double quotes.",
            {"pointer": pointer, "value": value},
        ) from None


def _arguments_or_fail(label_text: str, parse: Callable[[], Any]) -> Any:
    try:
        return parse()
    except CharacterError as err:
        raise CommandFailure(label_text, err) from None


# ================================================================ what to tell the user


@dataclass(frozen=True, slots=True)
class _Outcome:
    """A changed document, and what to tell the user about it on stderr."""

    document: Mapping[str, Any]
    notes: tuple[str, ...] = ()


def _follow_up_text(follow_up: FollowUp) -> str:
    """One follow-up as a person reads it, with its Basic Set page."""
    page = f"({follow_up.reference})"
    kind = follow_up.kind
    if kind == "consciousnessCheck":
        when = WHEN.get(follow_up.when or "", follow_up.when or "")
        return f"consciousness check, {roll_text(follow_up.attribute, follow_up.modifier)}, {when} {page}"
    if kind == "deathCheck":
        at = js_number(follow_up.at) if follow_up.at is not None else "?"
        return f"death check at {at} HP, {roll_text(follow_up.attribute, follow_up.modifier)} {page}"
    if kind == "fatigueInjury":
        done = "applied" if follow_up.applied else "not applied; use --spill"
        return f"{follow_up.amount} HP injury from fatigue below 0 FP {page}, {done}"
    if kind == "death":
        return f"death {page}"
    if kind == "unconsciousness":
        return f"unconsciousness {page}"
    return f"{kind} {page}"  # a kind added to the library later: still shown


def _change_line(label_text: str, change: PoolChange) -> str:
    """``hero.json: HP 11 -> 6 (max 13): reeling``, with ``; clamped: took -141 of -1000``."""
    old, new, top = (
        js_number(value) for value in (change.before.current, change.after.current, change.after.max)
    )
    line = f"{label_text}: {change.pool.upper()} {old} -> {new} (max {top}): {state_text(change.after)}"
    if change.clamped:
        line += f"; clamped: took {change.taken:+d} of {change.requested:+d}"
    return line


def _pool_notes(label_text: str, change: PoolChange, *, as_json: bool = False) -> tuple[str, ...]:
    """What a pool change tells the user on stderr.

    The change (and, with ``--spill``, the HP change it caused), each with the pool's new state
    and a clamp note; then one ``owed:`` line per follow-up. With ``as_json``: instead,
    :meth:`PoolChange.to_dict` on one line.
    """
    if as_json:
        return (json_line(change.to_dict()),)
    lines = [_change_line(label_text, change)]
    if change.spill is not None:
        lines.append(_change_line(label_text, change.spill))
    lines.extend(f"owed: {_follow_up_text(follow_up)}" for follow_up in change.follow_ups)
    return tuple(lines)


def _pool_outcome(
    args: argparse.Namespace, parsed: Parsed, label_text: str, amount: int, now: datetime | None
) -> _Outcome:
    pool, sign = _POOL_ACTIONS[args.command]
    spill: bool = args.spill
    change = change_pool(parsed.character, pool, sign * amount, now=now, spill_to_hp=spill)
    return _Outcome(change.document, _pool_notes(label_text, change, as_json=args.follow_ups_json))


def _update_outcome(
    parsed: Parsed, label_text: str, changes: list[tuple[str, Any]], now: datetime | None
) -> _Outcome:
    document = update_character(parsed.character, changes, now=now)
    notes = tuple(
        f"{label_text}: {pointer} = {json.dumps(value, ensure_ascii=False)}" for pointer, value in changes
    )
    return _Outcome(document, notes)


# ================================================================ writing


def _destination(args: argparse.Namespace) -> str | None:
    """Where the new document goes: a path, or None for stdout."""
    if args.in_place:
        if args.path == STDIN:
            raise CommandFailure(
                STDIN_LABEL,
                CharacterError(
                    INVALID_ARGUMENT, "--in-place needs a file, not stdin.", {"name": "--in-place"}
                ),
            )
        return str(args.path)
    output: str | None = args.output
    if output not in (None, STDIN) and is_imported(output) and not _reads_gcs(args.path):
        raise CommandFailure(
            label(args.path),
            CharacterError(
                INVALID_ARGUMENT,
                f"-o {output}: play is written into a GCS file only when PATH is that .gcs file; to write "
                f"this document as GCS, use '{PROG} export' (--onto for the file it was imported from).",
                {"name": "-o", "value": output},
            ),
        )
    return None if output in (None, STDIN) else output


def _reads_gcs(path: str) -> bool:
    """Whether PATH may be the GCS file play is written into: a ``.gcs`` file, or stdin (whose
    bytes :func:`~gurps_character.export_gcs` refuses unless they are that character's file)."""
    return path == STDIN or is_imported(path)


def _gcs_bytes(args: argparse.Namespace, document: Mapping[str, Any], base: bytes) -> bytes:
    """The GCS file ``base`` with the document's HP and FP damage written in, every other byte
    kept (:func:`~gurps_character.export_gcs`'s write-back, as ``export --onto`` writes it)."""
    from ..gcs import export_gcs  # only a write into a .gcs file pays for the exporter

    try:
        exported = export_gcs(document, base=base, now=_parse_now(args.now), max_bytes=args.max_bytes)
        return exported.text.encode("utf-8")
    except CharacterError as err:
        raise CommandFailure(label(args.path), err) from None


def _serialized(
    args: argparse.Namespace, outcome: _Outcome, destination: str | None, base: bytes | None = None
) -> bytes:
    """The new document's bytes (serializing validates it), in the destination's format
    (``-o hurt.yaml``), or else in the input's (stdout), or else JSON: a file updated in place
    keeps its format. A ``.gcs`` destination gets play written into the GCS file read
    (``base``, the input's bytes)."""
    if destination is not None and base is not None and is_imported(destination):
        return _gcs_bytes(args, outcome.document, base)
    write = writer_for(destination) if destination is not None else None
    write = write or writer_for(args.path) or WRITERS[DEFAULT_SUFFIX]
    try:
        return write(outcome.document).encode("utf-8")
    except CharacterError as err:
        raise CommandFailure(label(args.path), err) from None


_Change = Callable[[Parsed], _Outcome]
"""What a writing command does to the checked document (a ``CharacterError`` names the file)."""


def change_and_write(args: argparse.Namespace, change: _Change) -> _Outcome:
    """Reads and checks ``args.path``, changes it with ``change`` and writes the new document
    where ``args`` say (``-o``, ``--in-place`` or stdout); returns the outcome, notes unprinted.

    With ``--in-place`` the file is locked from reading until the new one is renamed over it, so
    two runs on one file apply both changes, one after the other: the whole read-modify-write
    must go through here.

    Raises:
        CommandFailure: The input, the change or the write failed; nothing was written.
    """
    destination = _destination(args)
    limit: int = args.max_bytes
    if args.in_place:
        path: str = args.path
        try:
            with locked_for_update(path, limit) as data:
                outcome = change(parse_character(read_source(path, data, max_bytes=limit), max_bytes=limit))
                serialized = _serialized(args, outcome, path, data)
                try:
                    atomic_write(path, serialized)
                except OSError as err:
                    raise CommandFailure(path, unwritable(err)) from None
        except CharacterError as err:
            raise CommandFailure(label(path), err) from None
    else:
        try:
            data = read_input(args.path, limit)  # kept: a .gcs output is this file with play written in
            outcome = change(parse_character(read_source(args.path, data, max_bytes=limit), max_bytes=limit))
        except CharacterError as err:
            raise CommandFailure(label(args.path), err) from None
        write_output(destination, _serialized(args, outcome, destination, data))
    return outcome


def _change_and_report(args: argparse.Namespace, change: _Change) -> int:
    outcome = change_and_write(args, change)
    if not args.quiet:
        say(outcome.notes, err=True)
    return EXIT_OK


def _cmd_pool(args: argparse.Namespace) -> int:
    label_text = label(args.path)
    amount: int = _arguments_or_fail(label_text, lambda: _parse_amount(args.amount))
    now: datetime | None = _arguments_or_fail(label_text, lambda: _parse_now(args.now))
    _destination(args)  # refuse a wrong destination before reading stdin
    return _change_and_report(args, lambda parsed: _pool_outcome(args, parsed, label_text, amount, now))


def _cmd_update(args: argparse.Namespace) -> int:
    label_text = label(args.path)
    changes: list[tuple[str, Any]] = _arguments_or_fail(
        label_text, lambda: [_parse_change(text) for text in args.changes]
    )
    now: datetime | None = _arguments_or_fail(label_text, lambda: _parse_now(args.now))
    _destination(args)
    return _change_and_report(args, lambda parsed: _update_outcome(parsed, label_text, changes, now))


# ================================================================ the parser


def add_write_options(parser: argparse.ArgumentParser, *, pool: bool = False) -> None:
    """``-o OUT`` | ``--in-place``, ``--now``, ``-q`` (and, for pools, ``--follow-ups-json``),
    ``--max-bytes``."""
    target = parser.add_mutually_exclusive_group()
    target.add_argument(
        "-o", "--output", metavar="OUT", help="write the new document to OUT (default: stdout)"
    )
    target.add_argument("-i", "--in-place", action="store_true", help="replace PATH with the new document")
    parser.add_argument(
        "--now", metavar="ISO", help="the time for meta.updatedAt, with a time zone (default: now)"
    )
    report = parser.add_mutually_exclusive_group() if pool else parser
    report.add_argument("-q", "--quiet", action="store_true", help="do not report the change on stderr")
    if pool:
        report.add_argument(
            "--follow-ups-json",
            action="store_true",
            help="report the change on stderr as one JSON line (state, thresholds crossed, follow-ups)",
        )
    add_max_bytes_option(parser)


def register(commands: Commands) -> None:
    """Adds ``damage``, ``heal``, ``fatigue``, ``recover`` and ``update``."""
    for name, summary in _POOL_HELP.items():
        pool = add_command(commands, name, summary, _cmd_pool, _POOL_EPILOGS[name])
        pool.add_argument("path", metavar="PATH", help="a character file, or - for stdin")
        pool.add_argument("amount", metavar="AMOUNT", help="a whole number of points, 0 or more")
        add_write_options(pool, pool=True)
        if name == "fatigue":
            pool.add_argument(
                "--spill",
                action="store_true",
                help="also take the HP injury of fatigue below 0 FP off HP (B426), in the same write",
            )
        else:
            pool.set_defaults(spill=False)
    update = add_command(
        commands, "update", "set in-play values: POINTER=VALUE ...", _cmd_update, _UPDATE_EPILOG
    )
    update.add_argument("path", metavar="PATH", help="a character file, or - for stdin")
    update.add_argument("changes", nargs="+", metavar="POINTER=VALUE", help="a JSON Pointer and a JSON value")
    add_write_options(update)
