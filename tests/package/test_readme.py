"""The README is the front door: short, with a combat engine's and a bot's example, and links into
the guides that resolve. Its examples run, with their output checked, and type-check under
``mypy --strict`` in ``tests/docs`` (as every page's do); what this file checked of them before
the guides existed is checked there now, as doctests on the pages the examples moved to
(``docs/guides/getting-started.md``, ``docs/guides/bots.md``)."""

from __future__ import annotations

import re

from tests.support.paths import REPOSITORY

README = REPOSITORY / "README.md"
GUIDES = REPOSITORY / "docs" / "guides"
MAX_LINES = 200
"""Issue 32: a page a person reads to the end."""


def _text() -> str:
    return README.read_text(encoding="utf-8")


def _section(title: str) -> str:
    text = _text()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _relative_links(text: str) -> list[str]:
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    return [target for target in targets if not re.match(r"[a-z]+:", target)]


def test_the_readme_is_short() -> None:
    assert len(_text().splitlines()) <= MAX_LINES


def test_the_readme_shows_a_combat_engine_and_a_bot() -> None:
    engine, bot = _section("A combat engine"), _section("A bot")
    assert "```python" in engine and "```python" in bot
    # the example that once failed to type-check (``apply_damage`` returned a plain dict) stays shown
    assert "character = apply_damage(character, 7)" in engine
    assert "load_character(" in bot and "CharacterError" in bot


def test_the_readme_links_resolve() -> None:
    links = _relative_links(_text())
    assert "docs/guides/getting-started.md" in links
    missing = [link for link in links if not (REPOSITORY / link.split("#")[0]).is_file()]
    assert missing == []


def test_the_guides_links_to_pages_resolve() -> None:
    """Every relative link of a guide names a page that exists (the site and GitHub both resolve
    them as files), so a page moved or renamed fails here, not in a reader's browser."""
    broken: list[str] = []
    for page in sorted(GUIDES.glob("*.md")):
        for link in _relative_links(page.read_text(encoding="utf-8")):
            path = link.split("#")[0]
            if path and path.endswith(".md") and not (page.parent / path).resolve().is_file():
                broken.append(f"{page.name}: {link}")
    assert broken == []


def test_the_readme_mentions_the_headline_figures() -> None:
    text = _text()
    assert "2036/2036" in text  # the conformance score
    assert "2,000,000" in text  # the document size limit
    assert re.search(r"`parse_character`[^|]*\d\.\d×", text)  # a benchmark ratio
