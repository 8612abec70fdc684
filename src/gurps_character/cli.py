"""The ``gurps-character`` command line: check, inspect and update character files without Python.

Every command is one small function (``_cmd_<name>``) that receives the parsed arguments and
returns the exit status; :func:`main` builds the parser and turns every expected failure into a
one-line message on stderr (``error: <file>: <code>: <message>``) and exit status 2. No input, however
broken, produces a Python traceback.

Exit statuses: 0 success (for ``check``: every file valid and rules-compliant); 1 ``check`` found a
valid file that is not rules-compliant; 2 a file could not be read, is invalid, or an argument is
wrong (nothing was written).

Writing commands (``damage``, ``heal``, ``fatigue``, ``recover``, ``update``) never leave a
half-written file: the new document is validated (:func:`serialize_character`), written to a
temporary file in the target's directory, flushed to disk and moved over the target with
:func:`os.replace`. The pool commands go through :func:`~gurps_character.change_pool` (which
writes exactly what :func:`~gurps_character.apply_damage` and its siblings write) and report on
stderr the pool's new state (B419, B426) and the follow-ups the rules now owe (consciousness
and death checks, unconsciousness, the HP injury of fatigue below 0 FP), as text or, with
``--follow-ups-json``, as :meth:`PoolChange.to_dict` on one JSON line.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any, Final, TextIO

from . import __version__
from ._json import JsonTextError, js_number, loads
from .conditions import Condition, FollowUp, PoolChange, PoolState, Roll, change_pool, get_condition
from .constants import MAX_DOCUMENT_BYTES, SCHEMA
from .errors import CharacterError
from .formula import RecomputeResult, plain_value, recompute
from .load import Parsed, load_document, parse_character, schema_error, serialize_character
from .stats import CombatStats, combat_stats
from .update import PoolName, UpdatableField, get_updatable_fields, update_character
from .validate import validate_character
from .verify import VerificationReport

__all__ = ["main"]

PROG: Final = "gurps-character"
STDIN: Final = "-"
STDIN_LABEL: Final = "<stdin>"

EXIT_OK: Final = 0
EXIT_NOT_COMPLIANT: Final = 1
EXIT_ERROR: Final = 2

_PROGRESS_MIN_FILES: Final = 2
"""``check``/``validate`` show a progress line on a terminal's stderr from this many files on."""

_READ_CHUNK: Final = 1 << 16

# CLI-level error codes, beside the library's (CharacterError.code).
UNREADABLE: Final = "unreadable"
UNWRITABLE: Final = "unwritable"
NO_FILES: Final = "noJsonFiles"
INVALID_ARGUMENT: Final = "invalidArgument"


class _Failure(Exception):
    """A command failed on one input: the file (if any) and the library-style error."""

    def __init__(self, label: str | None, error: CharacterError) -> None:
        super().__init__(error.message)
        self.label = label
        self.error = error


# ================================================================ reading inputs


def _label(path: str) -> str:
    """How messages name an input: the path as given, ``<stdin>`` for ``-``."""
    return STDIN_LABEL if path == STDIN else path


def _too_large(size: int, limit: int) -> CharacterError:
    # The library's own wording and details for the same failure.
    return CharacterError(
        "tooLarge",
        f"The document is {size} bytes, over the limit of {limit}.",
        {"size": size, "limit": limit},
    )


def _read_stream(stream: IO[bytes], limit: int) -> bytes:
    """Reads a pipe or device up to ``limit`` bytes; one byte more and it is refused unread."""
    kept: list[bytes] = []
    size = 0
    while size <= limit and (chunk := stream.read(min(_READ_CHUNK, limit + 1 - size))):
        kept.append(chunk)
        size += len(chunk)
    if size > limit:
        raise CharacterError(
            "tooLarge",
            f"The document is over the limit of {limit} bytes (it was read no further).",
            {"size": size, "limit": limit},
        )
    return b"".join(kept)


def _unreadable(err: OSError) -> CharacterError:
    reason = err.strerror or str(err) or type(err).__name__
    return CharacterError(UNREADABLE, f"cannot read the file: {reason}.", {"reason": reason})


def read_input(path: str, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The bytes of a file, or of stdin for ``-``, refusing more than ``limit`` bytes.

    A regular file's size is known up front and reported exactly; a pipe (stdin) or device is read
    no further than one byte over the limit.

    Raises:
        CharacterError: ``unreadable`` (missing, a directory, no permission ...) or ``tooLarge``.
    """
    try:
        if path == STDIN:
            stream: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
            if stream is None:
                raise OSError(0, "stdin is not available")
            return _read_stream(stream, limit)
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISREG(info.st_mode) and info.st_size > limit:
                raise _too_large(info.st_size, limit)
            return _read_stream(handle, limit)
    except OSError as err:
        raise _unreadable(err) from None


def _load(path: str) -> Parsed:
    """Reads and fully checks one character (size, JSON, envelope, schema, rules)."""
    try:
        return parse_character(read_input(path))
    except CharacterError as err:
        raise _Failure(_label(path), err) from None


# ================================================================ check and validate (many files)


@dataclass(frozen=True, slots=True)
class _Input:
    """One file to check: its path (``-`` for stdin), stdin's bytes, or an error found up front.

    Plain, picklable data (errors as their ``to_dict()``): it is sent to worker processes.
    """

    path: str
    data: bytes | None = None
    error: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class _Result:
    """The outcome for one input. Plain, picklable data: it crosses process boundaries."""

    path: str
    error: dict[str, Any] | None = None
    report: VerificationReport | None = None

    @property
    def status(self) -> int:
        """This file's exit status: 2 unreadable or invalid, 1 not rules-compliant, else 0."""
        if self.error is not None:
            return EXIT_ERROR
        if self.report is not None and not self.report.rules_compliant:
            return EXIT_NOT_COMPLIANT
        return EXIT_OK


def _json_files(directory: str) -> list[_Input]:
    """Every regular ``*.json`` file below ``directory``, sorted (symlinked folders not followed).

    A folder that cannot be listed becomes an ``unreadable`` input rather than silently nothing.
    """
    found: list[tuple[tuple[str, ...], _Input]] = []

    def add(path: str, error: dict[str, Any] | None = None) -> None:
        found.append((tuple(os.path.relpath(path, directory).split(os.sep)), _Input(path, error=error)))

    def unlistable(err: OSError) -> None:
        add(str(err.filename or directory), _unreadable(err).to_dict())

    for root, _dirs, files in os.walk(directory, onerror=unlistable):
        for name in files:
            path = os.path.join(root, name)
            if name.endswith(".json") and os.path.isfile(path):
                add(path)
    return [item for _key, item in sorted(found, key=lambda entry: entry[0])]


def _expand(paths: Iterable[str]) -> list[_Input]:
    """Files, folders (recursively ``*.json``) and ``-`` turned into the list of inputs, in order."""
    inputs: list[_Input] = []
    for path in paths:
        if path == STDIN:
            try:
                inputs.append(_Input(path, data=read_input(path)))
            except CharacterError as err:
                inputs.append(_Input(path, error=err.to_dict()))
        elif os.path.isdir(path):
            files = _json_files(path)
            if not files:
                message = "the folder contains no *.json file."
                inputs.append(
                    _Input(path, error=CharacterError(NO_FILES, message, {"folder": path}).to_dict())
                )
            inputs.extend(files)
        else:
            inputs.append(_Input(path))
    return inputs


def _input_bytes(item: _Input) -> bytes:
    return item.data if item.data is not None else read_input(item.path)


def _check_one(item: _Input) -> _Result:
    """Parses and verifies one input (runs in a worker process with ``--jobs``)."""
    if item.error is not None:
        return _Result(item.path, error=item.error)
    try:
        return _Result(item.path, report=parse_character(_input_bytes(item)).report)
    except CharacterError as err:
        return _Result(item.path, error=err.to_dict())


def _validate_one(item: _Input) -> _Result:
    """Schema-checks one input: size, JSON, envelope and schema; no rule check."""
    if item.error is not None:
        return _Result(item.path, error=item.error)
    try:
        document = load_document(_input_bytes(item))
    except CharacterError as err:
        return _Result(item.path, error=err.to_dict())
    result = validate_character(document)
    if result.valid:
        return _Result(item.path)
    return _Result(item.path, error=schema_error(result.errors).to_dict())


def _results(inputs: Sequence[_Input], work: Callable[[_Input], _Result], jobs: int) -> Iterator[_Result]:
    """Runs ``work`` on every input, in ``jobs`` processes when asked; yields in input order."""
    if jobs <= 1 or len(inputs) <= 1:
        yield from map(work, inputs)
        return
    from concurrent.futures import ProcessPoolExecutor  # only --jobs pays for importing it
    from concurrent.futures.process import BrokenProcessPool

    chunk = max(1, min(16, len(inputs) // (jobs * 4)))
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(inputs))) as pool:
            yield from pool.map(work, inputs, chunksize=chunk)
    except (BrokenProcessPool, OSError) as err:
        message = f"the worker processes failed ({str(err) or type(err).__name__}); try without --jobs."
        raise _Failure(None, CharacterError(INVALID_ARGUMENT, message, {"name": "--jobs"})) from None


class _Progress:
    """A ``checking: 3/40 files done`` line on stderr, redrawn in place.

    Shown only when stderr is a terminal and there are many files; cleared before each result is
    printed so that results and the progress line never mix.
    """

    def __init__(self, stream: TextIO, total: int) -> None:
        self._stream = stream
        self._total = total
        self._enabled = total >= _PROGRESS_MIN_FILES and _isatty(stream)
        self._shown = False

    def show(self, done: int) -> None:
        if self._enabled and done < self._total:
            self._stream.write(f"\r\x1b[Kchecking: {done}/{self._total} files done")
            self._stream.flush()
            self._shown = True

    def clear(self) -> None:
        if self._shown:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._shown = False


def _isatty(stream: IO[Any]) -> bool:
    try:
        return stream.isatty()
    except (ValueError, OSError):
        return False


def _run_many(
    paths: Sequence[str], work: Callable[[_Input], _Result], jobs: int, emit: Callable[[_Result], None]
) -> list[_Result]:
    inputs = _expand(paths)
    progress = _Progress(sys.stderr, len(inputs))
    progress.show(0)
    results: list[_Result] = []
    try:
        for result in _results(inputs, work, jobs):
            results.append(result)
            progress.clear()
            emit(result)
            sys.stdout.flush()
            progress.show(len(results))
    finally:
        progress.clear()
    return results


def _schema_lines(error: dict[str, Any], indent: str) -> list[str]:
    """Each schema error of a ``schema`` failure: its pointer and message."""
    lines = []
    for item in error.get("details", {}).get("errors", []):
        pointer, message = item.get("pointer", ""), item.get("message", "")
        where = pointer or "(root)"
        lines.append(
            f"{indent}{message}" if message.startswith(f"{where}: ") else f"{indent}{where}: {message}"
        )
    return lines


def _error_lines(error: dict[str, Any], indent: str, label: str | None = None) -> list[str]:
    """A failure as text: ``error: [<file>: ]<code>: <message>``, then each schema error."""
    where = f"{label}: " if label else ""
    if error["code"] == "schema":
        count = len(error.get("details", {}).get("errors", []))
        head = f"{indent}error: {where}schema: the document does not match the schema"
        return [f"{head} ({_plural(count, 'error')}):", *_schema_lines(error, indent + "  ")]
    return [f"{indent}error: {where}{error['code']}: {error['message']}"]


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


_CONTROL: Final = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
_CONTROL_IN_CELL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _escape_control(match: re.Match[str]) -> str:
    return repr(match.group())[1:-1]


def _printable(text: str) -> str:
    """Control characters from a file (escape sequences, tabs ...) shown escaped, never obeyed."""
    return _CONTROL.sub(_escape_control, text)


def _say(text: str, *, err: bool = False) -> None:
    """Prints human-readable text (which may quote the file) to stdout, or stderr with ``err``."""
    print(_printable(text), file=sys.stderr if err else sys.stdout)


def _value_text(value: Any) -> str:
    """A document or formula value as a person reads it (dice as notation, numbers as JS prints them)."""
    value = plain_value(value)
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return ", ".join(_value_text(item) for item in value)
    if isinstance(value, Mapping) and "notation" in value:
        return _value_text(value["notation"])
    return json.dumps(value, ensure_ascii=False, default=_json_default)


def _json_default(value: object) -> Any:
    return dict(value) if isinstance(value, Mapping) else str(value)


def _report_lines(report: VerificationReport) -> list[str]:
    lines = [f"  rules-compliant: {'yes' if report.rules_compliant else 'no'}"]
    if report.experimental:
        lines.append("  experimental: yes (the player switched rule checking off on purpose)")
    if not report.claim_consistent:
        said = {True: "yes", False: "no", None: "nothing"}[report.declared_compliant]
        lines.append(
            f"  claim: the file's integrity block does not match the recomputation "
            f"(it says rules-compliant: {said})"
        )
    if report.deviations:
        lines.append(f"  deviations ({len(report.deviations)}):")
        for deviation in report.deviations:
            lines.append(
                f"    {deviation.pointer}: {_value_text(deviation.actual)} "
                f"(the rules give {_value_text(deviation.expected)})"
            )
            if deviation.justification is not None:
                lines.append(f"      justification: {deviation.justification}")
            else:
                lines.append("      justification: none given")
    else:
        lines.append("  deviations: none")
    if report.inconsistencies:
        lines.append(f"  inconsistencies ({len(report.inconsistencies)}):")
        for item in report.inconsistencies:
            lines.append(
                f"    {item.pointer}: {_value_text(item.actual)} "
                f"(the formula gives {_value_text(item.expected)})"
            )
    else:
        lines.append("  inconsistencies: none")
    if report.issues:
        lines.append(f"  issues ({len(report.issues)}):")
        lines.extend(f"    {issue.code} at {issue.pointer}: {issue.message}" for issue in report.issues)
    else:
        lines.append("  issues: none")
    return lines


def _check_block(result: _Result) -> str:
    lines = [_label(result.path)]
    if result.error is not None:
        lines.append("  valid: no")
        lines.extend(_error_lines(result.error, "  "))
    elif result.report is not None:
        lines.append("  valid: yes")
        lines.extend(_report_lines(result.report))
    return "\n".join(lines)


def _summary(results: Sequence[_Result]) -> str:
    compliant = sum(result.status == EXIT_OK for result in results)
    not_compliant = sum(result.status == EXIT_NOT_COMPLIANT for result in results)
    failed = sum(result.status == EXIT_ERROR for result in results)
    return (
        f"{_plural(len(results), 'file')}: {compliant} valid and rules-compliant, "
        f"{not_compliant} valid but not rules-compliant, {failed} unreadable or invalid"
    )


def _json_line(value: Any, *, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=True, indent=indent)


def _cmd_check(args: argparse.Namespace) -> int:
    as_json: bool = args.json
    first = True

    def emit(result: _Result) -> None:
        nonlocal first
        if as_json:
            line: dict[str, Any] = {"path": result.path, "ok": result.status == EXIT_OK}
            if result.error is not None:
                line["error"] = result.error
            elif result.report is not None:
                line["report"] = result.report.to_dict()
            print(_json_line(line))
        else:
            _say(("" if first else "\n") + _check_block(result))
        first = False

    results = _run_many(args.paths, _check_one, args.jobs, emit)
    if not as_json and len(results) > 1:
        _say(f"\n{_summary(results)}")
    return max((result.status for result in results), default=EXIT_OK)


def _cmd_validate(args: argparse.Namespace) -> int:
    as_json: bool = args.json

    def emit(result: _Result) -> None:
        if as_json:
            line: dict[str, Any] = {"path": result.path, "ok": result.error is None}
            if result.error is not None:
                line["error"] = result.error
            print(_json_line(line))
        elif result.error is None:
            _say(f"{_label(result.path)}: valid")
        else:
            _say("\n".join([f"{_label(result.path)}: invalid", *_error_lines(result.error, "  ")]))

    results = _run_many(args.paths, _validate_one, args.jobs, emit)
    return max((result.status for result in results), default=EXIT_OK)


# ================================================================ stats, recompute, fields (views)


def _table(rows: Sequence[Sequence[str]], *, right: Iterable[int] = (), indent: str = "") -> list[str]:
    """Rows as aligned columns (the first row is the header); ``right`` columns are right-aligned."""
    aligned = set(right)
    rows = [[_CONTROL_IN_CELL.sub(_escape_control, cell) for cell in row] for row in rows]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if column in aligned else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


_ENCUMBRANCE_NAMES: Final = {
    "none": "None",
    "light": "Light",
    "medium": "Medium",
    "heavy": "Heavy",
    "extraHeavy": "Extra-Heavy",
}


def _defense_text(value: int | None, skill: str | None) -> str:
    if value is None:
        return "-"
    return f"{value} ({skill})" if skill else str(value)


def _field(weapon: Any, key: str) -> str:
    return _value_text(weapon.get(key)) if isinstance(weapon, Mapping) else "-"


def _roll_line(roll: Roll) -> str:
    """``HT-2 each turn (B419)``, ``Will before each maneuver (B426)``."""
    return f"{_roll_text(roll.attribute, roll.modifier)} {_WHEN.get(roll.when, roll.when)} ({roll.reference})"


def _condition_line(condition: Condition) -> str:
    """``Condition: HP reeling, FP tired | halve Move, Dodge, ST | rolls: HT-2 each turn (B419)``.

    The states always; what halves and the rolls owed each turn only when there are any.
    """
    parts = [f"HP {_state_text(condition.hp)}, FP {_state_text(condition.fp)}"]
    effects = condition.effects
    halved = [
        name
        for name, on in (
            ("Move", effects.halve_move),
            ("Dodge", effects.halve_dodge),
            ("ST", effects.halve_st),
        )
        if on
    ]
    if halved:
        parts.append("halve " + ", ".join(halved))
    if condition.rolls:
        parts.append("rolls: " + "; ".join(_roll_line(roll) for roll in condition.rolls))
    return "Condition: " + " | ".join(parts)


def _encumbrance_rows(stats: CombatStats, condition: Condition | None) -> list[list[str]]:
    """The encumbrance table; ``Eff. Move``/``Eff. Dodge`` only where the condition changes them."""
    moves = condition.move if condition is not None else tuple(row.move for row in stats.encumbrance)
    dodges = condition.dodge if condition is not None else tuple(row.dodge for row in stats.encumbrance)
    eff_move = any(row.move != move for row, move in zip(stats.encumbrance, moves, strict=False))
    eff_dodge = any(row.dodge != dodge for row, dodge in zip(stats.encumbrance, dodges, strict=False))
    header = ["Encumbrance", "Max load", "Move"]
    header += ["Eff. Move"] if eff_move else []
    header += ["Dodge"]
    header += ["Eff. Dodge"] if eff_dodge else []
    rows = [header]
    for index, row in enumerate(stats.encumbrance):
        cells = [
            f"{_ENCUMBRANCE_NAMES.get(row.id, row.id)} ({row.level})",
            js_number(row.max_load),
            str(row.move),
        ]
        cells += [str(moves[index]) if index < len(moves) else "-"] if eff_move else []
        cells += [str(row.dodge)]
        cells += [str(dodges[index]) if index < len(dodges) else "-"] if eff_dodge else []
        rows.append(cells)
    return rows


def _stats_text(stats: CombatStats, condition: Condition | None = None) -> str:
    n = js_number
    lines = [stats.name + ("  [experimental]" if stats.experimental else ""), ""]
    sm = f"{stats.size_modifier:+d}" if stats.size_modifier else "0"
    hp, fp, attributes = stats.hp, stats.fp, stats.attributes
    st = str(attributes.st)
    if condition is not None and condition.st != attributes.st:
        st += f" (eff. {condition.st})"
    grid = [
        [("HP", f"{n(hp.current)}/{n(hp.max)}"), ("FP", f"{n(fp.current)}/{n(fp.max)}")],
        [("ST", st), ("DX", str(attributes.dx))],
        [("Basic Speed", n(stats.basic_speed)), ("Basic Move", str(stats.basic_move))],
    ]
    grid[0] += [("Will", str(stats.will)), ("Per", str(stats.perception))]
    grid[1] += [("IQ", str(attributes.iq)), ("HT", str(attributes.ht))]
    grid[2] += [("Dodge", str(stats.dodge)), ("SM", sm)]
    lines += _table([[cell for pair in row for cell in pair] for row in grid], right=(1, 3, 5, 7))
    if condition is not None:
        lines.append(_condition_line(condition))
    lines.append("")
    lines += _table(
        [
            ["Parry", _defense_text(stats.parry.value, stats.parry.skill)],
            ["Block", _defense_text(stats.block.value, stats.block.skill)],
            ["Damage", f"thrust {stats.damage.thrust.notation}, swing {stats.damage.swing.notation}"],
        ]
    )
    lines.append("")
    encumbrance = _encumbrance_rows(stats, condition)
    lines += _table(encumbrance, right=range(1, len(encumbrance[0])))
    if stats.damage_resistance:
        lines.append("")
        lines += _table(
            [
                ["Location", "DR", "Notes"],
                *([entry.location, str(entry.dr), entry.notes or ""] for entry in stats.damage_resistance),
            ],
            right=(1,),
        )
    if stats.skills:
        lines.append("")
        lines += _table(
            [
                ["Skill", "Level", "Attribute", "Difficulty"],
                *(
                    [skill.name, str(skill.level), skill.attribute.upper(), skill.difficulty]
                    for skill in stats.skills
                ),
            ],
            right=(1,),
        )
    if stats.weapons.melee:
        lines.append("")
        lines += _table(
            [
                ["Melee weapon", "Damage", "Reach", "Parry", "Notes"],
                *(
                    [
                        _field(w, "name"),
                        _field(w, "damage"),
                        _field(w, "reach"),
                        _field(w, "parry"),
                        _field(w, "notes"),
                    ]
                    for w in stats.weapons.melee
                ),
            ]
        )
    if stats.weapons.ranged:
        lines.append("")
        keys = ("name", "damage", "accuracy", "range", "rateOfFire", "shots", "minST", "bulk", "notes")
        lines += _table(
            [
                ["Ranged weapon", "Damage", "Acc", "Range", "RoF", "Shots", "ST", "Bulk", "Notes"],
                *([_field(w, key) for key in keys] for w in stats.weapons.ranged),
            ]
        )
    return "\n".join(lines)


def _cmd_stats(args: argparse.Namespace) -> int:
    parsed = _load(args.path)
    as_json: bool = args.json
    with_condition: bool = args.condition or not as_json  # --json alone: combat_stats exactly
    try:
        stats = combat_stats(parsed.character)
        condition = get_condition(parsed.character) if with_condition else None
    except CharacterError as err:
        raise _Failure(_label(args.path), err) from None
    if as_json and condition is not None:
        print(_json_line({"stats": stats.to_dict(), "condition": condition.to_dict()}, indent=2))
    elif as_json:
        print(_json_line(stats.to_dict(), indent=2))
    else:
        _say(_stats_text(stats, condition))
    if not parsed.report.rules_compliant:
        _say(f"note: {_label(args.path)} is not rules-compliant (see: {PROG} check)", err=True)
    return EXIT_OK


def _same(stored: Any, computed: Any) -> bool:
    """JSON equality of two plain values (``3 == 3.0``, but ``true`` is not ``1``)."""
    left, right = plain_value(stored), plain_value(computed)
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, int | float) and isinstance(right, int | float):
        return left == right
    return type(left) is type(right) and bool(left == right)


def _role_text(result: RecomputeResult) -> str:
    return f"{result.role} ({result.override})" if result.override else result.role


def _cmd_recompute(args: argparse.Namespace) -> int:
    parsed = _load(args.path)
    results = recompute(SCHEMA, parsed.character)
    if args.json:
        rows = [
            {**result.to_dict(), "differs": not _same(result.stored, result.computed)} for result in results
        ]
        print(_json_line(rows, indent=2))
        return EXIT_OK
    table = [["", "Pointer", "Role", "Stored", "Computed"]]
    differing = 0
    for result in results:
        same = _same(result.stored, result.computed)
        differing += not same
        table.append(
            [
                "" if same else "*",
                result.pointer,
                _role_text(result),
                _value_text(result.stored),
                _value_text(result.computed),
            ]
        )
    _say("\n".join(_table(table, right=(3, 4))))
    _say(
        f"\n{_plural(len(results), 'formula-backed value')}; {differing} differ from the formula (marked *). "
        "A paid override may differ; an unpaid one or a derived value may not."
    )
    return EXIT_OK


def _field_lines(field: UpdatableField) -> list[str]:
    parent = field.pointer.rsplit("/", 1)[0] or "(root)"
    facts = ", ".join(part for part in (field.title, field.type, field.reference) if part)
    lines = [field.pointer, f"  {facts}"]
    if field.bounds:
        bounds = ", ".join(f"{key} {formula}" for key, formula in field.bounds.items())
        lines.append(f"  bounds: {bounds} (value = {parent}/value)")
    if field.labels:
        lines.append("  labels: " + ", ".join(f"{tag} {label!r}" for tag, label in field.labels.items()))
    if field.description:
        lines.append(f"  {field.description}")
    return lines


def _cmd_fields(args: argparse.Namespace) -> int:
    fields = get_updatable_fields()
    if args.json:
        print(_json_line([field.to_dict() for field in fields], indent=2))
    else:
        _say("\n\n".join("\n".join(_field_lines(field)) for field in fields))
    return EXIT_OK


# ================================================================ writing commands


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


_INTEGER: Final = re.compile(r"[+-]?[0-9]+")


def _parse_amount(text: str) -> int:
    """AMOUNT: a non-negative whole number written in ASCII digits.

    A negative amount is refused here with the library's own code, wording and details
    (``apply_damage(doc, -5)`` refuses it the same way): :func:`change_pool` takes a signed
    change, and ``damage -5`` must not heal.
    """
    amount: int | None = None
    if _INTEGER.fullmatch(text):
        with contextlib.suppress(ValueError):  # more digits than int() accepts
            amount = int(text)
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


@dataclass(frozen=True, slots=True)
class _Outcome:
    """A changed document, and what to tell the user about it on stderr."""

    document: Mapping[str, Any]
    notes: tuple[str, ...] = ()


_POOL_ACTIONS: Final[dict[str, tuple[PoolName, int]]] = {
    "damage": ("hp", -1),
    "heal": ("hp", 1),
    "fatigue": ("fp", -1),
    "recover": ("fp", 1),
}
"""Each pool command: the pool it changes and the sign of the change."""

_WHEN: Final = {
    "startOfNextTurn": "at the start of the next turn",
    "immediately": "immediately",
    "eachTurn": "each turn",
    "beforeEachManeuver": "before each maneuver",
}


def _state_text(state: PoolState) -> str:
    """``reeling``, ``dying (2)``."""
    return state.state if state.n is None else f"{state.state} ({state.n})"


def _roll_text(attribute: str | None, modifier: int | None) -> str:
    """``HT``, ``HT-2``, ``Will``."""
    name = {"ht": "HT", "will": "Will"}.get(attribute or "", (attribute or "").upper())
    return f"{name}{modifier:+d}" if modifier else name


def _follow_up_text(follow_up: FollowUp) -> str:
    """One follow-up as a person reads it, with its Basic Set page."""
    page = f"({follow_up.reference})"
    kind = follow_up.kind
    if kind == "consciousnessCheck":
        when = _WHEN.get(follow_up.when or "", follow_up.when or "")
        return f"consciousness check, {_roll_text(follow_up.attribute, follow_up.modifier)}, {when} {page}"
    if kind == "deathCheck":
        at = js_number(follow_up.at) if follow_up.at is not None else "?"
        return f"death check at {at} HP, {_roll_text(follow_up.attribute, follow_up.modifier)} {page}"
    if kind == "fatigueInjury":
        done = "applied" if follow_up.applied else "not applied; use --spill"
        return f"{follow_up.amount} HP injury from fatigue below 0 FP {page}, {done}"
    if kind == "death":
        return f"death {page}"
    if kind == "unconsciousness":
        return f"unconsciousness {page}"
    return f"{kind} {page}"  # a kind added to the library later: still shown


def _change_line(label: str, change: PoolChange) -> str:
    """``hero.json: HP 11 -> 6 (max 13): reeling``, with ``; clamped: took -141 of -1000``."""
    old, new, top = (
        js_number(value) for value in (change.before.current, change.after.current, change.after.max)
    )
    line = f"{label}: {change.pool.upper()} {old} -> {new} (max {top}): {_state_text(change.after)}"
    if change.clamped:
        line += f"; clamped: took {change.taken:+d} of {change.requested:+d}"
    return line


def _pool_notes(label: str, change: PoolChange, *, as_json: bool = False) -> tuple[str, ...]:
    """What a pool change tells the user on stderr.

    The change (and, with ``--spill``, the HP change it caused), each with the pool's new state
    and a clamp note; then one ``owed:`` line per follow-up. With ``as_json``: instead,
    :meth:`PoolChange.to_dict` on one line.
    """
    if as_json:
        return (_json_line(change.to_dict()),)
    lines = [_change_line(label, change)]
    if change.spill is not None:
        lines.append(_change_line(label, change.spill))
    lines.extend(f"owed: {_follow_up_text(follow_up)}" for follow_up in change.follow_ups)
    return tuple(lines)


def _pool_outcome(
    args: argparse.Namespace, parsed: Parsed, label: str, amount: int, now: datetime | None
) -> _Outcome:
    pool, sign = _POOL_ACTIONS[args.command]
    spill: bool = args.spill
    change = change_pool(parsed.character, pool, sign * amount, now=now, spill_to_hp=spill)
    return _Outcome(change.document, _pool_notes(label, change, as_json=args.follow_ups_json))


def _update_outcome(
    parsed: Parsed, label: str, changes: list[tuple[str, Any]], now: datetime | None
) -> _Outcome:
    document = update_character(parsed.character, changes, now=now)
    notes = tuple(
        f"{label}: {pointer} = {json.dumps(value, ensure_ascii=False)}" for pointer, value in changes
    )
    return _Outcome(document, notes)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fsync_directory(directory: str) -> None:
    """Makes the rename itself durable (POSIX); a no-op where directories cannot be opened."""
    with contextlib.suppress(OSError, AttributeError):
        handle = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def atomic_write(path: str, data: bytes) -> None:
    """Replaces ``path`` with ``data`` all at once: a reader sees the old file or the new one.

    The bytes go to a temporary file in the same directory, are flushed to disk, take the
    target's permissions, and the temporary file is renamed over the target. A symbolic link is
    followed (the file it points to is replaced, the link kept). On failure the temporary file
    is removed and the target is untouched.

    Raises:
        OSError: The target (or its directory) cannot be written.
    """
    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    if os.path.exists(target):
        if os.path.isdir(target):
            raise IsADirectoryError(21, "Is a directory", path)
        if not os.access(target, os.W_OK):
            raise PermissionError(13, "Permission denied", path)
        mode = stat.S_IMODE(os.stat(target).st_mode)
    else:
        mode = 0o666 & ~_umask()
    handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_directory(directory)


def _write_stdout(data: bytes) -> None:
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:  # a text-only stream (an embedding application's capture)
        sys.stdout.write(data.decode("utf-8"))
        sys.stdout.flush()


def _destination(args: argparse.Namespace) -> str | None:
    """Where the new document goes: a path, or None for stdout."""
    if args.in_place:
        if args.path == STDIN:
            raise _Failure(
                STDIN_LABEL,
                CharacterError(
                    INVALID_ARGUMENT, "--in-place needs a file, not stdin.", {"name": "--in-place"}
                ),
            )
        return str(args.path)
    output: str | None = args.output
    return None if output in (None, STDIN) else output


def _write_outcome(args: argparse.Namespace, outcome: _Outcome) -> int:
    """Serializes (which validates) and writes the new document; then prints the notes."""
    destination = _destination(args)
    try:
        data = serialize_character(outcome.document).encode("utf-8")
    except CharacterError as err:
        raise _Failure(_label(args.path), err) from None
    if destination is None:
        _write_stdout(data)
    else:
        try:
            atomic_write(destination, data)
        except OSError as err:
            reason = err.strerror or str(err) or type(err).__name__
            raise _Failure(
                destination,
                CharacterError(UNWRITABLE, f"cannot write the file: {reason}.", {"reason": reason}),
            ) from None
    if not args.quiet:
        for note in outcome.notes:
            _say(note, err=True)
    return EXIT_OK


def _arguments_or_fail(label: str, parse: Callable[[], Any]) -> Any:
    try:
        return parse()
    except CharacterError as err:
        raise _Failure(label, err) from None


def _cmd_pool(args: argparse.Namespace) -> int:
    label = _label(args.path)
    amount: int = _arguments_or_fail(label, lambda: _parse_amount(args.amount))
    now: datetime | None = _arguments_or_fail(label, lambda: _parse_now(args.now))
    _destination(args)  # refuse a wrong destination before reading stdin
    parsed = _load(args.path)
    try:
        outcome = _pool_outcome(args, parsed, label, amount, now)
    except CharacterError as err:
        raise _Failure(label, err) from None
    return _write_outcome(args, outcome)


def _cmd_update(args: argparse.Namespace) -> int:
    label = _label(args.path)
    changes: list[tuple[str, Any]] = _arguments_or_fail(
        label, lambda: [_parse_change(text) for text in args.changes]
    )
    now: datetime | None = _arguments_or_fail(label, lambda: _parse_now(args.now))
    _destination(args)
    parsed = _load(args.path)
    try:
        outcome = _update_outcome(parsed, label, changes, now)
    except CharacterError as err:
        raise _Failure(label, err) from None
    return _write_outcome(args, outcome)


# ================================================================ the parser


def _positive(text: str) -> int:
    if not _INTEGER.fullmatch(text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return int(text)


_EPILOGS: Final = {
    "main": f"""\
examples:
  {PROG} check hero.json                 is it valid and built by the rules?
  {PROG} check --jobs 4 campaign/        every *.json below a folder, in 4 processes
  {PROG} stats hero.json                 the combat view as a table
  {PROG} damage --in-place hero.json 5   take 5 HP off, rewriting the file safely

exit status: 0 success; 1 (check) a valid file is not rules-compliant;
2 a file is unreadable or invalid, or an argument is wrong.
Run '{PROG} COMMAND --help' for a command's options.""",
    "check": f"""\
examples:
  {PROG} check hero.json
  {PROG} check characters/ other.json      folders: every *.json below them, sorted
  cat hero.json | {PROG} check -            '-' reads stdin
  {PROG} check --json --jobs 4 characters/ | jq 'select(.ok | not) | .path'

--json prints one object per file and line, {{"path", "ok", ...}} with either
  "report": {{"rulesCompliant", "deviations", "inconsistencies", "issues", ...}}  or
  "error": {{"code", "message", "details"}}
("ok" is true when the file is valid and rules-compliant).

exit status: 0 all valid and rules-compliant; 1 some valid file is not rules-compliant;
2 some file is unreadable or invalid.""",
    "validate": f"""\
examples:
  {PROG} validate hero.json
  {PROG} validate --json characters/

Only the format is checked (size, JSON, format and version, schema), not the rules:
use 'check' for that. exit status: 0 all valid; 2 some file unreadable or invalid.""",
    "stats": f"""\
examples:
  {PROG} stats hero.json
  {PROG} stats --json hero.json | jq .hp
  {PROG} stats --json --condition hero.json | jq .condition.rolls

Below the HP/FP grid, 'Condition:' gives the state of each pool (HP: healthy, wounded,
reeling, collapse, dying (n), dead, destroyed, B419; FP: rested, tiring, tired, collapse,
unconscious, B426), what they halve and the rolls owed each turn. When Move, Dodge or ST
are halved, the effective values are shown beside the stored ones ('Eff. Move',
'Eff. Dodge', 'ST 22 (eff. 11)').

--json prints the combat view; with --condition it prints
  {{"stats": <the combat view>, "condition": {{"hp", "fp", "effects", "move", "dodge", "st", "rolls"}}}}.""",
    "recompute": f"""\
examples:
  {PROG} recompute hero.json               every formula-backed value, differences marked *
  {PROG} recompute --json hero.json | jq '.[] | select(.differs)'""",
    "fields": f"""\
examples:
  {PROG} fields
  {PROG} fields --json

Bounds are formulas evaluated against the field's parent object ('value' is the maximum).""",
    "damage": f"""\
examples:
  {PROG} damage hero.json 5 > hurt.json
  {PROG} damage --in-place hero.json 5
  {PROG} damage -o hurt.json --now 2026-10-05T10:00:00Z hero.json 5

HP stop at -10 x HP. The new document goes to stdout, to -o OUT or back to the file
(--in-place), written atomically; on any error nothing is written and the exit status is 2.

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
    "update": f"""\
examples:
  {PROG} update --in-place hero.json /secondary/hp/current=-3
  {PROG} update hero.json /secondary/hp/current=10 /secondary/fp/current=4 > new.json

VALUE is JSON (text in double quotes). All changes apply or none does; see '{PROG} fields'
for what may change and its bounds. Output as for 'damage'.""",
}

_POOL_HELP: Final = {
    "damage": "take AMOUNT hit points off",
    "heal": "restore AMOUNT hit points",
    "fatigue": "spend AMOUNT fatigue points",
    "recover": "recover AMOUNT fatigue points",
}


def _subparser(
    commands: Any, name: str, summary: str, handler: Callable[[argparse.Namespace], int]
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=summary[0].upper() + summary[1:] + ".",
        epilog=_EPILOGS[name],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(handler=handler)
    return parser


def _add_many_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="a file, a folder (every *.json below it) or - for stdin"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per file and line")
    parser.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        default=1,
        metavar="N",
        help="check in N processes (output stays in input order)",
    )


def _add_write_options(parser: argparse.ArgumentParser, *, pool: bool = False) -> None:
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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``gurps-character`` and all its commands."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Check, inspect and update GURPS 4th Edition characters (gurps-character JSON format).",
        epilog=_EPILOGS["main"],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    check = _subparser(commands, "check", "check files: schema and rules", _cmd_check)
    _add_many_options(check)
    validate = _subparser(
        commands, "validate", "check files against the schema only (no rules)", _cmd_validate
    )
    _add_many_options(validate)

    for name, summary, handler in (
        ("stats", "show the combat view of a character and its condition", _cmd_stats),
        ("recompute", "show stored and computed values of every formula-backed value", _cmd_recompute),
    ):
        view = _subparser(commands, name, summary, handler)
        view.add_argument("path", metavar="PATH", help="a character file, or - for stdin")
        view.add_argument("--json", action="store_true", help="print JSON")
        if name == "stats":
            view.add_argument(
                "--condition",
                action="store_true",
                help='with --json: print {"stats": ..., "condition": ...} (the text view always shows it)',
            )
    fields = _subparser(commands, "fields", "list what engines may update in play, with bounds", _cmd_fields)
    fields.add_argument("--json", action="store_true", help="print JSON")

    for name, summary in _POOL_HELP.items():
        pool = _subparser(commands, name, summary, _cmd_pool)
        pool.add_argument("path", metavar="PATH", help="a character file, or - for stdin")
        pool.add_argument("amount", metavar="AMOUNT", help="a whole number of points, 0 or more")
        _add_write_options(pool, pool=True)
        if name == "fatigue":
            pool.add_argument(
                "--spill",
                action="store_true",
                help="also take the HP injury of fatigue below 0 FP off HP (B426), in the same write",
            )
        else:
            pool.set_defaults(spill=False)
    update = _subparser(commands, "update", "set in-play values: POINTER=VALUE ...", _cmd_update)
    update.add_argument("path", metavar="PATH", help="a character file, or - for stdin")
    update.add_argument("changes", nargs="+", metavar="POINTER=VALUE", help="a JSON Pointer and a JSON value")
    _add_write_options(update)
    return parser


# ================================================================ main


def _report_failure(failure: _Failure) -> None:
    """``error: <file>: <code>: <message>`` on stderr, then each schema error."""
    _say("\n".join(_error_lines(failure.error.to_dict(), "", failure.label)), err=True)


def _tolerant_streams() -> None:
    """Text that the terminal's encoding cannot show is escaped rather than a crash."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(errors="backslashreplace")


def _exit_status(code: object) -> int:
    if code is None:
        return EXIT_OK
    return code if isinstance(code, int) else EXIT_ERROR


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``gurps-character`` command line.

    Args:
        argv: The arguments after the program name (default: ``sys.argv[1:]``).

    Returns:
        The exit status: 0 success, 1 a checked file is valid but not rules-compliant, 2 an error.
    """
    _tolerant_streams()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version and usage errors
        return _exit_status(stop.code)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except _Failure as failure:
        _report_failure(failure)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR
