"""Reading inputs (files, stdin, size limits, formats) and writing outputs (atomic writes, stdout).

:func:`read_source` is the single seam between a path and the library: it reads the bytes (or
takes stdin's, read up front) and converts them with the loader :mod:`._formats` gives for the
path's suffix. :func:`load_character` adds the full check and turns failures into
:class:`~._common.CommandFailure`.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from typing import IO, Final

from ..constants import MAX_DOCUMENT_BYTES
from ..errors import CharacterError
from ..load import Parsed, parse_character
from ._common import STDIN, UNREADABLE, UNWRITABLE, CommandFailure, label
from ._formats import Source, loader_for

__all__ = [
    "atomic_write",
    "load_character",
    "read_input",
    "read_source",
    "unreadable",
    "write_output",
    "write_stdout",
]

_READ_CHUNK: Final = 1 << 16


def _too_large(size: int, limit: int) -> CharacterError:
    # The library's own wording and details for the same failure.
    return CharacterError(
        "tooLarge",
        f"The document is {size} bytes, over the limit of {limit}.",
        {"size": size, "limit": limit},
    )


def _read_stream(stream: IO[bytes], limit: int) -> bytes:
    """Reads a pipe or device up to ``limit`` bytes; one byte more and it is refused unread."""
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


def unreadable(err: OSError) -> CharacterError:
    """An ``unreadable`` error for an operating-system failure to read a file or folder."""
    reason = err.strerror or str(err) or type(err).__name__
    return CharacterError(UNREADABLE, f"cannot read the file: {reason}.", {"reason": reason})


def read_input(path: str, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The bytes of a file, or of stdin for ``-``, refusing more than ``limit`` bytes.

    A regular file's size is known up front and reported exactly; a pipe (stdin) or device is read
    no further than one byte over the limit.

    Raises:
        CharacterError: ``unreadable`` (missing, a directory, no permission ...) or ``tooLarge``.
    """
    try:
        if path == STDIN:
            stream: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
            if stream is None:
                raise OSError(0, "stdin is not available")
            return _read_stream(stream, limit)
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISREG(info.st_mode) and info.st_size > limit:
                raise _too_large(info.st_size, limit)
            return _read_stream(handle, limit)
    except OSError as err:
        raise unreadable(err) from None


def read_source(path: str, data: bytes | None = None) -> Source:
    """A path's document as the library takes it: read, then converted by the path's suffix.

    Args:
        path: A file, or ``-`` for stdin (read as JSON).
        data: The bytes, when they were read already (stdin, read once up front).

    Raises:
        CharacterError: The file cannot be read, is too large, or its format's loader refuses it.
    """
    return loader_for(path)(read_input(path) if data is None else data)


def load_character(path: str) -> Parsed:
    """Reads and fully checks one character (size, format, envelope, schema, rules).

    Raises:
        CommandFailure: Any of those checks failed (the error names the file).
    """
    try:
        return parse_character(read_source(path))
    except CharacterError as err:
        raise CommandFailure(label(path), err) from None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fsync_directory(directory: str) -> None:
    """Makes the rename itself durable (POSIX); a no-op where directories cannot be opened."""
    with contextlib.suppress(OSError, AttributeError):
        handle = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def atomic_write(path: str, data: bytes) -> None:
    """Replaces ``path`` with ``data`` all at once: a reader sees the old file or the new one.

    The bytes go to a temporary file in the same directory, are flushed to disk, take the
    target's permissions, and the temporary file is renamed over the target. A symbolic link is
    followed (the file it points to is replaced, the link kept). On failure the temporary file
    is removed and the target is untouched.

    Raises:
        OSError: The target (or its directory) cannot be written.
    """
    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    if os.path.exists(target):
        if os.path.isdir(target):
            raise IsADirectoryError(21, "Is a directory", path)
        if not os.access(target, os.W_OK):
            raise PermissionError(13, "Permission denied", path)
        mode = stat.S_IMODE(os.stat(target).st_mode)
    else:
        mode = 0o666 & ~_umask()
    handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_directory(directory)


def write_stdout(data: bytes) -> None:
    """Writes bytes to stdout (its binary buffer when there is one), flushing what came before."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:  # a text-only stream (an embedding application's capture)
        sys.stdout.write(data.decode("utf-8"))
        sys.stdout.flush()


def write_output(destination: str | None, data: bytes) -> None:
    """Writes a command's output: to stdout (None), or atomically to a file.

    Raises:
        CommandFailure: ``unwritable``, naming the file.
    """
    if destination is None:
        write_stdout(data)
        return
    try:
        atomic_write(destination, data)
    except OSError as err:
        reason = err.strerror or str(err) or type(err).__name__
        raise CommandFailure(
            destination,
            CharacterError(UNWRITABLE, f"cannot write the file: {reason}.", {"reason": reason}),
        ) from None
