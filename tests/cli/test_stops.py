"""Every way the main process of ``--jobs`` ends, its workers end too, and only complete files are
left (issue 29, item 4): ``kill`` (SIGTERM) or a hang-up (SIGHUP) sent to the main process alone
or to its whole process group (a closed terminal), and the main process killed outright.

Real processes, Linux (``/proc`` tells which processes of the group still live); every wait is
bounded, and whatever is left is killed at the end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gurps_character import parse_character
from tests.support import gcs_samples
from tests.support.cli_runner import child_environment

pytestmark = pytest.mark.skipif(
    os.name != "posix" or not Path("/proc/self/stat").is_file(),
    reason="POSIX signals; /proc tells which processes live (Linux)",
)

_LAUNCHER = """
import runpy, signal
signal.signal(signal.SIGHUP, signal.SIG_DFL)  # as a terminal starts a program, even under nohup
runpy.run_module("gurps_character", run_name="__main__", alter_sys=True)
"""
"""``python -m gurps_character`` with SIGHUP at its default: a test run under ``nohup`` passes
SIGHUP on ignored, and an ignored hang-up is one the command line rightly leaves ignored."""

_FILES = 96
"""Many more than the one file reported before the stop: on a loaded machine the run would
otherwise finish before the signal comes (it then ends as a finished run, not a stopped one)."""
_DEADLINE = 60.0
"""Seconds any wait may take: a guard against hanging, never a measurement."""


def _group(pgid: int) -> list[int]:
    """The live (not ended) processes of a process group."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _group_ended(pgid: int) -> bool:
    deadline = time.monotonic() + _DEADLINE
    while _group(pgid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    folder = tmp_path / "gcs"
    folder.mkdir()
    for index in range(_FILES):
        units = 20 + index % 24  # small files: many of them cost little to make
        character = gcs_samples.character(units=units, version=(4, 5)[index % 2], name=f"Hero {index}")
        (folder / f"{index:02d}.gcs").write_text(gcs_samples.text_of(character), encoding="utf-8")
    return folder


@pytest.fixture
def importing(tmp_path: Path, sources: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``import --jobs 2`` of the sources into ``out``, in its own process group, once it has
    reported its first file (its workers are then at work, its handlers set)."""
    process = subprocess.Popen(
        [sys.executable, "-c", _LAUNCHER, "import", "--jobs", "2", "--out-dir", "out", sources.name],
        cwd=tmp_path,
        env=child_environment(),  # this work tree's package, whatever the folder
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's job
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith(b"gcs/00.gcs -> ")
        yield process
    finally:
        if process.poll() is None or _group(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=_DEADLINE)


def _only_complete_documents(out: Path) -> None:
    names = sorted(path.name for path in out.rglob("*"))
    assert names, "no document was written"
    assert len(names) < _FILES, "the run finished before it was stopped"
    for path in out.rglob("*"):
        assert path.suffix == ".json", path  # no temporary file
        assert parse_character(path.read_bytes()).character["profile"]["name"].startswith("Hero ")


@pytest.mark.parametrize(
    ("signal_number", "to_group"),
    [(signal.SIGTERM, False), (signal.SIGHUP, False), (signal.SIGHUP, True)],
    ids=["SIGTERM", "SIGHUP", "SIGHUP to the group"],
)
def test_a_stopped_run_ends_its_workers_and_leaves_complete_files(
    tmp_path: Path, importing: subprocess.Popen[bytes], signal_number: int, to_group: bool
) -> None:
    process = importing
    if to_group:
        os.killpg(process.pid, signal_number)  # a closed terminal: every process of its job
    else:
        os.kill(process.pid, signal_number)  # kill PID: the main process alone
    _out, err = process.communicate(timeout=_DEADLINE)
    assert process.returncode == 128 + signal_number, err  # what a shell shows for the signal
    assert err == b""
    assert _group_ended(process.pid), "workers outlived the main process"
    _only_complete_documents(tmp_path / "out")


def test_workers_end_when_the_main_process_is_killed_outright(
    tmp_path: Path, importing: subprocess.Popen[bytes]
) -> None:
    process = importing
    os.kill(process.pid, signal.SIGKILL)  # no handler runs: the workers must notice by themselves
    process.communicate(timeout=_DEADLINE)
    assert _group_ended(process.pid), "workers outlived the main process"
    _only_complete_documents(tmp_path / "out")


def test_a_worker_killed_outright_fails_the_run_and_ends_the_others(
    tmp_path: Path, importing: subprocess.Popen[bytes]
) -> None:
    process = importing
    workers = [pid for pid in _group(process.pid) if pid != process.pid]
    assert workers, "no worker process found"
    os.kill(workers[0], signal.SIGKILL)  # out of memory, or killed by hand
    _out, err = process.communicate(timeout=_DEADLINE)
    assert process.returncode == 2
    assert err.decode().endswith(
        "error: invalidArgument: the worker processes failed (A process in the process pool was terminated "
        "abruptly while the future was running or pending.); try without --jobs.\n"
    )
    assert _group_ended(process.pid), "workers outlived the main process"
    _only_complete_documents(tmp_path / "out")
