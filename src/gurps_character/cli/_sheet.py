"""``sheet``: characters as printable HTML sheets, or combat cards in HTML or SVG, many at once.

Outputs are planned in the main process first, as ``import`` and ``export`` plan theirs (two
inputs never write the same file, an input is never replaced by its own output), then rendered
and written in ``--jobs`` processes, atomically and never over an existing file unless ``--force``.
A GCS file is imported on the way, and its import notes are listed on its sheet.
"""

from __future__ import annotations

import argparse
import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..constants import MAX_DOCUMENT_BYTES
from ..errors import CharacterError
from ..load import parse_character
from ._command import Commands, add_command, add_max_bytes_option
from ._common import EXIT_ERROR, EXIT_OK, PROG, STDIN, label
from ._formats import GCS_SUFFIX, document_suffixes, gcs_import, import_failed
from ._io import read_input, read_source
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

__all__ = ["SheetJob", "Sheeted", "plan", "register", "sheet_one"]

_EPILOG: Final = f"""\
examples:
  {PROG} sheet hero.json                    writes hero.html beside it: the printable sheet
  {PROG} sheet hero.gcs -o - > hero.html    a GCS character, with its import notes
  {PROG} sheet --card hero.yaml             hero.card.html: the combat card
  {PROG} sheet --card --format svg hero.json   hero.card.svg, for a bot to post as an image
  {PROG} sheet --out-dir sheets/ --jobs 4 party/   every document below party/, same layout

Sheets and cards are self-contained (inline CSS, no script, nothing fetched) and print on A4
or Letter. An existing file is never replaced without --force.

--json prints one object per file and line, {{"path", "ok", ...}} with either "output" or
"error": {{"code", "message", "details"}}.

exit status: 0 every file rendered; 2 some file could not be read, rendered or written."""

_SUFFIXES: Final = {"sheet": ".html", "html": ".card.html", "svg": ".card.svg"}


@dataclass(frozen=True, slots=True)
class SheetJob(OutputJob):
    """One document and where its sheet or card goes (``target`` None: stdout)."""

    what: str = "sheet"
    """``sheet``, or the card's format: ``html`` or ``svg``."""


@dataclass(frozen=True, slots=True)
class Sheeted(Result):
    """The outcome of one sheet: the file written."""

    output: str | None = None
    what: str = "sheet"

    @property
    def status(self) -> int:
        """2 when the document could not be read, rendered or written, else 0."""
        return EXIT_ERROR if self.error is not None else EXIT_OK


def _document(job: SheetJob, max_bytes: int) -> tuple[Mapping[str, Any], tuple[Any, ...]]:
    """The job's document, fully checked, and the import notes of a GCS file; the file and the
    document within ``max_bytes`` (``--max-bytes``)."""
    try:
        if job.path != STDIN and job.path.endswith(GCS_SUFFIX):
            data = job.data if job.data is not None else read_input(job.path, max_bytes)
            imported = gcs_import(data, max_bytes)
            return imported.document, imported.notes
        source = read_source(job.path, job.data, max_bytes=max_bytes)
        return parse_character(source, max_bytes=max_bytes).character, ()
    except CharacterError:
        raise
    except Exception as err:  # the boundary: one bad file must not end the run
        raise import_failed(err) from None


def sheet_one(item: Input, max_bytes: int = MAX_DOCUMENT_BYTES) -> Result:
    """Reads, renders and writes one document (runs in a worker process with ``--jobs``); the
    file and its document within ``max_bytes``."""
    from ..sheet import render_card, render_sheet  # Jinja2 is loaded by the work that needs it

    job = item if isinstance(item, SheetJob) else SheetJob(item.path, item.data, item.error)
    if job.error is not None:
        return Sheeted(job.path, error=job.error, what=job.what)
    try:
        document, notes = _document(job, max_bytes)
        if job.what == "sheet":
            text = render_sheet(document, import_notes=notes)
        else:
            text = render_card(document, format="svg" if job.what == "svg" else "html")
        write_job(job, text.encode("utf-8"))
    except CharacterError as err:
        return Sheeted(job.path, error=err.to_dict(), what=job.what)
    return Sheeted(job.path, output=job.target, what=job.what)


# ================================================================ planning the outputs


def _what(args: argparse.Namespace) -> str:
    return str(args.format) if args.card else "sheet"


def _stdin_job(args: argparse.Namespace) -> Input:
    data = stdin_data(args)
    if isinstance(data, Input):
        return data
    output: str | None = args.output
    target = None if output in (None, STDIN) else output
    return SheetJob(STDIN, data=data, target=target, force=args.force, what=_what(args))


def _folder_jobs(args: argparse.Namespace, folder: str) -> list[Input]:
    def job(path: str, target: str, make_folder: bool) -> Input:
        return SheetJob(path, target=target, force=args.force, make_folder=make_folder, what=_what(args))

    return folder_jobs(folder, document_suffixes(), args.out_dir, _SUFFIXES[_what(args)], job)


def _file_job(args: argparse.Namespace, path: str) -> Input:
    target = job_target(path, args.output, args.out_dir, _SUFFIXES[_what(args)])
    return SheetJob(path, target=target, force=args.force, what=_what(args))


def _new_file(item: Input) -> str | None:
    return item.target if isinstance(item, SheetJob) else None


def plan(args: argparse.Namespace) -> list[Input]:
    """Every input with its output, or the error that stops it, in the order given.

    Raises:
        CommandFailure: The options do not fit the inputs (``-o`` with several files, an SVG
            sheet).
    """
    paths: Sequence[str] = args.paths
    if args.format == "svg" and not args.card:
        raise option_error("--format svg is for the combat card: add --card (the sheet is HTML).", "--format")
    single = len(paths) == 1 and (paths[0] == STDIN or not os.path.isdir(paths[0]))
    if args.output is not None and not single:
        raise option_error("-o names one output: give one file, or use --out-dir for several.", "-o")
    inputs = planned_inputs(args, _stdin_job, _folder_jobs, _file_job)
    return without_output_conflicts(inputs, "sheet", _new_file)


# ================================================================ reporting


def _outcome_line(result: Sheeted) -> str:
    """``hero.json -> hero.html: sheet`` or ``... -> hero.card.svg: combat card (SVG)``."""
    where = STDOUT_LABEL if result.output is None else result.output
    what = "sheet" if result.what == "sheet" else f"combat card ({result.what.upper()})"
    return f"{label(result.path)} -> {where}: {what}"


def _json_record(result: Sheeted) -> dict[str, Any]:
    record: dict[str, Any] = {"path": result.path, "ok": result.error is None}
    if result.error is not None:
        record["error"] = result.error
    else:
        record["output"] = result.output
    return record


def _summary(sheeted: list[Sheeted]) -> str:
    """``3 files: 2 rendered, 1 failed``."""
    done = sum(result.error is None for result in sheeted)
    return f"{plural(len(sheeted), 'file')}: {done} rendered, {len(sheeted) - done} failed"


def _cmd_sheet(args: argparse.Namespace) -> int:
    work = functools.partial(sheet_one, max_bytes=args.max_bytes)
    return run_output_jobs(
        args,
        plan(args),
        work,
        Sheeted,
        verb="rendering",
        record=_json_record,
        lines=lambda result: [_outcome_line(result)],
        summary=_summary,
    )


def register(commands: Commands) -> None:
    """Adds ``sheet``."""
    parser = add_command(
        commands,
        "sheet",
        "render characters as printable HTML sheets, or combat cards (HTML or SVG)",
        _cmd_sheet,
        _EPILOG,
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="FILE",
        help="a document (.json, .yaml, .gcs), a folder (every document below it) or - for stdin",
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", metavar="OUT", help="where the page goes (one input; - for stdout)")
    target.add_argument(
        "--out-dir",
        metavar="DIR",
        help="write each page into DIR (created if missing), keeping folders' layout",
    )
    parser.add_argument("--card", action="store_true", help="the combat card instead of the whole sheet")
    parser.add_argument(
        "--format",
        choices=("html", "svg"),
        default="html",
        help="the card's format (default html; svg needs --card)",
    )
    parser.add_argument("-f", "--force", action="store_true", help="replace existing files")
    add_max_bytes_option(parser)
    add_json_and_jobs_options(parser, "render")
