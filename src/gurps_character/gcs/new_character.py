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

from .export_gear import GearPart
from .export_lists import ListsPart
from .export_notes import NoteList
from .export_sheet import ADJUSTMENTS, TOP_CALC_KEYS, TRAIT_KEYS, Derived, reordered
from .export_stats import StatsPart
from .standard_sheet import attribute_definitions_text

__all__ = ["ADJUSTMENTS", "build_character"]


def build_character(document: Mapping[str, Any], now: datetime) -> tuple[dict[str, Any], NoteList]:
    """The GCS data of a new character for a valid document, and the notes.

    Its traits, skills and items are as the export built them, with the empty lists GCS leaves
    out: :func:`~.export_text.character_text` writes the file from them (or
    :func:`~.export_sheet.finished` makes each what GCS writes)."""
    sheet = _Sheet(document, now)
    return sheet.build(), sheet.notes


class _Sheet(StatsPart, GearPart, ListsPart):
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
        data: dict[str, Any] = {
            "version": 5,
            "id": self.ids.new("entity"),
            "total_points": total,
            "points_record": [
                {"when": _gcs_date(self.now), "points": total, "reason": "Exported from gurps-character"}
            ],
            "profile": self._profile(),
            "settings": {
                "attributes": attribute_definitions_text(),
                "body_type": body,
                "damage_progression": derived.progression,
                "default_length_units": "ft_in",
                "default_weight_units": "lb",
            },
            "attributes": attributes,
            "traits": self.traits,
            "skills": self.skills,
            "equipment": self.equipment,
            "notes": self._notes(),
        }
        meta = doc.get("meta", {})
        data["created_date"] = _document_date(meta.get("createdAt")) or _gcs_date(self.now)
        data["modified_date"] = _document_date(meta.get("updatedAt")) or data["created_date"]
        data["calc"] = reordered(derived.calc, TOP_CALC_KEYS)
        self._not_carried()
        return {key: value for key, value in data.items() if value != []}

    def _finish_adjustments(self) -> None:
        if self.adjustments is None:
            return
        lines = "\n".join(f"- {line}" for line in self.adjustment_lines)
        self.adjustments["local_notes"] = (
            "What GCS computes from the rest of this sheet departs from the sheet this character was "
            f"exported from (gurps-character); these features make GCS show the sheet's numbers:\n{lines}"
        )
        self.traits[self.traits.index(self.adjustments)] = reordered(self.adjustments, TRAIT_KEYS)
        self.adjustments = None


def _gcs_date(moment: datetime) -> str:
    """A time as GCS writes dates (RFC 3339 to the second; UTC as ``Z``)."""
    instant = moment.astimezone(UTC)
    return f"{_date_and_time(instant)}Z"


def _document_date(value: object) -> str | None:
    """The document's date-time as GCS writes dates (no fraction of a second)."""
    if not isinstance(value, str):
        return None
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
    """``YYYY-MM-DDTHH:MM:SS`` (formatted field by field: ``strftime`` costs more)."""
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
        f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    )
