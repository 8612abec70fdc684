"""export_gcs on documents imported from GCS: play written back into the original file. The
structural difference is exactly the pools' damage, their calc.current and modified_date; the
text difference is only those lines; importing the result shows the new HP and FP; without play
the original bytes come back. On our own files of every version (laid out by hand, so that only
a patch in place keeps their bytes) and on GCS's own in ../shared/gcs (skipped when absent).
"""

from __future__ import annotations

import difflib
import json
import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from gurps_character import (
    CharacterError,
    apply_damage,
    export_gcs,
    heal,
    import_gcs,
    recover_fatigue,
    spend_fatigue,
    validate_character,
)
from gurps_character.gcs import EXTENSION, KEPT_TEXT
from tests.support import gcs_samples
from tests.support.gcs_roundtrip import NOW
from tests.support.paths import REPOSITORY, TESTS

FIXTURES = TESTS / "fixtures" / "gcs"
OURS = sorted(FIXTURES.glob("*.gcs"))
SHARED = REPOSITORY.parent / "shared" / "gcs"
THEIRS = (
    sorted(path for path in SHARED.glob("*.gcs") if not path.name.endswith(".xml.gcs"))
    if SHARED.is_dir()
    else []
)
PLAY_KEYS = ('"damage"', '"current"', '"modified_date"', '"hp_damage"', '"fp_damage"')
PLAY_MEMBER = re.compile(r'(,\s*)?"(damage|current|hp_damage|fp_damage)": -?[0-9.]+|"modified_date": "[^"]*"')


def structural_differences(before: Any, after: Any, pointer: str = "") -> list[str]:
    """The JSON Pointers where two JSON values differ (a key on one side only included)."""
    if type(before) is not type(after):
        return [pointer]
    if isinstance(before, dict):
        found = []
        for key in sorted(before.keys() | after.keys()):
            if key not in before or key not in after:
                found.append(f"{pointer}/{key}")
            else:
                found.extend(structural_differences(before[key], after[key], f"{pointer}/{key}"))
        return found
    if isinstance(before, list):
        if len(before) != len(after):
            return [pointer]
        return [
            p
            for i, pair in enumerate(zip(before, after, strict=True))
            for p in structural_differences(*pair, f"{pointer}/{i}")
        ]
    return [] if before == after else [pointer]


def changed_lines(before: str, after: str) -> list[str]:
    diff = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
    return [line for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def pools(data: dict[str, Any]) -> dict[str, int]:
    """Index of the hp and fp entries in a file's attribute list."""
    return {
        entry["attr_id"]: index
        for index, entry in enumerate(data.get("attributes", []))
        if entry.get("attr_id") in ("hp", "fp")
    }


def current(document: dict[str, Any], pool: str) -> Any:
    entry = document["secondary"][pool]
    return entry.get("current", entry["value"])


def played(document: dict[str, Any]) -> dict[str, Any]:
    """3 HP lost and 2 FP spent, or the reverse of the file's own damage when it had some."""
    return spend_fatigue(apply_damage(document, 3, now=NOW), 2, now=NOW)


def expected_paths(data: dict[str, Any]) -> set[str]:
    """What a write-back of play may change: each pool's damage (and calc.current when the file
    keeps one), modified_date; in version 1 the top-level hp_damage and fp_damage."""
    if data["version"] == 1:
        return {"/hp_damage", "/fp_damage", "/modified_date"}
    paths = {"/modified_date"}
    for index in pools(data).values():
        paths.add(f"/attributes/{index}/damage")
        if "calc" in data["attributes"][index]:
            paths.add(f"/attributes/{index}/calc/current")
    return paths


def cases() -> list[Path]:
    return OURS + THEIRS


@pytest.mark.parametrize("path", cases(), ids=lambda path: path.name)
def test_without_play_the_original_bytes_come_back(path: Path) -> None:
    raw = path.read_bytes()
    document = import_gcs(raw, now=NOW).document
    exported = export_gcs(document, base=raw, now=NOW)
    assert exported.text.encode("utf-8") == raw
    assert [note.kind for note in exported.notes] == ["playWritten"]


@pytest.mark.parametrize("path", cases(), ids=lambda path: path.name)
def test_play_written_back_changes_the_pools_and_the_date_and_nothing_else(path: Path) -> None:
    raw = path.read_bytes()
    original = raw.decode("utf-8-sig")
    data = json.loads(original)
    document = played(import_gcs(raw, now=NOW).document)
    exported = export_gcs(document, base=raw, now=NOW)
    after = json.loads(exported.text.lstrip("\ufeff"))
    differences = set(structural_differences(data, after))
    assert differences and differences <= expected_paths(data)
    assert "/modified_date" in differences
    written = exported.text.lstrip("\ufeff")
    # the text differs only in lines holding play (or the comma after the member a new play
    # member follows: a pool without damage gets one), and only by the play values in them
    changed = changed_lines(original, written)
    removed = {line[1:] for line in changed if line[0] == "-"}
    assert all(
        any(key in line for key in PLAY_KEYS) or (line[1:-1] in removed and line.endswith(","))
        for line in changed
        if line[0] == "+"
    )
    assert PLAY_MEMBER.sub("", written) == PLAY_MEMBER.sub("", original)
    back = import_gcs(exported.text, now=NOW).document
    assert current(back, "hp") == current(document, "hp")
    if "fp" in pools(data) or data["version"] == 1:
        assert current(back, "fp") == current(document, "fp")
    else:  # a file without FP (undead, constructs): nothing to write it into
        assert [note.source for note in exported.notes if note.kind == "notCarried"] == [
            "/secondary/fp/current"
        ]
    assert validate_character(back).valid


@pytest.mark.skipif(not THEIRS, reason="no GCS files in ../shared/gcs (a clone without shared data)")
@pytest.mark.parametrize("path", THEIRS, ids=lambda path: path.name)
def test_without_the_file_gcs_files_are_written_as_gcs_writes_them(path: Path) -> None:
    raw = path.read_bytes()
    document = played(import_gcs(raw, now=NOW).document)
    with_base = export_gcs(document, base=raw, now=NOW)
    without = export_gcs(document, now=NOW)
    if json.loads(raw)["version"] in (4, 5):  # GCS 5 (Go) files: byte for byte what GCS writes
        assert without.text == with_base.text
    else:  # GCS 4.x (Java) laid files out otherwise: the same data, and a note
        assert json.loads(without.text) == json.loads(with_base.text)
        assert next(note.kind for note in without.notes) == "approximated"


def test_damage_healed_to_nothing_leaves_the_damage_out_as_gcs_does() -> None:
    raw = (FIXTURES / "v5_fighter.gcs").read_bytes()
    document = import_gcs(raw, now=NOW).document  # HP damage 4 in the file
    healed = heal(document, 4, now=NOW)
    text = export_gcs(healed, base=raw, now=NOW).text
    hp = next(entry for entry in json.loads(text)["attributes"] if entry["attr_id"] == "hp")
    assert "damage" not in hp and hp["calc"]["current"] == hp["calc"]["value"]
    assert json.loads(text)["modified_date"] == "2026-10-05T10:00:00Z"


def test_a_gcs_4_file_gets_its_damage_as_zero_and_its_own_date_style() -> None:
    raw = (FIXTURES / "v2_scout.gcs").read_bytes()
    document = import_gcs(raw, now=NOW).document
    healed = heal(document, 100, now=NOW)
    data = json.loads(export_gcs(healed, base=raw, now=NOW).text)
    hp = next(entry for entry in data["attributes"] if entry["attr_id"] == "hp")
    assert hp["damage"] == 0 and data["modified_date"] == "Oct 5, 2026, 10:00 AM"


def test_a_byte_order_mark_and_windows_line_ends_are_kept() -> None:
    text = gcs_samples.text_of(gcs_samples.character(units=1))  # FP without damage
    raw = b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8")
    document = spend_fatigue(import_gcs(raw, now=NOW).document, 2, now=NOW)
    written = export_gcs(document, base=raw, now=NOW).text
    assert written.startswith("\ufeff") and "\n" not in written.replace("\r\n", "")
    assert '"adj": 0,\r\n\t\t\t"damage": 2,\r\n\t\t\t"calc"' in written


def test_another_character_as_base_is_refused() -> None:
    document = import_gcs((FIXTURES / "v5_fighter.gcs").read_bytes(), now=NOW).document
    with pytest.raises(CharacterError) as refused:
        export_gcs(document, base=(FIXTURES / "v4_wizard.gcs").read_bytes(), now=NOW)
    other = json.loads((FIXTURES / "v4_wizard.gcs").read_text())["id"]
    assert refused.value.code == "baseMismatch"
    assert refused.value.message == (
        f"The GCS file given is another character (id {other}) than the one the document was imported "
        "from (id A1fighterTestAAAA)."
    )
    assert refused.value.details == {"expected": "A1fighterTestAAAA", "found": other}


def test_a_file_changed_in_gcs_since_the_import_is_written_into_with_a_note() -> None:
    original = (FIXTURES / "v5_fighter.gcs").read_text()
    document = played(import_gcs(original, now=NOW).document)
    edited = original.replace('"total_points": 150', '"total_points": 175')
    exported = export_gcs(document, base=edited, now=NOW)
    assert next(note.kind for note in exported.notes) == "sourceChanged"
    assert exported.notes[0].message == (
        "The GCS file was changed since the document was imported from it (total_points): play is "
        "written into it all the same, and what was changed there stays."
    )
    assert json.loads(exported.text)["total_points"] == 175


def test_a_file_written_back_before_is_no_change() -> None:
    """A bot writes play back after every fight, from the document it imported once."""
    raw = (FIXTURES / "v5_fighter.gcs").read_bytes()
    document = import_gcs(raw, now=NOW).document
    first = export_gcs(apply_damage(document, 1, now=NOW), base=raw, now=NOW).text
    second = export_gcs(apply_damage(document, 5, now=NOW), base=first, now=NOW)
    assert "sourceChanged" not in [note.kind for note in second.notes]


def test_a_file_saved_again_in_gcs_since_the_import_is_said_to_be_changed() -> None:
    """GCS stamps modified_date on every save; with the play still the import's, only GCS did."""
    original = (FIXTURES / "v5_fighter.gcs").read_text()
    document = played(import_gcs(original, now=NOW).document)
    stamp = json.loads(original)["modified_date"]
    saved = original.replace(json.dumps(stamp), '"2026-11-01T18:00:00-07:00"')
    exported = export_gcs(document, base=saved, now=NOW)
    assert exported.notes[0].kind == "sourceChanged"
    assert "(modified_date)" in exported.notes[0].message
    assert "sourceChanged" not in [note.kind for note in export_gcs(document, base=original, now=NOW).notes]


def test_play_undone_gives_the_imported_file_back_and_a_later_write_back_is_no_change() -> None:
    raw = (FIXTURES / "v5_fighter.gcs").read_bytes()
    document = import_gcs(raw, now=NOW).document  # HP damage 4 in the file
    hurt = export_gcs(apply_damage(document, 3, now=NOW), base=raw, now=NOW).text
    assert json.loads(hurt)["modified_date"] == "2026-10-05T10:00:00Z"
    healed = heal(apply_damage(document, 3, now=NOW), 3, now=NOW)
    # damage 4 again: the file as it was imported, its date included (a write-back is no save in GCS)
    undone = export_gcs(healed, base=hurt, now=NOW)
    assert undone.text.encode("utf-8") == raw
    assert "sourceChanged" not in [note.kind for note in undone.notes]
    again = export_gcs(apply_damage(healed, 1, now=NOW), base=undone.text, now=NOW)
    assert "sourceChanged" not in [note.kind for note in again.notes]


@pytest.mark.parametrize(
    ("base", "code", "message"),
    [
        ("{", "invalidJson", "The GCS file given is not JSON text: no member name at 1."),
        (b"\xff{}", "invalidJson", "The GCS file given is not UTF-8 text (byte 0)."),
        (12, "invalidArgument", "base must be the GCS file's text or bytes, not a int."),
        ("[1]", "invalidJson", "The GCS file given is not JSON text: the text is not a JSON object."),
        ('{"version": NaN}', "invalidJson", "The GCS file given is not JSON text: no JSON value at 12."),
        ('{"id": 1e400}', "invalidJson", "The GCS file given is not JSON text: no JSON value at 7."),
        (
            '{"id": ' + "[" * 100_000 + "]" * 100_001 + "}",
            "invalidJson",
            "The GCS file given is not JSON text: no ',' or '}' at 200007.",
        ),
    ],
)
def test_a_base_that_is_no_gcs_text_is_refused(base: Any, code: str, message: str) -> None:
    document = import_gcs((FIXTURES / "v5_fighter.gcs").read_bytes(), now=NOW).document
    with pytest.raises(CharacterError) as refused:
        export_gcs(document, base=base, now=NOW)
    assert (refused.value.code, refused.value.message) == (code, message)


def test_a_base_over_the_size_limit_is_refused() -> None:
    raw = (FIXTURES / "v5_fighter.gcs").read_bytes()
    document = import_gcs(raw, now=NOW).document
    with pytest.raises(CharacterError) as refused:
        export_gcs(document, base=raw, now=NOW, max_bytes=100)
    assert (refused.value.code, refused.value.details) == ("tooLarge", {"size": len(raw), "limit": 100})


def test_the_document_is_not_modified() -> None:
    document = played(import_gcs((FIXTURES / "v4_wizard.gcs").read_bytes(), now=NOW).document)
    before = json.dumps(document, sort_keys=True)
    export_gcs(document, now=NOW)
    export_gcs(document, base=(FIXTURES / "v4_wizard.gcs").read_bytes(), now=NOW)
    assert json.dumps(document, sort_keys=True) == before


# ---------------------------------------------------------------- every file version (issue 29)


def pool_members(data: dict[str, Any]) -> dict[str, Any]:
    """What a file says of each pool's damage: the value, or None when it has no such member."""
    if data["version"] == 1:
        return {pool: data.get(f"{pool}_damage") for pool in ("hp", "fp")}
    return {pool: data["attributes"][index].get("damage") for pool, index in sorted(pools(data).items())}


@pytest.mark.parametrize("path", cases(), ids=lambda path: path.name)
def test_play_undone_on_the_file_written_gives_the_imported_bytes(path: Path) -> None:
    """import → play → write-back → the document as imported written onto that file: the
    imported bytes, in every file version (a version 1 file kept ``"hp_damage": 0``)."""
    raw = path.read_bytes()
    document = import_gcs(raw, now=NOW).document
    hurt = export_gcs(played(document), base=raw, now=NOW).text
    assert hurt.encode("utf-8") != raw
    undone = export_gcs(document, base=hurt, now=NOW)
    assert undone.text.encode("utf-8") == raw
    assert "sourceChanged" not in [note.kind for note in undone.notes]


@pytest.mark.parametrize("path", cases(), ids=lambda path: path.name)
def test_healed_pools_leave_no_damage_where_gcs_writes_none(path: Path) -> None:
    """Healed and rested: GCS leaves a damage of 0 out of version 1, 4 and 5 files and writes
    it in version 2 (GCS 4.x), on every pool the file has; calc.current is the value again."""
    raw = path.read_bytes()
    document = import_gcs(raw, now=NOW).document
    rested = recover_fatigue(heal(played(document), 10**6, now=NOW), 10**6, now=NOW)
    data = json.loads(export_gcs(rested, base=raw, now=NOW).text.lstrip("\ufeff"))
    members = pool_members(data)
    if data["version"] == 2:  # 0 where the file has the member (GCS 4.x wrote one on every pool)
        had = pool_members(json.loads(raw))
        assert members == {pool: None if had[pool] is None else 0 for pool in members}
    else:
        assert all(value is None for value in members.values()), members
    for index in pools(data).values():
        calc = data["attributes"][index].get("calc", {})
        assert calc.get("current") == calc.get("value")


def test_a_version_4_pool_healed_has_no_damage_member() -> None:
    raw = (FIXTURES / "v4_wizard.gcs").read_bytes()  # FP damage 9
    document = import_gcs(raw, now=NOW).document
    text = export_gcs(recover_fatigue(document, 9, now=NOW), base=raw, now=NOW).text
    line = next(line for line in text.splitlines() if '"attr_id": "fp"' in line)
    assert line == '\t\t{"attr_id": "fp", "adj": 2, "calc": {"value": 12, "current": 12, "points": 6}},'


def test_a_version_1_pool_healed_has_no_damage_member() -> None:
    raw = (FIXTURES / "v1_ranger.gcs").read_bytes()  # HP damage 5, FP damage 2
    document = import_gcs(raw, now=NOW).document
    text = export_gcs(heal(document, 5, now=NOW), base=raw, now=NOW).text
    data = json.loads(text)
    assert "hp_damage" not in data and data["fp_damage"] == 2
    assert '"hp_damage"' not in text


@pytest.mark.parametrize(
    ("name", "pointer", "repeated"),
    [
        (
            "v5_fighter.gcs",
            '{"attr_id": "hp", "adj": 1, "damage": 4',
            '{"attr_id": "hp", "damage": 9, "adj": 1, "damage": 4',
        ),
        (
            "v5_fighter.gcs",
            '{"attr_id": "hp", "adj": 1, "damage": 4',
            '{"damage": 9, "attr_id": "hp", "adj": 1, "damage": 4',
        ),
        ("v1_ranger.gcs", '\t"hp_damage": 5,', '\t"hp_damage": 9,\n\t"hp_damage": 5,'),
    ],
    ids=["between", "first", "version 1"],
)
def test_a_damage_key_written_twice_is_read_and_written_as_its_last(
    name: str, pointer: str, repeated: str
) -> None:
    """JSON readers (Python's, GCS's) keep the last value of a key written twice: the import reads
    it, a write-back changes it, and healing removes every member of the key."""
    original = (FIXTURES / name).read_text()
    assert original.count(pointer) == 1
    raw = original.replace(pointer, repeated)
    document = import_gcs(raw, now=NOW).document
    assert current(document, "hp") == current(import_gcs(original, now=NOW).document, "hp")
    damage = 4 if name.startswith("v5") else 5
    healed = export_gcs(heal(document, damage, now=NOW), base=raw, now=NOW).text
    assert pool_members(json.loads(healed))["hp"] is None
    assert "9" not in "".join(line for line in healed.splitlines() if "damage" in line and "hp" in line)
    assert current(import_gcs(healed, now=NOW).document, "hp") == document["secondary"]["hp"]["value"]
    hurt = export_gcs(apply_damage(document, 2, now=NOW), base=raw, now=NOW).text
    assert pool_members(json.loads(hurt))["hp"] == damage + 2
    assert export_gcs(document, base=hurt, now=NOW).text == raw  # undone: the bytes read


# ---------------------------------------------------------------- modified_date


@pytest.mark.parametrize(
    ("name", "now", "stamp"),
    [
        ("v5_fighter.gcs", datetime(2026, 10, 5, 22, 7, 9, tzinfo=UTC), "2026-10-05T22:07:09Z"),
        (
            "v5_fighter.gcs",
            datetime(2026, 10, 6, 0, 7, 9, tzinfo=timezone(timedelta(hours=2))),
            "2026-10-05T22:07:09Z",
        ),
        ("v4_wizard.gcs", datetime(2027, 1, 2, 3, 4, 5, tzinfo=UTC), "2027-01-02T03:04:05Z"),
        ("v2_scout.gcs", datetime(2026, 10, 5, 22, 7, 59, tzinfo=UTC), "Oct 5, 2026, 10:07 PM"),
        ("v2_scout.gcs", datetime(2026, 1, 15, 0, 5, tzinfo=UTC), "Jan 15, 2026, 12:05 AM"),
        ("v1_ranger.gcs", datetime(2026, 12, 31, 12, 0, tzinfo=UTC), "Dec 31, 2026, 12:00 PM"),
        ("v1_tired.gcs", datetime(2026, 7, 4, 9, 30, tzinfo=UTC), "Jul 4, 2026, 9:30 AM"),
    ],
)
def test_modified_date_is_the_time_of_the_write_back_in_the_files_own_style(
    name: str, now: datetime, stamp: str
) -> None:
    raw = (FIXTURES / name).read_bytes()
    document = import_gcs(raw, now=NOW).document
    assert json.loads(export_gcs(played(document), base=raw, now=now).text)["modified_date"] == stamp
    # without play the file is not touched, its date included
    assert export_gcs(document, base=raw, now=now).text.encode() == raw


def test_modified_date_without_now_is_the_current_time() -> None:
    raw = (FIXTURES / "v5_fighter.gcs").read_bytes()
    document = played(import_gcs(raw, now=NOW).document)
    before = datetime.now(UTC).replace(microsecond=0)
    stamp = json.loads(export_gcs(document, base=raw).text)["modified_date"]
    after = datetime.now(UTC)
    assert before <= datetime.fromisoformat(stamp) <= after


def test_a_new_characters_dates_are_the_documents_or_the_export_time() -> None:
    rurik = json.loads((REPOSITORY / "examples" / "rurik.json").read_text())
    dated = json.loads(export_gcs(rurik, now=NOW).text)
    assert (dated["created_date"], dated["modified_date"]) == ("2025-03-14T09:30:00Z", "2025-03-21T18:05:00Z")
    del rurik["meta"]["updatedAt"]  # never changed since it was made
    created_only = json.loads(export_gcs(rurik, now=NOW).text)
    assert created_only["modified_date"] == created_only["created_date"] == "2025-03-14T09:30:00Z"
    del rurik["meta"]["createdAt"]
    undated = json.loads(export_gcs(rurik, now=NOW).text)
    assert undated["created_date"] == undated["modified_date"] == "2026-10-05T10:00:00Z"


def test_damage_is_written_only_on_an_attribute_gcs_reads_as_a_pool() -> None:
    """GCS drops an attribute whose definition is gone and keeps damage only on pools, and so
    does the import: a write-back writes no damage where nothing would read it."""
    original = (FIXTURES / "v5_fighter.gcs").read_text()
    definition = '{"id": "hp", "type": "pool", "name": "HP"'
    assert original.count(definition) == 1
    raw = original.replace(definition, '{"id": "hp", "type": "integer", "name": "HP"')
    document = import_gcs(raw, now=NOW).document
    assert export_gcs(document, base=raw, now=NOW).text == raw  # no play: no change
    written = export_gcs(apply_damage(document, 3, now=NOW), base=raw, now=NOW)
    assert written.text == raw
    assert [(note.source, note.kind) for note in written.notes] == [
        ("/secondary/hp/current", "notCarried"),
        ("", "playWritten"),
    ]


@pytest.mark.parametrize("odd_id", [["hp"], {"id": "hp"}, 7, None, True])
def test_an_attribute_id_of_any_json_value_in_the_base_is_passed_over(odd_id: object) -> None:
    data = json.loads((FIXTURES / "v5_fighter.gcs").read_bytes())
    data["attributes"].insert(0, {"attr_id": odd_id, "adj": 1})  # a list id made a TypeError
    raw = json.dumps(data, indent="\t").encode()
    document = apply_damage(import_gcs(raw, now=NOW).document, 2, now=NOW)
    written = json.loads(export_gcs(document, base=raw, now=NOW).text)
    hp = next(entry for entry in written["attributes"] if entry.get("attr_id") == "hp")
    assert written["attributes"][0] == {"attr_id": odd_id, "adj": 1}
    assert hp["damage"] == 6  # the file's 4 and the 2 taken


def test_the_kept_file_is_read_once_for_the_play_written_back_fight_after_fight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot writes play back after every fight, from documents with the same kept text: the text
    is read once, and what was read is not changed by the write-backs."""
    from gurps_character.gcs.exporting import export

    original = (FIXTURES / "v5_fighter.gcs").read_text()
    document = import_gcs(original, now=NOW).document
    read: list[str] = []

    def counting(text: str, encoded: bytes | None = None) -> Any:
        read.append(text)
        return json.loads(text)

    monkeypatch.setattr(export, "loads", counting)
    export._remembered_kept.cache_clear()
    plain = export_gcs(document, now=NOW).text
    hurt = export_gcs(apply_damage(document, 1, now=NOW), base=original, now=NOW).text
    worse = apply_damage(document, 5, now=NOW)
    written = export_gcs(worse, base=hurt, now=NOW).text
    assert len(read) == 1
    assert export_gcs(document, now=NOW).text == plain
    hp = import_gcs(written, now=NOW).document["secondary"]["hp"]
    assert hp["current"] == worse["secondary"]["hp"]["current"]


def test_a_kept_text_changed_by_the_caller_is_read_again() -> None:
    """What is remembered is keyed by the text: a document given another kept text (a new
    ``str``) is written from that text, never from what was read before."""
    original = (FIXTURES / "v5_fighter.gcs").read_text()
    document = import_gcs(original, now=NOW).document
    ours = document["extensions"][EXTENSION]
    export_gcs(document, now=NOW)
    kept = json.loads(ours[KEPT_TEXT])
    kept["profile"]["name"] = "Someone Else"
    ours[KEPT_TEXT] = json.dumps(kept, separators=(",", ":"))
    assert json.loads(export_gcs(document, now=NOW).text)["profile"]["name"] == "Someone Else"
