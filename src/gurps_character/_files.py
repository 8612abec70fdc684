"""Reading a file's bytes within a size limit: for :func:`~gurps_character.load_character` and the
command line, which refuse the same files with the same codes.

A regular file's size is known before it is read, so a file over the limit is refused unread;
a pipe or device is read no further than one byte past the limit.
"""

from __future__ import annotations

import os
import stat
from typing import IO, Final

from .errors import CharacterError

__all__ = ["read_file", "read_stream", "too_large", "unreadable"]

UNREADABLE: Final = "unreadable"
"""The code of a file that cannot be read (missing, a directory, no permission ...)."""

_READ_CHUNK: Final = 1 << 16


def too_large(size: int, limit: int) -> CharacterError:
    """``tooLarge`` for a file of ``size`` bytes, in the words the library uses for text."""
    return CharacterError(
        "tooLarge",
        f"The document is {size} bytes, over the limit of {limit}.",
        {"size": size, "limit": limit},
    )


def unreadable(err: OSError) -> CharacterError:
    """``unreadable`` for an operating-system failure to read a file or folder (``{reason}``)."""
    reason = err.strerror or str(err) or type(err).__name__
    return CharacterError(UNREADABLE, f"cannot read the file: {reason}.", {"reason": reason})


def read_stream(stream: IO[bytes], limit: int) -> bytes:
    """Reads a stream up to ``limit`` bytes; one byte more and it is refused (``tooLarge``) unread."""
    kept: list[bytes] = []
    size = 0
    while size <= limit and (chunk := stream.read(min(_READ_CHUNK, limit + 1 - size))):
        kept.append(chunk)
        size += len(chunk)
    if size > limit:
        raise CharacterError(
            "tooLarge",
            f"The document is over the limit of {limit} bytes (it was read no further).",
            {"size": size, "limit": limit},
        )
    return b"".join(kept)


def read_file(path: str | bytes, limit: int) -> bytes:
    """The bytes of the file at ``path``, refusing more than ``limit`` bytes.

    Raises:
        CharacterError: ``unreadable`` (missing, a directory, no permission, a name the system
            refuses) or ``tooLarge`` (a regular file's size, checked before reading).
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed below, after the size check)
    except OSError as err:
        raise unreadable(err) from None
    except ValueError:  # open() refuses a path holding a NUL character before asking the system
        raise unreadable(OSError(0, "the path holds a NUL character")) from None
    with handle:
        try:
            info = os.fstat(handle.fileno())
            if stat.S_ISREG(info.st_mode) and info.st_size > limit:
                raise too_large(info.st_size, limit)
            return read_stream(handle, limit)
        except OSError as err:
            raise unreadable(err) from None
