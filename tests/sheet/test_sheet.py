"""The sheet and the combat card: what they show, that they are valid and self-contained pages,
that any text stays text, and what happens without Jinja2."""

from __future__ import annotations

import copy
import json
import re
import sys
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gurps_character import CharacterError, combat_stats, import_gcs, load_character
from gurps_character.sheet import render_card, render_sheet
from gurps_character.sheet._render import _environment
from gurps_character.sheet._text import clean
from tests.support.paths import EXAMPLES, FIXTURES
from tests.support.sheet_html import read_sheet
from tests.support.sheet_stress import HOSTILE_NAMES, hidden_names_document
from tests.support.sheets import SECTIONS

pytest.importorskip("jinja2", reason="the sheet extra (Jinja2) is not installed")
html5lib = pytest.importorskip("html5lib", reason="html5lib (the test extra) is not installed")


def _example(name: str) -> dict[str, Any]:
    return dict(load_character(EXAMPLES / name).character)


def _rurik() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / "rurik.json").read_text(encoding="utf-8"))
    return document


def _html5(page: str) -> Any:
    """The page parsed by a WHATWG parser that fails on the first parse error."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(page)


def _self_contained(page: str) -> None:
    assert "<script" not in page.lower()
    assert "@import" not in page
    assert "url(" not in page
    for value in re.findall(r'\s(?:src|href|xlink:href)\s*=\s*"([^"]*)"', page):
        assert not value.lower().startswith(("http", "//", "javascript:")), value


@pytest.mark.parametrize("name", ["rurik.json", "jotun.json", "odile.yaml"])
def test_the_examples_sheets_are_valid_self_contained_pages_with_every_section(name: str) -> None:
    page = render_sheet(_example(name))
    _html5(page)
    _self_contained(page)
    sections = read_sheet(page).sections
    assert [section for section in SECTIONS if section not in sections] == []
    assert "@page" in page and "break-inside: avoid" in page


def test_a_sheet_shows_the_numbers_of_the_library() -> None:
    page = read_sheet(render_sheet(_rurik()))
    assert page.row("attributes", data_key="dx").cell("c-value") == "12"
    assert page.row("attributes", data_key="dx").cell("c-points") == "40"
    assert page.row("secondary", data_key="basicLift").cell("c-value") == "12 kg"
    assert page.texts["hp-pool"].startswith("HP 11 / 13 Wounded")
    assert page.texts["fp-pool"].startswith("FP 9 / 12 Tiring")
    # She carries 27 kg: Medium, marked as the current level.
    assert page.row("encumbrance", data_level="2").attributes.get("class") == "current"
    assert [row.attributes.get("class") for row in page.rows_of("encumbrance")].count("current") == 1
    assert page.row("defenses", data_key="dodge").cell("c-value") == "9"
    assert page.row("defenses", data_key="move").cell("c-value") == "6"
    broadsword = page.row("melee", data_index="0")
    assert broadsword.cell("c-damage") == "1d+2 cut 1d cr"  # sw+1 and thr+1 for swing 1d+1, thrust 1d-1
    level, parry, reach = (broadsword.cell(name) for name in ("c-level", "c-parry", "c-reach"))
    assert (level, parry, reach) == ("14", "10", "1")
    bow = page.row("ranged", data_index="0")
    assert (bow.cell("c-damage"), bow.cell("c-level"), bow.cell("c-range")) == ("1d+1 imp", "13", "x15/x20")
    skull = next(row for row in page.rows_of("dr") if row.cell("c-name") == "Skull")
    assert skull.cell("c-dr") == "6"  # the pot helm's 4 and the skull's own 2 (B399)
    vitals = next(row for row in page.rows_of("dr") if row.cell("c-name") == "Vitals")
    assert vitals.cell("c-dr") == "2"  # the torso's jerkin covers the vitals (B398)


def test_a_gcs_import_shows_its_body_techniques_and_import_notes() -> None:
    imported = import_gcs((FIXTURES / "gcs" / "v5_fighter.gcs").read_bytes())
    page = read_sheet(render_sheet(imported.document, import_notes=imported.notes))
    assert "techniques" in page.sections and "integrity" in page.sections
    assert [row.cell("c-name") for row in page.rows_of("techniques")] == ["Feint (Broadsword)"]
    wing = [row for row in page.rows_of("dr") if row.cell("c-name") == "Wing"]
    assert wing and wing[0].cell("c-dr") == "1"
    torso = next(row for row in page.rows_of("dr") if row.cell("c-name") == "Torso")
    assert (torso.cell("c-dr"), torso.cell("c-extra")) == ("3", "4 vs crushing")
    sources = [row.cell("c-name") for row in page.rows_of("integrity")]
    assert "/skills" in sources


def test_spells_have_their_own_table() -> None:
    imported = import_gcs((FIXTURES / "gcs" / "v4_wizard.gcs").read_bytes())
    page = read_sheet(render_sheet(imported.document))
    assert page.rows_of("spells")
    assert not {row.cell("c-name") for row in page.rows_of("spells")} & {
        row.cell("c-name") for row in page.rows_of("skills")
    }


def test_the_document_is_never_modified() -> None:
    document = hidden_names_document()
    before = copy.deepcopy(document)
    render_sheet(document)
    render_card(document)
    render_card(document, format="svg")
    assert document == before


def test_the_card_shows_the_moment() -> None:
    card = render_card(_rurik())
    _html5(card)
    _self_contained(card)
    page = read_sheet(card)
    assert page.texts["card-hp"] == "HP 11/13 Wounded"
    assert page.texts["card-move"] == "Move 3"  # Medium encumbrance: 27 kg carried
    assert page.texts["card-dodge"] == "Dodge 7"
    assert page.texts["card-parry"] == "Parry 10"
    assert page.texts["card-block"] == "Block 9"
    attacks = [[cell.text for cell in row.cells] for row in page.rows if row.cells]
    assert attacks[0] == ["Broadsword", "14", "1d+2 cut, 1d cr", "10", "No"]
    assert "Skull 6" in page.texts["card-dr"]


def test_the_card_halves_move_and_dodge_while_reeling() -> None:
    document = _rurik()
    document["secondary"]["hp"]["current"] = 3
    page = read_sheet(render_card(document))
    assert page.texts["card-hp"] == "HP 3/13 Reeling"
    assert (page.texts["card-move"], page.texts["card-dodge"]) == ("Move 2", "Dodge 4")


def test_the_svg_card_is_a_standalone_image() -> None:
    svg = render_card(_rurik(), format="svg")
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert int(root.attrib["height"]) > 200
    texts = ["".join(node.itertext()) for node in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "HP 11/13 Wounded" in texts
    assert "1d+2 cut, 1d cr" in texts
    _self_contained(svg)


def test_an_unknown_card_format_is_refused() -> None:
    with pytest.raises(CharacterError) as caught:
        render_card(_rurik(), format="png")  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.message) == (
        "invalidArgument",
        "format must be 'html' or 'svg', not 'png'.",
    )


def test_an_invalid_document_is_refused() -> None:
    document = _rurik()
    del document["attributes"]
    with pytest.raises(CharacterError) as caught:
        render_sheet(document)
    assert caught.value.code == "schema"
    with pytest.raises(CharacterError) as caught:
        render_card([])  # type: ignore[arg-type]
    assert caught.value.code == "notAnObject"


def test_the_notebook_shows_the_card() -> None:
    fragment = combat_stats(_rurik())._repr_html_()
    assert fragment.startswith("<style>") and "<html" not in fragment
    assert "Tamsin Ashdown" in fragment and "HP <b>11/13</b>" in fragment
    _html5("<!DOCTYPE html><title>t</title>" + fragment)


def test_without_jinja2_rendering_asks_for_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jinja2", None)  # import jinja2 now fails
    with pytest.raises(CharacterError) as caught:
        render_sheet(_rurik())
    assert (caught.value.code, caught.value.message, caught.value.details) == (
        "missingExtra",
        'Rendering a sheet needs the optional Jinja2 library: pip install "gurps-character[sheet]"',
        {"extra": "sheet", "install": 'pip install "gurps-character[sheet]"'},
    )
    with pytest.raises(CharacterError):
        render_card(_rurik(), format="svg")
    document = hidden_names_document()
    shown = combat_stats(document)._repr_html_()
    assert shown.startswith("<pre>CombatStats(name=") and "&lt;script&gt;" in shown
    assert "<script>" not in shown


def test_the_environment_is_built_once() -> None:
    render_sheet(_rurik())
    assert _environment() is _environment()
    assert _environment().autoescape is True


def _texts_of(tree: Any) -> str:
    return "".join(tree.itertext())


def _shown(text: str) -> str:
    """How a parser reads a text back: what no page carries replaced, line breaks normalized."""
    cleaned = clean(text)
    assert isinstance(cleaned, str)
    return cleaned.replace("\r\n", "\n").replace("\r", "\n")


def test_the_hidden_name_stress_case_stays_text() -> None:
    document = hidden_names_document()
    page = render_sheet(document)
    tree = _html5(page)
    _self_contained(page)
    assert [element.tag for element in tree.iter() if element.tag in ("script", "img", "iframe")] == []
    shown = _texts_of(tree)
    for name in HOSTILE_NAMES:
        assert _shown(name) in shown
    for fmt in ("html", "svg"):
        card = render_card(document, format=fmt)
        card_tree = ET.fromstring(card) if fmt == "svg" else _html5(card)
        assert _shown(document["profile"]["name"]) in _texts_of(card_tree)


_TEXT = st.one_of(
    st.sampled_from(HOSTILE_NAMES),
    st.text(min_size=1, max_size=30),
    st.text(st.characters(codec=None, exclude_categories=()), min_size=1, max_size=30),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=_TEXT, note=_TEXT, skill=_TEXT, trait=_TEXT)
def test_any_text_stays_text_in_the_sheet_and_both_cards(
    name: str, note: str, skill: str, trait: str
) -> None:
    document = _rurik()
    document["profile"]["name"] = name
    document["notes"] = [note]
    document["skills"][3]["name"] = skill
    document["skills"][3]["notes"] = note
    document["traits"][0]["name"] = trait
    page = _html5(render_sheet(document))
    assert [element.tag for element in page.iter() if element.tag == "script"] == []
    assert page.find(".//h1") is not None and _texts_of(page.find(".//h1")) == _shown(name)
    notes = page.find(".//ol[@class='notes']/li")
    assert notes is not None and _texts_of(notes) == _shown(note)
    card = _html5(render_card(document))
    assert _shown(name) in _texts_of(card)
    svg = ET.fromstring(render_card(document, format="svg"))
    title = svg.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == _shown(name) + " — combat card"


def test_every_gcs_fixture_renders() -> None:
    for path in sorted((FIXTURES / "gcs").rglob("*.gcs")):
        imported = import_gcs(path.read_bytes())
        _html5(render_sheet(imported.document, import_notes=imported.notes))
        ET.fromstring(render_card(imported.document, format="svg"))
