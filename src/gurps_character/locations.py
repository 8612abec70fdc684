"""Hit locations: one vocabulary for every function that takes one (standard library only).

The rules name a humanoid's locations in the singular (``arm``, B398); the format's DR table
names them as the sheet does (``locationId``: ``arms``, ``eyes``). Both spellings are accepted
wherever a location is asked for, and :func:`rule_location` turns either into the rule's name.

Other bodies (B552-B554: quadrupeds, winged creatures, snakes, spiders, octopods...) have other
locations. A character imported from GCS carries its body table in the importer's extension
(:func:`read_body`); each location keeps GCS's id (``wing``, ``tail``, ``fin``, ``brain``...),
and :func:`location_role` says which of the rule's kinds of location it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal, NoReturn, TypeAlias

from ._extension import GCS_IMPORT
from .errors import CharacterError, guarded

__all__ = [
    "BODY_EXTENSION",
    "DR_COVER",
    "HIT_LOCATIONS",
    "LOCATION_NAMES",
    "Body",
    "BodyLocation",
    "HitLocation",
    "LocationRole",
    "body_of",
    "location_role",
    "read_body",
    "rule_location",
]

HitLocation: TypeAlias = Literal[
    "skull", "face", "eye", "neck", "torso", "vitals", "groin", "arm", "hand", "leg", "foot"
]
"""A humanoid hit location by the rule's name (B398)."""

HIT_LOCATIONS: Final[tuple[HitLocation, ...]] = (
    "skull",
    "face",
    "eye",
    "neck",
    "torso",
    "vitals",
    "groin",
    "arm",
    "hand",
    "leg",
    "foot",
)
"""The rule's names of a humanoid's hit locations, head to foot."""

DR_COVER: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "skull": ("skull", "head"),
        "face": ("face", "head"),
        "eye": ("eyes",),
        "neck": ("neck",),
        "torso": ("torso",),
        "vitals": ("vitals", "torso"),
        "groin": ("groin", "torso"),
        "arm": ("arms",),
        "hand": ("hands",),
        "leg": ("legs",),
        "foot": ("feet",),
    }
)
"""The DR entries (their ``locationId``) that protect each hit location, the first found read:
its own, then the one that covers it (B398: a helm protects the skull and face, torso armor the
vitals and groin). The eye has no cover."""

LOCATION_NAMES: Final[Mapping[str, HitLocation]] = MappingProxyType(
    {
        **{name: name for name in HIT_LOCATIONS},
        "eyes": "eye",
        "arms": "arm",
        "hands": "hand",
        "legs": "leg",
        "feet": "foot",
        "right_arm": "arm",
        "left_arm": "arm",
        "right_leg": "leg",
        "left_leg": "leg",
    }
)
"""Every accepted spelling (the rule's names, the format's ``locationId`` values and the sides
:func:`~gurps_character.hit_location` rolls) → the rule's name. The format's ``head`` is
not a place a blow lands: it is the skull or the face."""


@guarded
def rule_location(name: str) -> HitLocation | None:
    """The rule's name for a humanoid location given either way (``"arms"`` → ``"arm"``).

    Never raises.

    Args:
        name: A spelling in :data:`LOCATION_NAMES` (anything else gives None).

    Returns:
        The :data:`HitLocation`, or None.
    """
    return LOCATION_NAMES.get(name) if isinstance(name, str) else None


LocationRole: TypeAlias = Literal[
    "eye", "skull", "face", "neck", "torso", "vitals", "groin", "limb", "extremity"
]
"""Which of the rule's kinds of location a location is (B398-B400, B552-B554); its wounding
overrides, its injury cap and what cripples it follow from this."""

_ROLES: Final[Mapping[str, LocationRole]] = MappingProxyType(
    {
        "eye": "eye",
        "skull": "skull",
        # B552: the "brain" of octopods, squids and spiders is their skull (x4, knockdown -10).
        "brain": "skull",
        "face": "face",
        "neck": "neck",
        "torso": "torso",
        "vitals": "vitals",
        "groin": "groin",
        "arm": "limb",
        "leg": "limb",
        # B552, B554: a wing is a limb (a crippled wing cannot fly).
        "wing": "limb",
        "hand": "extremity",
        "foot": "extremity",
        # B554: a fin is an extremity; so is a tail unless it is a Striker or Extra Arm, which
        # a body table cannot tell, so every tail is an extremity here.
        "fin": "extremity",
        "tail": "extremity",
        "extremity": "extremity",
    }
)
"""GCS's location ids (and the rule's names) → role; any other id (``abdomen``, ``spine``,
``chinks``...) is hit as the torso: no wounding override, no cap, never crippled."""


@guarded
def location_role(location_id: str) -> LocationRole:
    """The rule's kind of location a location is, by its rule name or GCS id (``"wing"`` →
    ``"limb"``).

    Never raises.

    Args:
        location_id: A rule name (``arm``) or a GCS location id (``wing``, ``brain``).

    Returns:
        The :data:`LocationRole`; ids the rules do not name (``"abdomen"``, ``"spine"``) and
        anything that is not one are ``"torso"``.
    """
    return _ROLES.get(location_id, "torso") if isinstance(location_id, str) else "torso"


BODY_EXTENSION: Final = GCS_IMPORT
"""The extension namespace whose ``body`` record holds an imported character's body table."""

_ID: Final = re.compile(r"[a-z0-9_]{1,64}")
_MAX_LOCATIONS: Final = 1000
_MAX_NUMBER: Final = 10**9
_MAX_TEXT: Final = 200


def _refuse(pointer: str, message: str) -> NoReturn:
    raise CharacterError("invalidDocument", message, {"pointer": pointer})


@dataclass(frozen=True, slots=True)
class BodyLocation:
    """One row of a body's hit-location table.

    Attributes:
        id: GCS's location id (``skull``, ``leg``, ``wing``, ``brain``...); rows that share an id
            (a left and a right leg) share everything the rules use.
        name: The name to choose it by (``Wing``).
        table_name: The row's name in the table (``Hindleg``).
        hit_penalty: The penalty to hit it (0 for the torso).
        roll_range: The 3d roll that hits it (``"3-4"``; ``"-"`` when only aimed blows do).
        natural_dr: DR the body itself gives there (B399: the skull's 2), beyond what the
            character's DR table lists.
        dr: GCS's DR there by damage type: ``all``, plus what other keys (``crushing``...)
            add on top of ``all``; the natural DR included.
    """

    id: str
    name: str
    table_name: str
    hit_penalty: int
    roll_range: str
    natural_dr: int
    dr: Mapping[str, int]

    @property
    def role(self) -> LocationRole:
        """The rule's kind of location (see :func:`location_role`)."""
        return location_role(self.id)

    def to_dict(self) -> dict[str, Any]:
        """The location as JSON data.

        Returns:
            The record as the importer writes it (camelCase keys).
        """
        return {
            "id": self.id,
            "name": self.name,
            "tableName": self.table_name,
            "hitPenalty": self.hit_penalty,
            "rollRange": self.roll_range,
            "naturalDr": self.natural_dr,
            "dr": dict(self.dr),
        }


@dataclass(frozen=True, slots=True)
class Body:
    """A body's hit-location table (GCS's ``body_type``), as the importer keeps it.

    Attributes:
        name: The body's name (``Humanoid``, ``Quadruped``, ``Avian``...).
        roll: The dice that pick a random location (``3d``).
        locations: The rows, in table order (sub-tables' rows follow their parent's).
    """

    name: str
    roll: str
    locations: tuple[BodyLocation, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        """The location ids, each once, in table order."""
        return tuple(dict.fromkeys(location.id for location in self.locations))

    def location(self, location_id: str) -> BodyLocation | None:
        """The location of the body with an id.

        Args:
            location_id: The id looked for (``"torso"``, ``"skull"`` ...).

        Returns:
            The first row with that id, or None when there is none.
        """
        for location in self.locations:
            if location.id == location_id:
                return location
        return None

    def to_dict(self) -> dict[str, Any]:
        """The body as JSON data.

        Returns:
            The record as the importer writes it, ``{"name", "roll", "locations": [...]}``, each
            location as :meth:`BodyLocation.to_dict` gives it.
        """
        return {
            "name": self.name,
            "roll": self.roll,
            "locations": [location.to_dict() for location in self.locations],
        }


def _text(record: Mapping[str, Any], key: str, pointer: str) -> str:
    value = record.get(key, "")
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        _refuse(f"{pointer}/{key}", f"{pointer}/{key} must be text of at most {_MAX_TEXT} characters.")
    return value


def _whole(value: object, pointer: str, minimum: int = -_MAX_NUMBER) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= _MAX_NUMBER:
        _refuse(pointer, f"{pointer} must be a whole number from {minimum} to {_MAX_NUMBER}.")
    return value


def _location(record: object, pointer: str) -> BodyLocation:
    if not isinstance(record, Mapping):
        _refuse(pointer, f"{pointer} must be an object.")
    ident = record.get("id")
    if not isinstance(ident, str) or _ID.fullmatch(ident) is None:
        _refuse(f"{pointer}/id", f"{pointer}/id must be a location id (a-z, 0-9 and _, at most 64).")
    dr = record.get("dr", {"all": 0})
    if not isinstance(dr, Mapping) or len(dr) > 100:
        _refuse(f"{pointer}/dr", f"{pointer}/dr must be an object of whole numbers.")
    by_type: dict[str, int] = {}
    for key, amount in dr.items():
        if not isinstance(key, str) or not 0 < len(key) <= _MAX_TEXT:
            _refuse(f"{pointer}/dr", f"{pointer}/dr must be an object of whole numbers.")
        by_type[key] = _whole(amount, f"{pointer}/dr/{key}")
    by_type.setdefault("all", 0)
    return BodyLocation(
        id=ident,
        name=_text(record, "name", pointer) or ident,
        table_name=_text(record, "tableName", pointer),
        hit_penalty=_whole(record.get("hitPenalty", 0), f"{pointer}/hitPenalty"),
        roll_range=_text(record, "rollRange", pointer) or "-",
        natural_dr=_whole(record.get("naturalDr", 0), f"{pointer}/naturalDr", 0),
        dr=MappingProxyType(by_type),
    )


@guarded
def read_body(record: object, pointer: str = "") -> Body:
    """A body record (as the importer writes it) as a :class:`Body`.

    Args:
        record: ``{"name", "roll", "locations": [{"id", "name", "tableName", "hitPenalty",
            "rollRange", "naturalDr", "dr"}, ...]}``.
        pointer: Where the record is in its document, for the error's pointer.

    Returns:
        The :class:`Body`.

    Raises:
        CharacterError: ``invalidDocument`` (``details["pointer"]`` says where, below
            ``pointer``) when the record is not a body table.
    """
    if not isinstance(record, Mapping):
        _refuse(pointer, f"{pointer or 'The body'} must be an object.")
    locations = record.get("locations")
    if not isinstance(locations, list | tuple) or not 0 < len(locations) <= _MAX_LOCATIONS:
        _refuse(
            f"{pointer}/locations",
            f"{pointer}/locations must be a list of 1 to {_MAX_LOCATIONS} hit locations.",
        )
    rows = tuple(_location(item, f"{pointer}/locations/{index}") for index, item in enumerate(locations))
    return Body(_text(record, "name", pointer), _text(record, "roll", pointer) or "3d", rows)


_BODY_POINTER: Final = f"/extensions/{BODY_EXTENSION}/body"


@guarded
def body_of(document: Mapping[str, Any]) -> Body | None:
    """The body table an import from GCS keeps in the document.

    Args:
        document: A character document (only ``extensions[BODY_EXTENSION].body`` is read).

    Returns:
        The :class:`Body`, or None when the document has none (a humanoid by the Basic Set).

    Raises:
        CharacterError: ``notAnObject`` when the document is not a mapping; ``invalidDocument``
            (with the ``pointer``) when the record is there but is not a body table.
    """
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    extensions = document.get("extensions")
    if not isinstance(extensions, Mapping):
        return None
    namespace = extensions.get(BODY_EXTENSION)
    if not isinstance(namespace, Mapping) or "body" not in namespace:
        return None
    return read_body(namespace["body"], _BODY_POINTER)
