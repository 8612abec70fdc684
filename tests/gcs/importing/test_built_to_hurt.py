"""The GCS importer on files built to hurt it (issue 22 items 1-4): work and output that grow
linearly with the file, numbers beyond the bounds read as absent, text that only looks numeric.

The files come from ``gcs_built.py`` (and ``scripts/fuzz.py`` and ``benchmarks/bench.py`` use
the same builders). Work is measured by a count that does not depend on the machine: the Python
and built-in function calls an import makes (``sys.setprofile``); a quadratic import makes about
16 times the calls on a file 4 times as large, a linear one about 4 times.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from types import FrameType
from typing import Any

import pytest

from gurps_character import GcsImport, import_gcs, validate_character, verify_character
from gurps_character.gcs.format import features
from gurps_character.gcs.format.criteria import matches
from tests.support import gcs_built, gcs_samples

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SMALL = 40
"""The smaller file of each pair (the larger has 4 times as many items)."""


@contextmanager
def counted_calls() -> Iterator[list[int]]:
    """Counts the function calls (Python and built-in) made inside the block."""
    count = [0]

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            count[0] += 1

    sys.setprofile(profile)
    try:
        yield count
    finally:
        sys.setprofile(None)


def imported(data: dict[str, Any]) -> tuple[GcsImport, int]:
    """The import of ``data`` as text, checked (valid, claim-consistent), and the calls it made."""
    text = json.dumps(data)
    with counted_calls() as calls:
        result = import_gcs(text, now=NOW)
    report = validate_character(result.document)
    assert report.valid, [error.message for error in report.errors[:3]]
    assert verify_character(result.document).claim_consistent
    return result, calls[0]


def _messages(result: GcsImport) -> str:
    return "\n".join(note.message for note in result.notes)


# ---------------------------------------------------------------- item 1: linear time


@pytest.mark.parametrize("name", [name for name in gcs_built.BUILDERS if name != "broad_criteria"])
def test_the_work_of_an_import_grows_linearly_with_the_file(name: str) -> None:
    build = gcs_built.BUILDERS[name]
    _, small_calls = imported(build(SMALL))
    large, large_calls = imported(build(4 * SMALL))
    ratio = large_calls / small_calls
    assert ratio < 5, f"{name}: {small_calls:,} calls, then {large_calls:,} on a file 4 times as large"
    # the indexes, not the budget, keep it linear: no comparison is left out
    assert "stopped comparing" not in _messages(large)


def test_criteria_that_accept_any_name_spend_a_budget_then_stop_with_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(features, "MAX_COMPARISONS", 2_000)
    small, small_calls = imported(gcs_built.broad_criteria(4 * SMALL))
    large, large_calls = imported(gcs_built.broad_criteria(16 * SMALL))
    assert large_calls / small_calls < 5
    for result in (small, large):
        assert "the import stopped comparing there" in _messages(result)


def test_a_budget_that_does_not_run_out_changes_nothing() -> None:
    data = gcs_built.broad_criteria(12)
    result, _ = imported(data)
    assert "stopped comparing" not in _messages(result)
    # the skill bonuses are features 0, 4 and 8: is not "x0", any, does not start with "x8";
    # all three accept "Skill 1" (no budget left out a comparison)
    skill = next(entry for entry in result.document["skills"] if entry["name"] == "Skill 1")
    expected = 3
    assert sum(bonus["amount"] for bonus in skill.get("bonuses", [])) == expected


def test_the_skill_bonus_index_finds_what_trying_every_bonus_finds() -> None:
    """Each comparison GCS has, as exact, prefix, suffix and part lookups, against the brute
    force of :func:`~gurps_character.gcs.format.criteria.matches` on every pair."""
    compares = ("is", "starts_with", "ends_with", "contains", "is_not", "does_not_contain", "any", "odd")
    qualifiers = ("", "a", "ab", "b", "abc", "ABC", "c", "bc", "x")
    criteria: list[object] = [{"compare": c, "qualifier": q} for c in compares for q in qualifiers]
    criteria += ["ab", "", None, 5, {"qualifier": "ab"}, {"compare": "starts_with"}]
    found = [
        features.Feature({"type": "skill_bonus", "name": criterion, "amount": 1}, f"o{i}", f"/f/{i}", 0)
        for i, criterion in enumerate(criteria)
    ]
    index = features.Features(found)
    for value in ("", "a", "ab", "abc", "Abc", "xabcx", "b", "zzz", "c"):
        expected = [feature for feature in found if matches(feature.data["name"], value)]
        candidates = index.skill_bonus_candidates(value)
        assert [f for f in candidates if matches(f.data["name"], value)] == expected, value


# ---------------------------------------------------------------- item 2: bounded memory


@pytest.mark.parametrize("name", list(gcs_built.BUILDERS))
def test_the_document_grows_linearly_with_the_file(name: str) -> None:
    build = gcs_built.BUILDERS[name]
    sizes = []
    for n in (4 * SMALL, 16 * SMALL):
        text = json.dumps(build(n))
        document = import_gcs(text, now=NOW).document
        written = len(json.dumps(document))
        # the document keeps the whole file in its extensions, and adds its own reading
        assert written < 6 * len(text) + 200_000, f"{name}: {written:,} characters from {len(text):,}"
        sizes.append((len(text), written))
    (small_in, small_out), (large_in, large_out) = sizes
    assert large_out / small_out < 1.25 * large_in / small_in


def test_placeholders_fill_a_bounded_text_and_say_where_they_stopped() -> None:
    n = 400
    result, _ = imported(gcs_built.placeholders(n))
    trait = next(entry for entry in result.document["traits"] if entry["name"].startswith("w"))
    # "@a@" written 400 times (1,200 characters) takes at most its own length plus one copy of
    # the 400-character replacement: 1,600 characters, four whole fills; the rest stay as written
    assert trait["name"] == "w" * n * 4 + "@a@" * (n - 4)
    note = next(note for note in result.notes if "would take more from" in note.message)
    assert note.source == "/traits/4/name"
    assert note.kind == "approximated"


@pytest.mark.parametrize(
    ("name", "replacements", "expected"),
    [
        ("Ally (@Who@)", {"Who": "Bob"}, "Ally (Bob)"),
        ("@A@ and @A@ and @B@", {"A": "Sword", "B": "x" * 900}, "Sword and Sword and " + "x" * 900),
        ("@N@", {"N": 12}, "12"),
        ("@Missing@", {"Who": "Bob"}, "@Missing@"),
        ("@A@" * 3, {"A": "y" * 2_000}, "@A@" * 3),  # one copy is more than the 1,000 allowed
    ],
)
def test_placeholders_a_real_file_holds_are_filled(
    name: str, replacements: dict[str, Any], expected: str
) -> None:
    data = gcs_samples.character(units=2)
    data["traits"][0]["name"] = name
    data["traits"][0]["replacements"] = replacements
    result, _ = imported(data)
    assert result.document["traits"][0]["name"] == expected


# ---------------------------------------------------------------- item 3: huge numbers


def _calc_less_base(base: str) -> dict[str, Any]:
    data = gcs_built.without_calc(gcs_samples.character(units=2))
    for definition in data["settings"]["attributes"]:
        if definition["id"] == "dx":
            definition["base"] = base
    return data


@pytest.mark.parametrize(
    "base",
    ["1" * 31, "1" * 190, "9" * 400, "1000000001", "$st * 100000 * 100000", "($dx + 1e3)", "10 / 0"],
    ids=lambda base: base[:24],
)
def test_an_attribute_base_beyond_the_bounds_is_unreadable_with_a_note(base: str) -> None:
    result, _ = imported(_calc_less_base(base))
    document = result.document
    assert document["attributes"]["dx"]["value"] == 12  # GCS's standard base 10, +2 bought
    assert document["secondary"]["basicSpeed"]["value"] == 5.75  # (12 + 11) / 4
    note = next(note for note in result.notes if "could not be read" in note.message)
    assert note.message.startswith("The base '") and "GCS's standard base '10' is used." in note.message


def test_an_attribute_base_within_the_bounds_is_read() -> None:
    result, _ = imported(_calc_less_base("999999999"))
    assert result.document["attributes"]["dx"]["value"] == 999_999_999 + 2


NUMBER_SLOTS: list[tuple[Any, ...]] = [
    ("attributes", 1, "adj"),
    ("traits", 0, "levels"),
    ("traits", 0, "points_per_level"),
    ("traits", 1, "base_points"),
    ("skills", 0, "points"),
    ("equipment", 0, "quantity"),
    ("equipment", 0, "base_value"),
    ("equipment", 0, "base_weight"),
    ("traits", 0, "features", 0, "amount"),
    ("equipment", 0, "weapons", 0, "damage", "modifier_per_die"),
    ("equipment", 0, "weapons", 0, "damage", "armor_divisor"),
    ("equipment", 0, "weapons", 0, "strength"),
    ("equipment", 0, "weapons", 0, "parry"),
    ("equipment", 2, "weapons", 0, "range"),
    ("profile", "SM"),
    ("total_points",),
]


@pytest.mark.parametrize("path", NUMBER_SLOTS, ids=lambda path: "/".join(map(str, path)))
@pytest.mark.parametrize(
    "value", [10**12, -(10**12), 1e30, "1" * 31, "-" + "9" * 40, "1" * 31 + " lb"], ids=lambda v: str(v)[:12]
)
def test_numbers_beyond_the_bounds_in_files_without_calc_count_as_absent(
    path: tuple[Any, ...], value: Any
) -> None:
    data = gcs_built.without_calc(gcs_samples.character(units=4))
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    result, _ = imported(data)
    if not isinstance(value, str) or value.lstrip("-").isdecimal():
        pointer = "/" + "/".join(map(str, path))
        note = next(note for note in result.notes if "beyond ±10^9" in note.message)
        assert pointer in note.message


def test_the_note_on_numbers_beyond_the_bounds_counts_them_and_shows_six() -> None:
    data = gcs_samples.character(units=12)
    for skill in data["skills"][:9]:
        skill["points"] = 10**10
    result, _ = imported(data)
    note = next(note for note in result.notes if "beyond ±10^9" in note.message)
    assert note.message.startswith("9 numbers in the file are beyond ±10^9 (")
    assert note.message.count("/skills/") == 6 and ", ...)" in note.message


# ---------------------------------------------------------------- item 4: text that looks numeric


@pytest.mark.parametrize(
    "tech_level", ["3²", "\uff13", "\u0663", "3.0", "1e1", "-3", "+3", "3^", "8/9", "1" * 30]
)
def test_a_tech_level_that_is_not_ascii_digits_is_noted_not_read(tech_level: str) -> None:
    data = gcs_samples.character(units=2)
    data["profile"]["tech_level"] = tech_level
    result, _ = imported(data)
    assert result.document["techLevel"]["level"] is None
    assert any(note.message.startswith(f"Tech level '{tech_level[:40]}") for note in result.notes)


@pytest.mark.parametrize(("tech_level", "level"), [("3", 3), (" 12 ", 12), ("0", 0), ("007", 7)])
def test_a_tech_level_of_ascii_digits_is_read(tech_level: str, level: int) -> None:
    data = gcs_samples.character(units=2)
    data["profile"]["tech_level"] = tech_level
    result, _ = imported(data)
    assert result.document["techLevel"]["level"] == level


ODD_NUMERIC_TEXT = ["3²", "²", "\uff13", "\u0663", "1" * 31, "+" + "9" * 5000, "-" + "9" * 400, "1e9999", "⁴"]


@pytest.mark.parametrize("odd", ODD_NUMERIC_TEXT, ids=lambda odd: repr(odd[:12]) + f"x{len(odd)}")
@pytest.mark.parametrize(
    "path",
    [
        ("skills", 0, "calc", "rsl"),
        ("skills", 0, "points"),
        ("traits", 0, "levels"),
        ("traits", 2, "modifiers", 0, "cost_adj"),
        ("equipment", 0, "base_weight"),
        ("equipment", 0, "base_value"),
        ("equipment", 0, "modifiers"),
        ("equipment", 0, "weapons", 0, "damage", "base"),
        ("equipment", 0, "weapons", 0, "parry"),
        ("equipment", 0, "weapons", 1, "calc", "parry"),
        ("equipment", 2, "weapons", 0, "range"),
        ("equipment", 2, "weapons", 0, "bulk"),
        ("calc", "swing"),
        ("calc", "basic_lift"),
        ("profile", "height"),
        ("created_date",),
        ("settings", "body_type", "roll"),
    ],
    ids=lambda path: "/".join(map(str, path)),
)
def test_text_that_only_looks_numeric_is_no_number_anywhere(path: tuple[Any, ...], odd: str) -> None:
    data = gcs_samples.character(units=4)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if path[-1] == "modifiers":  # an equipment modifier's cost
        target[path[-1]] = [{"id": "f0000000000000001", "name": "Odd", "cost": odd, "weight": odd}]
    else:
        target[path[-1]] = odd
    for form in (data, json.dumps(data)):
        result = import_gcs(form, now=NOW)  # no error at all, the last-resort guard's included
        assert validate_character(result.document).valid
        assert verify_character(result.document).claim_consistent
