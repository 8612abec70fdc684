"""The export's shortcuts for weapons give what the general code they stand in for gives."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character._notation import HIT_TYPES, MODIFIERS
from gurps_character.gcs.exporting.damage_fields import (
    _COMMON_HEADS,
    _common_damage,
    _damage_fields,
    _matched_damage,
    _recipe_text,
    _resolved_damage,
)
from gurps_character.gcs.exporting.defenses import _defenses, _names_a_shield
from gurps_character.gcs.exporting.sheet import LIMIT, leading_int, member
from gurps_character.gcs.exporting.weapon_calc import _MUSCLE_FACTORS, _MUSCLE_RANGE, _muscle_factors
from gurps_character.gcs.exporting.weapon_skills import _spaced_words
from gurps_character.gcs.exporting.weapons import _parry, _parry_text


def _common_damage_fields(notation: str) -> dict[str, Any] | None:
    """The GCS damage fields the table of usual damage gives a notation (None for another)."""
    common = _common_damage(notation)
    return None if common is None else common[0]


_BASES = (
    "thr", "sw", "THR", "Sw", "thrust", "swing", "0d", "1d", "2d", "02d", "12d", "999999d", "1234567d",
    "3", "1D",
)  # fmt: skip
_ADDS = ("", "+1", "-1", "+0", "-0", "+01", "-12", "+999999", "-1000000", "+", "-", "x2", "+1x3", "+ 1")
_GAPS = ("", " ", "  ", "\t", " (2) ", "(2) ", " x2 ")
_WORDS = (
    *HIT_TYPES, *MODIFIERS, "ctrl", "aff", "spec.", "CUT", "Cr", "pi+++", "cut+", "cut-", "x", "per", "é",
    "",
)  # fmt: skip
_TAILS = ("", " ", "/point", " ex", " (3)", ".", "2")


def _items(fields: dict[str, Any] | None) -> list[tuple[str, Any]] | None:
    """The fields with their order (the written file keeps it)."""
    return None if fields is None else list(fields.items())


def test_the_common_form_gives_the_parsed_fields_for_every_combination() -> None:
    """Every base, adds, gap, damage word and tail combined: where the shortcut answers, its
    fields (and their order) are the parsed notation's."""
    answered = 0
    for base, adds, gap, word, tail in itertools.product(_BASES, _ADDS, _GAPS, _WORDS, _TAILS):
        notation = f"{base}{adds}{gap}{word}{tail}"
        fast = _common_damage_fields(notation)
        if fast is not None:
            answered += 1
            assert _items(fast) == _items(_damage_fields(notation)), notation
    # the shortcut is taken for the usual damage (else it saves nothing)
    assert answered > 500
    for notation in ("sw+1 cut", "thr imp", "thr-1 cr", "2d+1 pi", "3d pi++", "1d-2 burn", "sw ctrl"):
        assert _common_damage_fields(notation) is not None, notation


def test_the_common_form_has_the_documented_fields() -> None:
    """A few by hand, as GCS writes them (thrust and swing with their adds; dice as dice text)."""
    assert _items(_common_damage_fields("sw+1 cut")) == [("type", "cut"), ("st", "sw"), ("base", "1")]
    assert _items(_common_damage_fields("thr imp")) == [("type", "imp"), ("st", "thr")]
    assert _items(_common_damage_fields("thr-0 cr")) == [("type", "cr"), ("st", "thr")]
    assert _items(_common_damage_fields("2d-1 pi+")) == [("type", "pi+"), ("base", "2d-1")]
    assert _items(_common_damage_fields("0d+2 burn")) == [("type", "burn"), ("base", "2")]
    assert _common_damage_fields("sw+1  cut") is None
    assert _common_damage_fields("1234567d cut") is None


def test_the_usual_damage_looked_up_is_the_damage_matched() -> None:
    """Every head of the table with every hit type (and a word that is none): the fields and
    recipe looked up are the pattern's, in the same order."""
    for head, kind in itertools.product(_COMMON_HEADS, (*HIT_TYPES, "burns", "ctrl")):
        notation = f"{head} {kind}"
        looked_up, matched = _common_damage(notation), _matched_damage(notation)
        assert matched is not None, notation
        assert looked_up is not None
        assert (_items(looked_up[0]), looked_up[1]) == (_items(matched[0]), matched[1]), notation
    assert {"thr", "sw-2", "thr+20", "1d", "2d+1", "12d-6"} <= set(_COMMON_HEADS)


_TABLES = [(count, adds) for count in (-1, 0, 1, 2, 3, 12) for adds in (-3, -1, 0, 1, 2)]


def test_the_common_form_resolves_as_its_fields_do() -> None:
    """Every combination the shortcut answers, with thrust and swing of every sign: the text
    resolved from its recipe is the one resolved from its fields."""
    resolved = 0
    for base, adds, gap, word, tail in itertools.product(_BASES, _ADDS, _GAPS, _WORDS, _TAILS):
        common = _common_damage(f"{base}{adds}{gap}{word}{tail}")
        if common is None:
            continue
        fields, recipe = common
        for thrust, swing in itertools.product(_TABLES, _TABLES[::7]):
            tables = {"thr": thrust, "sw": swing}
            assert _recipe_text(recipe, thrust, swing) == _resolved_damage(fields, tables), fields
            resolved += 1
    assert resolved > 500 * len(_TABLES)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789dswthrxX×*+-() ./\t\u00a0abcimpuoeflkntDRS∞", max_size=16))
def test_the_common_form_never_departs_from_the_parser(notation: str) -> None:
    """Any text: the shortcut answers None or the parsed fields, in the same order."""
    fast = _common_damage_fields(notation)
    if fast is not None:
        assert _items(fast) == _items(_damage_fields(notation))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcXYZ019 -_()/é\t\u00a0İK\x1c\x0b\x7f", max_size=12))
def test_a_names_words_are_the_words_the_pattern_finds(name: str) -> None:
    """The one-word shortcut gives the words the pattern of non-word characters leaves."""
    lowered = name.lower()
    assert _spaced_words(lowered) == f" {re.sub('[^a-z0-9]+', ' ', lowered).strip()} "
    assert _spaced_words("broadsword") == " broadsword "
    assert _spaced_words("riding (horse)") == " riding horse "


_SHAPES: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=3),
    st.lists(st.integers(), max_size=2),
    st.just(MappingProxyType({})),
)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["defenses", "dodge", "parry"]),
        st.one_of(
            _SHAPES,
            st.dictionaries(
                st.sampled_from(["parry", "block", "value"]),
                st.one_of(_SHAPES, st.fixed_dictionaries({"value": st.integers()})),
            ),
            st.builds(
                MappingProxyType,
                st.fixed_dictionaries({"parry": st.fixed_dictionaries({"value": st.integers()})}),
            ),
        ),
    ),
    st.sampled_from(["parry", "block"]),
)
def test_a_documents_defense_is_the_member_at_its_pointer(document: dict[str, Any], key: str) -> None:
    """Whatever the document holds at /defenses, the defense read is member()'s answer there."""
    assert _defenses(document, key) == member(document, f"/defenses/{key}")


def _parry_by_pattern(parry: Mapping[str, Any]) -> str:
    """The parry text as the pattern alone gives it (the export's rule before its shortcuts)."""
    modifier = parry.get("modifier")
    if modifier is None or isinstance(modifier, bool) or not isinstance(modifier, int | float):
        return "No"
    if abs(modifier) > LIMIT:
        return "No"
    notation = parry.get("notation")
    match = re.fullmatch(r"\s*[+-]?\d+\s*([FU]*)\s*", notation if isinstance(notation, str) else "", re.I)
    fencing = bool(match and "F" in match.group(1).upper())
    return f"{int(modifier)}{'F' if fencing else ''}{'U' if parry.get('unbalanced') is True else ''}"


@settings(max_examples=400, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "modifier": st.one_of(
                st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=2)
            ),
            "notation": st.one_of(
                st.none(), st.integers(), st.text("0123456789+- FfUuﬀ\u212a\u0131\t", max_size=8)
            ),
            "unbalanced": st.one_of(st.none(), st.booleans(), st.integers(0, 1)),
        },
    )
)
def test_the_parry_text_is_the_patterns(parry: dict[str, Any]) -> None:
    """Any parry object: the text of its modifier and flags, as the pattern reads them."""
    assert _parry_text(parry) == _parry_by_pattern(parry)
    assert _parry_text({"modifier": -1, "notation": "-1f"}) == "-1F"
    assert _parry_text({"modifier": 0, "notation": "0U", "unbalanced": True}) == "0U"
    # the modifier and flags the defense reads: as read from the text (six digits at most)
    text, read = _parry(parry)
    modifier = leading_int(text)
    upper = text.upper()
    flags = ("F" if "F" in upper else "") + ("U" if "U" in upper else "")
    assert read == (None if modifier is None else (modifier, flags))
    assert _parry({"modifier": -1_000_000, "notation": "-1000000F"}) == ("-1000000F", (-100_000, "F"))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="shieldSHIELD\u017f\u0130\u0131\u212a \t-_(é", max_size=14))
def test_a_shield_is_named_as_the_pattern_finds_it(name: str) -> None:
    """The ASCII shortcut answers as the case-blind pattern for the word shield does."""
    assert _names_a_shield(name) == (re.search(r"\bshield\b", name, re.IGNORECASE) is not None)
    assert (
        _names_a_shield("Medium Shield") and _names_a_shield("\u017fhield") and not _names_a_shield("shields")
    )


def test_every_character_splits_words_as_the_pattern_does() -> None:
    """Each of the first 256 characters between words, at the ends and alone, lower-cased as
    the skill names are."""
    for code in range(256):
        for text in (f"ab{chr(code)}c1", chr(code), f"{chr(code)} x {chr(code)}"):
            lowered = text.lower()
            assert _spaced_words(lowered) == f" {re.sub('[^a-z0-9]+', ' ', lowered).strip()} ", repr(text)


def test_the_usual_muscle_ranges_looked_up_are_the_patterns() -> None:
    """Every muscle-powered range of the table: the multiples the pattern reads."""
    for raw, factors in _MUSCLE_FACTORS.items():
        match = _MUSCLE_RANGE.fullmatch(raw)
        assert match is not None, raw
        near, far = match.groups()
        assert factors == (float(near), None if far is None else float(far)), raw
    assert _muscle_factors("x1/x1.5") == (1.0, 1.5)
    assert _muscle_factors(" X2 / x3.5 ") == (2.0, 3.5)
    assert _muscle_factors("x1/") is None
