"""``export``: characters to GCS files (:func:`~gurps_character.export_gcs`), many at once, or play
written back into the ``.gcs`` file a character was imported from (``--onto``).

New files are planned in the main process first, as ``import`` plans its outputs (two inputs never
write the same file, an input is never replaced by its own output), then exported and written in
``--jobs`` processes, atomically and never over an existing file unless ``--force`` is given.

``--onto GCS`` takes one document imported from that file: its HP and FP damage are written into
the file in place (or to ``-o OUT``), every other byte kept, atomically, keeping the file's owner
and mode, with the file locked from reading to renaming. A file changed in GCS since the document
was imported from it is refused (``gcsChanged``) unless ``--force`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..constants import MAX_DOCUMENT_BYTES
from ..errors import CharacterError
from ..gcs import export_gcs
from ..load import parse_character
from ._command import Commands, add_command, add_max_bytes_option
from ._common import EXIT_ERROR, EXIT_OK, PROG, STDIN, label
from ._formats import GCS_SUFFIX, document_suffixes, import_failed
from ._io import atomic_write, locked_for_update, read_input, read_source, unwritable
from ._many import Input, Result, add_json_and_jobs_options
from ._outputs import (
    STDOUT_LABEL,
    OutputJob,
    folder_jobs,
    job_target,
    option_error,
    planned_inputs,
    run_output_jobs,
    same_place,
    stdin_data,
    without_output_conflicts,
    write_job,
)
from ._report import plural

__all__ = ["GCS_CHANGED", "ExportJob", "Exported", "export_one", "register"]

GCS_CHANGED: Final = "gcsChanged"
"""A CLI error code: the ``--onto`` file was changed in GCS since the document was imported."""

_EPILOG: Final = f"""\
examples:
  {PROG} export hero.json                   writes hero.gcs beside it (a new GCS character)
  {PROG} export hero.yaml -o hero.gcs       or where you say ('-o -' for stdout)
  {PROG} export --out-dir gcs/ party/       every document below party/, same layout under gcs/
  {PROG} export hero.json --onto hero.gcs   play (HP and FP lost) written back into the GCS file
  {PROG} export --json --notes hero.json

A document imported from GCS keeps the GCS file; --onto writes its HP and FP damage back into
that file, every other byte as it was (diff shows only what play changed), atomically, keeping
the file's owner and mode. A file changed in GCS since the import is refused ({GCS_CHANGED})
unless --force is given. Any other document becomes a new GCS character: each file gets one
line with its notes count (what GCS shows otherwise, features added for the document's numbers,
what has no place in GCS); --notes lists them. An existing file is never replaced without --force.

--json prints one object per file and line, {{"path", "ok", ...}} with either
  "output", "writtenBack", "notes": [{{"source", "kind", "message"}}]
or "error": {{"code", "message", "details"}}.

exit status: 0 every file exported; 2 some file could not be read, exported or written."""


@dataclass(frozen=True, slots=True)
class ExportJob(OutputJob):
    """One document to export and where its GCS file goes (``target`` None: stdout)."""

    onto: str | None = None
    """The GCS file to write play back into (its bytes are the base)."""


@dataclass(frozen=True, slots=True)
class Exported(Result):
    """The outcome of one export: the file written, whether play was written back, the notes."""

    output: str | None = None
    written_back: bool = False
    notes: tuple[dict[str, Any], ...] = ()

    @property
    def status(self) -> int:
        """2 when the document could not be read, exported or written, else 0."""
        return EXIT_ERROR if self.error is not None else EXIT_OK


def _document(job: ExportJob, max_bytes: int) -> dict[str, Any]:
    """The job's document, fully checked (size, format, envelope, schema, rules)."""
    try:
        source = read_source(job.path, job.data, max_bytes=max_bytes)
        return dict(parse_character(source, max_bytes=max_bytes).character)
    except CharacterError:
        raise
    except Exception as err:  # the boundary: one bad file must not end the run
        raise import_failed(err) from None


def _refuse_changed(notes: Sequence[dict[str, Any]], onto: str) -> None:
    changed = [note for note in notes if note["kind"] == "sourceChanged"]
    if changed:
        raise CharacterError(
            GCS_CHANGED,
            f"{onto} was changed in GCS since the document was imported from it; import it again, or "
            "give --force to write play into it all the same.",
            {"gcs": onto, "note": changed[0]["message"]},
        )


def _onto_error(err: CharacterError, onto: str) -> CharacterError:
    """A failure to read the ``--onto`` file, naming it: the report's label is the document's."""
    if err.details.get("name") == "--in-place":  # locked_for_update's words for a FIFO or device
        message = "--onto needs a regular file (a FIFO or a device cannot be written back into)."
        return CharacterError(err.code, message, {"name": "--onto", "value": onto})
    return CharacterError(err.code, f"--onto {onto}: {err.message}", {**err.details, "gcs": onto})


def _write_back(
    job: ExportJob, document: dict[str, Any], max_bytes: int
) -> tuple[str, tuple[dict[str, Any], ...]]:
    """Play written into the ``--onto`` file: in place (locked, atomically) or to ``-o OUT``."""
    onto = job.onto
    assert onto is not None
    if not _in_place(job):
        try:
            base = read_input(onto, max_bytes)
        except CharacterError as err:
            raise _onto_error(err, onto) from None
        exported = export_gcs(document, base=base, max_bytes=max_bytes)
        notes = tuple(note.to_dict() for note in exported.notes)
        if not job.force:
            _refuse_changed(notes, onto)
        write_job(job, exported.text.encode("utf-8"))
        return exported.text, notes
    with contextlib.ExitStack() as held:
        try:
            original = held.enter_context(locked_for_update(onto, max_bytes))
        except CharacterError as err:
            raise _onto_error(err, onto) from None
        exported = export_gcs(document, base=original, max_bytes=max_bytes)
        notes = tuple(note.to_dict() for note in exported.notes)
        if not job.force:
            _refuse_changed(notes, onto)
        data = exported.text.encode("utf-8")
        if data != original:
            try:
                atomic_write(onto, data)
            except OSError as err:
                raise unwritable(err) from None
    return exported.text, notes


def export_one(item: Input, max_bytes: int = MAX_DOCUMENT_BYTES) -> Result:
    """Reads, exports and writes one document (runs in a worker process with ``--jobs``), the
    document and the ``--onto`` file within ``max_bytes``."""
    job = item if isinstance(item, ExportJob) else ExportJob(item.path, item.data, item.error)
    if job.error is not None:
        return Exported(job.path, error=job.error)
    try:
        document = _document(job, max_bytes)
        if job.onto is not None:
            _, notes = _write_back(job, document, max_bytes)
            return Exported(job.path, output=job.target, written_back=True, notes=notes)
        exported = export_gcs(document)
        write_job(job, exported.text.encode("utf-8"))
    except CharacterError as err:
        return Exported(job.path, error=err.to_dict())
    notes = tuple(note.to_dict() for note in exported.notes)
    written_back = any(note["kind"] == "playWritten" for note in notes)
    return Exported(job.path, output=job.target, written_back=written_back, notes=notes)


# ================================================================ planning the outputs


def _inputs_suffixes() -> tuple[str, ...]:
    """The document formats a folder is searched for (GCS files are what an export writes)."""
    return tuple(suffix for suffix in document_suffixes() if suffix != GCS_SUFFIX)


def _in_place(job: ExportJob) -> bool:
    """Whether a write-back writes into its ``--onto`` file itself (not to ``-o OUT`` or stdout)."""
    return job.onto is not None and job.target is not None and same_place(job.target, job.onto)


def _new_file(item: Input) -> str | None:
    """The file an export job writes anew: its GCS file, or a write-back's ``-o OUT`` (which must
    not be the document itself); a write-back into its ``--onto`` file writes no new file."""
    if not isinstance(item, ExportJob) or _in_place(item):
        return None
    return item.target


def _stdin_job(args: argparse.Namespace) -> Input:
    data = stdin_data(args)
    if isinstance(data, Input):
        return data
    output: str | None = args.output
    target = args.onto if output is None and args.onto else None if output in (None, STDIN) else output
    return ExportJob(STDIN, data=data, target=target, force=args.force, onto=args.onto)


def _folder_jobs(args: argparse.Namespace, folder: str) -> list[Input]:
    def job(path: str, target: str, make_folder: bool) -> Input:
        return ExportJob(path, target=target, force=args.force, make_folder=make_folder)

    return folder_jobs(folder, _inputs_suffixes(), args.out_dir, GCS_SUFFIX, job)


def _file_job(args: argparse.Namespace, path: str) -> Input:
    output: str | None = args.output
    if args.onto is not None:
        target = args.onto if output is None else None if output == STDIN else output
        return ExportJob(path, target=target, force=args.force, onto=args.onto)
    return ExportJob(path, target=job_target(path, output, args.out_dir, GCS_SUFFIX), force=args.force)


def plan(args: argparse.Namespace) -> list[Input]:
    """Every input with its output, or the error that stops it, in the order given.

    Raises:
        CommandFailure: The options do not fit the inputs (``-o`` or ``--onto`` with several files).
    """
    paths: Sequence[str] = args.paths
    single = len(paths) == 1 and (paths[0] == STDIN or not os.path.isdir(paths[0]))
    if args.output is not None and not single:
        raise option_error("-o names one output: give one file, or use --out-dir for several.", "-o")
    if args.onto is not None and not single:
        raise option_error(
            "--onto writes one document's play into its GCS file: give one document.", "--onto"
        )
    if args.onto is not None and args.out_dir is not None:
        raise option_error(
            "--onto writes into the GCS file itself (or -o OUT), not into --out-dir.", "--onto"
        )
    inputs = planned_inputs(args, _stdin_job, _folder_jobs, _file_job)
    return without_output_conflicts(inputs, "export", _new_file)


# ================================================================ reporting


def _outcome_line(result: Exported) -> str:
    """``hero.json -> hero.gcs: a new GCS character, 4 notes`` or ``... play written back, 1 note``."""
    where = STDOUT_LABEL if result.output is None else result.output
    what = "play written back" if result.written_back else "a new GCS character"
    return f"{label(result.path)} -> {where}: {what}, {plural(len(result.notes), 'note')}"


def _note_lines(result: Exported) -> list[str]:
    return [f"  {note['source'] or '(root)'}: {note['kind']}: {note['message']}" for note in result.notes]


def _json_record(result: Exported) -> dict[str, Any]:
    record: dict[str, Any] = {"path": result.path, "ok": result.error is None}
    if result.error is not None:
        record["error"] = result.error
    else:
        record["output"] = result.output
        record["writtenBack"] = result.written_back
        record["notes"] = list(result.notes)
    return record


def _summary(exported: list[Exported]) -> str:
    """``3 files: 2 exported, 1 failed; 5 notes in all``."""
    done = sum(result.error is None for result in exported)
    notes = sum(len(result.notes) for result in exported)
    summary = f"{plural(len(exported), 'file')}: {done} exported, {len(exported) - done} failed; "
    return summary + f"{plural(notes, 'note')} in all"


def _cmd_export(args: argparse.Namespace) -> int:
    with_notes: bool = args.notes

    def lines(result: Exported) -> list[str]:
        return [_outcome_line(result), *(_note_lines(result) if with_notes else [])]

    work = functools.partial(export_one, max_bytes=args.max_bytes)
    return run_output_jobs(
        args, plan(args), work, Exported, verb="exporting", record=_json_record, lines=lines, summary=_summary
    )


def register(commands: Commands) -> None:
    """Adds ``export``."""
    parser = add_command(
        commands,
        "export",
        "export characters as GCS files, or write play back into a character's GCS file",
        _cmd_export,
        _EPILOG,
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="FILE",
        help="a document, a folder (every document below it) or - for stdin",
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument(
        "-o", "--output", metavar="OUT", help="where the GCS file goes (one input; - for stdout)"
    )
    target.add_argument(
        "--out-dir",
        metavar="DIR",
        help="write each GCS file into DIR (created if missing), keeping folders' layout",
    )
    parser.add_argument(
        "--onto",
        metavar="GCS",
        help="write the document's play (HP and FP lost) into the GCS file it was imported from",
    )
    parser.add_argument(
        "-f", "--force", action="store_true", help="replace existing files; write onto a changed GCS file"
    )
    parser.add_argument("--notes", action="store_true", help="list every export note under its file")
    add_json_and_jobs_options(parser, "export")
    add_max_bytes_option(parser)
