"""What a document imported from GCS carries of the GCS file, and that whatever the importer
accepts the rest of the library can serialize, read again, update and write back (issue 29).

The document keeps the whole file for the write-back. Kept as nested data, a file of containers
inside containers made a document whose indented text grew with the square of the depth (a 44 kB
file nested 400 deep: a 2.4 MB document); kept as one text, it grows with the file. Deep files are
built here (``deep_file``: an equipment container in a container, ``depth`` times, in compact
JSON as a hand-made or hostile file comes), and large ones from ``gcs_samples``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from gurps_character import (
    MAX_DOCUMENT_BYTES,
    CharacterError,
    apply_damage,
    export_gcs,
    heal,
    import_gcs,
    parse_character,
    serialize_character,
)
from gurps_character._json import dumps, loads
from gurps_character.gcs import EXTENSION, KEPT_TEXT
from tests.support import gcs_samples
from tests.support.gcs_roundtrip import NOW


def deep_file(depth: int) -> str:
    """A version 5 character (HP damage 0) whose equipment holds a container in a container,
    ``depth`` levels, in compact JSON."""
    data = gcs_samples.character(units=1)
    node: dict[str, Any] = {"id": "e0000000000000000", "description": "Pebble", "quantity": 1}
    for level in range(depth):
        node = {"id": f"E{level:016d}", "description": f"Box {level}", "quantity": 1, "children": [node]}
    data["equipment"] = [*data["equipment"], node]
    return dumps(data, 0)


def hp_current(document: Mapping[str, Any]) -> Any:
    hp = document["secondary"]["hp"]
    return hp.get("current", hp["value"])


@pytest.mark.parametrize("depth", [50, 1_000, 4_000])
def test_what_the_document_keeps_of_a_deep_file_grows_with_the_file(depth: int) -> None:
    shallow, deep = deep_file(0), deep_file(depth)
    document = import_gcs(deep, now=NOW).document
    kept = document["extensions"][EXTENSION][KEPT_TEXT]
    assert kept == deep  # the whole file, as compact JSON (as it was written here)
    # the kept text costs the document's text at most twice its length (quotes are escaped); the
    # document's own entries of the items (the first 64 levels, their locations shortened) about
    # five bytes for each of their file's bytes: linear in the file, whatever its depth
    base = len(serialize_character(import_gcs(shallow, now=NOW).document))
    assert len(dumps(kept)) <= 2 * len(kept)
    assert len(serialize_character(document)) - base <= 6 * (len(deep) - len(shallow))


def test_a_deep_file_is_saved_read_played_and_written_back_byte_for_byte() -> None:
    raw = deep_file(3_000)
    document = parse_character(serialize_character(import_gcs(raw, now=NOW).document)).character
    hurt = apply_damage(document, 3, now=NOW)
    written = export_gcs(hurt, base=raw, now=NOW)
    assert [note.kind for note in written.notes] == ["playWritten"]
    assert hp_current(import_gcs(written.text, now=NOW).document) == hp_current(hurt)
    # play undone on the file written before: the imported bytes
    undone = export_gcs(heal(hurt, 3, now=NOW), base=written.text, now=NOW)
    assert undone.text == raw


@pytest.mark.parametrize("depth", [10, 3_000])
def test_a_file_changed_at_its_deepest_level_since_the_import_is_said_to_be_changed(depth: int) -> None:
    """The comparison of the file given with the kept one sees a change at any depth (Python's own
    within the recursion limit, a loop of its own beyond)."""
    raw = deep_file(depth)
    hurt = apply_damage(import_gcs(raw, now=NOW).document, 3, now=NOW)
    assert [note.kind for note in export_gcs(hurt, base=raw, now=NOW).notes] == ["playWritten"]
    edited = raw.replace('"description":"Pebble"', '"description":"Stone"')
    assert edited != raw
    written = export_gcs(hurt, base=edited, now=NOW)
    assert [note.kind for note in written.notes] == ["sourceChanged", "playWritten"]
    assert "(equipment)" in written.notes[0].message


def test_a_deep_file_without_base_is_written_as_a_file_the_importer_reads_again() -> None:
    raw = deep_file(3_000)
    hurt = apply_damage(import_gcs(raw, now=NOW).document, 3, now=NOW)
    written = export_gcs(hurt, now=NOW)
    # GCS's layout (a tab for every level on every line) would take about 27 MB: written compact
    assert len(written.text.encode()) <= MAX_DOCUMENT_BYTES
    assert [note.kind for note in written.notes] == ["approximated", "playWritten"]
    assert written.notes[0].message == (
        "The GCS data laid out as GCS lays out files (a tab for each level of nesting on every line) "
        "would make a file of over 2,000,000 bytes: it is written without white space, which GCS reads "
        "as well, so its bytes differ from the original beyond play; give the original file (base) to "
        "keep them."
    )
    back = import_gcs(written.text, now=NOW).document
    assert hp_current(back) == hp_current(hurt)
    assert loads(written.text)["equipment"][-1]["description"] == "Box 2999"


def test_a_file_shallow_enough_for_gcs_layout_is_written_in_it_without_base() -> None:
    raw = deep_file(150)  # GCS's layout: about 0.4 MB
    written = export_gcs(apply_damage(import_gcs(raw, now=NOW).document, 3, now=NOW), now=NOW)
    assert [note.kind for note in written.notes] == ["playWritten"]
    assert written.text.startswith('{\n\t"version": 5,\n')


def _doc_size(document: dict[str, Any]) -> int:
    return len(serialize_character(document).encode())


def test_a_document_over_the_limit_documents_are_read_with_is_refused_at_the_import() -> None:
    """A 1.2 MB GCS file makes a document over 2 MB, which no reader of the library would take
    back: the import refuses it, and takes it with a larger limit, the document's size exactly."""
    text = gcs_samples.text_of(gcs_samples.character(units=1_500))
    assert len(text.encode()) < MAX_DOCUMENT_BYTES
    with pytest.raises(CharacterError) as refused:
        import_gcs(text, now=NOW)
    size = refused.value.details["size"]
    assert refused.value.code == "tooLarge"
    assert refused.value.details == {"size": size, "limit": MAX_DOCUMENT_BYTES}
    assert refused.value.message == (
        f"The GCS file makes a document of {size} bytes (as serialize_character writes it), over the "
        f"limit of {MAX_DOCUMENT_BYTES}; a larger max_bytes imports it, and the same limit reads the "
        "document again."
    )
    document = import_gcs(text, max_bytes=size, now=NOW).document
    assert _doc_size(document) == size
    with pytest.raises(CharacterError) as one_byte_over:
        import_gcs(text, max_bytes=size - 1, now=NOW)
    assert one_byte_over.value.details == {"size": size, "limit": size - 1}
    # read again, played and written back within the same limit
    back = parse_character(serialize_character(document), max_bytes=size).character
    written = export_gcs(apply_damage(back, 2, now=NOW), base=text, max_bytes=size, now=NOW)
    assert hp_current(import_gcs(written.text, max_bytes=size, now=NOW).document) == hp_current(back) - 2


@pytest.mark.parametrize("units", [1, 900, 1_500])
def test_every_document_the_import_gives_is_read_back_within_the_default_limit(units: int) -> None:
    text = gcs_samples.text_of(gcs_samples.character(units=units))
    try:
        document = import_gcs(text, now=NOW).document
    except CharacterError as refused:
        assert refused.code == "tooLarge"
        return
    again = parse_character(serialize_character(document)).character  # the default limit
    assert again == document
    export_gcs(apply_damage(again, 1, now=NOW), base=text, now=NOW)


def test_a_small_limit_for_the_file_leaves_the_document_the_default_limit() -> None:
    """``max_bytes`` bounds the GCS text; a document is read within the default limit (or a
    larger one given), so a file imported at exactly its size is not refused for its document."""
    text = gcs_samples.text_of(gcs_samples.minimal(5))
    document = import_gcs(text, max_bytes=len(text.encode()), now=NOW).document
    assert _doc_size(document) > len(text.encode())


def test_a_kept_text_that_is_no_json_object_is_refused_at_the_export() -> None:
    document = import_gcs(gcs_samples.text_of(gcs_samples.minimal(5)), now=NOW).document
    for broken in ("{", "[1]"):
        document["extensions"][EXTENSION][KEPT_TEXT] = broken
        with pytest.raises(CharacterError) as refused:
            export_gcs(document, now=NOW)
        assert (refused.value.code, refused.value.message) == (
            "invalidDocument",
            f"The GCS file kept in extensions['{EXTENSION}'].{KEPT_TEXT} is not a JSON object.",
        )


def test_a_document_that_kept_the_file_as_data_is_still_written_back() -> None:
    """Imports before the text kept the data itself (``gcs``): such documents still export."""
    raw = gcs_samples.text_of(gcs_samples.character(units=1))
    document = import_gcs(raw, now=NOW).document
    summary = document["extensions"][EXTENSION]
    summary["gcs"] = json.loads(summary.pop(KEPT_TEXT))
    hurt = apply_damage(document, 2, now=NOW)
    written = export_gcs(hurt, base=raw, now=NOW)
    assert hp_current(import_gcs(written.text, now=NOW).document) == hp_current(hurt)
    assert json.loads(export_gcs(hurt, now=NOW).text) == json.loads(written.text)


def test_without_base_gcs_layout_is_kept_up_to_exactly_max_bytes() -> None:
    """The limit is on the kept file laid out as GCS lays it out (play then changes a few bytes)."""
    raw = deep_file(150)
    document = import_gcs(raw, now=NOW).document
    size = len(export_gcs(document, now=NOW).text.encode())  # no play: the kept file, laid out
    hurt = apply_damage(document, 3, now=NOW)
    laid_out = export_gcs(hurt, now=NOW).text
    assert export_gcs(hurt, now=NOW, max_bytes=size).text == laid_out
    compact = export_gcs(hurt, now=NOW, max_bytes=size - 1)
    assert compact.notes[0].kind == "approximated"
    assert f"a file of over {size - 1:,} bytes" in compact.notes[0].message
    assert json.loads(compact.text) == json.loads(laid_out)
    assert "\t" not in compact.text and compact.text.endswith("}\n")


def test_the_kept_file_is_read_once_for_the_defenses_of_a_character(monkeypatch: pytest.MonkeyPatch) -> None:
    """A defense reads the kept file twice (the DB the sheet counts, and the DB taken out), a fight
    at every defense: the text is read once, and what was read stays as it was."""
    from gurps_character import _extension, character_defense

    document = import_gcs(deep_file(3), now=NOW).document
    read: list[str] = []
    reading = _extension._read_kept

    def counting(text: str) -> dict[str, Any] | None:
        read.append(text)
        return reading(text)

    monkeypatch.setattr(_extension, "_read_kept", counting)
    _extension._remembered_kept.cache_clear()
    first = character_defense(document, "dodge")
    assert [character_defense(document, "dodge") for _ in range(3)] == [first] * 3
    assert read == [document["extensions"][EXTENSION][KEPT_TEXT]]
    assert _extension.kept_gcs_data(document) == json.loads(read[0])
