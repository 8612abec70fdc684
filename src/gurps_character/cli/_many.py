"""Commands over many files (``check``, ``validate``): expanding folders, ``--jobs``, progress.

Inputs and results are plain, picklable data: with ``--jobs`` they cross process boundaries, and a
worker reads and converts its file itself (:func:`~._io.read_source`).
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Final, TextIO

from ..constants import MAX_DOCUMENT_BYTES
from ..errors import CharacterError
from ..verify import VerificationReport
from ._command import positive
from ._common import (
    EXIT_ERROR,
    EXIT_NOT_COMPLIANT,
    EXIT_OK,
    INVALID_ARGUMENT,
    NO_FILES,
    STDIN,
    CommandFailure,
    Stopped,
)
from ._formats import Source, document_suffixes
from ._io import read_input, read_source, remove_left_temporaries, unreadable

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

__all__ = [
    "Input",
    "Result",
    "add_json_and_jobs_options",
    "add_many_options",
    "document_files",
    "expand",
    "input_source",
    "run_many",
]

_PROGRESS_MIN_FILES: Final = 2
"""``check``/``validate`` show a progress line on a terminal's stderr from this many files on."""
_MTIME_SLACK: Final = 2.0
"""Seconds before a ``--jobs`` run's start from which a temporary file left by a killed worker is
its own (a file system may date files to 2 s)."""


@dataclass(frozen=True, slots=True)
class Input:
    """One file to check: its path (``-`` for stdin), stdin's bytes, or an error found up front.

    Plain, picklable data (errors as their ``to_dict()``): it is sent to worker processes.
    """

    path: str
    data: bytes | None = None
    error: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome for one input. Plain, picklable data: it crosses process boundaries."""

    path: str
    error: dict[str, Any] | None = None
    report: VerificationReport | None = None

    @property
    def status(self) -> int:
        """This file's exit status: 2 unreadable or invalid, 1 not rules-compliant, else 0."""
        if self.error is not None:
            return EXIT_ERROR
        if self.report is not None and not self.report.rules_compliant:
            return EXIT_NOT_COMPLIANT
        return EXIT_OK


def document_files(directory: str, suffixes: Sequence[str] | None = None) -> list[Input]:
    """Every regular file below ``directory`` with one of ``suffixes``, sorted.

    ``suffixes`` (matched as written: ``.json``, not ``.JSON``) defaults to every format the command
    line reads (:mod:`._formats`). Symlinked folders are not followed.

    A folder that cannot be listed becomes an ``unreadable`` input rather than silently nothing.
    """
    wanted = tuple(suffixes) if suffixes is not None else document_suffixes()
    found: list[tuple[tuple[str, ...], Input]] = []

    def add(path: str, error: dict[str, Any] | None = None) -> None:
        found.append((tuple(os.path.relpath(path, directory).split(os.sep)), Input(path, error=error)))

    def unlistable(err: OSError) -> None:
        add(str(err.filename or directory), unreadable(err).to_dict())

    for root, _dirs, files in os.walk(directory, onerror=unlistable):
        for name in files:
            path = os.path.join(root, name)
            if name.endswith(wanted) and os.path.isfile(path):
                add(path)
    return [item for _key, item in sorted(found, key=lambda entry: entry[0])]


def _suffix_list(suffixes: Sequence[str]) -> str:
    """``*.json``, ``*.json or *.yaml``, ``*.json, *.yaml or *.gcs``."""
    patterns = [f"*{suffix}" for suffix in suffixes]
    return patterns[0] if len(patterns) == 1 else ", ".join(patterns[:-1]) + " or " + patterns[-1]


def expand(paths: Iterable[str | Input], max_bytes: int = MAX_DOCUMENT_BYTES) -> list[Input]:
    """Files, folders (recursively, every readable format) and ``-`` turned into the inputs, in order.

    An :class:`Input` is taken as it is (a command that plans its inputs itself, as ``import``);
    stdin is read at once, up to ``max_bytes``.
    """
    inputs: list[Input] = []
    for path in paths:
        if isinstance(path, Input):
            inputs.append(path)
        elif path == STDIN:
            try:
                inputs.append(Input(path, data=read_input(path, max_bytes)))
            except CharacterError as err:
                inputs.append(Input(path, error=err.to_dict()))
        elif os.path.isdir(path):
            files = document_files(path)
            if not files:
                message = f"the folder contains no {_suffix_list(document_suffixes())} file."
                inputs.append(
                    Input(path, error=CharacterError(NO_FILES, message, {"folder": path}).to_dict())
                )
            inputs.extend(files)
        else:
            inputs.append(Input(path))
    return inputs


def input_source(item: Input, max_bytes: int = MAX_DOCUMENT_BYTES) -> Source:
    """The input's document as the library takes it (stdin's bytes were read up front), the
    file and the document within ``max_bytes``."""
    return read_source(item.path, item.data, max_bytes=max_bytes)


_STOP_SIGNALS: Final = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""What ends a process from outside besides Ctrl-C: ``kill``, a closed terminal. Left at their
default, they would end the main process at once and orphan its workers, which would go on
with their queued files and then wait for work forever."""

_HELD: Final = (signal.SIGINT, *_STOP_SIGNALS)


def _start_worker() -> None:
    """A worker's signals: Ctrl-C and a hang-up (sent to the terminal's whole process group) are
    the main process's to handle, which ends the workers; ``SIGTERM``, what it ends them with, is
    at its default (a handler inherited from the main process would be a ``Stopped`` raised in
    the middle of a file). A write holds every one of them back until the file is whole
    (:func:`._io.signals_held`). The worker also ends when the main process is gone, however it
    ended (:func:`_end_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:  # started while the signals are held: the thread keeps them held
        threading.Thread(target=_end_with_parent, args=(parent.sentinel,), daemon=True).start()
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


def _end_with_parent(sentinel: int) -> None:
    """Waits (in a worker's thread) for the main process to end, then ends the worker as the
    main process would have (``SIGTERM``): a main process killed outright (``SIGKILL``, out of
    memory) has no chance to end its workers itself.

    The thread blocks every held signal, so a signal sent to the worker is taken by its main
    thread, which holds it back during a write; the worker's own ``SIGTERM`` waits likewise.
    """
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    multiprocessing.connection.wait([sentinel])  # ready once the main process has ended
    os.kill(os.getpid(), signal.SIGTERM)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Holds Ctrl-C, ``SIGTERM`` and ``SIGHUP`` back while the workers start (each inherits the
    mask and sets its own handling first: one that came earlier would kill it with a traceback)
    and while the pool is taken down; they are delivered to us right after."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _raise_stopped(signal_number: int, _frame: object) -> None:
    raise Stopped(signal_number)


@contextlib.contextmanager
def _stops_raised() -> Iterator[None]:
    """While the workers run, ``SIGTERM`` and ``SIGHUP`` raise :class:`Stopped` in the main
    process, so that it ends its workers on the way out, as it does for Ctrl-C. A signal that
    is ignored (``nohup``) or that the caller handles is left as it is; the handling is restored
    afterwards. Only the main thread may set handlers: elsewhere this does nothing."""
    previous: dict[int, Any] = {}
    try:
        for number in _STOP_SIGNALS:
            if signal.getsignal(number) is signal.SIG_DFL:
                previous[number] = signal.signal(number, _raise_stopped)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Ends the worker processes now (``SIGTERM``: each finishes the file it is writing first):
    one may be blocked reading a FIFO, and they ignore Ctrl-C."""
    processes: Mapping[int, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.terminate()


def _work_chunk(work: Callable[[Input], Result], chunk: Sequence[Input]) -> list[Result]:
    """``work`` on a run of inputs, in a worker: one call across the processes for several files."""
    return [work(item) for item in chunk]


def _results(
    inputs: Sequence[Input], work: Callable[[Input], Result], jobs: int
) -> Generator[Result, None, None]:
    """Runs ``work`` on every input, in ``jobs`` processes when asked; yields in input order.

    Stopped early (Ctrl-C, ``SIGTERM``, ``SIGHUP``, the reader of stdout gone), it cancels what
    has not started and ends the workers rather than waiting for them; the workers also end by
    themselves when this process is killed outright.
    """
    if jobs <= 1 or len(inputs) <= 1:
        yield from map(work, inputs)
        return
    from concurrent.futures import ProcessPoolExecutor  # only --jobs pays for importing it
    from concurrent.futures.process import BrokenProcessPool

    size = max(1, min(16, len(inputs) // (jobs * 4)))
    # A coarse file system (FAT: 2 s) may date a file made now a little earlier.
    started = time.time() - _MTIME_SLACK
    with _stops_raised():
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(inputs)), initializer=_start_worker)
        finished = broken = False
        try:
            # Not ``pool.map``: stopped, its iterator cancels the futures left from this thread,
            # while the pool's manager thread may be failing them for the workers' end, and a
            # cancelled future refuses that with a traceback. Left alone here, they are cancelled
            # by the manager thread itself (``shutdown(cancel_futures=True)``), or failed by it.
            with _signals_held():
                chunks = deque(
                    pool.submit(_work_chunk, work, inputs[start : start + size])  # starts the workers
                    for start in range(0, len(inputs), size)
                )
            while chunks:
                yield from chunks.popleft().result()  # dropped once read: results are not kept
            finished = True
        except (BrokenProcessPool, OSError) as err:
            broken = True
            message = f"the worker processes failed ({str(err) or type(err).__name__}); try without --jobs."
            failure = CharacterError(INVALID_ARGUMENT, message, {"name": "--jobs"})
            raise CommandFailure(None, failure) from None
        finally:
            # A stop (Ctrl-C, SIGTERM, SIGHUP) waits while the pool is taken down and its ended
            # workers reaped: their clean-up (multiprocessing's finalizers) would otherwise run at
            # exit, where a Ctrl-C interrupts it with a traceback; held back, it reaches us right
            # after, as KeyboardInterrupt or Stopped.
            with _signals_held():
                if not finished:
                    _stop_workers(pool)
                pool.shutdown(wait=True, cancel_futures=True)
                del pool
                multiprocessing.active_children()
                if broken:  # a worker killed outright may have been writing: its file is ours
                    _remove_left_temporaries(inputs, started)


def _remove_left_temporaries(inputs: Sequence[Input], since: float) -> None:
    """The temporary files that writes of the inputs' outputs left in a worker killed outright
    (``SIGKILL`` runs no clean-up), removed once no worker is left to be writing one."""
    for item in inputs:
        target = getattr(item, "target", None)  # an output job's file (None: stdout)
        if isinstance(target, str):
            remove_left_temporaries(target, since)


class _Progress:
    """A ``checking: 3/40 files done`` line on stderr (``importing: ...`` for ``import``), redrawn
    in place.

    Shown only when stderr is a terminal and there are many files; cleared before each result is
    printed so that results and the progress line never mix.
    """

    def __init__(self, stream: TextIO, total: int, verb: str = "checking") -> None:
        self._stream = stream
        self._total = total
        self._verb = verb
        self._enabled = total >= _PROGRESS_MIN_FILES and _isatty(stream)
        self._shown = False

    def show(self, done: int) -> None:
        if self._enabled and done < self._total:
            self._stream.write(f"\r\x1b[K{self._verb}: {done}/{self._total} files done")
            self._stream.flush()
            self._shown = True

    def clear(self) -> None:
        if self._shown:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._shown = False


def _isatty(stream: IO[Any]) -> bool:
    try:
        return stream.isatty()
    except (ValueError, OSError):
        return False


def run_many(
    paths: Sequence[str | Input],
    work: Callable[[Input], Result],
    jobs: int,
    emit: Callable[[Result], None],
    *,
    verb: str = "checking",
    max_bytes: int = MAX_DOCUMENT_BYTES,
) -> list[Result]:
    """Expands ``paths``, runs ``work`` on each input (in ``jobs`` processes) and ``emit``s each
    result in input order as it comes, with a progress line on a terminal; returns the results.

    ``work`` must be a module-level function, or a ``functools.partial`` of one (it is pickled
    for the worker processes); ``verb`` names the work in the progress line; stdin is read up
    to ``max_bytes``.
    """
    inputs = expand(paths, max_bytes)
    progress = _Progress(sys.stderr, len(inputs), verb)
    progress.show(0)
    results: list[Result] = []
    outcomes = _results(inputs, work, jobs)
    try:
        for result in outcomes:
            results.append(result)
            progress.clear()
            emit(result)
            sys.stdout.flush()
            progress.show(len(results))
    finally:
        outcomes.close()  # stopped early: the workers stop now, not when the generator is collected
        progress.clear()
    return results


def add_many_options(parser: argparse.ArgumentParser) -> None:
    """``PATH...``, ``--json`` and ``--jobs N``, as ``check`` and ``validate`` take them."""
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help=f"a file, a folder (every {_suffix_list(document_suffixes())} below it) or - for stdin",
    )
    add_json_and_jobs_options(parser, "check")


def add_json_and_jobs_options(parser: argparse.ArgumentParser, verb: str) -> None:
    """``--json`` (a JSON object per file) and ``--jobs N`` (``verb`` in N processes)."""
    parser.add_argument("--json", action="store_true", help="one JSON object per file and line")
    parser.add_argument(
        "-j",
        "--jobs",
        type=positive,
        default=1,
        metavar="N",
        help=f"{verb} in N processes (output stays in input order)",
    )
