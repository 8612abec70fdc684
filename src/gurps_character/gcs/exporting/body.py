"""The hit locations of an exported character: GCS's humanoid body text with the document's DR
on each location, and the ``dr_bonus`` features that give it (on the item or trait an entry
names, else among the sheet adjustments).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ...locations import DR_COVER
from ..format.json_text import RawJson
from ..format.standard_sheet import HUMANOID, humanoid_body_text
from .sheet import (
    LIMIT,
    SheetBase,
    text_of,
)

__all__ = ["BodyPart"]


_BODY_ORDER: Final = (
    "eye",
    "skull",
    "face",
    "neck",
    "torso",
    "vitals",
    "groin",
    "arm",
    "hand",
    "leg",
    "foot",
)
"""GCS's humanoid locations in the order its body table lists them (the DR entries that cover
each are :data:`~gurps_character.locations.DR_COVER`'s, as :func:`~gurps_character.resolve_hit`
reads them)."""
_BODY_COVER: Final = tuple((place_id, DR_COVER[place_id]) for place_id in _BODY_ORDER)
"""Each location in :data:`_BODY_ORDER` with the DR entries that cover it."""


class BodyPart(SheetBase):
    """The body's hit locations and their DR."""

    def _body(self) -> RawJson:
        entries = self.doc.get("damageResistance")  # a valid document's entries are objects
        if not entries:
            return _BARE_BODY
        by_id: dict[str, tuple[int, Mapping[str, Any]]] = {}
        for index, entry in enumerate(entries):
            ident = entry.get("locationId")
            if ident is None:
                self.note(
                    f"/damageResistance/{index}",
                    "notCarried",
                    f"The DR of '{text_of(entry.get('location'))[:60]}' is on no location of GCS's humanoid "
                    "body: "
                    "it is not in the file.",
                )
            elif ident in by_id:
                self.note(
                    f"/damageResistance/{index}",
                    "notCarried",
                    f"A second DR entry for '{ident}': the rules read the first, and so does the file.",
                )
            else:
                by_id[ident] = (index, entry)
        covered: dict[int, tuple[int, list[str]]] = {}
        """The entries that give a location DR: each one's DR and the locations it covers."""
        for place_id, covers in _BODY_COVER:
            for place in covers:
                found = by_id.get(place)
                if found is not None:
                    index, entry = found
                    dr = entry["dr"]
                    if type(dr) is not int or not -LIMIT <= dr <= LIMIT:
                        dr = int(self.bounded(dr, f"/damageResistance/{index}/dr", "DR"))
                    if dr:
                        held = covered.get(index)
                        if held is None:
                            covered[index] = (dr, [place_id])
                        else:
                            held[1].append(place_id)
                    break
        if not covered:
            return _BARE_BODY  # the body's text with every DR the location's own
        texts = list(_BODY_TEXTS)
        for index, (dr, places_covered) in covered.items():
            feature = {"type": "dr_bonus", "locations": places_covered, "amount": dr}
            label = entries[index].get("notes")
            label = label.strip() if label else ""
            holder = self.item_by_name.get(label) or self.trait_by_name.get(label) if label else None
            if holder is not None:
                holder["features"].append(feature)
            else:
                where = ", ".join(places_covered)
                self.adjust(feature, f"DR {dr} on {where}" + (f": {label}" if label else ""))
            for place_id in places_covered:
                for slot, own, after in _BODY_PLACE_SLOTS[place_id]:
                    texts[slot] = str(own + dr) + after
        return RawJson("".join(texts))  # humanoid_body_text of these DRs


def _body_parts() -> tuple[str, tuple[tuple[str, int, str], ...]]:
    """:func:`~..format.standard_sheet.humanoid_body_text` cut around its DRs: the text before the first,
    and each location's id, own DR and the text after its DR (joined, they cost less than a
    format of the whole text)."""
    marks = [_DR_MARK + index for index in range(len(HUMANOID))]
    rest = str(humanoid_body_text(marks))
    pieces = []
    for mark in marks:
        before, found, rest = rest.partition(str(mark))
        if not found or str(mark) in rest:
            raise AssertionError("every location's DR is in the body's text once")  # pragma: no cover
        pieces.append(before)
    slots = tuple(
        (ident, own, after) for (ident, *_, own), after in zip(HUMANOID, [*pieces[1:], rest], strict=True)
    )
    return pieces[0], slots


_DR_MARK: Final = 7_390_123_456_000
"""Numbers no body text has but in the places of its DRs."""
_BODY_HEAD, _BODY_SLOTS = _body_parts()
_BARE_BODY: Final = humanoid_body_text([own for *_, own in HUMANOID])
"""The body with no DR but the locations' own."""
_BODY_TEXTS: Final = (_BODY_HEAD, *(str(own) + after for _, own, after in _BODY_SLOTS))
"""The body's text in pieces: the text before the first DR, then each location's own DR with the
text after it (:data:`_BARE_BODY` joined); a location with armor gets its piece made again."""
_BODY_PLACE_SLOTS: Final = {
    place_id: tuple(
        (slot, own, after)
        for slot, (ident, own, after) in enumerate(_BODY_SLOTS, start=1)
        if ident == place_id
    )
    for place_id in _BODY_ORDER
}
"""Each location's pieces in :data:`_BODY_TEXTS` (an arm's and a leg's two, one per side), with
the location's own DR and the text after it."""
