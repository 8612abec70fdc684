"""``max_bytes`` at its boundary (issue 29, item 8): the whole content counts, a byte order mark
included, for every format and every kind of source; a content of exactly ``max_bytes`` loads and
one byte more is refused (``tooLarge``, with the content's size and the limit). The command line
holds its limit (``MAX_DOCUMENT_BYTES``) the same way, for a file and for stdin.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from gurps_character import MAX_DOCUMENT_BYTES, CharacterError, load_character
from tests.support.cli_runner import in_process
from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
CONTENT = {
    "json": (ROOT / "examples" / "rurik.json").read_bytes(),
    "yaml": (ROOT / "examples" / "odile.yaml").read_bytes(),
    "gcs": (ROOT / "tests" / "fixtures" / "gcs" / "v5_fighter.gcs").read_bytes(),
}
BOM = b"\xef\xbb\xbf"
NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)


def _source(data: bytes, form: str, kind: str, tmp_path: Path) -> Any:
    if form == "bytes":
        return data
    if form == "text":
        return data.decode("utf-8")
    path = tmp_path / f"hero.{kind}"
    path.write_bytes(data)
    return path if form == "Path" else str(path)


@pytest.mark.parametrize("kind", sorted(CONTENT))
@pytest.mark.parametrize("form", ["bytes", "text", "Path", "str path"])
@pytest.mark.parametrize("bom", [True, False], ids=["BOM", "no BOM"])
@pytest.mark.parametrize("over", [-1, 0, 1, 2, 3], ids=lambda over: f"{over:+d} over")
def test_max_bytes_counts_the_whole_content(
    tmp_path: Path, kind: str, form: str, bom: bool, over: int
) -> None:
    # +3 over with a BOM: the content after the mark is exactly max_bytes, and still refused
    data = (BOM if bom else b"") + CONTENT[kind]
    limit = len(data) - over
    source = _source(data, form, kind, tmp_path)
    if over <= 0:
        expected = load_character(CONTENT[kind], now=NOW)
        loaded = load_character(source, max_bytes=limit, now=NOW)
        assert (loaded.character, loaded.kind) == (expected.character, kind)
        return
    with pytest.raises(CharacterError) as caught:
        load_character(source, max_bytes=limit, now=NOW)
    assert caught.value.code == "tooLarge"
    assert caught.value.details == {"size": len(data), "limit": limit}
    assert caught.value.message == f"The document is {len(data)} bytes, over the limit of {limit}."


def _padded(size: int) -> bytes:
    """A valid document of exactly ``size`` bytes (spaces before the JSON: cut short by a byte,
    it would be invalid, not silently complete)."""
    text = (ROOT / "examples" / "rurik.json").read_bytes().rstrip()
    return b" " * (size - len(text)) + text


def test_the_command_line_reads_a_file_of_exactly_its_limit(tmp_path: Path) -> None:
    (tmp_path / "at.json").write_bytes(_padded(MAX_DOCUMENT_BYTES))
    (tmp_path / "over.json").write_bytes(_padded(MAX_DOCUMENT_BYTES + 1))
    at = in_process("validate", "--json", "at.json", cwd=tmp_path)
    assert (at.status, json.loads(at.out)["ok"]) == (0, True)
    over = in_process("validate", "over.json", cwd=tmp_path)
    assert (over.status, over.out) == (2, "")
    assert over.err == (
        f"error: over.json: tooLarge: The document is {MAX_DOCUMENT_BYTES + 1} bytes, over the limit "
        f"of {MAX_DOCUMENT_BYTES}. --max-bytes N reads more.\n"
    )


def test_the_command_line_reads_stdin_of_exactly_its_limit() -> None:
    at = in_process("validate", "--json", "-", stdin=_padded(MAX_DOCUMENT_BYTES))
    assert (at.status, json.loads(at.out)["ok"]) == (0, True)
    over = in_process("validate", "-", stdin=_padded(MAX_DOCUMENT_BYTES + 1))
    assert (over.status, over.out) == (2, "")
    assert over.err == (
        f"error: <stdin>: tooLarge: The document is over the limit of {MAX_DOCUMENT_BYTES} bytes "
        "(it was read no further). --max-bytes N reads more.\n"
    )
