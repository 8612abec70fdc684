"""The command line's input and output: where each thing is written, and how.

Writes (issue 16, item 7): a regular file is replaced atomically and keeps its owner, group and
mode; a FIFO, a device or ``/dev/stdout`` is written to, never replaced; ``--in-place`` holds a lock
from reading to renaming, so concurrent runs lose no update. Streams and signals (item 10): a
reader that goes away (``| head``) ends the run quietly with 141, Ctrl-C with 130 and no worker
traceback, and file text printed in text mode cannot forge a line or drive the terminal.
Also the input seam: folders and file suffixes (:mod:`gurps_character.cli._formats`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from gurps_character import CharacterError, load_character, parse_character, serialize_character
from gurps_character.cli._formats import FORMATS, WRITERS, loader_for, writer_for
from gurps_character.cli._many import document_files
from gurps_character.cli._report import printable, say
from gurps_character.loader import SUFFIX_KINDS
from tests.support.cli_runner import in_process
from tests.support.paths import REPOSITORY, TESTS

EXAMPLES = REPOSITORY / "examples"
POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX files, signals and locks")
ROOT_ONLY = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
UNSAFE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What may not reach a terminal raw from a file (a newline may, when it is the report's own)."""


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "gurps_character", *args]


def run(*args: str, cwd: Path | None = None, **options: Any) -> subprocess.CompletedProcess[bytes]:
    options.setdefault("stdin", subprocess.DEVNULL)
    options.setdefault("capture_output", "stdout" not in options)
    return subprocess.run(command(*args), cwd=cwd, timeout=120, check=False, **options)


def hp(path: Path) -> Any:
    return parse_character(path.read_bytes()).character["secondary"]["hp"]["current"]


@pytest.fixture()
def hero(tmp_path: Path) -> Path:
    path = tmp_path / "hero.json"
    shutil.copyfile(EXAMPLES / "rurik.json", path)  # HP 11 of 13
    return path


# ---------------------------------------------------------------- what -o writes to


@POSIX
def test_output_to_a_fifo_is_streamed_and_the_fifo_kept(hero: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is there: the writer need not wait
    try:
        done = in_process("damage", "hero.json", "1", "-q", "-o", "out.fifo", cwd=tmp_path)
        received = b""
        while chunk := os.read(reader, 1 << 16):  # the document fits in the pipe's buffer
            received += chunk
    finally:
        os.close(reader)
    assert done.status == 0, done.err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert parse_character(received).character["secondary"]["hp"]["current"] == 10
    assert sorted(path.name for path in tmp_path.iterdir()) == ["hero.json", "out.fifo"]


@POSIX
@ROOT_ONLY
def test_output_to_a_device_is_written_not_replaced(hero: Path, tmp_path: Path) -> None:
    null = tmp_path / "null"
    try:  # a private /dev/null: were it replaced, nothing of the machine's would be lost
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except OSError as err:
        pytest.skip(f"cannot make a device node here: {err}")
    done = in_process("damage", "hero.json", "1", "-q", "-o", "null", cwd=tmp_path)
    assert done.status == 0, done.err
    assert stat.S_ISCHR(os.lstat(null).st_mode)
    assert os.lstat(null).st_rdev == os.makedev(1, 3)


@POSIX
@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout")
def test_output_to_dev_stdout_goes_to_stdout_as_the_shell_set_it(hero: Path, tmp_path: Path) -> None:
    piped = run("damage", "hero.json", "1", "-q", "-o", "/dev/stdout", cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert parse_character(piped.stdout).character["secondary"]["hp"]["current"] == 10
    log = tmp_path / "log.txt"
    log.write_bytes(b"kept\n")
    with log.open("ab") as appended:  # '>> log.txt': the run must append, not truncate or replace
        done = run("damage", "hero.json", "1", "-q", "-o", "/dev/stdout", cwd=tmp_path, stdout=appended)
    assert done.returncode == 0
    kept, document = log.read_bytes().split(b"\n", 1)
    assert kept == b"kept"
    assert parse_character(document).character["secondary"]["hp"]["current"] == 10


# ---------------------------------------------------------------- replacing a regular file


@POSIX
@ROOT_ONLY
def test_in_place_and_output_keep_owner_group_and_mode(hero: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    shutil.copyfile(hero, other)
    for path in (hero, other):
        os.chown(path, 4321, 8765)
        path.chmod(0o640)
    assert in_process("damage", "--in-place", "hero.json", "1", "-q", cwd=tmp_path).status == 0
    assert in_process("damage", "hero.json", "2", "-q", "-o", "other.json", cwd=tmp_path).status == 0
    for path, current in ((hero, 10), (other, 8)):  # other: hero after its damage, less 2
        info = path.stat()
        assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (4321, 8765, 0o640)
        assert hp(path) == current


@POSIX
def test_in_place_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "hero.fifo")
    writer = os.open(tmp_path / "hero.fifo", os.O_RDWR)  # the command's open does not block
    try:
        done = in_process("heal", "--in-place", "hero.fifo", "1", cwd=tmp_path)
    finally:
        os.close(writer)
    assert done.status == 2
    assert done.raw_err.decode() == (
        "error: hero.fifo: invalidArgument: --in-place needs a regular file "
        "(a FIFO or a device cannot be replaced).\n"
    )
    assert stat.S_ISFIFO(os.lstat(tmp_path / "hero.fifo").st_mode)


def _holds_open(pid: int, path: Path) -> bool:
    """Whether the process has ``path`` open (Linux: /proc/PID/fd)."""
    target = path.stat()
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for name in names:
        try:
            if os.path.samestat(os.stat(f"/proc/{pid}/fd/{name}"), target):
                return True
        except OSError:
            continue
    return False


@POSIX
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_in_place_waits_for_the_lock_and_reads_the_file_it_then_names(hero: Path, tmp_path: Path) -> None:
    """Another writer holds the lock and renames a new file over the path: our run must apply its
    change to that new file, not to the one it opened before (the lost update)."""
    import fcntl

    with hero.open("rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        process = subprocess.Popen(
            command("damage", "--in-place", "hero.json", "1", "-q"),
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60  # a guard against hanging, not a measurement
        while process.poll() is None and not _holds_open(process.pid, hero) and time.monotonic() < deadline:
            time.sleep(0.02)
        # the other writer's update, renamed over the path while it holds the lock
        newer = tmp_path / "newer.json"
        newer.write_bytes(hero.read_bytes().replace(b'"current": 11', b'"current": 5', 1))
        os.replace(newer, hero)
        fcntl.flock(held.fileno(), fcntl.LOCK_UN)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert hp(hero) == 4  # 5 - 1: both updates are there


@POSIX
@pytest.mark.parametrize(
    "change", [("damage", "hero.json", "1"), ("hit", "hero.json", "1", "cr", "--dr", "0")]
)
def test_concurrent_in_place_runs_lose_no_update(hero: Path, tmp_path: Path, change: tuple[str, ...]) -> None:
    runs = 5  # each takes 1 HP off
    processes = [
        subprocess.Popen(
            command(*change, "--in-place", "-q"),
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(runs)
    ]
    for process in processes:
        _out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    assert hp(hero) == 11 - runs
    assert sorted(path.name for path in tmp_path.iterdir()) == ["hero.json"]


# ---------------------------------------------------------------- stdout's reader goes away, Ctrl-C


@POSIX
@pytest.mark.parametrize(
    "args",
    [
        ("check", "hero.json", "hero.json"),
        ("check", "--jobs", "2", "hero.json", "hero.json", "hero.json"),
        ("validate", "hero.json"),
        ("stats", "hero.json"),
        ("fields",),
        ("damage", "hero.json", "1"),
    ],
)
def test_a_closed_stdout_ends_the_run_quietly_with_141(hero: Path, args: tuple[str, ...]) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # '| head' that has already gone
    try:
        done = run(*args, cwd=hero.parent, stdout=writer, stderr=subprocess.PIPE)
    finally:
        os.close(writer)
    assert done.returncode == 141
    assert b"Traceback" not in done.stderr
    assert b"Broken pipe" not in done.stderr
    assert b"error" not in done.stderr


@POSIX
def test_ctrl_c_with_jobs_exits_130_without_worker_tracebacks(hero: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "slow.json"
    os.mkfifo(fifo)  # a worker reading it waits until we write: it is busy when Ctrl-C comes
    process = subprocess.Popen(
        command("check", "--jobs", "2", "slow.json", "hero.json", "hero.json"),
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    writer = None
    deadline = time.monotonic() + 60  # a guard against hanging, not a measurement
    while writer is None and time.monotonic() < deadline:
        try:
            writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # succeeds once a worker reads
        except OSError:
            time.sleep(0.02)
    try:
        assert writer is not None, "no worker opened the FIFO"
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C sends: to every process of the group
        _out, err = process.communicate(timeout=60)
    finally:
        if writer is not None:
            os.close(writer)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130
    assert err == b""


# ---------------------------------------------------------------- where errors go


def test_check_and_validate_errors_go_to_stderr(hero: Path, tmp_path: Path) -> None:
    for name in ("check", "validate"):
        done = in_process(name, "hero.json", "missing.json", cwd=tmp_path)
        assert done.status == 2
        assert b"missing.json" not in done.raw
        assert done.raw_err.decode().startswith("error: missing.json: unreadable: cannot read the file: ")
    assert in_process("check", "hero.json", cwd=tmp_path).raw_err == b""


# ---------------------------------------------------------------- file text cannot forge lines


HOSTILE = "Evil\nrules-compliant: yes\r\x1b[2J\u2028U+2028\u2029U+2029\x85U+0085\u202eRLO\tTab"


def test_printable_escapes_every_line_breaker_and_control() -> None:
    assert printable(HOSTILE) == (
        "Evil\\nrules-compliant: yes\\r\\x1b[2J\\u2028U+2028\\u2029U+2029\\x85U+0085\\u202eRLO\\tTab"
    )
    assert printable("Åsa Ünal, 山田 🐉") == "Åsa Ünal, 山田 🐉"


def test_file_text_is_printed_escaped_on_its_own_line(tmp_path: Path) -> None:
    document = json.loads((EXAMPLES / "jotun.json").read_text("utf-8"))
    document["profile"]["name"] = HOSTILE
    document["integrity"]["deviations"][0]["justification"] = HOSTILE
    folder = tmp_path / "party"
    folder.mkdir()
    name = "troll\nvalid: yes\x1b[1m.json"  # a file name is file text too
    (folder / name).write_text(json.dumps(document), "utf-8")
    checked = in_process("check", "party", cwd=tmp_path)
    stats = in_process("stats", os.path.join("party", name), cwd=tmp_path)
    assert checked.status == 1
    assert stats.status == 0
    for done in (checked, stats):
        for stream in (done.raw.decode(), done.raw_err.decode()):
            assert UNSAFE.search(stream) is None, stream
            assert "\nrules-compliant: yes" not in stream
            assert "\nvalid: yes" not in stream
    lines = checked.raw.decode().splitlines()
    assert lines[0] == os.path.join("party", "troll\\nvalid: yes\\x1b[1m.json")
    assert f"      justification: {printable(HOSTILE)}" in lines
    assert stats.raw.decode().splitlines()[0] == printable(HOSTILE)


# ---------------------------------------------------------------- the input seam


def test_every_format_suffix_is_lower_case_and_json_is_the_default() -> None:
    assert ".json" in FORMATS
    assert all(suffix.startswith(".") and suffix == suffix.lower() for suffix in FORMATS)
    assert loader_for("hero.json") is FORMATS[".json"]
    assert loader_for("HERO.JSON") is FORMATS[".json"]
    assert loader_for("notes.txt") is FORMATS[".json"]
    assert FORMATS[".json"](b"{}") == b"{}"  # JSON is parsed by the library, with its checks


def test_the_suffixes_are_load_characters() -> None:
    """The command line and load_character read the same suffixes in the same formats."""
    assert set(FORMATS) == set(SUFFIX_KINDS) == {".json", ".yaml", ".yml", ".gcs"}


def test_stdin_is_read_in_the_format_its_content_shows() -> None:
    """``-``: JSON, YAML or a GCS file, told apart as load_character tells them."""
    rurik = (EXAMPLES / "rurik.json").read_bytes()
    odile = (EXAMPLES / "odile.yaml").read_bytes()
    gcs = (TESTS / "fixtures" / "gcs" / "v5_fighter.gcs").read_bytes()
    read = loader_for("-")
    assert read(rurik) == json.loads(rurik)
    assert read(odile) == load_character(odile).character
    imported = read(gcs)
    assert isinstance(imported, dict) and imported["profile"]["name"] == "Brannoc the Bold"
    for text, code in [(b"garbage", "invalidJson"), (b"<character version='3'/>", "unsupportedGcsVersion")]:
        with pytest.raises(CharacterError) as caught:
            read(text)
        assert caught.value.code == code


def test_writers_by_suffix() -> None:
    assert set(WRITERS) <= set(FORMATS)  # what is written can be read back
    assert all(suffix == suffix.lower() for suffix in WRITERS)
    assert writer_for("out.json") is writer_for("OUT.JSON") is WRITERS[".json"]
    assert writer_for("/dev/stdout") is None  # no format: the input's, or else JSON
    document = parse_character((EXAMPLES / "rurik.json").read_bytes()).character
    assert WRITERS[".json"](document) == serialize_character(document)


def test_say_takes_lines_not_one_joined_string() -> None:
    with pytest.raises(TypeError, match="say\\(\\) takes a list of lines, not one string"):
        say("two\nlines")


def test_folders_give_the_files_of_the_listed_suffixes_sorted(tmp_path: Path) -> None:
    for name in ("b.json", "a.yaml", "c.txt", os.path.join("sub", "d.json")):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("{}", "utf-8")
    found = [Path(item.path).relative_to(tmp_path).as_posix() for item in document_files(str(tmp_path))]
    assert found == sorted(
        name for name in ("b.json", "a.yaml", "sub/d.json") if os.path.splitext(name)[1] in FORMATS
    )
    chosen = document_files(str(tmp_path), (".json", ".yaml"))
    assert [Path(item.path).relative_to(tmp_path).as_posix() for item in chosen] == [
        "a.yaml",
        "b.json",
        "sub/d.json",
    ]


# ---------------------------------------------------------------- short writes (issue 22, item 9)


@pytest.fixture()
def big_hero(tmp_path: Path) -> Path:
    """A valid character whose document (570 kB) and recomputation (2.7 MB) outgrow a pipe."""
    document = json.loads((EXAMPLES / "rurik.json").read_text(encoding="utf-8"))
    skill = document["skills"][0]
    document["skills"] = [dict(skill, name=f"{skill['name']} {number}") for number in range(5_000)]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


_BIG_OUTPUTS = [
    ("update", "--now", "2026-10-05T10:00:00Z", "big.json", "/secondary/hp/current=1"),  # bytes
    ("recompute", "--json", "big.json"),  # print()
    ("update", "--now", "2026-10-05T10:00:00Z", "-o", "/dev/stdout", "big.json", "/secondary/hp/current=1"),
]


def _environment(unbuffered: bool) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    if unbuffered:
        environment["PYTHONUNBUFFERED"] = "1"  # stdout unbuffered, as in many containers and CI
    return environment


@POSIX
@pytest.mark.parametrize("unbuffered", [True, False], ids=["unbuffered", "buffered"])
@pytest.mark.parametrize("args", _BIG_OUTPUTS, ids=["update", "recompute", "update-o"])
def test_a_reader_that_leaves_early_gets_141_never_success(
    big_hero: Path, args: tuple[str, ...], unbuffered: bool
) -> None:
    process = subprocess.Popen(
        command(*args),
        cwd=big_hero.parent,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_environment(unbuffered),
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.read(100)  # '| head -c 100': then the reader is gone
        process.stdout.close()
        err = process.stderr.read()
        status = process.wait(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 141
    assert b"Traceback" not in err and b"Exception ignored" not in err


@POSIX
@pytest.mark.parametrize("unbuffered", [True, False], ids=["unbuffered", "buffered"])
@pytest.mark.parametrize("args", _BIG_OUTPUTS, ids=["update", "recompute", "update-o"])
def test_a_slow_reader_of_a_non_blocking_pipe_gets_everything(
    big_hero: Path, args: tuple[str, ...], unbuffered: bool, tmp_path: Path
) -> None:
    expected_path = tmp_path / "expected.out"
    with expected_path.open("wb") as expected_file:  # the same command writing to a file
        assert run(*args, cwd=big_hero.parent, stdout=expected_file).returncode == 0
    reader, writer = os.pipe()
    os.set_blocking(writer, False)  # as some readers leave their pipes (Node.js ...): writes may fall short
    process = subprocess.Popen(
        command(*args),
        cwd=big_hero.parent,
        stdin=subprocess.DEVNULL,
        stdout=writer,
        stderr=subprocess.PIPE,
        env=_environment(unbuffered),
    )
    os.close(writer)
    received = bytearray()
    try:
        with os.fdopen(reader, "rb", buffering=0) as stream:
            while chunk := stream.read(4096):
                received += chunk
                time.sleep(0.0002)  # a slow reader: the pipe stays full, writes find it so
        assert process.stderr is not None
        err = process.stderr.read()
        status = process.wait(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert (status, err.count(b"Traceback")) == (0, 0)
    assert bytes(received) == expected_path.read_bytes()


# ---------------------------------------------------------------- only complete files (issue 22, items 10-11)


def _signal_name(number: int) -> str:
    return signal.Signals(number).name


_WRITER_SCRIPT = """
import os, signal, sys, time
from gurps_character.cli import _io

# The signal at its start-up handling, as a terminal starts a program: a test run under nohup (or
# in the background) passes SIGHUP (or SIGINT) on ignored, and an ignored signal has nothing to hold.
sent = int(sys.argv[3])
signal.signal(sent, signal.default_int_handler if sent == signal.SIGINT else signal.SIG_DFL)

real_fsync = os.fsync

def fsync_then_wait(fd):
    real_fsync(fd)
    if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")).endswith(".tmp"):
        print("writing", flush=True)  # the temporary file exists: the test sends its signal now
        time.sleep(0.5)

os.fsync = fsync_then_wait
getattr(_io, sys.argv[1])(sys.argv[2], b"complete\\n" * 100_000)
print("returned", flush=True)
"""


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc/self/fd (Linux)")
@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=_signal_name)
@pytest.mark.parametrize(
    ("function", "existing"), [("atomic_write", False), ("atomic_write", True), ("write_new", False)]
)
def test_a_signal_during_a_write_leaves_no_temporary_file(
    tmp_path: Path, signal_number: int, function: str, existing: bool
) -> None:
    # What --jobs does to its workers when stopped (SIGTERM), and Ctrl-C or a closed terminal do
    # to any run: the write finishes (or is undone) first, then the signal takes effect.
    target = tmp_path / "out.json"
    if existing:
        target.write_bytes(b"old\n")
    process = subprocess.Popen(
        [sys.executable, "-c", _WRITER_SCRIPT, function, str(target), str(int(signal_number))],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == b"writing\n"
        process.send_signal(signal_number)
        out, _err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out.json"]
    assert target.read_bytes() == b"complete\n" * 100_000
    assert out == b""  # the signal was not lost: it stopped the process once the file was whole
    assert process.returncode != 0


def test_convert_never_replaces_a_file_that_appears_while_it_converts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gurps_character.cli import _convert, _io, main

    target = tmp_path / "hero.yaml"
    real_read = _io.read_source

    def read_then_someone_writes(path: str, **options: Any) -> Any:
        source = real_read(path, **options)
        target.write_text("someone else's file\n", encoding="utf-8")  # after the check, before the write
        return source

    monkeypatch.setattr(_convert, "read_source", read_then_someone_writes)
    status = main(["convert", str(EXAMPLES / "rurik.json"), "-o", str(target)])
    assert status == 2
    assert target.read_text(encoding="utf-8") == "someone else's file\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["hero.yaml"]


def test_the_program_leaves_a_late_ctrl_c_to_the_signal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as the program (no argv), the command line ends with Ctrl-C at its default, so one
    that comes while Python's exit handlers run ends the process quietly (issue 22, item 10);
    called with arguments, from a program of the caller's, it leaves the caller's handler."""
    from gurps_character.cli import main

    before = signal.getsignal(signal.SIGINT)
    try:
        assert main(["--version"]) == 0
        assert signal.getsignal(signal.SIGINT) is before
        monkeypatch.setattr(sys, "argv", ["gurps-character", "--version"])
        assert main() == 0
        assert signal.getsignal(signal.SIGINT) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGINT, before)
