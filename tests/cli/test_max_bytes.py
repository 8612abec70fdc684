"""``--max-bytes N``: every command that reads a character file reads files, and documents, of up
to N bytes; without it, the library's limit (:data:`~gurps_character.MAX_DOCUMENT_BYTES`). A GCS
file of under that limit can make a larger document: the option imports it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gurps_character import MAX_DOCUMENT_BYTES
from tests.cli.test_refusals import READERS
from tests.support import gcs_samples
from tests.support.cli_runner import in_a_process, in_process
from tests.support.paths import REPOSITORY

_LARGER = str(MAX_DOCUMENT_BYTES + 1_000_000)
_HINT = "--max-bytes N reads more."


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """``rurik.json``, and ``big.json``: the same document with blanks after it, one byte over the
    default limit."""
    shutil.copyfile(REPOSITORY / "examples" / "rurik.json", tmp_path / "rurik.json")
    text = (tmp_path / "rurik.json").read_bytes()
    (tmp_path / "big.json").write_bytes(text + b" " * (MAX_DOCUMENT_BYTES + 1 - len(text)))
    return tmp_path


def _args(args: tuple[str, ...], name: str, *options: str) -> tuple[str, ...]:
    return (*(name if arg == "FILE" else arg for arg in args), *options)


@pytest.mark.parametrize("args", READERS, ids=lambda args: " ".join(args))
def test_every_reader_takes_a_larger_file_with_max_bytes(folder: Path, args: tuple[str, ...]) -> None:
    refused = in_process(*_args(args, "big.json"), cwd=folder)
    assert refused.status == 2 and "tooLarge" in refused.err
    weapon = ("--weapon", "Broadsword") if args[0] == "attack" else ()  # what it needs to succeed
    run = in_process(*_args(args, "big.json", "--max-bytes", _LARGER, *weapon), cwd=folder)
    assert run.status in (0, 1), run.err
    assert "tooLarge" not in run.err


@pytest.mark.parametrize("args", READERS, ids=lambda args: " ".join(args))
def test_every_reader_refuses_a_file_over_a_smaller_max_bytes(folder: Path, args: tuple[str, ...]) -> None:
    size = (folder / "rurik.json").stat().st_size
    run = in_process(*_args(args, "rurik.json", "--max-bytes", "1000"), cwd=folder)
    assert (run.status, run.out) == (2, "")
    assert run.err == (
        f"error: rurik.json: tooLarge: The document is {size} bytes, over the limit of 1000. {_HINT}\n"
    )


def test_the_attacker_and_stdin_are_read_within_max_bytes(folder: Path) -> None:
    hit = in_process(
        "hit", "rurik.json", "3", "cr", "--attacker", "big.json", "--max-bytes", _LARGER, cwd=folder
    )
    assert hit.status == 0, hit.err
    roll = in_process("roll", "big.json", "Broadsword", "--roll", "10", "--max-bytes", _LARGER, cwd=folder)
    assert roll.status == 0, roll.err
    data = (folder / "big.json").read_bytes()
    assert in_process("check", "-", stdin=data, cwd=folder).status == 2
    assert in_process("check", "-", "--max-bytes", _LARGER, stdin=data, cwd=folder).status == 0


def test_check_with_jobs_reads_every_file_within_max_bytes(folder: Path) -> None:
    # the limit goes with the work to the worker processes
    run = in_a_process(
        "check", "--jobs", "2", "--json", "--max-bytes", _LARGER, "big.json", "rurik.json", cwd=folder
    )
    assert [json.loads(line)["ok"] for line in run.out.splitlines()] == [True, True], run.err


@pytest.mark.parametrize("value", ["0", "-1", "1e6", "lots"])
def test_max_bytes_is_a_whole_number_of_at_least_1(folder: Path, value: str) -> None:
    run = in_process("check", "rurik.json", f"--max-bytes={value}", cwd=folder)
    assert run.status == 2
    assert f"argument --max-bytes: must be a whole number of at least 1, not {value!r}" in run.err


def test_a_gcs_file_whose_document_is_over_the_default_limit_is_imported_with_max_bytes(
    tmp_path: Path,
) -> None:
    """A GCS file within the default limit that makes a larger document: refused with the import's
    words and the option named; imported with ``--max-bytes``, and the document read again with
    it. ``stats`` reads the GCS file within the same limit."""
    text = gcs_samples.text_of(gcs_samples.character(units=1_500))
    assert len(text.encode()) < MAX_DOCUMENT_BYTES
    (tmp_path / "hero.gcs").write_text(text, encoding="utf-8")
    refused = in_process("import", "hero.gcs", cwd=tmp_path)
    assert refused.status == 2
    assert refused.err.startswith("error: hero.gcs: tooLarge: The GCS file makes a document of ")
    assert refused.err.endswith(
        f"over the limit of {MAX_DOCUMENT_BYTES}; a larger max_bytes imports it, and the same limit "
        f"reads the document again. {_HINT}\n"
    )
    assert not (tmp_path / "hero.json").exists()
    imported = in_process("import", "hero.gcs", "--max-bytes", _LARGER, cwd=tmp_path)
    assert imported.status == 0, imported.err
    assert (tmp_path / "hero.json").stat().st_size > MAX_DOCUMENT_BYTES
    assert in_process("check", "hero.json", cwd=tmp_path).status == 2
    assert in_process("check", "hero.json", "--max-bytes", _LARGER, cwd=tmp_path).status in (0, 1)
    stats = in_process("stats", "hero.gcs", "--json", "--max-bytes", _LARGER, cwd=tmp_path)
    assert stats.status == 0, stats.err
    # play written back into the GCS file, within the same limit
    hurt = in_process("damage", "hero.gcs", "1", "--in-place", "--max-bytes", _LARGER, cwd=tmp_path)
    assert hurt.status == 0, hurt.err
    assert (tmp_path / "hero.gcs").read_text(encoding="utf-8") != text
