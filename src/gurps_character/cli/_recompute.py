"""``recompute`` (stored and computed formula-backed values) and ``fields`` (what may be updated)."""

from __future__ import annotations

import argparse
from typing import Any, Final

from ..constants import SCHEMA
from ..formula import RecomputeResult, plain_value, recompute
from ..update import UpdatableField, get_updatable_fields
from ._command import Commands, add_command, add_max_bytes_option
from ._common import EXIT_OK, PROG
from ._io import parse_character_file
from ._report import json_line, plural, say, table, value_text

__all__ = ["register"]

_RECOMPUTE_EPILOG: Final = f"""\
examples:
  {PROG} recompute hero.json               every formula-backed value, differences marked *
  {PROG} recompute --json hero.json | jq '.[] | select(.differs)'"""

_FIELDS_EPILOG: Final = f"""\
examples:
  {PROG} fields
  {PROG} fields --json

Bounds are formulas evaluated against the field's parent object ('value' is the maximum)."""


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
    parsed = parse_character_file(args.path, max_bytes=args.max_bytes)
    results = recompute(SCHEMA, parsed.character)
    if args.json:
        rows = [
            {**result.to_dict(), "differs": not _same(result.stored, result.computed)} for result in results
        ]
        print(json_line(rows, indent=2))
        return EXIT_OK
    rows_text = [["", "Pointer", "Role", "Stored", "Computed"]]
    differing = 0
    for result in results:
        same = _same(result.stored, result.computed)
        differing += not same
        rows_text.append(
            [
                "" if same else "*",
                result.pointer,
                _role_text(result),
                value_text(result.stored),
                value_text(result.computed),
            ]
        )
    say(table(rows_text, right=(3, 4)))
    say(
        [
            "",
            f"{plural(len(results), 'formula-backed value')}; {differing} differ from the formula "
            "(marked *). A paid override may differ; an unpaid one or a derived value may not.",
        ]
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
        print(json_line([field.to_dict() for field in fields], indent=2))
    else:
        lines: list[str] = []
        for field in fields:
            lines += ([""] if lines else []) + _field_lines(field)
        say(lines)
    return EXIT_OK


def register(commands: Commands) -> None:
    """Adds ``recompute`` and ``fields``."""
    view = add_command(
        commands,
        "recompute",
        "show stored and computed values of every formula-backed value",
        _cmd_recompute,
        _RECOMPUTE_EPILOG,
    )
    view.add_argument("path", metavar="PATH", help="a character file, or - for stdin")
    view.add_argument("--json", action="store_true", help="print JSON")
    add_max_bytes_option(view)
    fields = add_command(
        commands, "fields", "list what engines may update in play, with bounds", _cmd_fields, _FIELDS_EPILOG
    )
    fields.add_argument("--json", action="store_true", help="print JSON")
