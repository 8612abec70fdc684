"""The combat view: what a combat engine reads, detached from the document and read-only.

Beside the stored values, the view has the numbers of this moment: the encumbrance level that the
weight the character carries gives (``carried_weight``, ``current_encumbrance``), and Move and
Dodge at that level, halved as the condition requires (``current_move``, ``current_dodge``; see
:mod:`.conditions`). Each weapon is a row with its damage lines resolved for the wielder
(lazily: on first use), its skill, level, parry and block.

Where a weapon's skill, level, parry and block come from:

* **Imported from GCS**: the importer's records (``extensions["io.github.gurps-sheet.gcs-import"]
  ["weapons"]``: GCS's level, parry and block for each weapon mode), when they match the
  document's weapons one for one.
* **Any other document**: the skill is the one named as the weapon (``Broadsword``), else the
  longest skill whose name's words appear, in order, among the weapon's (``Knife`` for "Large
  Knife", ``Bow`` for "Regular Bow"; the first such skill on a tie), else among the words of the
  weapon's notes (a club noted "Two-Handed Axe/Mace"); none, else. Its level is the skill's.
  Parry is ``floor(level / 2) + 3`` plus the weapon's parry modifier (B376) plus the bonuses the
  sheet's own Parry holds (Combat Reflexes and the like): none when the sheet's Parry is the
  format's formula (``floor(level / 2) + 3`` of its skill, without weapon modifiers); else the
  sheet's Parry value (an override holds the weapon's modifier and the bonuses) less that
  formula and the parry modifier of a weapon using that skill; no
  parry for a weapon whose modifier is null ("No"), that stores no parry, or whose skill is not
  found. Block is the sheet's Block for a weapon used with the skill the sheet's Block comes from
  (a shield), else none.

Why one module of this length: the combat view is one projection of the document, read in one
pass; its weapon rows, encumbrance and defenses share the readings the pass makes.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ._extension import importer_record
from ._frozen import freeze, json_number, thaw
from ._phrases import PhraseIndex
from .conditions import halved, halvings, unhalved_levels
from .damage import WeaponDamage, resolve_damage_notation
from .errors import CharacterError, guarded
from .formula import Dice
from .load import require_valid
from .update import Pool

__all__ = [
    "Attributes",
    "CombatStats",
    "DamageDice",
    "DamageResistance",
    "EncumbranceLevel",
    "MeleeWeaponStats",
    "RangedWeaponStats",
    "SkillDefense",
    "SkillStat",
    "WeaponBlock",
    "WeaponDamageLine",
    "WeaponParry",
    "Weapons",
    "combat_stats",
]


@dataclass(frozen=True, slots=True)
class Attributes:
    """The four primary attributes.

    Attributes:
        st: Strength.
        dx: Dexterity.
        iq: Intelligence.
        ht: Health.
    """

    st: int
    dx: int
    iq: int
    ht: int

    def to_dict(self) -> dict[str, int]:
        """The attributes as JSON data.

        Returns:
            ``{"st", "dx", "iq", "ht"}``.
        """
        return {"st": self.st, "dx": self.dx, "iq": self.iq, "ht": self.ht}


@dataclass(frozen=True, slots=True)
class SkillDefense:
    """Parry or Block: the skill it comes from and its value.

    Attributes:
        skill: The name of the skill the defense comes from, or None.
        value: The defense's value, or None when the character has none.
    """

    skill: str | None
    value: int | None

    def to_dict(self) -> dict[str, Any]:
        """The skill defense as JSON data.

        Returns:
            ``{"skill", "value"}``.
        """
        return {"skill": self.skill, "value": self.value}


@dataclass(frozen=True, slots=True)
class DamageDice:
    """Basic thrust and swing damage.

    Attributes:
        thrust: Basic thrust damage (B15).
        swing: Basic swing damage (B15).
    """

    thrust: Dice
    swing: Dice

    def to_dict(self) -> dict[str, Any]:
        """The damage dice as JSON data.

        Returns:
            ``{"thrust": {notation, dice, adds}, "swing": {...}}``.
        """
        return {"thrust": self.thrust.to_dict(), "swing": self.swing.to_dict()}


@dataclass(frozen=True, slots=True)
class EncumbranceLevel:
    """One row of the encumbrance table (B17).

    Attributes:
        level: The level's number, 0 (None) to 4 (Extra-Heavy).
        id: The level's id as the document stores it (``"none"`` ... ``"extraHeavy"``).
        max_load: The heaviest load of this level, in kg.
        move: Move at this level.
        dodge: Dodge at this level.
    """

    level: int
    id: str
    max_load: float
    move: int
    dodge: int

    def to_dict(self) -> dict[str, Any]:
        """The encumbrance level as JSON data.

        Returns:
            ``{"level", "id", "maxLoad", "move", "dodge"}``.
        """
        return {
            "level": self.level,
            "id": self.id,
            "maxLoad": self.max_load,
            "move": self.move,
            "dodge": self.dodge,
        }


ENCUMBRANCE_NAMES: Final = {
    "none": "None",
    "light": "Light",
    "medium": "Medium",
    "heavy": "Heavy",
    "extraHeavy": "Extra-Heavy",
}
"""The Basic Set's name of each encumbrance level (B17), by the id the document stores: what the
command line's tables and the sheets show."""


@dataclass(frozen=True, slots=True)
class DamageResistance:
    """DR at one hit location.

    Attributes:
        location: The location's name, as the document stores it.
        dr: The damage resistance there.
        location_id: The location's id in the body table, when the document gives one.
        notes: The document's notes on this DR, if any.
    """

    location: str
    dr: int
    location_id: str | None = None
    notes: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The damage resistance as JSON data.

        Returns:
            ``{"location", "locationId"?, "dr", "notes"?}``.
        """
        out: dict[str, Any] = {"location": self.location}
        if self.location_id is not None:
            out["locationId"] = self.location_id
        out["dr"] = self.dr
        if self.notes is not None:
            out["notes"] = self.notes
        return out


@dataclass(frozen=True, slots=True)
class SkillStat:
    """A skill as combat uses it.

    Attributes:
        name: The skill's name.
        level: The skill's level, as the document stores it.
        attribute: The controlling attribute (``"dx"``, ``"iq"`` ...).
        difficulty: The difficulty (``"E"``, ``"A"``, ``"H"``, ``"VH"``).
    """

    name: str
    level: int
    attribute: str
    difficulty: str

    def to_dict(self) -> dict[str, Any]:
        """The skill stat as JSON data.

        Returns:
            ``{"name", "level", "attribute", "difficulty"}``.
        """
        return {
            "name": self.name,
            "level": self.level,
            "attribute": self.attribute,
            "difficulty": self.difficulty,
        }


@dataclass(frozen=True, slots=True)
class WeaponDamageLine:
    """One damage line of a weapon: the parts as stored, and the dice they come to for the wielder.

    Attributes:
        notation: The damage as written (``"sw+1 cut"``).
        base: ``"thrust"``, ``"swing"`` or ``"fixed"`` as stored, or None.
        dice: The stored number of dice (for a fixed base), or None.
        adds: The stored adds, or None.
        type: The stored type (``"cut"``, ``"aff"`` ...; the document's ``type``), or None. Named
            as the document names it, not ``damage_type``: these are the stored parts, and only
            :attr:`resolved` is a :class:`~gurps_character.WeaponDamage` for the wielder.
    """

    notation: str
    base: str | None
    dice: int | None
    adds: int | None
    type: str | None
    _wielder: DamageDice = field(repr=False, compare=False)
    _resolution: list[WeaponDamage | str] = field(default_factory=list, repr=False, compare=False)

    def _resolve(self) -> WeaponDamage | str:
        """The resolved dice, or why there are none; worked out on first use and kept (the view's
        cost stays that of reading the document, whatever the weapons)."""
        if not self._resolution:
            wielder = {"damage": self._wielder.to_dict()}
            try:
                self._resolution.append(resolve_damage_notation(wielder, self.notation))
            except CharacterError as err:
                self._resolution.append(err.message)
        return self._resolution[0]

    @property
    def resolved(self) -> WeaponDamage | None:
        """The line's dice for the wielder (:func:`~gurps_character.resolve_damage_notation`:
        ``sw+1 cut`` with swing 1d+1 is 1d+2 cut), ready to :meth:`~WeaponDamage.roll`; None when
        the line is no dice roll (an affliction, ``spec.``, text the notation does not read)."""
        found = self._resolve()
        return found if isinstance(found, WeaponDamage) else None

    @property
    def unresolved_reason(self) -> str | None:
        """Why :attr:`resolved` is None (the notation's error message), else None."""
        found = self._resolve()
        return found if isinstance(found, str) else None

    def to_dict(self, *, extended: bool = False) -> dict[str, Any]:
        """The damage line as JSON data.

        Args:
            extended: Whether to add the resolved dice (and why they are missing).

        Returns:
            The stored entry ``{"notation", "base"?, "dice"?, "adds"?, "type"?}``; with
            ``extended``, also ``"resolved"`` (:meth:`WeaponDamage.to_dict`'s form, or null) and,
            when null, ``"unresolvedReason"``.
        """
        out: dict[str, Any] = {"notation": self.notation}
        for key, value in (("base", self.base), ("dice", self.dice), ("adds", self.adds)):
            if value is not None:
                out[key] = value
        if self.type is not None:
            out["type"] = self.type
        if extended:
            resolved = self.resolved
            out["resolved"] = resolved.to_dict() if resolved is not None else None
            if resolved is None:
                out["unresolvedReason"] = self.unresolved_reason
        return out


@dataclass(frozen=True, slots=True)
class WeaponParry:
    """A melee weapon's parry: the stored parts and the parry it gives.

    Attributes:
        notation: The parry as written (``"0"``, ``"-1"``, ``"0U"``, ``"No"``), or None when the
            document stores no parry for the weapon.
        modifier: The stored parry modifier (None: the weapon cannot parry, or none stored).
        unbalanced: The stored flag (an unbalanced weapon cannot parry after attacking), or None.
        value: The parry with this weapon (see the module documentation), or None.
    """

    notation: str | None
    modifier: int | None
    unbalanced: bool | None
    value: int | None

    def to_dict(self) -> dict[str, Any]:
        """The weapon parry as JSON data.

        Returns:
            ``{"notation"?, "modifier"?, "unbalanced"?, "value"}``.
        """
        out: dict[str, Any] = {}
        for key, stored in (
            ("notation", self.notation),
            ("modifier", self.modifier),
            ("unbalanced", self.unbalanced),
        ):
            if stored is not None:
                out[key] = stored
        out["value"] = self.value
        return out


@dataclass(frozen=True, slots=True)
class WeaponBlock:
    """The block a melee weapon gives (a shield's).

    Attributes:
        value: The block with it, or None (see the module documentation).
    """

    value: int | None

    def to_dict(self) -> dict[str, Any]:
        """The weapon block as JSON data.

        Returns:
            ``{"value"}``.
        """
        return {"value": self.value}


class _WeaponFacts:
    """Where the rows' skills, levels, parries and blocks come from, detached from the document
    when the view is made; worked out for all rows on first use (matching weapons to skills by
    name costs time in the number of skills, which a view that nobody asks for need not pay)."""

    __slots__ = ("_block", "_facts", "_finder", "_melee", "_parry", "_ranged", "_records", "_skills")

    def __init__(
        self,
        skills: tuple[SkillStat, ...],
        melee: tuple[Mapping[str, Any], ...],
        ranged: tuple[Mapping[str, Any], ...],
        records: tuple[tuple[_Numbers, ...], tuple[_Numbers, ...]] | None,
        parry: SkillDefense,
        block: SkillDefense,
    ) -> None:
        self._skills = skills
        self._melee = melee
        self._ranged = ranged
        self._records = records
        self._parry = parry
        self._block = block
        self._facts: list[tuple[tuple[_Facts, ...], tuple[_Facts, ...]]] = []
        self._finder: _SkillFinder | None = None

    def melee(self, index: int) -> _Facts:
        """``(skill, level, parry, block)`` of melee weapon ``index``."""
        return self._worked_out()[0][index]

    def ranged(self, index: int) -> _Facts:
        """``(skill, level, None, None)`` of ranged weapon ``index``."""
        return self._worked_out()[1][index]

    def _worked_out(self) -> tuple[tuple[_Facts, ...], tuple[_Facts, ...]]:
        if not self._facts:  # a race only works the same facts out twice
            self._facts.append((self._melee_facts(), self._ranged_facts()))
        return self._facts[0]

    def _used(self, entries: tuple[Mapping[str, Any], ...]) -> list[SkillStat | None]:
        finder = self._finder
        if finder is None:
            finder = self._finder = _SkillFinder(self._skills)
        return [finder.skill_of(entry) for entry in entries]

    def _melee_facts(self) -> tuple[_Facts, ...]:
        used = self._used(self._melee)
        if self._records is not None:
            return tuple(
                (skill.name if skill is not None else None, *numbers)
                for skill, numbers in zip(used, self._records[0], strict=True)
            )
        bonus = self._parry_bonus(used)
        facts: list[_Facts] = []
        for entry, skill in zip(self._melee, used, strict=True):
            stored = entry.get("parry")
            modifier = _n(stored.get("modifier")) if isinstance(stored, Mapping) else None
            level = skill.level if skill is not None else None
            parry = None if level is None or modifier is None else level // 2 + 3 + modifier + bonus
            block = self._block.value if skill is not None and skill.name == self._block.skill else None
            facts.append((skill.name if skill is not None else None, level, parry, block))
        return tuple(facts)

    def _ranged_facts(self) -> tuple[_Facts, ...]:
        used = self._used(self._ranged)
        if self._records is not None:
            return tuple(
                (skill.name if skill is not None else None, numbers[0], None, None)
                for skill, numbers in zip(used, self._records[1], strict=True)
            )
        return tuple(
            (skill.name, skill.level, None, None) if skill is not None else (None, None, None, None)
            for skill in used
        )

    def _parry_bonus(self, used: list[SkillStat | None]) -> int:
        """What the sheet's Parry holds beyond ``floor(skill / 2) + 3`` and the parry modifier of
        a weapon used with its skill: Combat Reflexes and the like (0 when it cannot tell)."""
        sheet = self._parry
        skill = next((skill for skill in self._skills if skill.name == sheet.skill), None)
        if skill is None or sheet.value is None or sheet.value == skill.level // 2 + 3:
            return 0  # the format's formula: no weapon modifier, no bonus in it
        modifier = 0
        for entry, weapon_skill in zip(self._melee, used, strict=True):
            stored = entry.get("parry")
            if weapon_skill is skill and isinstance(stored, Mapping) and stored.get("modifier") is not None:
                modifier = _n(stored["modifier"])
                break
        bonus: int = sheet.value - (skill.level // 2 + 3 + modifier)
        return bonus


_Numbers = tuple[int | None, int | None, int | None]
"""``(level, parry, block)`` of one weapon, from the importer's records."""
_Facts = tuple[str | None, int | None, int | None, int | None]
"""``(skill, level, parry, block)`` of one weapon."""


@dataclass(frozen=True, slots=True)
class MeleeWeaponStats:
    """A melee weapon of the character, as combat uses it (the module documentation says where
    the skill, level, parry and block come from).

    Attributes:
        name: The weapon's name.
        damage: Its damage lines (swing, thrust ...), each resolved for the wielder on use.
        reach: The stored reach (``"1"``, ``"C,1"``), or None.
        entry: The document's entry, read-only (what :meth:`to_dict` gives).
    """

    name: str
    damage: tuple[WeaponDamageLine, ...]
    reach: str | None
    entry: Mapping[str, Any] = field(repr=False)
    _facts: _WeaponFacts = field(repr=False, compare=False)
    _index: int = field(repr=False)

    @property
    def skill(self) -> str | None:
        """The skill the weapon is used with, where known."""
        return self._facts.melee(self._index)[0]

    @property
    def level(self) -> int | None:
        """The character's level with the weapon, where known."""
        return self._facts.melee(self._index)[1]

    @property
    def parry(self) -> WeaponParry:
        """The stored parry and the parry the weapon gives (``value``)."""
        stored = self.entry.get("parry")
        parts: Mapping[str, Any] = stored if isinstance(stored, Mapping) else {}
        value = self._facts.melee(self._index)[2]
        return WeaponParry(parts.get("notation"), _n(parts.get("modifier")), parts.get("unbalanced"), value)

    @property
    def block(self) -> WeaponBlock:
        """The block the weapon gives (a shield's)."""
        return WeaponBlock(self._facts.melee(self._index)[3])

    def to_dict(self, *, extended: bool = False) -> dict[str, Any]:
        """The melee weapon as JSON data.

        Args:
            extended: Whether to add what the view works out (skill, level, parry, block, dice).

        Returns:
            Exactly the document's entry (the reference's JSON); with ``extended``, the entry
            plus ``"skill"``, ``"level"``, the ``"value"`` in ``"parry"``, ``"block": {"value"}``
            and each damage line's ``"resolved"``.
        """
        out: dict[str, Any] = thaw(self.entry)
        if extended:
            out["damage"] = [line.to_dict(extended=True) for line in self.damage]
            out["parry"] = {**out.get("parry", {}), "value": self.parry.value}
            out["block"] = self.block.to_dict()
            out["skill"] = self.skill
            out["level"] = self.level
        return out


@dataclass(frozen=True, slots=True)
class RangedWeaponStats:
    """A ranged weapon of the character, as combat uses it.

    Attributes:
        name: The weapon's name.
        damage: Its damage line (one, or none when the entry stores none), resolved on use.
        accuracy: The stored accuracy (``"2"``, ``"3+1"``), or None.
        range: The stored range's notation (``"130/195"``), or None.
        entry: The document's entry, read-only (what :meth:`to_dict` gives).
    """

    name: str
    damage: tuple[WeaponDamageLine, ...]
    accuracy: str | None
    range: str | None
    entry: Mapping[str, Any] = field(repr=False)
    _facts: _WeaponFacts = field(repr=False, compare=False)
    _index: int = field(repr=False)

    @property
    def skill(self) -> str | None:
        """The skill the weapon is used with, where known."""
        return self._facts.ranged(self._index)[0]

    @property
    def level(self) -> int | None:
        """The character's level with the weapon, where known."""
        return self._facts.ranged(self._index)[1]

    def to_dict(self, *, extended: bool = False) -> dict[str, Any]:
        """The ranged weapon as JSON data.

        Args:
            extended: Whether to add what the view works out (skill, level, dice).

        Returns:
            Exactly the document's entry; with ``extended``, also ``"skill"``, ``"level"`` and
            the damage line's ``"resolved"``.
        """
        out: dict[str, Any] = thaw(self.entry)
        if extended:
            if self.damage:
                out["damage"] = self.damage[0].to_dict(extended=True)
            out["skill"] = self.skill
            out["level"] = self.level
        return out


@dataclass(frozen=True, slots=True, repr=False)
class Weapons:
    """Melee and ranged weapons, one row per entry of the document, in its order.

    The rows are made on first use: a view whose weapons nobody reads costs no more than a copy
    of the entries.
    """

    _melee: tuple[Mapping[str, Any], ...]
    _ranged: tuple[Mapping[str, Any], ...]
    _facts: _WeaponFacts | None = field(default=None, compare=False)
    _wielder: DamageDice | None = field(default=None, compare=False)
    _rows: list[tuple[tuple[MeleeWeaponStats, ...], tuple[RangedWeaponStats, ...]]] = field(
        default_factory=list, compare=False
    )

    @property
    def melee(self) -> tuple[MeleeWeaponStats, ...]:
        """The melee weapons (:class:`MeleeWeaponStats`), in the document's order."""
        return self._made()[0]

    @property
    def ranged(self) -> tuple[RangedWeaponStats, ...]:
        """The ranged weapons (:class:`RangedWeaponStats`), in the document's order."""
        return self._made()[1]

    def _made(self) -> tuple[tuple[MeleeWeaponStats, ...], tuple[RangedWeaponStats, ...]]:
        if not self._rows:  # a race only makes equal rows twice
            self._rows.append(_rows(self._melee, self._ranged, self._facts, self._wielder))
        return self._rows[0]

    def __repr__(self) -> str:
        return f"Weapons(melee={self.melee!r}, ranged={self.ranged!r})"

    def to_dict(self, *, extended: bool = False) -> dict[str, Any]:
        """The weapons as JSON data.

        Args:
            extended: Whether to give each row's extended form.

        Returns:
            ``{"melee": [...], "ranged": [...]}``, the document's entries (the reference's JSON);
            with ``extended``, each row's extended form.
        """
        if not extended:
            return {"melee": thaw(self._melee), "ranged": thaw(self._ranged)}
        return {
            "melee": [row.to_dict(extended=True) for row in self.melee],
            "ranged": [row.to_dict(extended=True) for row in self.ranged],
        }


@dataclass(frozen=True, slots=True)
class CombatStats:
    """A read-only copy of what combat needs; changing the document later does not change it.

    Attributes:
        name: The character's name.
        size_modifier: The Size Modifier (0 when the document gives none).
        hp: Hit points, current and maximum.
        fp: Fatigue points, current and maximum.
        attributes: ST, DX, IQ and HT.
        will: Will.
        perception: Perception.
        basic_speed: Basic Speed.
        basic_move: Basic Move.
        dodge: Dodge at no encumbrance, as the document stores it.
        parry: The stored Parry and the skill it comes from.
        block: The stored Block and the skill it comes from.
        damage: Basic thrust and swing damage.
        encumbrance: The encumbrance table's rows, in the document's order.
        damage_resistance: DR by hit location, in the document's order.
        skills: Every skill, in the document's order.
        weapons: The melee and ranged weapons.
        experimental: Whether the document is marked experimental (``integrity.experimental``).
        carried_weight: What the character carries, in kg: the weights of the weapons and the
            equipment, as the format's possessions total adds them.
    """

    name: str
    size_modifier: int
    hp: Pool
    fp: Pool
    attributes: Attributes
    will: int
    perception: int
    basic_speed: float
    basic_move: int
    dodge: int
    parry: SkillDefense
    block: SkillDefense
    damage: DamageDice
    encumbrance: tuple[EncumbranceLevel, ...]
    damage_resistance: tuple[DamageResistance, ...]
    skills: tuple[SkillStat, ...]
    weapons: Weapons
    experimental: bool
    carried_weight: float = 0
    _unhalved: tuple[tuple[int, int], ...] = field(default=(), repr=False, compare=False)
    """``(move, dodge)`` per level before the pools' halving, where the stored ones are halved
    already (an import of a wounded character: see :func:`~gurps_character.conditions.unhalved_levels`)."""

    @property
    def current_encumbrance(self) -> EncumbranceLevel:
        """The encumbrance level the carried weight gives (B17), the first level whose maximum
        load holds it; the heaviest level when even that one does not (:attr:`overloaded`)."""
        for level in self.encumbrance:
            if self.carried_weight <= level.max_load:
                return level
        return self.encumbrance[-1]

    @property
    def overloaded(self) -> bool:
        """Whether the character carries more than the heaviest level's maximum load, too much
        to move at all (B17)."""
        return self.carried_weight > self.encumbrance[-1].max_load

    @property
    def current_move(self) -> int:
        """Move now, the current encumbrance level's Move halved (rounding up) once while HP is
        reeling or worse and once while FP is tired or worse (B419, B426); 0 when overloaded."""
        if self.overloaded:
            return 0
        return halved(self._unhalved_at_current()[0], self._halvings())

    @property
    def current_dodge(self) -> int:
        """Dodge now, the current encumbrance level's Dodge halved as Move is."""
        return halved(self._unhalved_at_current()[1], self._halvings())

    def _unhalved_at_current(self) -> tuple[int, int]:
        level = self.current_encumbrance
        index = self.encumbrance.index(level)
        if len(self._unhalved) == len(self.encumbrance):
            return self._unhalved[index]
        return level.move, level.dodge

    def _halvings(self) -> int:
        return halvings(self.hp.current, self.hp.max, self.fp.current, self.fp.max)

    def _repr_html_(self) -> str:
        """The combat card (:func:`~gurps_character.sheet.render_card`'s HTML, as a fragment):
        what a notebook (Jupyter, IPython) shows for a combat view. DR is the view's own table.

        Notebooks call this without being asked, so it never fails for want of the optional
        Jinja2: without it, the view's ``repr`` as escaped preformatted text."""
        from .sheet._render import jinja_available

        if not jinja_available():
            from .sheet._text import clean

            return f"<pre>{html.escape(str(clean(repr(self))))}</pre>"
        from .sheet._card import card_html

        return card_html(self)

    def to_dict(self, *, extended: bool = False) -> dict[str, Any]:
        """The combat view as JSON data.

        Args:
            extended: Whether to add the carried weight, the encumbrance it gives and the
                weapons' extended rows.

        Returns:
            The reference's JSON form (camelCase keys). With ``extended``, also
            ``carriedWeight``, ``currentEncumbrance`` (a level), ``overloaded``, ``currentMove``,
            ``currentDodge``, and the weapons' extended rows.
        """
        out = {
            "name": self.name,
            "sizeModifier": self.size_modifier,
            "hp": self.hp.to_dict(),
            "fp": self.fp.to_dict(),
            "attributes": self.attributes.to_dict(),
            "will": self.will,
            "perception": self.perception,
            "basicSpeed": self.basic_speed,
            "basicMove": self.basic_move,
            "dodge": self.dodge,
            "parry": self.parry.to_dict(),
            "block": self.block.to_dict(),
            "damage": self.damage.to_dict(),
            "encumbrance": [level.to_dict() for level in self.encumbrance],
            "damageResistance": [entry.to_dict() for entry in self.damage_resistance],
            "skills": [skill.to_dict() for skill in self.skills],
            "weapons": self.weapons.to_dict(extended=extended),
            "experimental": self.experimental,
        }
        if extended:
            out["carriedWeight"] = self.carried_weight
            out["currentEncumbrance"] = self.current_encumbrance.to_dict()
            out["overloaded"] = self.overloaded
            out["currentMove"] = self.current_move
            out["currentDodge"] = self.current_dodge
        return out


def _dice(value: Mapping[str, Any]) -> Dice:
    return Dice(value["notation"], _n(value["dice"]), _n(value["adds"]))


def _defense(value: Mapping[str, Any]) -> SkillDefense:
    return SkillDefense(value.get("skill"), _n(value.get("value")))


_n = json_number
"""Every number of the view goes through this: the document may store ``5.0`` for 5."""


# ---------------------------------------------------------------- weapons

_WORD = re.compile(r"[^\W_]+")


def _words(name: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(name.casefold()))


class _SkillFinder:
    """The skill a weapon is used with: the one named as the weapon; else the longest whose
    words appear in order among the weapon's name's, else among its notes' (of those as long in
    words, the longest name; the first on a tie). Built once from the skills (their words read
    once, indexed), so finding the skills of all weapons is linear, not weapons x skills."""

    __slots__ = ("_named", "_within")

    def __init__(self, skills: tuple[SkillStat, ...]) -> None:
        self._named: dict[tuple[str, ...], SkillStat] = {}
        phrases: list[tuple[tuple[str, ...], tuple[int, ...], SkillStat]] = []
        for skill in skills:
            words = _words(skill.name)
            self._named.setdefault(words, skill)
            phrases.append((words, (len(words), len(skill.name)), skill))
        self._within = PhraseIndex(phrases)

    def skill_of(self, entry: Mapping[str, Any]) -> SkillStat | None:
        wanted = _words(entry["name"])
        found = self._named.get(wanted)
        if found is None:
            found = self._within.best_in(wanted)
        notes = entry.get("notes")
        if found is None and isinstance(notes, str):
            found = self._within.best_in(_words(notes))
        return found


def _whole_or_null(value: object) -> bool:
    return value is None or type(value) is int or (type(value) is float and value.is_integer())


def _records(
    document: Mapping[str, Any], melee: int, ranged: int
) -> tuple[tuple[_Numbers, ...], tuple[_Numbers, ...]] | None:
    """``(level, parry, block)`` of each weapon from the importer's records, when the records
    match the document's weapons one for one and every number is whole or null; else None."""
    records = importer_record(document, "weapons")
    if not isinstance(records, Mapping):
        return None
    found: list[tuple[_Numbers, ...]] = []
    for key, count in (("melee", melee), ("ranged", ranged)):
        kept = records.get(key)
        if not isinstance(kept, list) or len(kept) != count:
            return None
        numbers: list[_Numbers] = []
        for record in kept:
            if not isinstance(record, Mapping):
                return None
            values = [record.get(name) for name in ("level", "parry", "block")]
            if not all(_whole_or_null(value) for value in values):
                return None
            level, parry, block = (None if value is None else int(value) for value in values)
            numbers.append((level, parry, block))
        found.append(tuple(numbers))
    return found[0], found[1]


def _line(stored: Mapping[str, Any], wielder: DamageDice) -> WeaponDamageLine:
    return WeaponDamageLine(
        stored["notation"],
        stored.get("base"),
        _n(stored.get("dice")),
        _n(stored.get("adds")),
        stored.get("type"),
        wielder,
    )


def _rows(
    melee: tuple[Mapping[str, Any], ...],
    ranged: tuple[Mapping[str, Any], ...],
    facts: _WeaponFacts | None,
    wielder: DamageDice | None,
) -> tuple[tuple[MeleeWeaponStats, ...], tuple[RangedWeaponStats, ...]]:
    if facts is None or wielder is None:
        return (), ()
    return (
        tuple(
            MeleeWeaponStats(
                entry["name"],
                tuple(_line(line, wielder) for line in entry.get("damage") or ()),
                entry.get("reach"),
                entry,
                facts,
                index,
            )
            for index, entry in enumerate(melee)
        ),
        tuple(
            RangedWeaponStats(
                entry["name"],
                (_line(entry["damage"], wielder),) if "damage" in entry else (),
                entry.get("accuracy"),
                entry["range"].get("notation") if "range" in entry else None,
                entry,
                facts,
                index,
            )
            for index, entry in enumerate(ranged)
        ),
    )


def _weapons(
    document: Mapping[str, Any],
    skills: tuple[SkillStat, ...],
    wielder: DamageDice,
    parry: SkillDefense,
    block: SkillDefense,
) -> Weapons:
    stored = document.get("weapons") or {}
    melee: tuple[Mapping[str, Any], ...] = freeze(list(stored.get("melee") or ()))
    ranged: tuple[Mapping[str, Any], ...] = freeze(list(stored.get("ranged") or ()))
    if not melee and not ranged:
        return Weapons((), ())
    facts = _WeaponFacts(skills, melee, ranged, _records(document, len(melee), len(ranged)), parry, block)
    return Weapons(melee, ranged, facts, wielder)


def _carried_weight(document: Mapping[str, Any]) -> float:
    """The weights of the weapons and the equipment, added in the order the format's possessions
    total adds them."""
    total: float = 0
    weapons = document.get("weapons") or {}
    for items in (weapons.get("melee"), weapons.get("ranged"), document.get("equipment")):
        for item in items or ():
            total += item.get("weight", 0)
    return _n(total)  # type: ignore[no-any-return]


def _project(document: Mapping[str, Any]) -> CombatStats:
    # List comprehensions, not generators, throughout: this runs for every view, and the
    # generators' overhead was a tenth of its cost.
    attributes = document["attributes"]
    secondary = document["secondary"]
    defenses = document["defenses"]
    integrity = document.get("integrity")
    skills = tuple(
        [
            SkillStat(skill["name"], _n(skill["level"]), skill["attribute"], skill["difficulty"])
            for skill in document["skills"]
        ]
    )
    damage = DamageDice(_dice(document["damage"]["thrust"]), _dice(document["damage"]["swing"]))
    parry, block = _defense(defenses["parry"]), _defense(defenses["block"])
    return CombatStats(
        name=document["profile"]["name"],
        size_modifier=_n(document["profile"].get("sizeModifier", 0)),
        hp=_pool(secondary["hp"]),
        fp=_pool(secondary["fp"]),
        attributes=Attributes(
            _n(attributes["st"]["value"]),
            _n(attributes["dx"]["value"]),
            _n(attributes["iq"]["value"]),
            _n(attributes["ht"]["value"]),
        ),
        will=_n(secondary["will"]["value"]),
        perception=_n(secondary["per"]["value"]),
        basic_speed=_n(secondary["basicSpeed"]["value"]),
        basic_move=_n(secondary["basicMove"]["value"]),
        dodge=_n(defenses["dodge"]["value"]),
        parry=parry,
        block=block,
        damage=damage,
        encumbrance=tuple(
            [
                EncumbranceLevel(
                    _n(row["level"]), row["id"], _n(row["maxLoad"]), _n(row["move"]), _n(row["dodge"])
                )
                for row in document["encumbrance"]["levels"]
            ]
        ),
        damage_resistance=tuple(
            [
                DamageResistance(
                    entry["location"], _n(entry["dr"]), entry.get("locationId"), entry.get("notes")
                )
                for entry in document.get("damageResistance") or ()
            ]
        ),
        skills=skills,
        weapons=_weapons(document, skills, damage, parry, block),
        experimental=isinstance(integrity, Mapping) and integrity.get("experimental") is True,
        carried_weight=_carried_weight(document),
        _unhalved=_unhalved(document),
    )


def _pool(holder: Mapping[str, Any]) -> Pool:
    """:func:`~gurps_character.get_pool` of a schema-valid document's pool, without the checks
    the schema made (``value`` and ``current`` are integers): an absent ``current`` is full, a
    whole float an ``int``."""
    maximum = _schema_integer(holder["value"])
    return Pool(_schema_integer(holder.get("current", maximum)), maximum)


def _schema_integer(value: Any) -> int:
    """A value the schema holds to ``integer`` as ``get_pool`` gives it: an ``int`` as it is, a
    whole float as an ``int``."""
    return int(value) if isinstance(value, float) else value


def _unhalved(document: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    stored = tuple((_n(row["move"]), _n(row["dodge"])) for row in document["encumbrance"]["levels"])
    found = unhalved_levels(document, stored)
    return () if found is stored else found


@guarded
def combat_stats(document: Mapping[str, Any]) -> CombatStats:
    """The combat view of a character: pools, attributes, defenses, damage, encumbrance, DR,
    skills and weapons.

    The document must match the schema (checked first, by the fast check that valid documents
    take): the view is read from it as it is, so nothing invalid may reach the result. The result
    shares nothing with the document (later changes to either never affect the other), and its
    whole numbers are ``int`` whatever the document stored (``5.0`` is 5).

    Args:
        document: A schema-valid character document.

    Returns:
        A :class:`CombatStats` (its ``to_dict()`` is the reference's JSON).

    Raises:
        CharacterError: ``notAnObject``, or ``schema`` when the document does not match the schema.
    """
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    require_valid(document)
    return _project(document)
