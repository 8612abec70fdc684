"""GCS's node ids (TIDs): the node's kind letter and 16 URL-safe base64 characters (96 bits).

An export draws them from a generator seeded with the character, so that exporting the same
document twice gives the same file (GCS itself draws them at random; either way they are only
names for the nodes within one file).
"""

from __future__ import annotations

import base64
import hashlib
import random
from typing import Final

__all__ = ["KINDS", "TidMaker"]

KINDS: Final = {
    "entity": "A",
    "trait": "t",
    "trait_container": "T",
    "trait_modifier": "m",
    "skill": "s",
    "equipment": "e",
    "note": "n",
    "melee_weapon": "w",
    "ranged_weapon": "W",
}
"""The kind letters of the nodes an export writes (GCS's ``model/kinds``)."""


_BATCH: Final = 64
"""TIDs drawn at once: 12 random bytes are 16 base64 characters exactly, so one encoding of 64
times 12 bytes gives 64 TIDs' characters (and the bytes of two draws are those of one draw of
both: the generator gives 4 bytes at a time, and 12 is a multiple of 4)."""

_DRAWN_LENGTH: Final = 16 * _BATCH


class TidMaker:
    """Fresh TIDs for one file, never the same twice."""

    def __init__(self, seed: str) -> None:
        digest = hashlib.sha256(seed.encode("utf-8", "surrogatepass")).digest()
        self._random = random.Random(int.from_bytes(digest, "big"))
        self._given: set[str] = set()
        self._drawn = ""
        """The characters of the TIDs drawn last, 16 to a TID."""
        self._next = _DRAWN_LENGTH
        """Where the next TID's characters start in :attr:`_drawn` (at its end: draw again)."""

    def new(self, kind: str) -> str:
        """A TID for a node of ``kind`` (a key of :data:`KINDS`)."""
        letter = KINDS[kind]
        start = self._next
        if start != _DRAWN_LENGTH:  # the usual TID: its characters drawn already, and it is new
            self._next = start + 16
            tid = letter + self._drawn[start : start + 16]
            if tid not in self._given:
                self._given.add(tid)
                return tid
        return self._drawn_tid(letter)

    def _drawn_tid(self, letter: str) -> str:
        """The next new TID with ``letter``, drawing again where the drawn characters end."""
        given = self._given
        while True:
            start = self._next
            if start == _DRAWN_LENGTH:
                self._drawn = base64.urlsafe_b64encode(self._random.randbytes(12 * _BATCH)).decode("ascii")
                start = 0
            self._next = start + 16
            tid = letter + self._drawn[start : start + 16]
            if tid not in given:
                given.add(tid)
                return tid
