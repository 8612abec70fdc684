"""``check`` (schema and rules) and ``validate`` (schema only), over many files."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Sequence
from typing import Any, Final

from ..constants import MAX_DOCUMENT_BYTES
from ..errors import CharacterError
from ..load import load_document, parse_character, require_valid
from ..verify import VerificationReport
from ._command import Commands, add_command, add_max_bytes_option
from ._common import EXIT_ERROR, EXIT_NOT_COMPLIANT, EXIT_OK, PROG, label
from ._many import Input, Result, add_many_options, input_source, run_many
from ._report import error_lines, json_line, plural, say, value_text

__all__ = ["check_one", "register", "validate_one"]

_CHECK_EPILOG: Final = f"""\
examples:
  {PROG} check hero.json
  {PROG} check characters/ other.yaml      folders: every *.json, *.yaml, *.yml and *.gcs below them, sorted
  cat hero.json | {PROG} check -            '-' reads stdin
  {PROG} check --json --jobs 4 characters/ | jq 'select(.ok | not) | .path'

--json prints one object per file and line, {{"path", "ok", ...}} with either
  "report": {{"rulesCompliant", "deviations", "inconsistencies", "issues", ...}}  or
  "error": {{"code", "message", "details"}}
("ok" is true when the file is valid and rules-compliant).

exit status: 0 all valid and rules-compliant; 1 some valid file is not rules-compliant;
2 some file is unreadable or invalid."""

_VALIDATE_EPILOG: Final = f"""\
examples:
  {PROG} validate hero.json
  {PROG} validate --json characters/

Only the format is checked (size, JSON, format and version, schema), not the rules:
use 'check' for that. exit status: 0 all valid; 2 some file unreadable or invalid."""


def check_one(item: Input, max_bytes: int = MAX_DOCUMENT_BYTES) -> Result:
    """Parses and verifies one input (runs in a worker process with ``--jobs``)."""
    if item.error is not None:
        return Result(item.path, error=item.error)
    try:
        source = input_source(item, max_bytes)
        return Result(item.path, report=parse_character(source, max_bytes=max_bytes).report)
    except CharacterError as err:
        return Result(item.path, error=err.to_dict())


def validate_one(item: Input, max_bytes: int = MAX_DOCUMENT_BYTES) -> Result:
    """Schema-checks one input: size, format, envelope and schema; no rule check."""
    if item.error is not None:
        return Result(item.path, error=item.error)
    try:
        require_valid(load_document(input_source(item, max_bytes), max_bytes))
    except CharacterError as err:
        return Result(item.path, error=err.to_dict())
    return Result(item.path)


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
                f"    {deviation.pointer}: {value_text(deviation.actual)} "
                f"(the rules give {value_text(deviation.expected)})"
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
                f"    {item.pointer}: {value_text(item.actual)} "
                f"(the formula gives {value_text(item.expected)})"
            )
    else:
        lines.append("  inconsistencies: none")
    if report.issues:
        lines.append(f"  issues ({len(report.issues)}):")
        lines.extend(f"    {issue.code} at {issue.pointer}: {issue.message}" for issue in report.issues)
    else:
        lines.append("  issues: none")
    return lines


def _check_block(result: Result) -> list[str]:
    """A checked file's report: its name, ``valid: yes`` and what the rule check found."""
    lines = [label(result.path), "  valid: yes"]
    if result.report is not None:
        lines.extend(_report_lines(result.report))
    return lines


def _summary(results: Sequence[Result]) -> str:
    compliant = sum(result.status == EXIT_OK for result in results)
    not_compliant = sum(result.status == EXIT_NOT_COMPLIANT for result in results)
    failed = sum(result.status == EXIT_ERROR for result in results)
    return (
        f"{plural(len(results), 'file')}: {compliant} valid and rules-compliant, "
        f"{not_compliant} valid but not rules-compliant, {failed} unreadable or invalid"
    )


def _cmd_check(args: argparse.Namespace) -> int:
    as_json: bool = args.json
    first = True

    def emit(result: Result) -> None:
        nonlocal first
        if as_json:
            line: dict[str, Any] = {"path": result.path, "ok": result.status == EXIT_OK}
            if result.error is not None:
                line["error"] = result.error
            elif result.report is not None:
                line["report"] = result.report.to_dict()
            print(json_line(line))
        elif result.error is not None:  # errors go to stderr, as every command's do
            say(error_lines(result.error, "", label(result.path)), err=True)
        else:
            say(([] if first else [""]) + _check_block(result))
            first = False

    work = functools.partial(check_one, max_bytes=args.max_bytes)
    results = run_many(args.paths, work, args.jobs, emit, max_bytes=args.max_bytes)
    if not as_json and len(results) > 1:
        say(["", _summary(results)])
    return max((result.status for result in results), default=EXIT_OK)


def _cmd_validate(args: argparse.Namespace) -> int:
    as_json: bool = args.json

    def emit(result: Result) -> None:
        if as_json:
            line: dict[str, Any] = {"path": result.path, "ok": result.error is None}
            if result.error is not None:
                line["error"] = result.error
            print(json_line(line))
        elif result.error is None:
            say([f"{label(result.path)}: valid"])
        else:  # errors go to stderr, as every command's do
            say(error_lines(result.error, "", label(result.path)), err=True)

    work = functools.partial(validate_one, max_bytes=args.max_bytes)
    results = run_many(args.paths, work, args.jobs, emit, max_bytes=args.max_bytes)
    return max((result.status for result in results), default=EXIT_OK)


def register(commands: Commands) -> None:
    """Adds ``check`` and ``validate``."""
    check = add_command(commands, "check", "check files: schema and rules", _cmd_check, _CHECK_EPILOG)
    add_many_options(check)
    add_max_bytes_option(check)
    validate = add_command(
        commands,
        "validate",
        "check files against the schema only (no rules)",
        _cmd_validate,
        _VALIDATE_EPILOG,
    )
    add_many_options(validate)
    add_max_bytes_option(validate)
