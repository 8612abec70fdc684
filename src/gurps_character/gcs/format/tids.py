"""GCS's node ids (TIDs): the node's kind letter and 16 URL-safe base64 characters.

GCS draws the 16 characters at random; they are only names for the nodes within one file. An
export makes them from the character instead, so that exporting the same document twice gives the
same file: 12 characters of a hash of the character (its name and creation time), the same for
every node of the file, then 4 that count the nodes made. Counting makes every TID of a file new
without remembering the ones given, and two characters' files share no TID but by a hash collision
(72 bits).
"""

from __future__ import annotations

import base64
import hashlib
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

DIGITS: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
"""The URL-safe base64 alphabet, each character's place its value."""

COUNTED: Final = 64**4
"""The TIDs counted under one prefix (4 characters of the count)."""


class TidMaker:
    """Fresh TIDs for one file, never the same twice."""

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode("utf-8", "surrogatepass")
        self._prefix = _prefix(self._seed + b"\x000")
        self._count = 0
        """The TIDs made under :attr:`_prefix`."""
        self._prefixes: set[str] | None = None
        """The prefixes given out, once a second one is needed (after :data:`COUNTED` TIDs)."""

    def new(self, kind: str) -> str:
        """A TID for a node of ``kind`` (a key of :data:`KINDS`)."""
        count = self._count
        if count == COUNTED:  # not met by any document within the format's limits
            self._prefix = self._next_prefix()
            count = 0
        self._count = count + 1
        digits = DIGITS
        return (
            KINDS[kind]
            + self._prefix
            + digits[count >> 18]
            + digits[count >> 12 & 63]
            + digits[count >> 6 & 63]
            + digits[count & 63]
        )

    def _next_prefix(self) -> str:
        """The prefix of the hash of the seed and the next number, one not given before."""
        given = self._prefixes
        if given is None:
            given = self._prefixes = {self._prefix}
        number = len(given)
        while True:
            prefix = _prefix(self._seed + b"\x00%d" % number)
            if prefix not in given:
                given.add(prefix)
                return prefix
            number += 1


def _prefix(text: bytes) -> str:
    """12 URL-safe base64 characters of the hash of ``text`` (72 bits)."""
    return base64.urlsafe_b64encode(hashlib.sha256(text).digest()[:9]).decode("ascii")
