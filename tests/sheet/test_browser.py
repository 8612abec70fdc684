"""The sheets in a real browser: headless Chromium (Debian's package), driven over the DevTools
protocol (tests/support/chromium.py), lays out the sheets of the bundled examples, a GCS import
and the hidden-name stress case at the widths of A4 and Letter, on screen and in print, and
prints them to PDF.

Checked: no element reaches past the page or out of its own box, every section is there, and the
PDF has the pages expected (pinned: a change in layout that adds a page shows here). Skipped
where no Chromium is installed. One browser serves the whole file (about 6 s on one free core).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from gurps_character import import_gcs, load_character
from gurps_character.sheet import render_card, render_sheet
from tests.support.chromium import A4, LETTER, Chromium, Paper, chromium_path, page_count, started
from tests.support.paths import EXAMPLES, FIXTURES, SHARED
from tests.support.sheet_stress import hidden_names_document
from tests.support.sheets import SECTIONS

pytest.importorskip("jinja2", reason="the sheet extra (Jinja2) is not installed")
_CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(_CHROMIUM is None, reason="no Chromium installed (apt install chromium)")

_OVERFLOW: Final = """(() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  const name = (e) =>
    e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : '');
  for (const e of document.querySelectorAll('body *')) {
    const box = e.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.left < -0.5 || box.right > width + 0.5)
      found.push(name(e) + ' spans ' + box.left + '..' + box.right);
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== 'inline')
      found.push(name(e) + ' holds ' + e.scrollWidth + 'px in ' + e.clientWidth + 'px');
  }
  const page = document.documentElement.scrollWidth;
  if (page > width) found.push('page ' + page);
  return found.slice(0, 10);
})()"""


def _gcs() -> dict[str, Any]:
    return import_gcs((FIXTURES / "gcs" / "v5_fighter.gcs").read_bytes()).document


def _example(name: str) -> Callable[[], dict[str, Any]]:
    return lambda: dict(load_character(EXAMPLES / name).character)


_DOCUMENTS: Final[dict[str, Callable[[], dict[str, Any]]]] = {
    "rurik": _example("rurik.json"),
    "jotun": _example("jotun.json"),
    "odile": _example("odile.yaml"),
    "gcs-fighter": _gcs,
    "hidden-names": hidden_names_document,
}
_PAGES: Final = {
    ("rurik", "A4"): 4,
    ("rurik", "Letter"): 4,
    ("jotun", "A4"): 4,
    ("jotun", "Letter"): 4,
    ("odile", "A4"): 3,
    ("odile", "Letter"): 4,
    ("gcs-fighter", "A4"): 3,
    ("gcs-fighter", "Letter"): 4,
    ("hidden-names", "A4"): 6,
    ("hidden-names", "Letter"): 6,
}
"""The pages each sheet prints on, measured with Debian's Chromium and fonts."""
_REFERENCE: Final = [
    path for path in sorted((SHARED / "reference").glob("*.json")) if not path.name.endswith(".schema.json")
]
"""The reference library's example characters (its schema files aside), where ../shared is beside."""
_REFERENCE_PAGES: Final = {
    ("jotun", "A4"): 3,
    ("jotun", "Letter"): 3,
    ("rurik", "A4"): 3,
    ("rurik", "Letter"): 3,
}
"""The pages the reference's characters print on (Debian's Chromium and fonts)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    assert _CHROMIUM is not None
    with started(_CHROMIUM) as chromium:
        yield chromium


def _laid_out(browser: Chromium, page: Path, paper: Paper) -> None:
    for media in ("screen", "print"):
        browser.open(page, width=paper.css_pixels(printable=media == "print"), media=media)
        assert browser.evaluate(_OVERFLOW) == [], (page.name, paper.name, media)


def _missing_sections(browser: Chromium) -> Any:
    """The sections the open page lacks, by id."""
    return browser.evaluate(f"{json.dumps(SECTIONS)}.filter((id) => !document.getElementById(id))")


@pytest.mark.parametrize("name", list(_DOCUMENTS))
def test_the_sheet_fits_the_page_and_prints(name: str, browser: Chromium, tmp_path: Path) -> None:
    page = tmp_path / f"{name}.html"
    page.write_text(render_sheet(_DOCUMENTS[name]()), encoding="utf-8")
    for paper in (A4, LETTER):
        _laid_out(browser, page, paper)
        missing = _missing_sections(browser)
        assert missing == [], (name, paper.name)
        pdf = browser.pdf(paper)
        assert pdf.startswith(b"%PDF-")
        assert page_count(pdf) == _PAGES[name, paper.name], (name, paper.name)


@pytest.mark.parametrize("name", ["rurik", "hidden-names"])
def test_the_card_fits_a_narrow_window(name: str, browser: Chromium, tmp_path: Path) -> None:
    page = tmp_path / f"{name}.card.html"
    page.write_text(render_card(_DOCUMENTS[name]()), encoding="utf-8")
    browser.open(page, width=360)
    assert browser.evaluate(_OVERFLOW) == []
    svg = tmp_path / f"{name}.card.svg"
    svg.write_text(render_card(_DOCUMENTS[name](), format="svg"), encoding="utf-8")
    browser.open(svg, width=600)
    # The browser read the file as an SVG image (an XML error would show a parser error page).
    assert browser.evaluate("document.documentElement.namespaceURI") == "http://www.w3.org/2000/svg"
    assert browser.evaluate("document.getElementsByTagName('parsererror').length") == 0


@pytest.mark.skipif(
    not _REFERENCE, reason="the reference's characters (../shared/reference) are not beside this clone"
)
@pytest.mark.parametrize("path", _REFERENCE, ids=[path.stem for path in _REFERENCE])
def test_the_reference_characters_sheets_fit_and_print(path: Path, browser: Chromium, tmp_path: Path) -> None:
    page = tmp_path / f"{path.stem}.html"
    page.write_text(render_sheet(load_character(path).character), encoding="utf-8")
    for paper in (A4, LETTER):
        _laid_out(browser, page, paper)
        missing = _missing_sections(browser)
        assert missing == [], (path.name, paper.name)
        assert page_count(browser.pdf(paper)) == _REFERENCE_PAGES[path.stem, paper.name], (
            path.name,
            paper.name,
        )
