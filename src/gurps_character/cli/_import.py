"""``import``: GCS characters (``.gcs`` files) to gurps-character documents, many at once.

The command plans every output in the main process first (so that two inputs never write the
same file, and an input is never replaced by its own output), then imports and writes in
``--jobs`` processes through :func:`~._many.run_many`, like ``check``. A document is written only
when it is valid (:func:`~gurps_character.serialize_character` checks), atomically, and never over
an existing file unless ``--force`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..errors import CharacterError
from ..load import serialize_character
from ..verify import VerificationReport, verify_character
from ._command import Commands, add_command
from ._common import (
    EXIT_ERROR,
    EXIT_OK,
    INVALID_ARGUMENT,
    NO_FILES,
    PROG,
    STDIN,
    CommandFailure,
    label,
)
from ._formats import DEFAULT_SUFFIX, GCS_SUFFIX, gcs_import, import_failed
from ._io import read_input, standard_stream, unwritable, write_file, write_new, write_stdout
from ._many import Input, Result, add_json_and_jobs_options, document_files, run_many
from ._report import error_lines, json_line, plural, say

__all__ = [
    "OUTPUT_CONFLICT",
    "OUTPUT_EXISTS",
    "STDOUT_LABEL",
    "ImportJob",
    "Imported",
    "import_one",
    "plan",
    "register",
    "without_output_conflicts",
    "write_new",
]

OUTPUT_EXISTS: Final = "outputExists"
"""A CLI error code: the output file exists and ``--force`` was not given."""
OUTPUT_CONFLICT: Final = "outputConflict"
"""A CLI error code: the output would be another input's output, or the input itself."""

STDOUT_LABEL: Final = "<stdout>"

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
class ImportJob(Input):
    """One file to import and where its document goes (``target`` None: stdout)."""

    target: str | None = None
    force: bool = False
    make_folder: bool = False
    """Create the target's folder (``--out-dir`` keeps a folder's layout below it)."""


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


def _exists(target: str) -> CharacterError:
    return CharacterError(
        OUTPUT_EXISTS,
        f"{target} exists; give --force to replace it.",
        {"output": target},
    )


def _write(job: ImportJob, data: bytes) -> None:
    """Writes the document where the job says; raises ``CharacterError`` when it cannot."""
    target = job.target
    stream = None if target is None else standard_stream(target)  # -o /dev/stdout
    if target is None or stream is not None:
        write_stdout(data, stream)
        return
    try:
        if job.make_folder:
            os.makedirs(os.path.dirname(target) or os.curdir, exist_ok=True)
        if job.force:
            write_file(target, data)  # a FIFO or a device is written to, never replaced
        else:
            write_new(target, data)
    except FileExistsError:
        raise _exists(target) from None
    except OSError as err:
        raise unwritable(err) from None


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


def import_one(item: Input) -> Result:
    """Reads, imports, checks and writes one file (runs in a worker process with ``--jobs``)."""
    job = item if isinstance(item, ImportJob) else ImportJob(item.path, item.data, item.error)
    if job.error is not None:
        return Imported(job.path, error=job.error)
    try:
        imported = gcs_import(job.data if job.data is not None else read_input(job.path))
        text, report = _checked(imported.document)
        _write(job, text.encode("utf-8"))
    except CharacterError as err:
        return Imported(job.path, error=err.to_dict())
    notes = tuple(note.to_dict() for note in imported.notes)
    return Imported(job.path, report=report, output=job.target, notes=notes)


# ================================================================ planning the outputs


def _fail(message: str, name: str) -> CommandFailure:
    return CommandFailure(None, CharacterError(INVALID_ARGUMENT, message, {"name": name}))


def _beside(path: str) -> str:
    """``hero.gcs`` -> ``hero.json``, in the same folder."""
    return os.path.splitext(path)[0] + DEFAULT_SUFFIX


def _under(out_dir: str, relative: str) -> str:
    return os.path.join(out_dir, os.path.splitext(relative)[0] + DEFAULT_SUFFIX)


def _job(
    path: str, target: str | None, force: bool, data: bytes | None = None, *, make_folder: bool = False
) -> ImportJob:
    return ImportJob(path, data=data, target=target, force=force, make_folder=make_folder)


def _stdin_job(args: argparse.Namespace) -> Input:
    if args.out_dir is not None:
        message = "stdin has no file name for --out-dir to use; give -o FILE (or -o - for stdout)."
        return Input(STDIN, error=CharacterError(INVALID_ARGUMENT, message, {"name": "--out-dir"}).to_dict())
    try:
        data = read_input(STDIN)
    except CharacterError as err:
        return Input(STDIN, error=err.to_dict())
    output: str | None = args.output
    return _job(STDIN, None if output in (None, STDIN) else output, args.force, data)


def _folder_jobs(args: argparse.Namespace, folder: str) -> list[Input]:
    found = document_files(folder, (GCS_SUFFIX,))
    if not found:
        message = f"the folder contains no *{GCS_SUFFIX} file."
        return [Input(folder, error=CharacterError(NO_FILES, message, {"folder": folder}).to_dict())]
    out_dir: str | None = args.out_dir
    jobs: list[Input] = []
    for item in found:
        if item.error is not None:
            jobs.append(item)
        elif out_dir is None:
            jobs.append(_job(item.path, _beside(item.path), args.force))
        else:
            target = _under(out_dir, os.path.relpath(item.path, folder))
            jobs.append(_job(item.path, target, args.force, make_folder=True))
    return jobs


def _file_job(args: argparse.Namespace, path: str) -> Input:
    output: str | None = args.output
    out_dir: str | None = args.out_dir
    if output is not None:
        target = None if output == STDIN else output
    elif out_dir is not None:
        target = _under(out_dir, os.path.basename(path))
    else:
        target = _beside(path)
    return _job(path, target, args.force)


def _same_place(left: str, right: str) -> bool:
    with contextlib.suppress(OSError):
        return os.path.samefile(left, right)
    return os.path.normcase(os.path.abspath(left)) == os.path.normcase(os.path.abspath(right))


def _conflict(item: Input, target: str, other: str | None, verb: str) -> Input:
    if other is None:
        message = "the output would replace the input itself; give another name with -o or --out-dir."
    else:
        message = f"the output {target} is also the output of {other}; {verb} them to different places."
    details = {"output": target, "input": other if other is not None else item.path}
    return Input(item.path, error=CharacterError(OUTPUT_CONFLICT, message, details).to_dict())


def without_output_conflicts(
    inputs: list[Input], verb: str, new_file: Callable[[Input], str | None]
) -> list[Input]:
    """Each output written once, and never over its own input (checked before anything is written).

    Args:
        inputs: The planned inputs, in order.
        verb: The command, for the message (``import``, ``export``).
        new_file: The file an input without an error would write, or None (stdout, or a file it
            is meant to write into, as ``export --onto``).
    """
    taken: dict[str, str] = {}
    planned: list[Input] = []
    for item in inputs:
        target = new_file(item) if item.error is None else None
        if target is not None:
            key = os.path.normcase(os.path.realpath(target))
            if item.path != STDIN and _same_place(item.path, target):
                item = _conflict(item, target, None, verb)
            elif key in taken:
                item = _conflict(item, target, taken[key], verb)
            else:
                taken[key] = item.path
        planned.append(item)
    return planned


def _import_target(item: Input) -> str | None:
    return item.target if isinstance(item, ImportJob) else None


def plan(args: argparse.Namespace) -> list[Input]:
    """Every input with its output, or the error that stops it, in the order given.

    Raises:
        CommandFailure: The options do not fit the inputs (``-o`` with several files ...).
    """
    paths: Sequence[str] = args.paths
    output: str | None = args.output
    if output is not None and (len(paths) != 1 or (paths[0] != STDIN and os.path.isdir(paths[0]))):
        raise _fail("-o names one output: give one file, or use --out-dir for several.", "-o")
    if paths.count(STDIN) > 1:
        raise _fail("stdin ('-') can be read once.", "-")
    if args.out_dir is not None:
        try:
            os.makedirs(args.out_dir, exist_ok=True)
        except OSError as err:
            raise CommandFailure(args.out_dir, unwritable(err)) from None
    inputs: list[Input] = []
    for path in paths:
        if path == STDIN:
            inputs.append(_stdin_job(args))
        elif os.path.isdir(path):
            inputs.extend(_folder_jobs(args, path))
        else:
            inputs.append(_file_job(args, path))
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
    as_json: bool = args.json
    with_notes: bool = args.notes
    inputs = plan(args)
    to_stderr = any(isinstance(item, ImportJob) and item.target is None for item in inputs)

    def emit(result: Result) -> None:
        assert isinstance(result, Imported)
        if as_json:
            print(json_line(_json_record(result)), file=sys.stderr if to_stderr else sys.stdout)
        elif result.error is not None:  # errors go to stderr, as every command's do
            say(error_lines(result.error, "", label(result.path)), err=True)
        else:
            say([_outcome_line(result), *(_note_lines(result) if with_notes else [])], err=to_stderr)

    results = run_many(inputs, import_one, args.jobs, emit, verb="importing")
    imported = [result for result in results if isinstance(result, Imported)]
    if not as_json and len(imported) > 1:
        say([_summary(imported)], err=to_stderr)
    return max((result.status for result in results), default=EXIT_OK)


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
