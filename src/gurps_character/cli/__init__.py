"""The ``gurps-character`` command line: check, inspect and update character files without Python.

Each command family is one module with a ``register(commands)`` function that adds its
subcommands and their handlers (:func:`._command.add_command`); :data:`FAMILIES` lists them, so a
new family is one module and one line here. A handler receives the parsed arguments and returns
the exit status; :func:`main` turns every expected failure into a one-line message on stderr
(``error: <file>: <code>: <message>``) and exit status 2. No input, however broken, produces a
Python traceback.

Every command reads its input through one seam, :func:`._io.read_source`, which picks a loader by
the file's suffix from :data:`._formats.FORMATS` (JSON unless another format is listed there).

Exit statuses: 0 success (for ``check``: every file valid and rules-compliant); 1 ``check`` found a
valid file that is not rules-compliant; 2 a file could not be read, is invalid, or an argument is
wrong (nothing was written); 130 interrupted by Ctrl-C; 143 and 129 stopped by ``SIGTERM`` or
``SIGHUP`` while ``--jobs`` workers ran (they are ended first); 141 the reader of stdout went away
(``... | head``: what a shell reports for a tool stopped by SIGPIPE, so a pipeline under
``pipefail`` does not mistake a cut-short check for a complete one). Neither prints anything.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Final

from .. import __version__
from . import (
    _attack,
    _check,
    _convert,
    _defend,
    _export,
    _hit,
    _import,
    _recompute,
    _roll,
    _sheet,
    _stats,
    _update,
)
from ._command import Commands, Handler
from ._common import (
    EXIT_BROKEN_PIPE,
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    PROG,
    CommandFailure,
    Stopped,
)
from ._io import atomic_write, read_input, whole_writes
from ._report import error_lines, say

__all__ = ["FAMILIES", "atomic_write", "build_parser", "main", "read_input"]

FAMILIES: Final[tuple[Callable[[Commands], None], ...]] = (
    _check.register,  # check, validate
    _stats.register,  # stats
    _recompute.register,  # recompute, fields
    _update.register,  # damage, heal, fatigue, recover, update
    _hit.register,  # hit
    _roll.register,  # roll
    _attack.register,  # attack
    _defend.register,  # defend
    _convert.register,  # convert
    _import.register,  # import
    _export.register,  # export
    _sheet.register,  # sheet
)
"""Each command family's ``register``, in the order ``--help`` lists the commands."""

_EPILOG: Final = f"""\
examples:
  {PROG} check hero.json                 is it valid and built by the rules?
  {PROG} check --jobs 4 campaign/        every *.json, *.yaml and *.gcs below a folder, in 4 processes
  {PROG} stats hero.json                 the combat view as a table
  {PROG} damage --in-place hero.json 5   take 5 HP off, rewriting the file safely
  {PROG} hit hero.json 9 cut --dr 3      a 9 cutting blow: injury, shock, rolls
  {PROG} roll hero.json Broadsword      3d against the sheet's skill (or DX, Will..., or a number)
  {PROG} attack 14 --location skull      effective skill of a called shot, modifier by modifier, rolled
  {PROG} defend parry 10 --retreat       an active defense with its modifiers
  {PROG} convert hero.json -o hero.yaml  the same character in YAML (.yaml files work everywhere)
  {PROG} import hero.gcs                 a GCS character as hero.json (check/stats read .gcs too)
  {PROG} export hero.json --onto hero.gcs  play written back into the GCS file (or a new hero.gcs)
  {PROG} sheet hero.json                 a printable sheet, hero.html (--card: the combat card)

exit status: 0 success; 1 (check) a valid file is not rules-compliant;
2 a file is unreadable or invalid, or an argument is wrong; 130 interrupted (Ctrl-C);
143 or 129 stopped by kill or a hang-up (--jobs); 141 the reader of stdout went away
(| head). Results go to stdout, errors to stderr.
Run '{PROG} COMMAND --help' for a command's options."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``gurps-character`` and all its commands."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Check, inspect and update GURPS 4th Edition characters (gurps-character JSON format).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in FAMILIES:
        register(commands)
    return parser


def _report_failure(failure: CommandFailure) -> None:
    """``error: <file>: <code>: <message>`` on stderr, then each schema error."""
    say(error_lines(failure.error.to_dict(), "", failure.label), err=True)


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


def _silence_stdout() -> None:
    """Points stdout at the null device, so that Python's final flush of a broken pipe is quiet."""
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version and usage errors
        return _exit_status(stop.code)
    handler: Handler = args.handler
    try:
        return handler(args)
    except CommandFailure as failure:
        _report_failure(failure)
        return EXIT_ERROR


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``gurps-character`` command line.

    Args:
        argv: The arguments after the program name (default: ``sys.argv[1:]``).

    Returns:
        The exit status: 0 success, 1 a checked file is valid but not rules-compliant, 2 an error,
        130 interrupted (Ctrl-C), 143 or 129 stopped by ``SIGTERM`` or ``SIGHUP`` while ``--jobs``
        workers ran, 141 the reader of stdout went away (``| head``).
    """
    try:
        with whole_writes():  # a short write to a pipe is finished or fails, never dropped
            _tolerant_streams()
            try:
                return _run(argv)
            except KeyboardInterrupt:
                return EXIT_INTERRUPTED
            except Stopped as stop:  # SIGTERM or SIGHUP while --jobs workers ran: they are ended
                return 128 + stop.signal_number
            except BrokenPipeError:  # the reader went away (| head): stop quietly, as a shell tool does
                _silence_stdout()
                return EXIT_BROKEN_PIPE
    finally:
        if argv is None:
            _default_interrupts()


def _default_interrupts() -> None:
    """Run as the program (``argv`` None), a Ctrl-C after the work is done ends the process as
    the signal does (a shell shows 130) instead of interrupting Python's exit handlers with a
    traceback."""
    with contextlib.suppress(ValueError, OSError, AttributeError):  # not the main thread
        signal.signal(signal.SIGINT, signal.SIG_DFL)
