"""What every command shares: the program's name, exit statuses, CLI error codes and the failure type."""

from __future__ import annotations

from typing import Final

from .._files import UNREADABLE
from ..errors import CharacterError

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_NOT_COMPLIANT",
    "EXIT_OK",
    "INVALID_ARGUMENT",
    "NO_FILES",
    "OUTPUT_EXISTS",
    "PROG",
    "STDIN",
    "STDIN_LABEL",
    "UNREADABLE",
    "UNWRITABLE",
    "CommandFailure",
    "Stopped",
    "label",
    "with_limit_hint",
]

PROG: Final = "gurps-character"
STDIN: Final = "-"
STDIN_LABEL: Final = "<stdin>"

EXIT_OK: Final = 0
EXIT_NOT_COMPLIANT: Final = 1
EXIT_ERROR: Final = 2
EXIT_INTERRUPTED: Final = 130
"""Ctrl-C: 128 + SIGINT, as a shell reports a program the signal stopped."""
EXIT_BROKEN_PIPE: Final = 141
"""The reader of stdout went away (``| head``): 128 + SIGPIPE, as a shell reports ``cat`` then."""

# CLI-level error codes, beside the library's (CharacterError.code).
UNWRITABLE: Final = "unwritable"
NO_FILES: Final = "noJsonFiles"
OUTPUT_EXISTS: Final = "outputExists"
INVALID_ARGUMENT: Final = "invalidArgument"


class CommandFailure(Exception):
    """A command failed on one input: the file (if any) and the library-style error.

    :func:`gurps_character.cli.main` prints it as ``error: <file>: <code>: <message>`` on stderr
    and exits with status 2.
    """

    def __init__(self, label: str | None, error: CharacterError) -> None:
        super().__init__(error.message)
        self.label = label
        self.error = error


class Stopped(BaseException):
    """The process was told to stop (``SIGTERM``, ``SIGHUP``) while ``--jobs`` workers ran: raised
    by the signal's handler so that the workers are ended on the way out, as for Ctrl-C.

    A ``BaseException``, as ``KeyboardInterrupt`` is: no ``except Exception`` swallows it.
    :func:`gurps_character.cli.main` returns ``128 + signal``, as a shell shows a process the
    signal ended (143 for ``SIGTERM``, 129 for ``SIGHUP``).
    """

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number


def with_limit_hint(err: CharacterError) -> CharacterError:
    """A ``tooLarge`` error with the option that raises the limit named (the library's message
    names its ``max_bytes`` parameter, or none); any other as it is."""
    if err.code != "tooLarge":
        return err
    return CharacterError(err.code, f"{err.message} --max-bytes N reads more.", err.details)


def label(path: str) -> str:
    """How messages name an input: the path as given, ``<stdin>`` for ``-``."""
    return STDIN_LABEL if path == STDIN else path
