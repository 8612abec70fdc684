"""The files a converting command (``import``, ``export``, ``sheet``) writes: one job per input,
planned in the main process from the paths and options (beside the input, ``-o``, ``--out-dir``
keeping a folder's layout), checked against each other before anything is written (each output
written once, never over its own input), then written by the job, never over an existing file
without ``--force``; and how such a command runs its jobs and reports them
(:func:`run_output_jobs`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from ..constants import MAX_DOCUMENT_BYTES
from ..errors import CharacterError
from ._common import EXIT_OK, INVALID_ARGUMENT, NO_FILES, OUTPUT_EXISTS, STDIN, CommandFailure, label
from ._io import read_input, standard_stream, unwritable, write_file, write_new, write_stdout
from ._many import Input, Result, document_files, run_many
from ._report import error_lines, json_line, say

__all__ = [
    "OUTPUT_CONFLICT",
    "STDOUT_LABEL",
    "OutputJob",
    "folder_jobs",
    "job_target",
    "option_error",
    "planned_inputs",
    "run_output_jobs",
    "same_place",
    "stdin_data",
    "without_output_conflicts",
    "write_job",
]

OUTPUT_CONFLICT: Final = "outputConflict"
"""A CLI error code: the output would be another input's output, or the input itself."""

STDOUT_LABEL: Final = "<stdout>"
"""How a report names stdout as a job's output."""


@dataclass(frozen=True, slots=True)
class OutputJob(Input):
    """One input and where its output goes (``target`` None: stdout)."""

    target: str | None = None
    force: bool = False
    make_folder: bool = False
    """Create the target's folder (``--out-dir`` keeps a folder's layout below it)."""


def option_error(message: str, name: str) -> CommandFailure:
    """The options do not fit the inputs (``name`` is the option at fault)."""
    return CommandFailure(None, CharacterError(INVALID_ARGUMENT, message, {"name": name}))


def write_job(job: OutputJob, data: bytes) -> None:
    """Writes a job's output where it says: stdout, or its file (a new one unless ``force``).

    Raises:
        CharacterError: ``outputExists`` (no ``--force``), ``unwritable``.
    """
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
        raise CharacterError(
            OUTPUT_EXISTS, f"{target} exists; give --force to replace it.", {"output": target}
        ) from None
    except OSError as err:
        raise unwritable(err) from None


def stdin_data(args: argparse.Namespace) -> bytes | Input:
    """The bytes of stdin, or the input that says why they cannot be converted (``--out-dir``
    takes an input's file name, which stdin has not; stdin unreadable)."""
    if args.out_dir is not None:
        message = "stdin has no file name for --out-dir to use; give -o FILE (or -o - for stdout)."
        return Input(STDIN, error=CharacterError(INVALID_ARGUMENT, message, {"name": "--out-dir"}).to_dict())
    try:
        # a command without --max-bytes reads within the library's limit
        return read_input(STDIN, getattr(args, "max_bytes", MAX_DOCUMENT_BYTES))
    except CharacterError as err:
        return Input(STDIN, error=err.to_dict())


def job_target(path: str, output: str | None, out_dir: str | None, suffix: str) -> str | None:
    """Where one file's output goes: ``-o`` (None for ``-o -``: stdout), else under ``--out-dir``,
    else beside it; with ``suffix`` in place of its own."""
    if output is not None:
        return None if output == STDIN else output
    stem = os.path.splitext(path if out_dir is None else os.path.basename(path))[0]
    return stem + suffix if out_dir is None else os.path.join(out_dir, stem + suffix)


def folder_jobs(
    folder: str,
    suffixes: tuple[str, ...],
    out_dir: str | None,
    suffix: str,
    job: Callable[[str, str, bool], Input],
) -> list[Input]:
    """A job for every file with one of ``suffixes`` below ``folder``: ``job(path, target,
    make_folder)``, its output beside it or at the same place under ``out_dir``; ``noJsonFiles``
    when there is none."""
    found = document_files(folder, suffixes)
    if not found:
        message = f"the folder contains no {' or '.join(f'*{each}' for each in suffixes)} file."
        return [Input(folder, error=CharacterError(NO_FILES, message, {"folder": folder}).to_dict())]
    jobs: list[Input] = []
    for item in found:
        if item.error is not None:
            jobs.append(item)
        elif out_dir is None:
            jobs.append(job(item.path, os.path.splitext(item.path)[0] + suffix, False))
        else:
            relative = os.path.splitext(os.path.relpath(item.path, folder))[0]
            jobs.append(job(item.path, os.path.join(out_dir, relative + suffix), True))
    return jobs


def planned_inputs(
    args: argparse.Namespace,
    stdin_job: Callable[[argparse.Namespace], Input],
    folder_job: Callable[[argparse.Namespace, str], list[Input]],
    file_job: Callable[[argparse.Namespace, str], Input],
) -> list[Input]:
    """The jobs of ``args.paths`` in the order given: stdin, every file of a folder, a file.

    Raises:
        CommandFailure: stdin given twice; ``--out-dir`` cannot be made.
    """
    paths: Sequence[str] = args.paths
    if paths.count(STDIN) > 1:
        raise option_error("stdin ('-') can be read once.", "-")
    if args.out_dir is not None:
        try:
            os.makedirs(args.out_dir, exist_ok=True)
        except OSError as err:
            raise CommandFailure(args.out_dir, unwritable(err)) from None
    inputs: list[Input] = []
    for path in paths:
        if path == STDIN:
            inputs.append(stdin_job(args))
        elif os.path.isdir(path):
            inputs.extend(folder_job(args, path))
        else:
            inputs.append(file_job(args, path))
    return inputs


def same_place(left: str, right: str) -> bool:
    """Whether two paths name one file (the same inode, or the same absolute path when either
    does not exist yet)."""
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
            is meant to write into, as ``export --onto`` into its GCS file).
    """
    taken: dict[str, str] = {}
    planned: list[Input] = []
    for item in inputs:
        target = new_file(item) if item.error is None else None
        if target is not None:
            key = os.path.normcase(os.path.realpath(target))
            if item.path != STDIN and same_place(item.path, target):
                item = _conflict(item, target, None, verb)
            elif key in taken:
                item = _conflict(item, target, taken[key], verb)
            else:
                taken[key] = item.path
        planned.append(item)
    return planned


_Outcome = TypeVar("_Outcome", bound=Result)


def run_output_jobs(
    args: argparse.Namespace,
    inputs: Sequence[Input],
    work: Callable[[Input], Result],
    outcome: type[_Outcome],
    *,
    verb: str,
    record: Callable[[_Outcome], dict[str, Any]],
    lines: Callable[[_Outcome], list[str]],
    summary: Callable[[list[_Outcome]], str],
) -> int:
    """Runs a converting command's planned jobs (in ``--jobs`` processes, within ``--max-bytes``)
    and reports each result as it comes, then returns the exit status (the worst file's).

    A result is reported as its JSON ``record`` on one line with ``--json``, else as its error on
    stderr (as every command's errors), else as its ``lines``; for several files, a ``summary``
    line follows (not with ``--json``). While a job writes its output to stdout, every report goes
    to stderr instead.
    """
    as_json: bool = args.json
    to_stderr = any(isinstance(item, OutputJob) and item.target is None for item in inputs)

    def emit(result: Result) -> None:
        assert isinstance(result, outcome)
        if as_json:
            print(json_line(record(result)), file=sys.stderr if to_stderr else sys.stdout)
        elif result.error is not None:
            say(error_lines(result.error, "", label(result.path)), err=True)
        else:
            say(lines(result), err=to_stderr)

    results = run_many(inputs, work, args.jobs, emit, verb=verb, max_bytes=args.max_bytes)
    outcomes = [result for result in results if isinstance(result, outcome)]
    if not as_json and len(outcomes) > 1:
        say([summary(outcomes)], err=to_stderr)
    return max((result.status for result in results), default=EXIT_OK)
