"""One loader (issue 23): ``load_character`` reads a path, text, bytes or a mapping in JSON, YAML or
GCS, and answers as the format's own function does; every refusal is a ``CharacterError``."""

from __future__ import annotations

import contextlib
import copy
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gurps_character._files
from gurps_character import (
    CharacterError,
    LoadedCharacter,
    import_gcs,
    load_character,
    parse_character,
    verify_character,
)
from gurps_character.errors import describe
from gurps_character.yaml import parse_yaml_character
from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
RURIK = ROOT / "examples" / "rurik.json"
ODILE = ROOT / "examples" / "odile.yaml"
FIGHTER = ROOT / "tests" / "fixtures" / "gcs" / "v5_fighter.gcs"
NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)


def refused(source: Any, **options: Any) -> CharacterError:
    with pytest.raises(CharacterError) as caught:
        load_character(source, **options)
    return caught.value


# ---------------------------------------------------------------- the three formats, every source


@pytest.mark.parametrize(
    "source",
    [RURIK, str(RURIK), RURIK.read_text(encoding="utf-8"), RURIK.read_bytes(), bytearray(RURIK.read_bytes())],
    ids=["Path", "str path", "text", "bytes", "bytearray"],
)
def test_json_from_every_source_is_parse_characters_answer(source: Any) -> None:
    loaded = load_character(source)
    assert isinstance(loaded, LoadedCharacter)
    assert (loaded.character, loaded.report) == parse_character(RURIK.read_bytes())
    assert (loaded.kind, loaded.notes) == ("json", ())


def test_a_mapping_is_copied_and_never_changed() -> None:
    data = json.loads(RURIK.read_text(encoding="utf-8"))
    before = copy.deepcopy(data)
    loaded = load_character(data)
    assert data == before and loaded.character == before
    assert loaded.character is not data and loaded.character["profile"] is not data["profile"]
    assert loaded.kind == "json"


@pytest.mark.parametrize(
    "source",
    [ODILE, str(ODILE), ODILE.read_text(encoding="utf-8"), ODILE.read_bytes()],
    ids=["Path", "str path", "text", "bytes"],
)
def test_yaml_from_every_source_is_parse_yaml_characters_answer(source: Any) -> None:
    loaded = load_character(source)
    assert (loaded.character, loaded.report) == parse_yaml_character(ODILE.read_bytes())
    assert (loaded.kind, loaded.notes) == ("yaml", ())


@pytest.mark.parametrize(
    "source",
    [FIGHTER, str(FIGHTER), FIGHTER.read_text(encoding="utf-8"), FIGHTER.read_bytes()],
    ids=["Path", "str path", "text", "bytes"],
)
def test_gcs_from_every_source_is_import_gcs_answer_with_its_report(source: Any) -> None:
    loaded = load_character(source, now=NOW)
    imported = import_gcs(FIGHTER.read_bytes(), now=NOW)
    assert loaded.character == imported.document
    assert loaded.notes == imported.notes and loaded.notes
    assert loaded.report == verify_character(imported.document)
    assert loaded.kind == "gcs"


def test_gcs_data_as_a_mapping_is_imported() -> None:
    data = json.loads(FIGHTER.read_text(encoding="utf-8"))
    before = copy.deepcopy(data)
    loaded = load_character(data, now=NOW)
    assert loaded.kind == "gcs" and loaded.character == import_gcs(before, now=NOW).document
    assert data == before


def test_the_result_is_json_and_shares_nothing() -> None:
    loaded = load_character(FIGHTER, now=NOW)
    out = loaded.to_dict()
    assert json.loads(json.dumps(out)) == out
    assert set(out) == {"kind", "character", "report", "notes"}
    assert out["character"] == loaded.character and out["character"] is not loaded.character
    assert out["notes"] == [note.to_dict() for note in loaded.notes]
    assert out["report"] == loaded.report.to_dict()


# ---------------------------------------------------------------- a str: a path or text?


def test_a_one_line_str_is_a_path_and_the_error_says_how_text_is_told_apart(tmp_path: Path) -> None:
    error = refused("hello")
    assert error.code == "unreadable"
    assert error.message == (
        "cannot read the file 'hello': No such file or directory (a str is read as a file's path "
        "unless it spans several lines or starts with '{', '[' or '<'; pass other text as bytes)."
    )
    assert error.details == {"reason": "No such file or directory", "path": "hello"}
    # a name with a character file's suffix is plainly a path: no hint
    # (a long path is shortened as every message shortens a value: pytest-xdist's are long)
    assert refused(str(tmp_path / "hero.json")).message == (
        f"cannot read the file {describe(str(tmp_path / 'hero.json'))}: No such file or directory."
    )
    # the same words as bytes are text
    assert refused(b"hello").code == "invalidJson"


@pytest.mark.parametrize(
    ("text", "code", "details"),
    [
        ("", "invalidJson", {"truncated": True}),
        ("   ", "invalidJson", {"truncated": True}),
        ("{", "invalidJson", {"truncated": True}),
        ("  [1, 2]", "notAnObject", {}),
        ("hello\nworld", "invalidJson", {"line": 1, "column": 1}),
        ("<character version='3'>", "unsupportedGcsVersion", {"version": "3", "format": "xml"}),
    ],
)
def test_text_that_cannot_be_a_path_is_read_as_content(text: str, code: str, details: dict[str, Any]) -> None:
    error = refused(text)
    assert (error.code, error.details) == (code, details)


def test_a_path_that_is_a_directory_a_nul_or_unreadable(tmp_path: Path) -> None:
    error = refused(tmp_path)
    assert (error.code, error.details) == ("unreadable", {"reason": "Is a directory", "path": str(tmp_path)})
    assert error.message == f"cannot read the file {str(tmp_path)!r}: Is a directory."
    error = refused("a\0b.json")
    assert error.details == {"reason": "the path holds a NUL character", "path": "a\0b.json"}
    missing = refused(tmp_path / "gone.json")
    assert missing.details == {"reason": "No such file or directory", "path": str(tmp_path / "gone.json")}


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_a_file_without_read_permission_is_unreadable(tmp_path: Path) -> None:
    locked = tmp_path / "locked.json"
    locked.write_bytes(RURIK.read_bytes())
    locked.chmod(0)
    error = refused(locked)
    assert (error.code, error.details["reason"]) == ("unreadable", "Permission denied")


def test_the_size_limit_refuses_a_large_file_before_reading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(10**10)  # 10 GB, sparse: reading it would take minutes

    def never(*args: Any) -> bytes:
        raise AssertionError("the file was read")

    monkeypatch.setattr(gurps_character._files, "read_stream", never)
    error = refused(huge)
    assert error.code == "tooLarge"
    assert error.details == {"size": 10**10, "limit": 2_000_000}
    assert error.message == "The document is 10000000000 bytes, over the limit of 2000000."
    assert refused(RURIK, max_bytes=100).details == {"size": RURIK.stat().st_size, "limit": 100}


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_device_is_read_one_byte_past_the_limit() -> None:
    error = refused("/dev/zero", max_bytes=1000)
    assert error.details == {"size": 1001, "limit": 1000}
    assert error.message == "The document is over the limit of 1000 bytes (it was read no further)."


def test_text_and_bytes_over_the_limit() -> None:
    assert refused(RURIK.read_bytes(), max_bytes=10).details == {"size": RURIK.stat().st_size, "limit": 10}
    assert refused(ODILE.read_text(encoding="utf-8"), max_bytes=10).code == "tooLarge"
    assert refused(FIGHTER.read_bytes(), max_bytes=10).code == "tooLarge"
    assert refused("\ufeff" + RURIK.read_text(encoding="utf-8"), max_bytes=10).code == "tooLarge"


@pytest.mark.parametrize("path", [RURIK, ODILE, FIGHTER], ids=lambda path: path.suffix)
def test_a_byte_order_mark_counts_in_the_size_exactly_at_the_limit(path: Path) -> None:
    """The limit is the content's size, its byte order mark included: accepted at exactly the
    limit, as bytes and as text, and refused one byte over it."""
    content = b"\xef\xbb\xbf" + path.read_bytes()
    size = len(content)
    for source in (content, content.decode("utf-8")):
        assert load_character(source, max_bytes=size, now=NOW).character
        assert refused(source, max_bytes=size - 1, now=NOW).details == {"size": size, "limit": size - 1}


# ---------------------------------------------------------------- which format?


def test_a_suffix_names_the_format(tmp_path: Path) -> None:
    gcs_as_json = tmp_path / "fighter.json"
    gcs_as_json.write_bytes(FIGHTER.read_bytes())
    error = refused(gcs_as_json)
    assert (error.code, error.details) == ("wrongFormat", {"format": None})
    assert error.message == (
        "Not a gurps-character document (format is missing): this is a GCS character file; "
        "read it with kind='gcs', or give the file the suffix .gcs."
    )
    assert load_character(gcs_as_json, kind="gcs").kind == "gcs"
    json_as_gcs = tmp_path / "rurik.GCS"
    json_as_gcs.write_bytes(RURIK.read_bytes())
    assert refused(json_as_gcs).code == "notGcs"
    yaml_upper = tmp_path / "odile.YML"
    yaml_upper.write_bytes(ODILE.read_bytes())
    assert load_character(yaml_upper).kind == "yaml"
    yaml_as_json = tmp_path / "odile.json"
    yaml_as_json.write_bytes(ODILE.read_bytes())
    assert refused(yaml_as_json).code == "invalidJson"


@pytest.mark.parametrize(("source", "kind"), [(RURIK, "json"), (ODILE, "yaml"), (FIGHTER, "gcs")])
def test_a_file_without_a_known_suffix_is_read_by_its_content(
    tmp_path: Path, source: Path, kind: str
) -> None:
    upload = tmp_path / "attachment.bin"
    upload.write_bytes(source.read_bytes())
    assert load_character(upload).kind == kind
    assert load_character(str(upload)).kind == kind


def test_kind_names_the_format_and_nothing_else_is_a_kind() -> None:
    error = refused(FIGHTER.read_bytes(), kind="json")
    assert error.message.endswith("this is a GCS character file; read it with kind='gcs'.")
    assert load_character(RURIK.read_bytes(), kind="yaml").kind == "yaml"  # JSON is YAML 1.2
    assert refused(RURIK, kind="gcs").code == "notGcs"
    error = refused(RURIK, kind="xml")
    assert (error.code, error.details, error.message) == (
        "invalidArgument",
        {"name": "kind", "value": "xml"},
        "kind must be 'json', 'yaml', 'gcs' or None, not 'xml'.",
    )
    error = refused(json.loads(RURIK.read_bytes()), kind="yaml")
    assert (error.code, error.details) == ("invalidArgument", {"name": "kind", "value": "yaml"})


@pytest.mark.parametrize(
    "text",
    [
        "# a character\nformat: gurps-character\n",
        "%YAML 1.2\n---\nformat: gurps-character\n",
        "---\nformat: gurps-character\n",
        "\n\nformat: gurps-character\n",
        '"format": gurps-character\n',
    ],
)
def test_yaml_is_told_by_its_first_line(text: str) -> None:
    """A comment, a directive, ``---`` or a key: YAML (its error then comes from the YAML reader)."""
    error = refused(text.encode())
    assert error.code == "unsupportedVersion"  # read as YAML: the right format, no formatVersion
    assert refused(text).code == "unsupportedVersion"


def test_a_byte_order_mark_is_skipped() -> None:
    bom = b"\xef\xbb\xbf"
    assert load_character(bom + RURIK.read_bytes()).character == parse_character(RURIK.read_bytes()).character
    assert load_character("\ufeff" + RURIK.read_text(encoding="utf-8")).kind == "json"
    assert load_character(bom + ODILE.read_bytes()).kind == "yaml"
    assert (
        load_character(bom + FIGHTER.read_bytes(), now=NOW).character
        == import_gcs(FIGHTER.read_bytes(), now=NOW).document
    )
    # parse_character stays the reference's: JSON.parse refuses a byte order mark
    with pytest.raises(CharacterError):
        parse_character(bom + RURIK.read_bytes())


def test_yaml_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name == "ruamel" or name.startswith("ruamel.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ruamel", None)
    for source in (ODILE, ODILE.read_bytes()):
        error = refused(source)
        assert error.code == "missingExtra"
        assert error.details == {"extra": "yaml", "install": 'pip install "gurps-character[yaml]"'}
    assert load_character(RURIK).kind == "json"  # JSON needs no extra


# ---------------------------------------------------------------- the arguments


def test_other_sources_and_arguments_are_refused() -> None:
    error = refused(42)
    assert (error.code, error.details) == ("invalidArgument", {"name": "source", "value": "42"})
    assert error.message == (
        "source must be a path (str or os.PathLike), text (str), bytes or a mapping, not a int."
    )
    assert refused(RURIK, max_bytes=-1).details == {"name": "max_bytes", "value": -1}
    with pytest.raises(TypeError):
        load_character(RURIK, now=datetime(2026, 1, 1))  # naive on purpose


def test_the_import_time_is_recorded() -> None:
    loaded = load_character(FIGHTER, now=NOW)
    assert loaded.character["extensions"]["io.github.gurps-sheet.gcs-import"]["importedAt"] == (
        "2026-10-05T10:00:00.000Z"
    )


# ---------------------------------------------------------------- parse_character keeps its contract


def test_parse_character_refuses_a_path_saying_what_it_takes() -> None:
    with pytest.raises(CharacterError) as caught:
        parse_character(RURIK)  # type: ignore[arg-type]
    assert caught.value.code == "invalidArgument"
    assert caught.value.message == (
        f"source must be JSON text (str), UTF-8 bytes or a mapping, not a {type(RURIK).__name__}; "
        "to read a file, use load_character(path)."
    )
    assert caught.value.details["name"] == "source"
    with RURIK.open("rb") as file, pytest.raises(CharacterError) as caught:
        parse_character(file)  # type: ignore[arg-type]
    assert caught.value.code == "invalidArgument"


@pytest.mark.parametrize(
    "source",
    [
        FIGHTER.read_bytes(),
        FIGHTER.read_text(encoding="utf-8"),
        json.loads(FIGHTER.read_text(encoding="utf-8")),
    ],
    ids=["bytes", "text", "mapping"],
)
def test_parse_character_on_gcs_data_says_to_use_import_gcs_or_load_character(source: Any) -> None:
    with pytest.raises(CharacterError) as caught:
        parse_character(source)
    assert (caught.value.code, caught.value.details) == ("wrongFormat", {"format": None})
    assert caught.value.message == (
        "Not a gurps-character document (format is missing): this is a GCS character file; "
        "import it with import_gcs, or read it with load_character, which reads GCS, JSON and YAML."
    )


def test_a_document_without_format_is_still_the_references_wrong_format() -> None:
    data = json.loads(RURIK.read_text(encoding="utf-8"))
    del data["format"]
    with pytest.raises(CharacterError) as caught:
        parse_character(data)
    assert caught.value.message == "Not a gurps-character document (format is missing)."


# ---------------------------------------------------------------- hostile input


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300)))
def test_any_content_is_a_character_or_a_character_error(data: bytes | str) -> None:
    if isinstance(data, str) and not ("\n" in data or data.strip(" \t\r\ufeff")[:1] in ("", "{", "[", "<")):
        data = data.encode("utf-8", "surrogatepass")  # a one-line str would name a file
    try:
        loaded = load_character(data)
    except CharacterError:
        return
    assert loaded.kind in ("json", "yaml", "gcs")


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([RURIK, ODILE, FIGHTER]), st.data())
def test_a_damaged_file_is_a_character_or_a_character_error(path: Path, data: st.DataObject) -> None:
    content = bytearray(path.read_bytes())
    for _ in range(data.draw(st.integers(1, 5))):
        position = data.draw(st.integers(0, len(content) - 1))
        content[position] = data.draw(st.integers(0, 255))
    with contextlib.suppress(CharacterError):
        load_character(bytes(content), now=NOW)
