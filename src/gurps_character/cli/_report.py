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

_CONTROL: Final = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
_CONTROL_IN_CELL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _escape_control(match: re.Match[str]) -> str:
    return repr(match.group())[1:-1]


def printable(text: str) -> str:
    """Control characters from a file (escape sequences, tabs ...) shown escaped, never obeyed."""
    return _CONTROL.sub(_escape_control, text)


def say(text: str, *, err: bool = False) -> None:
    """Prints human-readable text (which may quote the file) to stdout, or stderr with ``err``."""
    print(printable(text), file=sys.stderr if err else sys.stdout)


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


def _schema_lines(error: dict[str, Any], indent: str) -> list[str]:
    """Each schema error of a ``schema`` failure: its pointer and message, and its line and column
    when the file has them."""
    lines = []
    for item in error.get("details", {}).get("errors", []):
        pointer, message = item.get("pointer", ""), item.get("message", "")
        where = pointer or "(root)"
        text = message if message.startswith(f"{where}: ") else f"{where}: {message}"
        if "line" in item and "column" in item:  # a format with lines (YAML) says where
            text += f" (line {item['line']}, column {item['column']})"
        lines.append(indent + text)
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
