"""Text for people: escaping what a file says, values, tables, error lines, JSON lines, pool states."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from .._json import js_number
from ..conditions import PoolState
from ..formula import plain_value

__all__ = [
    "WHEN",
    "error_lines",
    "json_line",
    "plural",
    "printable",
    "roll_text",
    "say",
    "state_text",
    "table",
    "value_text",
]

_UNSAFE: Final = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What a file's text may not put on a terminal as it is: control characters (C0 and C1, so also
newline, carriage return, escape and U+0085), the Unicode line and paragraph separators, and the
bidirectional controls (which reorder what a reader sees)."""


def _escape(match: re.Match[str]) -> str:
    return repr(match.group())[1:-1]  # \n, \t, \x1b, \u2028: as Python writes them


def printable(text: str) -> str:
    """One line of text, with every character of :data:`_UNSAFE` shown escaped (``\\n``, ``\\x1b``).

    Whatever a file says, it stays on its line and cannot clear the screen, move the cursor or
    forge a line of the report.
    """
    return _UNSAFE.sub(_escape, text)


def say(lines: Iterable[str], *, err: bool = False) -> None:
    """Prints lines of human-readable text (which may quote the file) to stdout, or stderr with ``err``.

    Each line is made :func:`printable` on its own, so a line break comes only from this list.
    A single string is refused: joined lines in it would print as one line with ``\\n`` in it.
    """
    if isinstance(lines, str):
        raise TypeError("say() takes a list of lines, not one string")
    shown = [printable(line) for line in lines]
    if shown:
        print("\n".join(shown), file=sys.stderr if err else sys.stdout)


def plural(count: int, noun: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def json_line(value: Any, *, indent: int | None = None) -> str:
    """JSON for ``--json`` output: ASCII only, so no file text can reach a terminal raw."""
    return json.dumps(value, ensure_ascii=True, indent=indent)


def value_text(value: Any) -> str:
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
        return ", ".join(value_text(item) for item in value)
    if isinstance(value, Mapping) and "notation" in value:
        return value_text(value["notation"])
    return json.dumps(value, ensure_ascii=False, default=_json_default)


def _json_default(value: object) -> Any:
    return dict(value) if isinstance(value, Mapping) else str(value)


def table(rows: Sequence[Sequence[str]], *, right: Iterable[int] = (), indent: str = "") -> list[str]:
    """Rows as aligned columns (the first row is the header); ``right`` columns are right-aligned."""
    aligned = set(right)
    rows = [[printable(cell) for cell in row] for row in rows]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if column in aligned else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


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


def error_lines(error: dict[str, Any], indent: str, label: str | None = None) -> list[str]:
    """A failure as text: ``error: [<file>: ]<code>: <message>``, then each schema error."""
    where = f"{label}: " if label else ""
    if error["code"] == "schema":
        count = len(error.get("details", {}).get("errors", []))
        head = f"{indent}error: {where}schema: the document does not match the schema"
        return [f"{head} ({plural(count, 'error')}):", *_schema_lines(error, indent + "  ")]
    return [f"{indent}error: {where}{error['code']}: {error['message']}"]


WHEN: Final = {
    "startOfNextTurn": "at the start of the next turn",
    "immediately": "immediately",
    "eachTurn": "each turn",
    "beforeEachManeuver": "before each maneuver",
}
"""When a roll or follow-up is owed, as a person says it."""


def state_text(state: PoolState) -> str:
    """``reeling``, ``dying (2)``."""
    return state.state if state.n is None else f"{state.state} ({state.n})"


def roll_text(attribute: str | None, modifier: int | None) -> str:
    """``HT``, ``HT-2``, ``Will``."""
    name = {"ht": "HT", "will": "Will"}.get(attribute or "", (attribute or "").upper())
    return f"{name}{modifier:+d}" if modifier else name
