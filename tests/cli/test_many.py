"""The pool behind ``--jobs`` (:mod:`gurps_character.cli._many`), driven in this process so that a
stop can be placed at the worst moment: between the workers' end and the pool's shutdown."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from gurps_character.cli import _many
from gurps_character.cli._common import CommandFailure
from gurps_character.cli._many import Input, Result
from gurps_character.cli._outputs import OutputJob

_FAST = "fast"


def _slow_unless_fast(item: Input) -> Result:
    """The work: at once for the first files, then long enough to be stopped in the middle."""
    if not item.path.startswith(_FAST):
        time.sleep(3600)
    return Result(item.path)


def test_workers_that_end_before_the_pool_is_shut_down_leave_no_thread_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The worst moment for a stop (Ctrl-C, SIGTERM, SIGHUP), as a loaded machine makes it: the
    # workers have ended, and the pool's manager thread has seen them end, before the pool is shut
    # down. It then fails every future it still has; one already cancelled was a traceback
    # ("InvalidStateError: CANCELLED: <Future ... state=cancelled>") on stderr.
    failures: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    stop_workers = _many._stop_workers

    def stop_and_let_the_manager_see_it(pool: Any) -> None:
        processes = list(pool._processes.values())
        stop_workers(pool)
        for process in processes:
            process.join(timeout=60)
        pool._executor_manager_thread.join(timeout=60)  # it ends on seeing its workers gone

    monkeypatch.setattr(_many, "_stop_workers", stop_and_let_the_manager_see_it)
    inputs = [Input(f"{_FAST}{index}") for index in range(5)] + [Input(f"slow{index}") for index in range(35)]
    results = _many._results(inputs, _slow_unless_fast, 2)  # chunks of 5: the first is fast
    assert next(results) == Result(f"{_FAST}0")
    results.close()
    assert [failure.exc_value for failure in failures] == []


def _killed_while_writing(item: Input) -> Result:
    """The work of a worker killed outright (``SIGKILL``) in the middle of writing its output: the
    temporary file of :func:`~gurps_character.cli._io.write_new` is there, and no clean-up runs."""
    assert isinstance(item, OutputJob) and item.target is not None
    directory, name = os.path.split(item.target)
    with open(os.path.join(directory, f".{name}.k1ll3d_x.tmp"), "wb") as stream:
        stream.write(b'{"half": ')
    os.kill(os.getpid(), signal.SIGKILL)
    return Result(item.path)  # never reached


def test_a_worker_killed_while_writing_leaves_no_temporary_file(tmp_path: Path) -> None:
    old = tmp_path / ".b.json.0ld0ne__.tmp"  # the same name's pattern, from before the run: kept
    old.write_bytes(b"")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    mine = tmp_path / ".a.json.txt"  # not a temporary file's name: kept
    mine.write_bytes(b"")
    inputs = [OutputJob(f"{name}.gcs", target=str(tmp_path / f"{name}.json")) for name in ("a", "b")]
    with pytest.raises(CommandFailure) as failure:
        list(_many._results(inputs, _killed_while_writing, 2))
    assert failure.value.error.code == "invalidArgument"
    assert sorted(path.name for path in tmp_path.iterdir()) == [".a.json.txt", ".b.json.0ld0ne__.tmp"]
