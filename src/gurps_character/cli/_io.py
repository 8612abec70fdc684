"""Reading inputs (files, stdin, size limits, formats) and writing outputs (atomic writes, stdout).

Writing: a regular file (or a new one) is replaced atomically, keeping its owner, group and mode;
anything else (a FIFO, a terminal, ``/dev/null``) is opened and written to, never replaced; a path
that names stdout or stderr (``/dev/stdout``) is written through that stream. ``--in-place`` holds
an advisory lock on the file from reading to renaming (:func:`locked_for_update`). For the run,
stdout and stderr write everything they are given or raise (:func:`whole_writes`).

:func:`read_source` is the single seam between a path and the library: it reads the bytes (or
takes stdin's, read up front) and converts them with the loader :mod:`._formats` gives for the
path's suffix. :func:`parse_character_file` adds the full check and turns failures into
:class:`~._common.CommandFailure`.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import select
import signal
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any, Final, TextIO

from .._files import read_file, read_stream, too_large, unreadable
from ..constants import MAX_DOCUMENT_BYTES
from ..errors import CharacterError
from ..load import Parsed, parse_character
from ._common import INVALID_ARGUMENT, STDIN, UNWRITABLE, CommandFailure, label, with_limit_hint
from ._formats import Source, loader_for

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

__all__ = [
    "atomic_write",
    "locked_for_update",
    "parse_character_file",
    "read_input",
    "read_source",
    "remove_left_temporaries",
    "standard_stream",
    "unreadable",
    "unwritable",
    "whole_writes",
    "write_file",
    "write_new",
    "write_output",
    "write_stdout",
]


def read_input(path: str, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The bytes of a file, or of stdin for ``-``, refusing more than ``limit`` bytes.

    A regular file's size is known up front and reported exactly; a pipe (stdin) or device is read
    no further than one byte over the limit. Files are read as
    :func:`~gurps_character.load_character` reads them (:mod:`gurps_character._files`).

    Raises:
        CharacterError: ``unreadable`` (missing, a directory, no permission ...) or ``tooLarge``
            (its message names ``--max-bytes``).
    """
    try:
        if path != STDIN:
            return read_file(path, limit)
        try:
            stream: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
            if stream is None:
                raise OSError(0, "stdin is not available")
            return read_stream(stream, limit)
        except OSError as err:
            raise unreadable(err) from None
    except CharacterError as err:
        raise with_limit_hint(err) from None


def read_source(path: str, data: bytes | None = None, *, max_bytes: int = MAX_DOCUMENT_BYTES) -> Source:
    """A path's document as the library takes it: read, then converted by the path's suffix.

    Args:
        path: A file, or ``-`` for stdin (read as JSON).
        data: The bytes, when they were read already (stdin, read once up front).
        max_bytes: The limit for the file and for the document it makes (``--max-bytes``).

    Raises:
        CharacterError: The file cannot be read, is too large, or its format's loader refuses it.
    """
    return loader_for(path)(read_input(path, max_bytes) if data is None else data, max_bytes)


def parse_character_file(path: str, *, max_bytes: int = MAX_DOCUMENT_BYTES) -> Parsed:
    """Reads and fully checks one character (size, format, envelope, schema, rules), within
    ``max_bytes`` (``--max-bytes``).

    Raises:
        CommandFailure: Any of those checks failed (the error names the file).
    """
    try:
        return parse_character(read_source(path, max_bytes=max_bytes), max_bytes=max_bytes)
    except CharacterError as err:
        raise CommandFailure(label(path), err) from None


def unwritable(err: OSError) -> CharacterError:
    """An ``unwritable`` error for an operating-system failure to write a file."""
    reason = err.strerror or str(err) or type(err).__name__
    return CharacterError(UNWRITABLE, f"cannot write the file: {reason}.", {"reason": reason})


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


def _keep_owner(handle: int, uid: int, gid: int) -> None:
    """Gives the new file the replaced file's owner and group, as far as we may.

    Root may give any owner; another user may give only a group they belong to, and otherwise
    keeps the file as their own (the rename succeeded where the directory let them write).
    """
    if not hasattr(os, "fchown"):  # Windows: no POSIX owners
        return
    info = os.fstat(handle)
    if (info.st_uid, info.st_gid) == (uid, gid):
        return
    try:
        os.fchown(handle, uid, gid)
    except PermissionError:
        with contextlib.suppress(PermissionError):
            os.fchown(handle, -1, gid)


_HELD_SIGNALS: Final = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""What stops a process from outside: Ctrl-C, ``kill`` (and a worker stopped by ``--jobs``'s main
process), a closed terminal."""


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Holds back Ctrl-C, termination and hang-up while the ``with`` block runs, and lets them
    take effect right after: a process is never stopped between creating a temporary file and
    renaming or removing it, so only complete documents are left behind.

    Only for blocks that end by themselves (writing a regular file); POSIX (``pthread_sigmask``),
    elsewhere a no-op. The mask is the calling thread's: the worker processes of ``--jobs``
    have one thread, and the main process writes in its main thread.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def atomic_write(path: str, data: bytes) -> None:
    """Replaces the regular file ``path`` with ``data`` all at once: a reader sees the old file or
    the new one.

    The bytes go to a temporary file in the same directory, take the replaced file's owner, group
    and permissions (a new file: ``0o666`` less the umask), are flushed to disk, and the temporary
    file is renamed over the target. A symbolic link is followed (the file it points to is
    replaced, the link kept). On failure the temporary file is removed and the target is untouched;
    signals wait until the temporary file is gone (:func:`signals_held`). Only for regular files
    (or a new file): :func:`write_file` streams to anything else.

    Raises:
        OSError: The target (or its directory) cannot be written.
    """
    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    owner: tuple[int, int] | None = None
    if os.path.exists(target):
        if os.path.isdir(target):
            raise IsADirectoryError(21, "Is a directory", path)
        if not os.access(target, os.W_OK):
            raise PermissionError(13, "Permission denied", path)
        info = os.stat(target)
        mode, owner = stat.S_IMODE(info.st_mode), (info.st_uid, info.st_gid)
    else:
        mode = 0o666 & ~_umask()
    with signals_held():
        handle, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory
        )
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                if owner is not None:
                    _keep_owner(stream.fileno(), *owner)
                os.chmod(temporary, mode)  # after chown, which clears the set-user-ID and set-group-ID bits
                os.fsync(stream.fileno())
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    _fsync_directory(directory)


def write_new(path: str, data: bytes) -> None:
    """Writes a new file ``path`` all at once, never over an existing one (or a link).

    The bytes go to a temporary file in the same directory, flushed to disk, which is then
    hard-linked as ``path``: the link fails if anything exists there, even if it appeared a moment
    ago, so nothing is ever replaced. Where hard links are not supported, the file is created
    exclusively (``O_EXCL``) and written, and removed again if writing fails. Signals wait until
    the work is done (:func:`signals_held`): no temporary or partial file is left behind.

    Raises:
        FileExistsError: ``path`` exists.
        OSError: The file or its directory cannot be written.
    """
    directory = os.path.dirname(os.path.abspath(path))
    with signals_held():
        handle, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=directory
        )
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.chmod(temporary, 0o666 & ~_umask())
                os.fsync(stream.fileno())
            try:
                os.link(temporary, path)
            except FileExistsError:
                raise
            except OSError:  # no hard links here (some network or FAT file systems)
                _create_exclusively(path, data)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    _fsync_directory(directory)


def remove_left_temporaries(path: str, since: float) -> list[str]:
    """Removes the temporary files that writes of ``path`` (:func:`write_file`, :func:`write_new`)
    left behind because their process was killed outright (``SIGKILL``, out of memory: none of
    its own clean-up ran), and returns them.

    Only files named as those writes name theirs (``.NAME.`` then ``tempfile``'s eight random
    characters then ``.tmp``, beside ``path`` or the file its link points to) and last changed
    at ``since`` or later (a ``time.time()``) are removed: nothing made before the run, or by
    anyone else's program, is touched. A file that cannot be removed is left.
    """
    removed: list[str] = []
    for target in dict.fromkeys((os.path.abspath(path), os.path.realpath(path))):
        directory, name = os.path.split(target)
        pattern = re.compile(rf"\.{re.escape(name)}\.[a-z0-9_]{{8}}\.tmp")
        with contextlib.suppress(OSError):
            for entry in os.scandir(directory):
                if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                    with contextlib.suppress(OSError):
                        if entry.stat(follow_symlinks=False).st_mtime >= since:
                            os.unlink(entry.path)
                            removed.append(entry.path)
    return removed


def _create_exclusively(path: str, data: bytes) -> None:
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)  # ours: created exclusively a moment ago
        raise


def _same_file(path_info: os.stat_result, stream: IO[Any]) -> bool:
    try:
        return os.path.samestat(path_info, os.fstat(stream.fileno()))
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False


def standard_stream(path: str) -> TextIO | None:
    """``sys.stdout`` or ``sys.stderr`` when ``path`` is the file it writes to (``/dev/stdout``,
    ``/dev/fd/2``, or the very file the shell redirected it to), else None.

    Writing through the stream keeps what the shell set up (a pipe, a terminal, ``>>`` appending);
    reopening the path would truncate a redirected file or fail on ``/proc/self/fd``.
    """
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    for stream in (sys.stdout, sys.stderr):
        if _same_file(info, stream):
            return stream
    return None


def write_file(path: str, data: bytes) -> None:
    """Writes ``data`` to ``path``: a regular (or new) file is replaced atomically, anything else
    (a FIFO, a terminal, ``/dev/null``, a device) is opened and written to, never replaced.

    Raises:
        OSError: The target cannot be written (including ``IsADirectoryError`` for a folder).
    """
    try:
        info: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        info = None
    if info is None or stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode):
        atomic_write(path, data)
        return
    with open(path, "wb") as stream:
        stream.write(data)


def write_stdout(data: bytes, stream: TextIO | None = None) -> None:
    """Writes bytes to stdout (or ``stream``), through its binary buffer when there is one,
    flushing what came before."""
    target = sys.stdout if stream is None else stream
    target.flush()
    buffer = getattr(target, "buffer", None)
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:  # a text-only stream (an embedding application's capture)
        target.write(data.decode("utf-8"))
        target.flush()


def write_output(destination: str | None, data: bytes) -> None:
    """Writes a command's output: to stdout (None, or a path that names stdout or stderr), or to
    the file with :func:`write_file` (a regular file replaced atomically, anything else streamed).

    Raises:
        CommandFailure: ``unwritable``, naming the file.
        BrokenPipeError: The reader of stdout went away (:func:`gurps_character.cli.main` ends
            the run quietly).
    """
    stream = None if destination is None else standard_stream(destination)
    if destination is None or stream is not None:
        write_stdout(data, stream)
        return
    try:
        write_file(destination, data)
    except OSError as err:
        raise CommandFailure(destination, unwritable(err)) from None


def _lock(handle: IO[bytes]) -> None:
    """An exclusive advisory lock on the open file, waiting for it (POSIX ``flock``)."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; --in-place is still atomic
        return
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)


def _not_regular() -> CharacterError:
    return CharacterError(
        INVALID_ARGUMENT,
        "--in-place needs a regular file (a FIFO or a device cannot be replaced).",
        {"name": "--in-place"},
    )


@contextlib.contextmanager
def locked_for_update(path: str, limit: int = MAX_DOCUMENT_BYTES) -> Iterator[bytes]:
    """Opens the regular file ``path``, locks it (``flock``, exclusive) and gives its bytes; the
    lock is held until the ``with`` block ends, so a read-modify-write inside it cannot lose a
    concurrent one's update.

    A run that waited for the lock while another renamed a new file over ``path`` would hold a
    lock on the old, replaced file: so after locking, the path must still name the locked file,
    or it is opened and locked again.

    Raises:
        CharacterError: ``unreadable``, ``tooLarge``, or ``invalidArgument`` when ``path`` is not
            a regular file (a FIFO or a device cannot be replaced in place).
    """
    with contextlib.suppress(OSError):  # a missing file or a folder: opening it says so
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            raise _not_regular()  # before opening: a FIFO's open waits for a writer
    while True:
        try:
            handle = open(path, "rb")  # noqa: SIM115 (kept open, and locked, past this loop)
        except OSError as err:
            raise unreadable(err) from None
        try:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):  # replaced by one since
                raise _not_regular()
            _lock(handle)
            try:
                current = os.stat(path)
            except FileNotFoundError:  # removed while we waited: opening again says so
                current = None
        except BaseException:
            handle.close()
            raise
        if current is not None and _same_file(current, handle):
            break
        handle.close()
    with handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise with_limit_hint(too_large(size, limit))
        try:
            data = read_stream(handle, limit)
        except OSError as err:
            raise unreadable(err) from None
        except CharacterError as err:  # grown past the limit since
            raise with_limit_hint(err) from None
        yield data


# ---------------------------------------------------------------- stdout and stderr, written whole


def _wait_until_writable(fd: int) -> None:
    """Waits until a non-blocking ``fd`` takes more bytes (or is broken: the write then says so)."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        poller.poll()
        return
    time.sleep(0.001)  # Windows: select() takes sockets only; a pipe is polled by writing


class _WholeWrites(io.RawIOBase):
    """A file descriptor that every ``write`` gives all of its bytes, or raises.

    ``os.write`` may take fewer bytes than it is given (a pipe whose reader left part-way) or none
    (``EAGAIN``: a pipe another process made non-blocking, full while its reader is slow); the
    standard streams without a buffer (``PYTHONUNBUFFERED``) drop the rest silently, and with a
    buffer the second case raises ``BlockingIOError``. Here the rest is written when the pipe
    has room again; a reader that left gives ``BrokenPipeError``.
    """

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: ReadableBuffer) -> int:
        with memoryview(data) as view, view.cast("B") as remaining:
            done = 0
            while done < len(remaining):
                try:
                    done += os.write(self._fd, remaining[done:])
                except BlockingIOError:
                    _wait_until_writable(self._fd)
            return done


def _written_whole(stream: TextIO) -> io.TextIOWrapper[Any] | None:
    """A text stream over the same file descriptor as the standard stream ``stream``, writing
    whole; None when ``stream`` is not one (an application's capture, a closed stream)."""
    if type(stream) is not io.TextIOWrapper or not isinstance(stream.buffer, io.BufferedWriter | io.FileIO):
        return None
    try:
        fd = stream.fileno()
        stream.flush()
    except (OSError, ValueError):
        return None
    raw: Any = _WholeWrites(fd)  # unbuffered, as Python's own standard streams with -u
    return io.TextIOWrapper(
        raw,
        encoding=stream.encoding,
        errors=stream.errors,
        newline=None if os.name == "nt" else "\n",  # as Python sets up its standard streams
        write_through=True,
    )


@contextlib.contextmanager
def whole_writes() -> Iterator[None]:
    """For the ``with`` block, ``sys.stdout`` and ``sys.stderr`` write everything they are given
    (on their same file descriptors, unbuffered) or raise: ``BrokenPipeError`` when the reader
    left, even part-way through a write, and no write falls short on a non-blocking pipe. Streams
    that are not the process's own (a caller's capture) are left as they are."""
    replaced: list[tuple[str, TextIO, io.TextIOWrapper[Any]]] = []
    for name in ("stdout", "stderr"):
        original: TextIO = getattr(sys, name)
        whole = _written_whole(original)
        if whole is not None:
            setattr(sys, name, whole)
            replaced.append((name, original, whole))
    try:
        yield
    finally:
        for name, original, whole in reversed(replaced):
            setattr(sys, name, original)
            with contextlib.suppress(OSError, ValueError):
                whole.detach()  # the file descriptor stays open: it is the process's stdout
