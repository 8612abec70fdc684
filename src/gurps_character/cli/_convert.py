"""``convert``: a character from one file format to another (JSON and YAML), by the file suffixes."""

from __future__ import annotations

import argparse
import os
from typing import Final

from ..errors import CharacterError
from ..load import load_document
from ._command import Commands, add_command, add_max_bytes_option
from ._common import EXIT_OK, INVALID_ARGUMENT, OUTPUT_EXISTS, PROG, CommandFailure, label
from ._formats import WRITERS, writer_for
from ._io import read_source, unwritable, write_new, write_output

__all__ = ["register"]

_EPILOG: Final = f"""\
examples:
  {PROG} convert hero.json -o hero.yaml          JSON to YAML
  {PROG} convert hero.yaml -o hero.json          and back
  {PROG} convert --force hero.yaml -o hero.json  replace an existing hero.json

The formats come from the suffixes: .json, .yaml or .yml (IN with another suffix, or - for
stdin, is read as JSON). The document must be valid (size, format, version and schema are
checked; the rules are not). OUT is written atomically and never replaced without --force,
not even a file that appears while the document is converted.
Reading YAML needs the optional extra: pip install "gurps-character[yaml]"."""


def _cmd_convert(args: argparse.Namespace) -> int:
    source: str = args.path
    output: str = args.output
    write = writer_for(output)
    if write is None:
        suffixes = ", ".join(WRITERS)
        raise CommandFailure(
            output,
            CharacterError(
                INVALID_ARGUMENT,
                f"cannot tell the format to write from the suffix of {output!r}: use one of {suffixes}.",
                {"name": "--output", "value": output},
            ),
        )
    if not args.force and os.path.lexists(output):  # said before the work, and again when writing
        raise _exists(output)
    try:
        document = load_document(read_source(source, max_bytes=args.max_bytes), args.max_bytes)
        data = write(document).encode("utf-8")
    except CharacterError as err:
        raise CommandFailure(label(source), err) from None
    if args.force:
        write_output(output, data)
        return EXIT_OK
    try:
        write_new(output, data)  # fails if OUT appeared meanwhile: it is never replaced
    except FileExistsError:
        raise _exists(output) from None
    except OSError as err:
        raise CommandFailure(output, unwritable(err)) from None
    return EXIT_OK


def _exists(output: str) -> CommandFailure:
    return CommandFailure(
        output,
        CharacterError(OUTPUT_EXISTS, "the file exists; add --force to replace it.", {"path": output}),
    )


def register(commands: Commands) -> None:
    """Adds ``convert``."""
    convert = add_command(
        commands, "convert", "write a character in another format (JSON, YAML)", _cmd_convert, _EPILOG
    )
    convert.add_argument("path", metavar="IN", help="a character file, or - for stdin (JSON)")
    convert.add_argument(
        "-o", "--output", metavar="OUT", required=True, help="the file to write (.json, .yaml or .yml)"
    )
    convert.add_argument("-f", "--force", action="store_true", help="replace OUT if it exists")
    add_max_bytes_option(convert)
