"""Running the ``gurps-character`` command line from a test: in this process, or in a new one.

Most command-line tests check what a command answers and writes, which does not depend on how the
interpreter was started: :func:`in_process` calls :func:`gurps_character.cli.main` with the
arguments, stdin's bytes and a working folder, and captures stdout, stderr and the exit status as
a subprocess would (about 0.3 s less per command than starting Python and importing the library
again). :func:`in_a_process` starts ``python -m gurps_character`` for what only a real process
shows: ``--jobs`` workers, signals, pipes and terminals, the module entry point.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import gurps_character
from gurps_character.cli import main

__all__ = ["Run", "child_environment", "in_a_process", "in_process"]

COLUMNS = "80"
"""The width argparse wraps help to: a subprocess whose stdout is a pipe gets 80 (unless the
environment sets ``COLUMNS``); in this process, it would be pytest's terminal's."""


@dataclass(frozen=True)
class Run:
    """A finished command: its exit status, stdout and stderr as text, and their bytes."""

    status: int
    out: str
    err: str
    raw: bytes
    raw_err: bytes


def _finished(status: int, out: bytes, err: bytes) -> Run:
    err_text = err.decode("utf-8", "replace")
    assert "Traceback" not in err_text, err_text
    return Run(status, out.decode("utf-8", "replace"), err_text, out, err)


def _text_stream(buffer: io.BytesIO) -> io.TextIOWrapper:
    """A standard stream over ``buffer``, as Python sets one up on a pipe (UTF-8, ``\\n``)."""
    return io.TextIOWrapper(buffer, encoding="utf-8", newline="\n", write_through=True)


def in_process(*args: str, cwd: Path | None = None, stdin: bytes | None = None) -> Run:
    """Runs ``gurps-character ARGS`` by calling its ``main`` here, with ``stdin`` (empty by
    default) as standard input and ``cwd`` as the working folder, and checks it shows no
    traceback. Standard streams, the working folder and ``COLUMNS`` are restored afterwards."""
    out, err = io.BytesIO(), io.BytesIO()
    streams = (_text_stream(io.BytesIO(stdin or b"")), _text_stream(out), _text_stream(err))
    saved = (sys.stdin, sys.stdout, sys.stderr)
    folder = os.getcwd()
    columns = os.environ.get("COLUMNS")
    try:
        sys.stdin, sys.stdout, sys.stderr = streams
        os.environ["COLUMNS"] = COLUMNS
        if cwd is not None:
            os.chdir(cwd)
        status = main(list(args))
        for stream in streams[1:]:
            stream.flush()
        written = (out.getvalue(), err.getvalue())
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(folder)
        if columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = columns
    return _finished(status, *written)


def child_environment() -> dict[str, str]:
    """This environment, with ``PYTHONPATH`` leading to the ``gurps_character`` the tests import: a
    relative ``PYTHONPATH=src`` (a work tree beside an installed copy) would otherwise lead a
    process started in another folder to the installed copy."""
    source = str(Path(gurps_character.__file__).resolve().parents[1])
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [source, *(part for part in environment.get("PYTHONPATH", "").split(os.pathsep) if part)]
    )
    return environment


def in_a_process(*args: str, cwd: Path | None = None, stdin: bytes | None = None) -> Run:
    """Runs ``python -m gurps_character ARGS`` in a new process and checks it shows no traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "gurps_character", *args],
        cwd=cwd,
        env=child_environment(),
        input=stdin if stdin is not None else b"",
        capture_output=True,
        timeout=120,
        check=False,
    )
    return _finished(done.returncode, done.stdout, done.stderr)
