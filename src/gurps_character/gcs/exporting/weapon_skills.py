"""Which of the document's skills a weapon is used with: the skills indexed once by name, by the
letters of a weapon's notes and by the words of its name, so that finding every weapon's skill
costs the skills' text plus the weapons', not their product.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from ..._phrases import PhraseIndex

__all__: list[str] = []


_NOT_WORD: Final = re.compile(r"[^a-z0-9]+")
_WORD: Final = re.compile(r"[a-z0-9]+")
"""The words :data:`_NOT_WORD` leaves."""
_ASCII_WORD_CHARACTERS: Final = "".join(
    character if character.isascii() and (character.isdigit() or character.islower()) else " "
    for character in map(chr, range(128))
)
"""The ASCII characters as :data:`_NOT_WORD` leaves them (by code): letters a-z and digits, all
others a space (a table for ``str.translate``)."""


_LAST_PARENTHESES: Final = re.compile(r"\s*\([^()]*\)\s*$")


class _SkillFinder:
    """The document's skills by lower-case name (the first of each), indexed for a weapon's:
    by its whole name, by the letters of its notes and by the words of its name. Each weapon is
    read once, so the weapons' skills cost the skills' text plus the weapons', not their
    product."""

    __slots__ = ("_by_name", "_in_notes", "_in_words", "_order", "_wordless")

    def __init__(self, names: Iterable[str]) -> None:
        by_name: dict[str, str] = {}
        for key in names:
            if key:
                by_name.setdefault(key.lower(), key)
        self._by_name = by_name
        self._order = {key: place for place, key in enumerate(by_name.values())}
        self._in_notes: PhraseIndex[str] | None = None  # (made for the first notes read)
        self._in_words = PhraseIndex((_WORD.findall(low), (len(key),), key) for low, key in by_name.items())
        wordless = [key for low, key in by_name.items() if not _WORD.search(low)]
        self._wordless = max(wordless, key=len) if wordless else None

    def named(self, name: str) -> str | None:
        """The skill named as the weapon (``name``, stripped), or as it without a last
        parenthesized part."""
        found = self._by_name.get(name.lower())
        if found is None and ")" in name:  # else the name has no parenthesized part to leave out
            found = self._by_name.get(_LAST_PARENTHESES.sub("", name).lower())
        return found

    def in_notes(self, notes: str) -> str | None:
        """The longest skill (the first of those as long) whose lower-case name is in
        ``notes`` (lower-case): letter for letter, not only as words."""
        index = self._in_notes
        if index is None:
            by_name = self._by_name
            index = self._in_notes = PhraseIndex((low, (len(key),), key) for low, key in by_name.items())
        return index.best_in(notes)

    def in_words(self, lowered: str) -> str | None:
        """The longest skill (the first of those as long) whose name's words are words of a
        weapon's lower-case name, in order (words: runs of ``a-z`` and ``0-9``). A skill of no
        such word is in a name spaced as :func:`_spaced_words` spaces it wherever the spaced
        name has two spaces running (a name that starts or ends with no word character)."""
        found = self._in_words.best_in(_WORD.findall(lowered))
        wordless = self._wordless
        if wordless is None or "  " not in f" {_NOT_WORD.sub(' ', lowered)} ":
            return found
        if found is None or (len(wordless), -self._order[wordless]) > (len(found), -self._order[found]):
            return wordless
        return found


def _spaced_words(lowered: str) -> str:
    """A lower-case name as its words (letters and digits), one space around each."""
    if lowered.isascii():
        if lowered.isalnum():  # one word already (most skills)
            return f" {lowered} "
        return f" {' '.join(lowered.translate(_ASCII_WORD_CHARACTERS).split())} "
    return f" {_NOT_WORD.sub(' ', lowered).strip()} "
