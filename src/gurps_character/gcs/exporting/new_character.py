"""Any character as a new GCS file: the document's numbers as GCS's own rules give them.

GCS computes a character from what it is built of: attribute levels bought, traits and their
features, skill points, equipment. The export writes the document's parts that way (attributes
as levels bought, skills with their difficulty and points, weapons on their items) and, where the
document's stored numbers depart from what those parts give by GCS's rules (its deviations: a
Dodge of 12 where Basic Speed gives 9, a skill above its points, a racial ST bonus), adds the GCS
feature that makes GCS show the same number, on the trait or item the document names, or on one
trait, "Sheet adjustments", that lists them all. What no feature can reach is noted (``differs``).

Every ``calc`` block is filled as GCS fills it when it saves (other tools read them), with the
values GCS's rules give for the file written: the same rules the importer applies to files saved
without them, so importing the file gives the same numbers with or without the blocks.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ..format.standard_sheet import SHEET_DISPLAY, attribute_definitions_text
from .body import BodyPart
from .defenses import DefensesPart
from .equipment import EquipmentPart
from .notes import NoteList
from .profile import ProfilePart
from .sheet import ADJUSTMENTS, TOP_CALC_KEYS, Derived, reordered
from .skills import SkillsPart
from .stats import StatsPart
from .traits import TraitsPart
from .weapon_calc import WeaponCalcPart

__all__ = ["ADJUSTMENTS", "build_character"]


def build_character(document: Mapping[str, Any], now: datetime) -> tuple[dict[str, Any], NoteList]:
    """The GCS data of a new character for a valid document, and the notes.

    Its traits, skills and items are as the export built them, with the empty lists GCS leaves
    out: :func:`~.text.character_text` makes each what GCS writes
    (:func:`~.sheet.finished`) and writes the file."""
    sheet = _Sheet(document, now)
    return sheet.build(), sheet.notes


class _Sheet(
    StatsPart, WeaponCalcPart, DefensesPart, TraitsPart, EquipmentPart, SkillsPart, BodyPart, ProfilePart
):
    """The parts of an export, assembled."""

    def build(self) -> dict[str, Any]:
        doc = self.doc
        names = self.skill_names = []
        for index, skill in enumerate(doc.get("skills", [])):
            raw = skill["name"]
            if type(raw) is str and raw.strip() == raw:  # the usual name: nothing to note
                names.append(raw)
            else:
                names.append(self.name(raw, f"/skills/{index}/name", "skill"))
        self._read_values()
        self._traits()
        self._equipment()
        self._weapons()
        self._skills()
        derived = Derived()
        self._damage_table(derived)
        attributes = self._attributes(derived.progression)
        self._derived(derived)
        self._weapon_details(derived)
        self._defense("parry", derived)
        self._defense("block", derived)
        body = self._body()
        self._reactions()
        total = self._points(attributes)
        self._finish_adjustments()
        ident = self.ids.new("entity")
        now_text = _gcs_date(self.now)
        data: dict[str, Any] = {
            "version": 5,
            "id": ident,
            "total_points": total,
            "points_record": [{"when": now_text, "points": total, "reason": "Exported from gurps-character"}],
            "profile": self._profile(),
            "settings": {
                "attributes": attribute_definitions_text(),
                "body_type": body,
                "damage_progression": derived.progression,
                "default_length_units": "ft_in",
                "default_weight_units": "lb",
                **SHEET_DISPLAY,
            },
            "attributes": attributes,
        }
        # the lists GCS leaves out when empty (the file's other values never are)
        if self.traits:
            data["traits"] = self.traits
        if self.skills:
            data["skills"] = self.skills
        if self.equipment:
            data["equipment"] = self.equipment
        notes = self._notes()
        if notes:
            data["notes"] = notes
        meta = doc.get("meta", {})
        created = data["created_date"] = _document_date(meta.get("createdAt")) or now_text
        data["modified_date"] = _document_date(meta.get("updatedAt")) or created
        data["calc"] = reordered(derived.calc, TOP_CALC_KEYS)
        self._not_carried()
        return data

    def _finish_adjustments(self) -> None:
        adjustments = self.adjustments
        if adjustments is None:
            return
        lines = self.adjustment_lines
        adjustments["local_notes"] = (  # its place among the trait's keys kept since it was made
            "What GCS computes from the rest of this sheet departs from the sheet this character was "
            "exported from (gurps-character); these features make GCS show the sheet's numbers:\n"
            + ("- " + "\n- ".join(lines) if lines else "")
        )
        self.adjustments = None


def _gcs_date(moment: datetime) -> str:
    """A time as GCS writes dates (RFC 3339 to the second; UTC as ``Z``)."""
    instant = moment.astimezone(UTC)
    return f"{_date_and_time(instant)}Z"


def _document_date(value: object) -> str | None:
    """The document's date-time as GCS writes dates (no fraction of a second)."""
    if not isinstance(value, str):
        return None
    size = len(value)
    if (size == 20 or (size == 24 and value[19] == "." and value[20:23].isdigit())) and value[-1] == "Z":
        # UTC to the second or millisecond, as the library writes dates: written as it is when it
        # is a date and time of that shape (the fields in their places)
        shape = value[4] + value[7] + value[10] + value[13] + value[16]
        if shape == "--T::" and value.isascii():
            try:
                datetime.fromisoformat(value[:-1])
            except ValueError:
                return None
            return value[:19] + "Z"
    return _parsed_date(value)


def _parsed_date(value: str) -> str | None:
    """:func:`_document_date` of any text: the date-time read, then written as GCS writes it."""
    try:
        moment = datetime.fromisoformat(value.replace("z", "Z").replace("Z", "+00:00").replace("t", "T"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    offset = moment.utcoffset()
    text = _date_and_time(moment)
    if not offset:
        return text + "Z"
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return text + f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _date_and_time(moment: datetime) -> str:
    """``YYYY-MM-DDTHH:MM:SS``: the start of datetime's own ``isoformat`` (the year padded to four
    digits; a subclass's override is not asked), one call in C where formatting field by field
    or ``strftime`` costs more."""
    return datetime.isoformat(moment)[:19]
