"""YAML 1.2's view of a text: which characters break lines, which are allowed where, and where an
index stands.

ruamel.yaml's scanner reads characters as YAML 1.1 did, in two ways that YAML 1.2 changed so
that every JSON text is YAML:

* YAML 1.2 breaks lines at line feed, carriage return, or both together, and nowhere else:
  U+0085 (next line), U+2028 (line separator) and U+2029 (paragraph separator) are ordinary
  characters (``JSON.stringify`` writes them raw inside strings). ruamel.yaml breaks lines at
  them: it would fold them out of quoted text, end a comment or a plain scalar at them, or call a
  valid file invalid.
* YAML 1.2 allows every character but the C0 controls inside quoted scalars, as JSON does inside
  strings: DEL, the C1 controls and the noncharacters U+FFFE and U+FFFF too (outside quoted
  scalars they stay forbidden). ruamel.yaml refuses them anywhere.

So :class:`YamlText` hands ruamel.yaml a copy of the text in which each such character is
replaced by a stand-in, a character of the same length that the scanner takes as an ordinary
one, and turns the stand-ins back into the originals in everything read from that copy
(:meth:`YamlText.restore`). Where a character of the second kind stands outside quoted text,
the reader refuses it (:meth:`YamlText.quoted_only`).

A stand-in must not be mistaken for text of the file: it is a supplementary-plane character that
the text holds neither raw nor as a ``\\U`` escape (the only escape that can write it). Positions
(:meth:`YamlText.position`) are computed here from the index of a character, for every error,
whatever the line ends: ``\\n``, ``\\r\\n`` and a lone ``\\r`` each end one line.
"""

from __future__ import annotations

import bisect
import re
from typing import Final

__all__ = [
    "OLD_LINE_BREAKS",
    "QUOTED_ONLY",
    "StandInsExhaustedError",
    "YamlText",
    "line_and_column",
    "line_starts",
]

OLD_LINE_BREAKS: Final = "\x85\u2028\u2029"
"""Line breaks of YAML 1.1 that YAML 1.2 reads as ordinary characters."""

QUOTED_ONLY: Final = re.compile("[\x7f-\x84\x86-\x9f\ufffe\uffff]")
"""Characters YAML 1.2 allows inside quoted scalars only (JSON allows them inside strings)."""

_READ_DIFFERENTLY: Final = re.compile(f"[{OLD_LINE_BREAKS}]|{QUOTED_ONLY.pattern}")
_LINE_BREAK: Final = re.compile(r"\r\n?|\n")
_SUPPLEMENTARY: Final = re.compile("[\U00010000-\U0010ffff]")
_LONG_ESCAPE: Final = re.compile(r"\\U([0-9A-Fa-f]{8})")
_FIRST_CANDIDATE: Final = 0xF0000  # Supplementary Private Use Area-A, then on round the planes
_CANDIDATES: Final = 0x110000 - 0x10000


class StandInsExhaustedError(ValueError):
    """The text uses every character that could stand in for those ruamel.yaml reads otherwise
    (it would need to be megabytes of distinct supplementary-plane characters); ``index`` is the
    first character that needed one."""

    def __init__(self, index: int) -> None:
        self.index = index
        super().__init__(
            "the text uses every character that could stand in for the ones YAML 1.1 reads otherwise"
        )


def _stand_ins(text: str, count: int) -> str | None:
    """``count`` stand-ins: supplementary-plane characters that occur in ``text`` neither raw nor
    written as a ``\\U`` escape."""
    taken = {ord(char) for char in set(_SUPPLEMENTARY.findall(text))}
    taken.update(int(digits, 16) for digits in _LONG_ESCAPE.findall(text))
    chosen: list[str] = []
    for step in range(_CANDIDATES):
        code = 0x10000 + (_FIRST_CANDIDATE - 0x10000 + step) % _CANDIDATES
        if code not in taken:
            chosen.append(chr(code))
            if len(chosen) == count:
                return "".join(chosen)
    return None


class YamlText:
    """A YAML text as the parser reads it (:attr:`parsed`), and the way back to the original."""

    __slots__ = ("_back", "_line_starts", "_messages", "_quoted_only", "original", "parsed")

    def __init__(self, text: str) -> None:
        self.original = text
        self._back: dict[int, str] | None = None
        self._messages: tuple[tuple[str, str], ...] = ()
        self._line_starts: list[int] | None = None
        self._quoted_only = False
        wanted = "".join(sorted(set(_READ_DIFFERENTLY.findall(text))))
        if not wanted:
            self.parsed = text
            return
        stand_ins = _stand_ins(text, len(wanted))
        if stand_ins is None:
            first = _READ_DIFFERENTLY.search(text)
            raise StandInsExhaustedError(first.start() if first is not None else 0)
        self._quoted_only = QUOTED_ONLY.search(wanted) is not None
        self.parsed = text.translate(str.maketrans(wanted, stand_ins))
        self._back = {ord(stand_in): original for stand_in, original in zip(stand_ins, wanted, strict=True)}
        # The scanner's messages quote characters with repr(): '\U000f0000' for a stand-in.
        self._messages = tuple(
            (repr(stand_in)[1:-1], repr(original)[1:-1])
            for stand_in, original in zip(stand_ins, wanted, strict=True)
        )

    def restore(self, value: str) -> str:
        """``value``, read from :attr:`parsed`, with the original characters back."""
        return value if self._back is None else value.translate(self._back)

    def restore_message(self, message: str) -> str:
        """A parser's message about :attr:`parsed` as it reads about the original text."""
        if self._back is None:
            return message
        for written, original in self._messages:
            message = message.replace(written, original)
        return message.translate(self._back)

    def quoted_only(self, start: int, end: int) -> int | None:
        """The index of the first character between ``start`` and ``end`` that YAML allows only
        inside quoted text (:data:`QUOTED_ONLY`), if any; the caller knows that the range is not."""
        if not self._quoted_only or start >= end:
            return None
        found = QUOTED_ONLY.search(self.original, start, end)
        return None if found is None else found.start()

    def position(self, index: int) -> tuple[int, int]:
        """The 1-based line and column of the character at ``index``.

        Columns count characters (a byte order mark that opens the text excepted); the line feed
        of a ``\\r\\n`` pair stands where its carriage return does, so a position is the same
        whatever the line ends.
        """
        if self._line_starts is None:
            self._line_starts = line_starts(self.original)
        return line_and_column(self.original, index, self._line_starts)


def line_starts(text: str) -> list[int]:
    """The index at which each line of ``text`` starts."""
    return [0, *(match.end() for match in _LINE_BREAK.finditer(text))]


def line_and_column(text: str, index: int, starts: list[int] | None = None) -> tuple[int, int]:
    """The 1-based line and column of the character at ``index`` (see :meth:`YamlText.position`);
    ``starts``: :func:`line_starts` of the text, when it is asked more than once."""
    index = max(0, min(index, len(text)))
    if 0 < index < len(text) and text[index] == "\n" and text[index - 1] == "\r":
        index -= 1
    if starts is None:
        starts = line_starts(text[:index])
    line = bisect.bisect_right(starts, index)
    start = starts[line - 1]
    column = index - start + 1
    if start == 0 and index > 0 and text.startswith("\ufeff"):
        column -= 1
    return line, column
