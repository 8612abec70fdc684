"""``import``: GCS characters (``.gcs`` files) to gurps-character documents, many at once.

The command plans every output in the main process first (so that two inputs never write the
same file, and an input is never replaced by its own output), then imports and writes in
``--jobs`` processes through :func:`~._many.run_many`, like ``check``. A document is written only
when it is valid (:func:`~gurps_character.serialize_character` checks), atomically, and never over
an existing file unless ``--force`` is given.
"""

from __future__ import annotations

import argparse
import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..constants import MAX_DOCUMENT_BYTES
from ..errors import CharacterError
from ..load import serialize_character
from ..verify import VerificationReport, verify_character
from ._command import Commands, add_command, add_max_bytes_option
from ._common import EXIT_ERROR, EXIT_OK, PROG, STDIN, label
from ._formats import DEFAULT_SUFFIX, GCS_SUFFIX, gcs_import, import_failed
from ._io import read_input
from ._many import Input, Result, add_json_and_jobs_options
from ._outputs import (
    STDOUT_LABEL,
    OutputJob,
    folder_jobs,
    job_target,
    option_error,
    planned_inputs,
    run_output_jobs,
    stdin_data,
    without_output_conflicts,
    write_job,
)
from ._report import plural

__all__ = ["ImportJob", "Imported", "import_one", "plan", "register"]

_EPILOG: Final = f"""\
examples:
  {PROG} import hero.gcs                    writes hero.json beside it
  {PROG} import hero.gcs -o hero.json       or where you say ('-o -' for stdout)
  {PROG} import --out-dir converted/ gcs/   every *.gcs below gcs/, same layout under converted/
  {PROG} import --jobs 4 --notes campaign/  in 4 processes, with every import note
  {PROG} import --json hero.gcs | jq .notes

Each file gets one line: where the document went, whether it is valid and rules-compliant,
how many deviations it declares (GCS's numbers where the rules give others: see
'{PROG} check hero.json') and how many import notes there are (what was approximated,
moved to extensions or not carried; --notes lists them). An existing file is never
replaced without --force; a document is written only when it is valid.

--json prints one object per file and line, {{"path", "ok", ...}} with either
  "output", "report": {{"rulesCompliant", "deviations", ...}}, "notes": [{{"source", "kind", "message"}}]
or "error": {{"code", "message", "details"}}.

exit status: 0 every file imported; 2 some file could not be read, imported or written."""


@dataclass(frozen=True, slots=True)
class ImportJob(OutputJob):
    """One file to import and where its document goes (``target`` None: stdout)."""


@dataclass(frozen=True, slots=True)
class Imported(Result):
    """The outcome of one import: the file written and the import notes (as their ``to_dict()``)."""

    output: str | None = None
    notes: tuple[dict[str, Any], ...] = ()

    @property
    def status(self) -> int:
        """2 when the file could not be read, imported or written, else 0 (a GCS character that
        departs from the rules is imported all the same: its deviations say where)."""
        return EXIT_ERROR if self.error is not None else EXIT_OK


def _checked(document: dict[str, Any]) -> tuple[str, VerificationReport]:
    """The document's text (refused when invalid) and its rule check.

    Raises:
        CharacterError: The document is invalid, or (``importFailed``) the library failed on it.
    """
    try:
        return serialize_character(document), verify_character(document)
    except CharacterError:
        raise
    except Exception as err:  # the boundary, as in gcs_import: one bad file must not end the run
        raise import_failed(err) from None


def import_one(item: Input, max_bytes: int = MAX_DOCUMENT_BYTES) -> Result:
    """Reads, imports, checks and writes one file (runs in a worker process with ``--jobs``), the
    file and its document within ``max_bytes``."""
    job = item if isinstance(item, ImportJob) else ImportJob(item.path, item.data, item.error)
    if job.error is not None:
        return Imported(job.path, error=job.error)
    try:
        data = job.data if job.data is not None else read_input(job.path, max_bytes)
        imported = gcs_import(data, max_bytes)
        text, report = _checked(imported.document)
        write_job(job, text.encode("utf-8"))
    except CharacterError as err:
        return Imported(job.path, error=err.to_dict())
    notes = tuple(note.to_dict() for note in imported.notes)
    return Imported(job.path, report=report, output=job.target, notes=notes)


# ================================================================ planning the outputs


def _job(path: str, target: str | None, force: bool, data: bytes | None = None) -> ImportJob:
    return ImportJob(path, data=data, target=target, force=force)


def _stdin_job(args: argparse.Namespace) -> Input:
    data = stdin_data(args)
    if isinstance(data, Input):
        return data
    output: str | None = args.output
    return _job(STDIN, None if output in (None, STDIN) else output, args.force, data)


def _folder_jobs(args: argparse.Namespace, folder: str) -> list[Input]:
    def job(path: str, target: str, make_folder: bool) -> Input:
        return ImportJob(path, target=target, force=args.force, make_folder=make_folder)

    return folder_jobs(folder, (GCS_SUFFIX,), args.out_dir, DEFAULT_SUFFIX, job)


def _file_job(args: argparse.Namespace, path: str) -> Input:
    return _job(path, job_target(path, args.output, args.out_dir, DEFAULT_SUFFIX), args.force)


def _import_target(item: Input) -> str | None:
    return item.target if isinstance(item, ImportJob) else None


def plan(args: argparse.Namespace) -> list[Input]:
    """Every input with its output, or the error that stops it, in the order given.

    Raises:
        CommandFailure: The options do not fit the inputs (``-o`` with several files ...).
    """
    paths: Sequence[str] = args.paths
    if args.output is not None and (len(paths) != 1 or (paths[0] != STDIN and os.path.isdir(paths[0]))):
        raise option_error("-o names one output: give one file, or use --out-dir for several.", "-o")
    inputs = planned_inputs(args, _stdin_job, _folder_jobs, _file_job)
    return without_output_conflicts(inputs, "import", _import_target)


# ================================================================ reporting


def _outcome_line(result: Imported) -> str:
    """``hero.gcs -> hero.json: valid, not rules-compliant, 2 deviations, 12 notes``."""
    report = result.report
    assert report is not None
    compliant = "rules-compliant" if report.rules_compliant else "not rules-compliant"
    where = STDOUT_LABEL if result.output is None else result.output
    return (
        f"{label(result.path)} -> {where}: valid, {compliant}, "
        f"{plural(len(report.deviations), 'deviation')}, {plural(len(result.notes), 'note')}"
    )


def _note_lines(result: Imported) -> list[str]:
    return [f"  {note['source'] or '(root)'}: {note['kind']}: {note['message']}" for note in result.notes]


def _summary(results: Sequence[Imported]) -> str:
    imported = [result for result in results if result.error is None]
    deviations = sum(len(result.report.deviations) for result in imported if result.report is not None)
    notes = sum(len(result.notes) for result in imported)
    compliant = sum(result.report is not None and result.report.rules_compliant for result in imported)
    return (
        f"{plural(len(results), 'file')}: {len(imported)} imported ({compliant} rules-compliant), "
        f"{len(results) - len(imported)} failed; "
        f"{plural(deviations, 'deviation')} and {plural(notes, 'note')} in all"
    )


def _json_record(result: Imported) -> dict[str, Any]:
    record: dict[str, Any] = {"path": result.path, "ok": result.error is None}
    if result.error is not None:
        record["error"] = result.error
    elif result.report is not None:
        record["output"] = result.output
        record["report"] = result.report.to_dict()
        record["notes"] = list(result.notes)
    return record


def _cmd_import(args: argparse.Namespace) -> int:
    with_notes: bool = args.notes

    def lines(result: Imported) -> list[str]:
        return [_outcome_line(result), *(_note_lines(result) if with_notes else [])]

    work = functools.partial(import_one, max_bytes=args.max_bytes)
    return run_output_jobs(
        args, plan(args), work, Imported, verb="importing", record=_json_record, lines=lines, summary=_summary
    )


def register(commands: Commands) -> None:
    """Adds ``import``."""
    parser = add_command(
        commands,
        "import",
        "import GCS characters (.gcs files) as gurps-character documents",
        _cmd_import,
        _EPILOG,
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="FILE",
        help=f"a .gcs file, a folder (every *{GCS_SUFFIX} below it) or - for stdin",
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument(
        "-o", "--output", metavar="OUT", help="where the document goes (one input; - for stdout)"
    )
    target.add_argument(
        "--out-dir",
        metavar="DIR",
        help="write each document into DIR (created if missing), keeping folders' layout",
    )
    parser.add_argument("-f", "--force", action="store_true", help="replace existing files")
    parser.add_argument("--notes", action="store_true", help="list every import note under its file")
    add_json_and_jobs_options(parser, "import")
    add_max_bytes_option(parser)
