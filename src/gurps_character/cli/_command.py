"""How a command family joins the parser.

Each family is one module with a ``register(commands: Commands) -> None`` function that adds its
subcommands with :func:`add_command` (which binds the handler); :mod:`gurps_character.cli` lists
the ``register`` functions in ``FAMILIES``. A handler takes the parsed arguments and returns the
exit status; it raises :class:`~._common.CommandFailure` for an expected failure.
"""

from __future__ import annotations

import argparse
import contextlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, TypeAlias

from ..constants import MAX_DOCUMENT_BYTES

__all__ = ["Commands", "Handler", "add_command", "add_max_bytes_option", "integer_text", "positive"]

if TYPE_CHECKING:
    Commands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    Commands: TypeAlias = argparse._SubParsersAction
"""The object ``register`` adds subcommands to (what ``add_subparsers()`` returns)."""

Handler: TypeAlias = Callable[[argparse.Namespace], int]
"""Runs a command: the parsed arguments in, the exit status out."""

_INTEGER: Final = re.compile(r"[+-]?[0-9]+")


def add_command(
    commands: Commands, name: str, summary: str, handler: Handler, epilog: str
) -> argparse.ArgumentParser:
    """Adds the subcommand ``name``, run by ``handler``; returns its parser for the options.

    Args:
        commands: What ``register`` was given.
        name: The command's name (``check``).
        summary: One line, lower case, no final stop: the ``--help`` list and the description.
        handler: The function that runs it.
        epilog: Examples and notes for ``NAME --help`` (shown as written).
    """
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=summary[0].upper() + summary[1:] + ".",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(handler=handler)
    return parser


def integer_text(text: str) -> int | None:
    """The integer ``text`` writes in ASCII digits (a sign allowed), or None: for anything else,
    and for more digits than ``int()`` reads."""
    if _INTEGER.fullmatch(text):
        with contextlib.suppress(ValueError):
            return int(text)
    return None


def add_max_bytes_option(parser: argparse.ArgumentParser) -> None:
    """``--max-bytes N``: the size limit for the files the command reads and the documents they
    make (a GCS file's document is larger than the file); default the library's."""
    parser.add_argument(
        "--max-bytes",
        type=positive,
        default=MAX_DOCUMENT_BYTES,
        metavar="N",
        help=f"read files, and documents, of up to N bytes (default: {MAX_DOCUMENT_BYTES:,})",
    )


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    if not _INTEGER.fullmatch(text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return int(text)
