"""Attack and defense of a character: :func:`~gurps_character.attack_skill` and
:func:`~gurps_character.defense` with the inputs the document holds filled in.

An engine names the character, the weapon (or skill) and what happens this turn; this layer reads
the rest from the sheet and calls the pure functions of :mod:`gurps_character.combat`, so the
result is exactly theirs, plus where its base came from.

What the layer fills in, and from where:

* **Attack's base skill**: a named skill's level (``skill``), or a weapon's level (``weapon``,
  and ``mode`` when it has several): the combat view's weapon rows, which hold GCS's level for
  an imported character and the level of the weapon's skill otherwise. ``ranged`` follows the
  weapon; a ranged weapon's Acc (the leading number of its accuracy: ``3`` of ``3+1``, a scope's
  bonus left to the caller) and Bulk fill ``acc`` and ``bulk``.
* **The weapon's minimum ST** (B270, ranged weapons: the format stores none for melee ones):
  -1 to the base per point of ST under it, with ST halved while FP is tired or worse (B426).
  GCS's level counts the deficit at full ST already: an imported weapon takes only what the
  halving adds.
* **Dodge, Parry, Block**: the sheet's scores, or a named weapon's parry or block (its row's).
  Dodge is the unencumbered one and ``encumbrance_level`` the level the carried weight gives
  (B17); while the condition halves Dodge (HP reeling, FP tired, B419, B426), the base is the
  halved Dodge of that level, with ``encumbrance_level`` 0, as the combat module asks. The parry
  style follows a fencing weapon (parry ``F``) or a Boxing, Judo, Karate, Brawling or fencing
  skill.
* **Combat Reflexes** (+1 to every active defense, B43): a score from the sheet already counts it
  (the combat module's rule), so it is added only where the sheet shows it does not: the
  character has the trait (``Combat Reflexes``, by its English name; or ``combat_reflexes=``),
  the character was not imported from GCS (GCS counts it), and the score is no higher than the
  Basic Set's bare formula (Dodge ``floor(Basic Speed) + 3``, Parry ``floor(skill / 2) + 3`` + the
  weapon's parry modifier, Block ``floor(skill / 2) + 3``). A score above it is taken to count it
  (Enhanced Defenses cannot be told apart).
* **Shock** is the engine's to pass (``shock=hit.shock`` from the last
  :func:`~gurps_character.resolve_hit`): the document keeps no shock. It never touches a defense.

Everything the caller passes goes to the pure function unchanged and wins over what the sheet
would fill (``acc=4`` for a scope, ``encumbrance_level=0`` for a pack dropped this turn), except
``ranged`` against the weapon's kind, which is refused.

Why one module of this length: each function fills the same inputs of :mod:`.combat` from the
same sheet readings (the weapon rows, the shield's DB, Combat Reflexes, the parry style), and
the readings are shared by attack and defense alike.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal, NoReturn, TypeAlias, TypedDict, Unpack, cast

from ._extension import GCS_IMPORT, importer_record, kept_gcs_data
from ._frozen import json_number
from .combat import (
    AttackDirection,
    AttackManeuver,
    AttackSkill,
    CombatModifier,
    DefenderManeuver,
    Defense,
    DefenseKind,
    ParryStyle,
    Posture,
    _choice,
    _flag,
    _integer,
    _modifiers_json,
    _refuse,
    attack_skill,
    defense,
)
from .conditions import get_condition, halved, halvings, unhalved_levels
from .errors import CharacterError, guarded, json_detail
from .stats import CombatStats, MeleeWeaponStats, RangedWeaponStats, _records, combat_stats

__all__ = [
    "AttackOptions",
    "CharacterAttack",
    "CharacterDefense",
    "DbSource",
    "DefenseChoice",
    "DefenseOptions",
    "NoDefenseWhy",
    "best_defense",
    "character_attack_skill",
    "character_defense",
    "character_defenses",
]


class AttackOptions(TypedDict, total=False):
    """The keyword arguments of :func:`~gurps_character.attack_skill` (all but ``base_skill``),
    as :func:`character_attack_skill` passes them on."""

    ranged: bool
    maneuver: AttackManeuver
    location: str
    target_sm: int
    distance_yards: float | None
    target_speed_yards: float
    aim_turns: int
    acc: int
    braced: bool
    bulk: int
    rof: int
    deceptive: int
    rapid_strike: bool
    master: bool
    dual_weapon: bool
    off_hand: bool
    ambidextrous: bool
    evaluate_turns: int
    posture: Posture
    shock: int
    visibility: int


class DefenseOptions(TypedDict, total=False):
    """The keyword arguments of :func:`~gurps_character.defense` (all but ``kind`` and
    ``base``), as :func:`character_defense` passes them on."""

    maneuver_of_defender: DefenderManeuver
    retreat: bool
    parry_style: ParryStyle
    parries_so_far: int
    master: bool
    attack_direction: AttackDirection
    posture: Posture
    stunned: bool
    deceptive: int
    feint: int
    dual_weapon_attack: bool
    shield_db: int
    encumbrance_level: int
    unarmed_vs_weapon: bool
    vs_ranged: bool


DbSource: TypeAlias = Literal["passed", "sheet", "none"]
"""Where a defense's DB came from (:attr:`CharacterDefense.db_source`)."""

_ATTACK_OPTIONS: Final = tuple(AttackOptions.__annotations__)
_DEFENSE_OPTIONS: Final = tuple(DefenseOptions.__annotations__)
_KINDS: Final = ("dodge", "parry", "block")

_STYLE_OF_SKILL: Final[Mapping[str, ParryStyle]] = {
    "boxing": "boxing",
    "judo": "judo",
    "karate": "karate",
    "brawling": "unarmed",
    "sumo wrestling": "unarmed",
    "main-gauche": "fencing",
    "rapier": "fencing",
    "saber": "fencing",
    "smallsword": "fencing",
}
"""The parry style a skill parries with (B376, B391): the unarmed skills and the Basic Set's
fencing weapons' skills; any other skill parries as a weapon."""

_LEADING_NUMBER: Final = re.compile(r"\s*([0-9]+)")

_MODIFIER_PAGES: Final[Mapping[str, str]] = {
    "combat_reflexes": "B43",
    "shield_db_in_sheet": "B374",
    "encumbrance": "B17",
    "hp_halving": "B419",
    "fp_halving": "B426",
    "minimum_st": "B270",
}


# ---------------------------------------------------------------- results


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)


def _options_json(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as JSON: camelCase names, a whole float as the int it is (``10.0`` yards: 10)."""
    return {_camel(name): json_detail(json_number(value)) for name, value in options.items()}


@dataclass(frozen=True, slots=True)
class CharacterAttack:
    """The effective skill of one attack of a character, and where its base came from (see
    :func:`character_attack_skill`).

    ``attack`` is exactly ``attack_skill(base, **options)``, and ``base`` is ``sheet_value`` plus
    the ``adjustments``.

    Attributes:
        attack: The :class:`~gurps_character.AttackSkill`: ``effective``, ``modifiers``, ``capped``.
        base: The base skill passed to :func:`~gurps_character.attack_skill`.
        sheet_value: The level read from the document.
        source: Where it came from, in words (``"Broadsword, used with the skill Broadsword"``,
            ``"Natural Attacks (Punch), at GCS's level"``, ``"the skill Brawling"``).
        pointer: The JSON Pointer of the number read (the skill's level, or the importer's
            record of the weapon).
        weapon: The name of the weapon row used, or None.
        skill: The skill used, where known (None for a GCS weapon whose skill has another name).
        adjustments: What the layer added to the sheet's level, as ``(id, value, page)``:
            ``minimum_st`` (-1 per point of ST under the weapon's, B270).
        options: Every keyword passed to :func:`~gurps_character.attack_skill`: the caller's and
            those filled from the sheet (``ranged``, ``acc``, ``bulk``).
    """

    attack: AttackSkill
    base: int
    sheet_value: int
    source: str
    pointer: str
    weapon: str | None
    skill: str | None
    adjustments: tuple[CombatModifier, ...]
    options: Mapping[str, Any]

    @property
    def effective(self) -> int:
        """What the attacker rolls against (``attack.effective``)."""
        return self.attack.effective

    def to_dict(self) -> dict[str, Any]:
        """The character attack as JSON data.

        Returns:
            The attack with the options' names in camelCase (``targetSm``, ``distanceYards`` ...),
            ``{"attack": {"effective", "modifiers", "capped"}, "base", "sheetValue", "source",
            "pointer", "weapon", "skill", "adjustments": [{"id", "value", "page"}], "options"}``.
        """
        return {
            "attack": self.attack.to_dict(),
            "base": self.base,
            "sheetValue": self.sheet_value,
            "source": self.source,
            "pointer": self.pointer,
            "weapon": self.weapon,
            "skill": self.skill,
            "adjustments": _modifiers_json(self.adjustments),
            "options": _options_json(self.options),
        }


@dataclass(frozen=True, slots=True)
class CharacterDefense:
    """The value of one active defense of a character, and where its base came from (see
    :func:`character_defense`).

    ``defense`` is exactly ``defense(kind, base, **options)``, and ``base`` is ``sheet_value``
    plus the ``adjustments``.

    Attributes:
        kind: ``"dodge"``, ``"parry"`` or ``"block"``.
        defense: The :class:`~gurps_character.Defense`: ``value`` (None: no defense), ``modifiers``,
            ``reason``.
        base: The base passed to :func:`~gurps_character.defense`.
        sheet_value: The score read from the document (Dodge: the unencumbered one).
        source: Where it came from, in words (``"the sheet's Dodge"``, ``"the parry of Large
            Knife"``, ``"GCS's parry with Natural Attacks (Punch)"``).
        pointer: The JSON Pointer of the score read (for a weapon's parry worked out from its
            skill: the weapon's entry).
        weapon: The name of the weapon row used, or None.
        skill: The skill the score comes from, where known.
        adjustments: What the layer did to the sheet's score, as ``(id, value, page)``:
            ``combat_reflexes`` (+1, B43), and while Dodge is halved ``encumbrance`` (B17),
            ``hp_halving`` (B419) and ``fp_halving`` (B426).
        options: Every keyword passed to :func:`~gurps_character.defense`: the caller's and
            those filled from the sheet (``encumbrance_level``, ``parry_style``, ``shield_db``).
        db: The shield's or cloak's DB in ``value``, counted exactly once (B374): the
            ``shield_db`` passed, else the DB the sheet counts (GCS adds an equipped shield's DB
            to every defense: it is taken out of the base, ``shield_db_in_sheet``, and added
            back once), else 0.
        db_source: Where ``db`` came from: ``"passed"`` (``shield_db``), ``"sheet"`` (the DB
            GCS counted for the equipped shields and cloaks) or ``"none"``.
    """

    kind: DefenseKind
    defense: Defense
    base: int
    sheet_value: int
    source: str
    pointer: str
    weapon: str | None
    skill: str | None
    adjustments: tuple[CombatModifier, ...]
    options: Mapping[str, Any]
    db: int = 0
    db_source: DbSource = "none"

    @property
    def value(self) -> int | None:
        """What the defender rolls against (``defense.value``), or None when no defense is possible."""
        return self.defense.value

    def to_dict(self) -> dict[str, Any]:
        """The character defense as JSON data.

        Returns:
            The defense with the options' names in camelCase,
            ``{"kind", "defense": {"value", "modifiers", "reason"}, "base", "sheetValue", "source",
            "pointer", "weapon", "skill", "adjustments": [{"id", "value", "page"}], "options", "db",
            "dbSource"}``.
        """
        return {
            "kind": self.kind,
            "defense": self.defense.to_dict(),
            "base": self.base,
            "sheetValue": self.sheet_value,
            "source": self.source,
            "pointer": self.pointer,
            "weapon": self.weapon,
            "skill": self.skill,
            "adjustments": _modifiers_json(self.adjustments),
            "options": _options_json(self.options),
            "db": self.db,
            "dbSource": self.db_source,
        }


def _db_of(result: Defense) -> int:
    return next((value for name, value, _ in result.modifiers if name == "shield_db"), 0)


# ---------------------------------------------------------------- arguments


def _name(value: object, name: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    _refuse(name, value, "a name (a string) or None", {"type": ["string", "null"]})


def _options(
    options: Mapping[str, Any], allowed: tuple[str, ...], function: str, own: str, instead: str
) -> dict[str, Any]:
    """The caller's options, each a keyword of ``function``; ``own`` is what the layer reads
    itself (``base_skill``), refused with a word on what to pass ``instead``."""
    for key, value in options.items():
        if key in allowed:
            continue
        if key == own:
            raise CharacterError(
                "invalidArgument",
                f"{own} is the character's: {instead}.",
                {"name": own, "value": json_detail(value)},
            )
        listed = ", ".join(repr(option) for option in allowed)
        raise CharacterError(
            "invalidArgument",
            f"{key!r} is not an option of {function}; its options are {listed}.",
            {"name": key, "value": json_detail(value), "allowed": list(allowed)},
        )
    return dict(options)


def _spaced(text: str) -> str:
    return " ".join(text.split()).casefold()


# ---------------------------------------------------------------- weapons


_Row = MeleeWeaponStats | RangedWeaponStats


@dataclass(frozen=True, slots=True)
class _Found:
    """A weapon row the caller's name matches: ``mode`` is the text in parentheses after that
    name (GCS's usage: ``Punch`` of "Natural Attacks (Punch)"), None for the name itself."""

    row: _Row
    kind: Literal["melee", "ranged"]
    index: int
    mode: str | None

    @property
    def mode_name(self) -> str:
        return self.mode if self.mode is not None else self.kind

    def matches(self, mode: str) -> bool:
        wanted = _spaced(mode)
        if self.mode is not None and _spaced(self.mode) == wanted:
            return True
        return wanted == self.kind or any(line.base == wanted for line in self.row.damage)


def _mode_of(name: str, wanted: str) -> str | None:
    """The text in parentheses after ``wanted`` in ``name`` (both compared as :func:`_spaced`),
    or None when ``name`` is not ``wanted (...)``."""
    spaced = _spaced(name)
    if not (spaced.startswith(wanted + " (") and spaced.endswith(")")):
        return None
    plain = " ".join(name.split())
    if len(plain) == len(spaced):  # the name's own spelling, where case folding kept the length
        return plain[len(wanted) + 2 : -1]
    return spaced[len(wanted) + 2 : -1]


def _find_weapon(
    stats: CombatStats,
    weapon: str,
    mode: str | None,
    kinds: tuple[Literal["melee", "ranged"], ...],
    numbers: Callable[[_Found], Hashable],
    usable: Callable[[_Found], bool],
) -> _Found:
    """The row of the weapon called ``weapon`` (case and spaces aside), or ``weapon (mode)``.

    Without ``mode``: the row so called, else every ``weapon (...)`` row. With it: every row
    whose text in parentheses, kind (``melee``, ``ranged``) or damage line's base (``swing``,
    ``thrust``) it names. Of those, the ``usable`` ones, if any (those with a level for an
    attack, a parry for a parry: "Natural Attacks" parries with its Punch). Several rows that
    give the same ``numbers`` (or that no mode tells apart) are one: the first; rows that
    differ ask for a ``mode``."""
    wanted = _spaced(weapon)
    named: list[_Found] = []
    modes: list[_Found] = []
    every: list[str] = []
    for kind in kinds:
        rows: Sequence[_Row] = stats.weapons.melee if kind == "melee" else stats.weapons.ranged
        for index, row in enumerate(rows):
            every.append(row.name)
            if _spaced(row.name) == wanted:
                named.append(_Found(row, kind, index, None))
            else:
                found = _mode_of(row.name, wanted)
                if found is not None:
                    modes.append(_Found(row, kind, index, found))
    if not named and not modes:
        which = "melee weapons" if kinds == ("melee",) else "weapons"
        listed = ", ".join(repr(name) for name in dict.fromkeys(every)) or "it has none"
        _refuse("weapon", weapon, f"one of the character's {which} ({listed})", list(dict.fromkeys(every)))
    pool = named + modes
    names = list(
        dict.fromkeys(
            name
            for found in pool
            for name in (found.mode_name, *(line.base for line in found.row.damage))
            if name is not None and name != "fixed"
        )
    )
    if mode is None:
        chosen = named or modes
    else:
        chosen = [found for found in pool if found.matches(mode)]
        if not chosen:
            _refuse_mode(weapon, mode, names)
    chosen = [found for found in chosen if usable(found)] or chosen
    if len({found.mode_name for found in chosen}) > 1 and len({numbers(found) for found in chosen}) > 1:
        _refuse_mode(weapon, mode, list(dict.fromkeys(found.mode_name for found in chosen)))
    return chosen[0]


def _refuse_mode(weapon: str, mode: str | None, names: list[str]) -> NoReturn:
    listed = ", ".join(repr(name) for name in names)
    _refuse("mode", mode, f"one of {listed} for {weapon!r}", names)


def _leading_number(text: object) -> int | None:
    """The whole number a weapon's text starts with (``3`` of ``3+1``, ``10`` of ``10†``)."""
    if not isinstance(text, str):
        return None
    found = _LEADING_NUMBER.match(text)
    return int(found.group(1)) if found is not None and len(found.group(1)) <= 6 else None


def _record_pointer(kind: str, index: int, key: str) -> str:
    return f"/extensions/{GCS_IMPORT}/weapons/{kind}/{index}/{key}"


def _skill_index(stats: CombatStats, name: str | None, level: int | None = None) -> int | None:
    """The place in ``/skills`` of the skill called ``name`` (with that level, when given)."""
    for index, skill in enumerate(stats.skills):
        if skill.name == name and (level is None or skill.level == level):
            return index
    return None


def _imported(document: Mapping[str, Any]) -> bool:
    """Whether the GCS importer made the document (its numbers are GCS's, which count every trait)."""
    extensions = document.get("extensions")
    return isinstance(extensions, Mapping) and GCS_IMPORT in extensions


_DB_ATTRIBUTES: Final = ("dodge", "parry", "block")


def _item_db(item: Mapping[str, Any]) -> int:
    """The DB an equipped GCS item gives: the same bonus to Dodge, Parry and Block (GCS writes a
    shield's or cloak's DB so, B374, B287); 0 for anything else (Enhanced Dodge is Dodge alone)."""
    amounts: dict[str, float] = {}
    for feature in item.get("features") or ():
        if not isinstance(feature, Mapping) or feature.get("type") != "attribute_bonus":
            continue
        attribute, amount = feature.get("attribute"), feature.get("amount")
        if attribute in _DB_ATTRIBUTES and isinstance(amount, int | float) and not isinstance(amount, bool):
            amounts[attribute] = amounts.get(attribute, 0) + amount
    values = {amounts.get(name) for name in _DB_ATTRIBUTES}
    if len(values) != 1:
        return 0
    (value,) = values
    return int(value) if value is not None and value > 0 and float(value).is_integer() else 0


def _equipped_db(items: object, depth: int = 0) -> int:
    if not isinstance(items, list) or depth > 50:
        return 0
    total = 0
    for item in items:
        if isinstance(item, Mapping) and item.get("equipped", True) is not False:
            total += _item_db(item) + _equipped_db(item.get("children"), depth + 1)
    return total


def _sheet_db(document: Mapping[str, Any]) -> int:
    """The DB the sheet's Dodge, Parry and Block already count: what GCS added for the shields
    and cloaks equipped (an import), else 0 (the format's formulas leave DB out, and a stored
    override is read the same way: pass the DB as ``shield_db``)."""
    gcs = kept_gcs_data(document)
    return _equipped_db(gcs.get("equipment")) if gcs is not None else 0


def _db_out(document: Mapping[str, Any]) -> tuple[CombatModifier, ...]:
    """The sheet's DB taken out of its score, so that ``shield_db`` counts it exactly once."""
    counted = _sheet_db(document)
    return (("shield_db_in_sheet", -counted, "B374"),) if counted else ()


def _has_combat_reflexes(document: Mapping[str, Any]) -> bool:
    for trait in document.get("traits") or ():
        name = _spaced(trait["name"])
        if name == "combat reflexes" or name.startswith("combat reflexes "):
            return True
    return False


# ---------------------------------------------------------------- attacks


@dataclass(frozen=True, slots=True)
class _Base:
    """A base read from the document, before the pure function."""

    value: int
    source: str
    pointer: str
    skill: str | None
    adjustments: tuple[CombatModifier, ...] = ()

    @property
    def total(self) -> int:
        return self.value + sum(value for _, value, _ in self.adjustments)


def _named_skill(stats: CombatStats, skill: str) -> tuple[int, str]:
    """``(index, name)`` in ``/skills`` of the skill called ``skill`` (case and spaces aside)."""
    wanted = _spaced(skill)
    for index, found in enumerate(stats.skills):
        if _spaced(found.name) == wanted:
            return index, found.name
    names = list(dict.fromkeys(found.name for found in stats.skills))
    listed = ", ".join(repr(name) for name in names) or "it has none"
    _refuse("skill", skill, f"one of the character's skills ({listed})", names)


def _minimum_st(
    document: Mapping[str, Any], stats: CombatStats, found: _Found, from_gcs: bool
) -> tuple[CombatModifier, ...]:
    """-1 per point of ST under a ranged weapon's minimum ST (B270), with ST as the condition
    leaves it (halved while FP is tired or worse, B426). GCS's level counts the deficit at full
    ST: only what the halving adds is taken off it."""
    minimum = _leading_number(found.row.entry.get("minST")) if found.kind == "ranged" else None
    if minimum is None:
        return ()
    full = stats.attributes.st
    now = get_condition(document).st
    deficit = max(0, minimum - now) - (max(0, minimum - full) if from_gcs else 0)
    return (("minimum_st", -deficit, _MODIFIER_PAGES["minimum_st"]),) if deficit else ()


def _attack_numbers(found: _Found) -> Hashable:
    entry = found.row.entry
    return (found.kind, found.row.level, entry.get("accuracy"), entry.get("bulk"), entry.get("minST"))


def _has_level(skill: str | None) -> Callable[[_Found], bool]:
    """Rows an attack can use: any, with a skill named; else those with a level."""
    return lambda found: skill is not None or found.row.level is not None


def _refuse_no_level(found: _Found, weapon: str, from_gcs: bool) -> NoReturn:
    if from_gcs:
        why = f"GCS gives {found.row.name!r} no level"
    else:
        why = (
            f"the document cannot say which skill {found.row.name!r} is used with (no skill is "
            "named as it, in its name or in its notes)"
        )
    raise CharacterError(
        "invalidArgument",
        f"weapon {weapon!r} has no skill level: {why}; pass skill to name the one it is used with.",
        {"name": "weapon", "value": weapon, "because": {"skill": None}},
    )


def _weapon_base(
    document: Mapping[str, Any], stats: CombatStats, found: _Found, weapon: str, skill: str | None
) -> _Base:
    from_gcs = _records(document, len(stats.weapons.melee), len(stats.weapons.ranged)) is not None
    row = found.row
    if skill is not None:
        index, name = _named_skill(stats, skill)
        # the skill's own level: the whole deficit counts, as for any document's skill
        adjustments = _minimum_st(document, stats, found, False)
        return _Base(
            stats.skills[index].level,
            f"{row.name}, used with the skill {name}",
            f"/skills/{index}/level",
            name,
            adjustments,
        )
    if row.level is None:
        _refuse_no_level(found, weapon, from_gcs)
    if from_gcs:
        pointer = _record_pointer(found.kind, found.index, "level")
        source = f"{row.name}, at GCS's level"
    else:
        index_found = _skill_index(stats, row.skill, row.level)
        pointer = (
            f"/skills/{index_found}/level"
            if index_found is not None
            else f"/weapons/{found.kind}/{found.index}"
        )
        source = f"{row.name}, used with the skill {row.skill}"
    return _Base(row.level, source, pointer, row.skill, _minimum_st(document, stats, found, from_gcs))


def _fill_ranged_weapon(found: _Found, options: dict[str, Any]) -> None:
    """``acc`` and ``bulk`` from a ranged weapon, where the caller gave none."""
    entry = found.row.entry
    if "acc" not in options:
        accuracy = entry.get("accuracy")
        acc = _leading_number(accuracy)
        if acc is not None:
            options["acc"] = acc
        else:
            aim = options.get("aim_turns", 0)
            if isinstance(aim, int) and not isinstance(aim, bool) and aim > 0:
                stored = (
                    f"its accuracy {accuracy!r} is no number"
                    if accuracy is not None
                    else "it stores no accuracy"
                )
                raise CharacterError(
                    "invalidArgument",
                    f"acc is needed to aim {found.row.name!r}: {stored}.",
                    {
                        "name": "acc",
                        "value": None,
                        "because": {"weapon": found.row.name, "accuracy": accuracy},
                    },
                )
    bulk = json_number(entry.get("bulk"))
    if "bulk" not in options and type(bulk) is int:
        options["bulk"] = bulk


@guarded
def character_attack_skill(
    document: Mapping[str, Any],
    *,
    weapon: str | None = None,
    mode: str | None = None,
    skill: str | None = None,
    **options: Unpack[AttackOptions],
) -> CharacterAttack:
    """The effective skill of one attack of a character (:func:`~gurps_character.attack_skill`),
    its base read from the document.

    The base skill is the level of ``skill`` when it is named, else the ``weapon``'s level (its
    row in :func:`~gurps_character.combat_stats`: GCS's level for an imported character, the
    level of the weapon's skill otherwise). A weapon also sets ``ranged`` and, for a ranged one,
    ``acc`` (the leading number of its accuracy) and ``bulk``; a ranged weapon's minimum ST
    takes -1 per point the character's ST (halved while tired, B426) falls short (B270,
    ``adjustments``). Names match whatever their case and spacing. A weapon with several modes
    (GCS's "Spear (Thrust)" and "Spear (Thrown)", or a melee and a ranged row) is picked by
    ``mode``: the text in parentheses, ``melee`` or ``ranged``, or a damage line's ``swing`` or
    ``thrust``; modes that give the same numbers need none. The shock of last turn's injury is
    the engine's to pass (``shock=hit.shock``): the document keeps none.

    Args:
        document: A schema-valid character document (never modified).
        weapon: The name of one of the character's weapons, or None.
        mode: Which of the weapon's modes (None: the only one, or any that give the same numbers).
        skill: The name of one of the character's skills, or None; with a weapon, the skill it
            is used with (a weapon whose skill the document cannot say needs one).
        **options: Any keyword of :func:`~gurps_character.attack_skill` but ``base_skill``
            (:class:`AttackOptions`); they win over what the weapon fills, except a ``ranged``
            that contradicts the weapon.

    Returns:
        A :class:`CharacterAttack`, ``attack_skill(base, **options)`` and where the base came from.

    Raises:
        CharacterError: ``notAnObject``, or ``schema`` when the document does not match the
            schema; ``invalidArgument`` (``details``: ``name``, ``value``, and ``allowed`` or
            ``because``) for neither a weapon nor a skill, a weapon or skill the character does
            not have, a ``mode`` without a weapon or that names none of its modes (or several
            that differ), a weapon with no level the document can tell and no ``skill``, a
            ranged weapon aimed whose accuracy is no number and no ``acc``, an option that is
            not one of :func:`~gurps_character.attack_skill`'s or contradicts the weapon's
            kind, and everything :func:`~gurps_character.attack_skill` refuses.
    """
    stats = _stats(document)
    weapon_name = _name(weapon, "weapon")
    mode_name = _name(mode, "mode")
    skill_name = _name(skill, "skill")
    passed = _options(
        options, _ATTACK_OPTIONS, "attack_skill", "base_skill", "name a weapon or a skill instead"
    )
    if mode_name is not None and weapon_name is None:
        _refuse("mode", mode_name, "None without a weapon", [None], {"weapon": None})
    if weapon_name is None:
        if skill_name is None:
            raise CharacterError(
                "invalidArgument",
                "An attack needs a weapon or a skill: pass weapon or skill.",
                {"name": "weapon", "value": None},
            )
        index, name = _named_skill(stats, skill_name)
        base = _Base(stats.skills[index].level, f"the skill {name}", f"/skills/{index}/level", name)
        row_name = None
    else:
        found = _find_weapon(
            stats, weapon_name, mode_name, ("melee", "ranged"), _attack_numbers, _has_level(skill_name)
        )
        ranged = found.kind == "ranged"
        given = passed.get("ranged", ranged)
        if isinstance(given, bool) and given != ranged:
            _refuse(
                "ranged",
                given,
                f"{ranged} for the {found.kind} weapon {found.row.name!r}",
                [ranged],
                {"weapon": found.row.name},
            )
        passed.setdefault("ranged", ranged)
        if ranged:
            _fill_ranged_weapon(found, passed)
        base = _weapon_base(document, stats, found, weapon_name, skill_name)
        row_name = found.row.name
    result = attack_skill(base.total, **passed)
    return CharacterAttack(
        attack=result,
        base=base.total,
        sheet_value=base.value,
        source=base.source,
        pointer=base.pointer,
        weapon=row_name,
        skill=base.skill,
        adjustments=base.adjustments,
        options=MappingProxyType(passed),
    )


# ---------------------------------------------------------------- defenses


def _stats(document: Mapping[str, Any]) -> CombatStats:
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    return combat_stats(document)


def _current_level(stats: CombatStats, options: Mapping[str, Any]) -> int:
    """The encumbrance level: the caller's, else the one the carried weight gives (B17), as its
    place in the table (0 none ... 4 extra-heavy)."""
    if "encumbrance_level" in options:
        return _integer(options["encumbrance_level"], "encumbrance_level", 0, 4)
    return stats.encumbrance.index(stats.current_encumbrance)


def _plus_reflexes(has_reflexes: bool, counted: bool) -> tuple[CombatModifier, ...]:
    if has_reflexes and not counted:
        return (("combat_reflexes", 1, _MODIFIER_PAGES["combat_reflexes"]),)
    return ()


def _dodge(
    document: Mapping[str, Any], stats: CombatStats, level: int, reflexes: bool, options: dict[str, Any]
) -> _Base:
    """The unencumbered Dodge, with ``encumbrance_level``; halved by the condition: that level's
    Dodge halved, with ``encumbrance_level`` 0 (the adjustments show each step)."""
    stored = tuple((row.move, row.dodge) for row in stats.encumbrance)
    levels = unhalved_levels(document, stored)
    if levels is stored:
        unencumbered, pointer = stats.dodge, "/defenses/dodge/value"
    else:  # GCS's Dodge may be halved already: the importer's record of it before
        unencumbered, pointer = levels[0][1], f"/extensions/{GCS_IMPORT}/unhalvedEncumbrance/dodge/0"
    counted = _imported(document) or unencumbered > math.floor(stats.basic_speed) + 3
    adjustments = [*_plus_reflexes(reflexes, counted), *_db_out(document)]
    by_fp = int(get_condition(document).effects.halve_st)
    by_hp = halvings(stats.hp.current, stats.hp.max, stats.fp.current, stats.fp.max) - by_fp
    if not by_hp + by_fp:
        options["encumbrance_level"] = level
        return _Base(unencumbered, "the sheet's Dodge", pointer, None, tuple(adjustments))
    encumbered = levels[level][1] - unencumbered
    if encumbered:
        adjustments.append(("encumbrance", encumbered, _MODIFIER_PAGES["encumbrance"]))
    before = unencumbered + sum(value for _, value, _ in adjustments)
    after_hp = halved(before, by_hp)
    after_fp = halved(after_hp, by_fp)
    for name, value in (("hp_halving", after_hp - before), ("fp_halving", after_fp - after_hp)):
        if value:
            adjustments.append((name, value, _MODIFIER_PAGES[name]))
    options["encumbrance_level"] = 0
    return _Base(unencumbered, "the sheet's Dodge", pointer, None, tuple(adjustments))


def _style(skill: str | None, notation: str | None, natural: bool = False) -> ParryStyle:
    """How a weapon or skill parries: fencing for a parry marked ``F``, else by its skill; a
    natural attack (a punch) whose skill says nothing parries bare-handed (B376)."""
    if notation is not None and "f" in notation.casefold():
        return "fencing"
    style = _STYLE_OF_SKILL.get(_spaced(skill), "weapon") if skill is not None else "weapon"
    return "unarmed" if natural and style == "weapon" else style


_NATURAL_NAMES: Final = ("natural attacks", "punch", "kick", "bite")


def _natural(document: Mapping[str, Any], row: _Row, index: int) -> bool:
    """Whether a melee row is a natural attack: GCS's weapon of a trait ("Natural Attacks
    (Punch)", a claw), or a row so named (``Punch``, ``Natural Attacks (Kick)``)."""
    name = _spaced(row.name)
    if any(name == word or name.startswith(word + " (") for word in _NATURAL_NAMES):
        return True
    records = importer_record(document, "weapons")
    kept = records.get("melee") if isinstance(records, Mapping) else None
    if isinstance(kept, list) and index < len(kept) and isinstance(kept[index], Mapping):
        source = kept[index].get("source")
        return isinstance(source, str) and source.startswith(("/advantages/", "/traits/"))
    return False


def _sheet_parry_bonus_counted(stats: CombatStats) -> bool:
    """Whether the sheet's Parry is above ``floor(skill / 2) + 3`` plus the parry modifier of a
    weapon used with its skill (what the combat view takes as the sheet's bonuses); True when
    the sheet does not say its skill."""
    sheet = stats.parry
    index = _skill_index(stats, sheet.skill)
    if index is None or sheet.value is None:
        return True
    level = stats.skills[index].level
    modifier = next(
        (
            row.parry.modifier
            for row in stats.weapons.melee
            if row.skill == sheet.skill and row.parry.modifier is not None
        ),
        0,
    )
    return sheet.value > level // 2 + 3 + modifier


def _sheet_block_counted(stats: CombatStats) -> bool:
    sheet = stats.block
    index = _skill_index(stats, sheet.skill)
    if index is None or sheet.value is None:
        return True
    return sheet.value > stats.skills[index].level // 2 + 3


def _refuse_weapon_defense(
    found: _Found, weapon: str, kind: str, from_gcs: bool, stats: CombatStats
) -> NoReturn:
    row = found.row
    if from_gcs:
        why = f"GCS gives it no {kind}"
    elif kind == "parry" and isinstance(row, MeleeWeaponStats) and row.parry.notation is None:
        why = "the document stores no parry for it"
    elif kind == "parry" and isinstance(row, MeleeWeaponStats) and row.parry.modifier is None:
        why = f"it cannot parry (its parry is {row.parry.notation!r})"
    elif kind == "parry":
        why = (
            "the document cannot say which skill it is used with (no skill is named as it, in "
            "its name or in its notes)"
        )
    elif stats.block.skill is None:
        why = (
            "only a weapon used with the skill of the sheet's Block blocks, and the sheet's Block names none"
        )
    else:
        why = f"only a weapon used with the skill of the sheet's Block ({stats.block.skill}) blocks"
    raise CharacterError(
        "invalidArgument",
        f"weapon {weapon!r} gives no {kind}: {why}.",
        {"name": "weapon", "value": weapon, "because": {"kind": kind}},
    )


def _defense_numbers(kind: str) -> Callable[[_Found], Hashable]:
    def numbers(found: _Found) -> Hashable:
        row = found.row
        assert isinstance(row, MeleeWeaponStats)
        if kind == "parry":
            return (row.parry.value, row.parry.notation, row.skill)
        return (row.block.value,)

    return numbers


def _gives(kind: str) -> Callable[[_Found], bool]:
    """Rows that give a parry (or a block)."""

    def gives(found: _Found) -> bool:
        row = found.row
        assert isinstance(row, MeleeWeaponStats)
        return (row.parry.value if kind == "parry" else row.block.value) is not None

    return gives


def _weapon_defense(
    document: Mapping[str, Any], stats: CombatStats, kind: str, found: _Found, weapon: str, reflexes: bool
) -> tuple[_Base, ParryStyle | None]:
    row = found.row
    assert isinstance(row, MeleeWeaponStats)
    from_gcs = _records(document, len(stats.weapons.melee), len(stats.weapons.ranged)) is not None
    imported = _imported(document)
    if kind == "parry":
        value = row.parry.value
        if value is None:
            _refuse_weapon_defense(found, weapon, kind, from_gcs, stats)
        modifier = row.parry.modifier
        bare = None if row.level is None or modifier is None else row.level // 2 + 3 + modifier
        counted = imported or bare is None or value > bare
        if from_gcs:
            pointer, source = _record_pointer("melee", found.index, "parry"), f"GCS's parry with {row.name}"
        else:
            pointer, source = f"/weapons/melee/{found.index}/parry", f"the parry of {row.name}"
        style = _style(row.skill, row.parry.notation, _natural(document, row, found.index))
        adjustments = (*_plus_reflexes(reflexes, counted), *_db_out(document))
        return _Base(value, source, pointer, row.skill, adjustments), style
    block = row.block.value
    if block is None:
        _refuse_weapon_defense(found, weapon, kind, from_gcs, stats)
    if from_gcs:
        pointer, source = _record_pointer("melee", found.index, "block"), f"GCS's block with {row.name}"
    else:
        pointer, source = "/defenses/block/value", f"the block of {row.name} (the sheet's Block)"
    counted = imported or _sheet_block_counted(stats)
    adjustments = (*_plus_reflexes(reflexes, counted), *_db_out(document))
    return _Base(block, source, pointer, row.skill, adjustments), None


def _sheet_defense(
    document: Mapping[str, Any], stats: CombatStats, kind: str, reflexes: bool
) -> tuple[_Base, ParryStyle | None]:
    sheet = stats.parry if kind == "parry" else stats.block
    pointer = f"/defenses/{kind}/value"
    if sheet.value is None:
        raise CharacterError(
            "invalidArgument",
            f"The sheet has no {kind.capitalize()} ({pointer} is null): name a weapon that can {kind}.",
            {"name": "kind", "value": kind, "because": {"pointer": pointer}},
        )
    imported = _imported(document)
    counted = imported or (
        _sheet_parry_bonus_counted(stats) if kind == "parry" else _sheet_block_counted(stats)
    )
    label = f"the sheet's {kind.capitalize()}" + (f" ({sheet.skill})" if sheet.skill else "")
    style = _style(sheet.skill, None) if kind == "parry" else None
    adjustments = (*_plus_reflexes(reflexes, counted), *_db_out(document))
    return _Base(sheet.value, label, pointer, sheet.skill, adjustments), style


@guarded
def character_defense(
    document: Mapping[str, Any],
    kind: DefenseKind,
    *,
    weapon: str | None = None,
    mode: str | None = None,
    combat_reflexes: bool | None = None,
    **options: Unpack[DefenseOptions],
) -> CharacterDefense:
    """The value of one active defense of a character (:func:`~gurps_character.defense`), its
    base read from the document.

    Dodge: the unencumbered Dodge, and ``encumbrance_level`` the level the carried weight gives
    (:attr:`~gurps_character.CombatStats.current_encumbrance`, B17); while HP is reeling or FP
    tired (or worse), that level's Dodge halved once per pool, rounding up (B419, B426), with
    ``encumbrance_level`` 0 (the steps are ``adjustments``). Parry: the sheet's Parry, or the
    ``weapon``'s (its row in :func:`~gurps_character.combat_stats`), with ``encumbrance_level``
    (it counts for fencing, Judo and Karate parries) and ``parry_style`` (``fencing`` for a
    parry marked ``F`` or a fencing skill; ``boxing``, ``judo``, ``karate``; ``unarmed`` for
    Brawling and Sumo Wrestling). Block: the sheet's Block, or the weapon's. Combat Reflexes
    (+1, B43) is added where the sheet does not count it already (see the module
    documentation). Weapons are named and their modes picked as for
    :func:`character_attack_skill` (melee weapons only).

    Args:
        document: A schema-valid character document (never modified).
        kind: ``"dodge"``, ``"parry"`` or ``"block"``.
        weapon: For a parry or block, the name of one of the character's melee weapons (None:
            the sheet's Parry or Block).
        mode: Which of the weapon's modes (None: the only one, or any that give the same numbers).
        combat_reflexes: Whether the character has Combat Reflexes (None: a trait so called).
        **options: Any keyword of :func:`~gurps_character.defense` but ``kind`` and ``base``
            (:class:`DefenseOptions`); they win over what the sheet fills.

    Returns:
        A :class:`CharacterDefense`, ``defense(kind, base, **options)`` and where the base came from.

    Raises:
        CharacterError: ``notAnObject``, or ``schema`` when the document does not match the
            schema; ``invalidArgument`` (``details``: ``name``, ``value``, and ``allowed`` or
            ``because``) for an unknown kind, a weapon for a dodge, a weapon the character does
            not have or that gives no such defense, a ``mode`` without a weapon or that names
            none of its modes (or several that differ), a sheet with no Parry or Block, a
            ``combat_reflexes`` that is not a bool or None, an option that is not one of
            :func:`~gurps_character.defense`'s, and everything :func:`~gurps_character.defense`
            refuses.
    """
    stats = _stats(document)
    which = _choice(kind, "kind", _KINDS)
    weapon_name = _name(weapon, "weapon")
    mode_name = _name(mode, "mode")
    reflexes = (
        _has_combat_reflexes(document)
        if combat_reflexes is None
        else _flag(combat_reflexes, "combat_reflexes")
    )
    passed = _options(
        options, _DEFENSE_OPTIONS, "defense", "base", "name a weapon, or none for the sheet's score"
    )
    if mode_name is not None and weapon_name is None:
        _refuse("mode", mode_name, "None without a weapon", [None], {"weapon": None})
    level = _current_level(stats, passed)
    row_name = None
    style: ParryStyle | None = None
    if which == "dodge":
        if weapon_name is not None:
            _refuse("weapon", weapon_name, "None for a dodge", [None], {"kind": "dodge"})
        base = _dodge(document, stats, level, reflexes, passed)
    elif weapon_name is not None:
        found = _find_weapon(
            stats, weapon_name, mode_name, ("melee",), _defense_numbers(which), _gives(which)
        )
        base, style = _weapon_defense(document, stats, which, found, weapon_name, reflexes)
        row_name = found.row.name
    else:
        base, style = _sheet_defense(document, stats, which, reflexes)
    if which == "parry":
        passed.setdefault("encumbrance_level", level)
        if style is not None:
            passed.setdefault("parry_style", style)
    counted = _sheet_db(document)
    if "shield_db" in passed:
        db_source: DbSource = "passed"
    else:
        db_source = "sheet" if counted else "none"
        if counted:
            passed["shield_db"] = counted
    chosen = cast(DefenseKind, which)
    result = defense(chosen, base.total, **passed)
    return CharacterDefense(
        kind=chosen,
        defense=result,
        base=base.total,
        sheet_value=base.value,
        source=base.source,
        pointer=base.pointer,
        weapon=row_name,
        skill=base.skill,
        adjustments=base.adjustments,
        options=MappingProxyType(passed),
        db=_db_of(result),
        db_source=db_source,
    )


# ---------------------------------------------------------------- every defense, and the best


NoDefenseWhy: TypeAlias = Literal[
    "all_out_attack",
    "attack_from_behind",
    "move_and_attack_no_parry",
    "no_parry",
    "no_block",
    "block_used",
    "unbalanced_weapon",
    "unconscious",
    "critical_hit",
    "weapon_dropped",
    "ranged_attack",
    "retreat_used",
]
"""Why a defense cannot be tried, the combat module's :data:`~gurps_character.NoDefenseReason`
(the defender's All-Out Attack, an attack from behind, a parry after a Move and Attack), a sheet
with nothing that parries or blocks, and (from a fight state) a block already made this turn, a
U weapon that attacked this turn, an unconscious defender, a critical hit (B556), a dropped or
unready weapon, a parry against a ranged attack, a retreat already made from another attacker."""

_PARRY_ONLY: Final = ("parry_style", "parries_so_far", "unarmed_vs_weapon")


@dataclass(frozen=True, slots=True)
class DefenseChoice:
    """One active defense a character may try, or why it cannot.

    Attributes:
        kind: ``"dodge"``, ``"parry"`` or ``"block"``.
        weapon: The weapon that parries or blocks (its row's name), or None (Dodge, or the
            sheet's Parry or Block).
        defense: The :class:`CharacterDefense`, or None when there is nothing to defend with.
        reason: None when the defense can be tried; else a :data:`NoDefenseWhy`.
    """

    kind: DefenseKind
    weapon: str | None
    defense: CharacterDefense | None
    reason: NoDefenseWhy | None

    @property
    def value(self) -> int | None:
        """What the defender rolls against, or None when this defense cannot be tried."""
        return None if self.reason is not None or self.defense is None else self.defense.value

    def to_dict(self) -> dict[str, Any]:
        """The defense choice as JSON data.

        Returns:
            ``{"kind", "weapon", "value", "reason", "defense"}`` (``defense`` camelCase, or None).
        """
        return {
            "kind": self.kind,
            "weapon": self.weapon,
            "value": self.value,
            "reason": self.reason,
            "defense": None if self.defense is None else self.defense.to_dict(),
        }


def _choice_of(kind: DefenseKind, weapon: str | None, found: CharacterDefense) -> DefenseChoice:
    reason = cast("NoDefenseWhy | None", found.defense.reason)
    return DefenseChoice(kind, weapon, found, reason)


def _defenders(stats: CombatStats, kind: str) -> list[str]:
    """The names of the melee rows that give a parry (or a block), one per weapon: GCS's modes
    of one weapon ("Broadsword (Swung)", "Broadsword (Thrust)") that give the same numbers are
    one weapon, named by its first row."""
    names: list[str] = []
    seen: set[Hashable] = set()
    for row in stats.weapons.melee:
        value = row.parry.value if kind == "parry" else row.block.value
        key = (_spaced(row.name).split(" (")[0], value, row.parry.notation, row.skill)
        if value is not None and key not in seen:
            seen.add(key)
            names.append(row.name)
    return names


@guarded
def character_defenses(
    document: Mapping[str, Any],
    *,
    combat_reflexes: bool | None = None,
    **options: Unpack[DefenseOptions],
) -> tuple[DefenseChoice, ...]:
    """Every active defense of a character against one attack: Dodge, a parry with each melee
    weapon that parries (the sheet's Parry when none does), a block with each that blocks (the
    sheet's Block when none does), in that order; a defense the character has no means for is
    a :class:`DefenseChoice` with ``reason`` ``no_parry`` or ``no_block`` instead of an error,
    and one the situation forbids carries the combat module's reason.

    Args:
        document: A schema-valid character document (never modified).
        combat_reflexes: As for :func:`character_defense`.
        **options: Any keyword of :func:`~gurps_character.defense` but ``kind`` and ``base``;
            the parry's own (``parry_style``, ``parries_so_far``, ``unarmed_vs_weapon``) go to
            parries only.

    Returns:
        The choices, in the order above.

    Raises:
        CharacterError: As :func:`character_defense`.
    """
    stats = _stats(document)
    common: dict[str, Any] = {key: value for key, value in options.items() if key not in _PARRY_ONLY}
    choices = [
        _choice_of(
            "dodge", None, character_defense(document, "dodge", combat_reflexes=combat_reflexes, **common)
        )
    ]
    kinds: tuple[DefenseKind, ...] = ("parry", "block")
    for which in kinds:
        kind = which
        passed: dict[str, Any] = dict(options) if kind == "parry" else common
        weapons: list[str | None] = list(_defenders(stats, kind))
        sheet = stats.parry if kind == "parry" else stats.block
        if not weapons and sheet.value is not None:
            weapons = [None]
        if not weapons:
            choices.append(DefenseChoice(which, None, None, "no_parry" if kind == "parry" else "no_block"))
        for weapon in weapons:
            found = character_defense(
                document, which, weapon=weapon, combat_reflexes=combat_reflexes, **passed
            )
            choices.append(_choice_of(which, found.weapon, found))
    return tuple(choices)


def _best_of(choices: Sequence[DefenseChoice]) -> DefenseChoice | None:
    """The choice with the highest value (the first of equals: Dodge before a parry before a
    block), or None when none can be tried."""
    best: DefenseChoice | None = None
    for choice in choices:
        value = choice.value
        if value is not None and (best is None or value > cast(int, best.value)):
            best = choice
    return best


@guarded
def best_defense(
    document: Mapping[str, Any],
    *,
    combat_reflexes: bool | None = None,
    **options: Unpack[DefenseOptions],
) -> DefenseChoice:
    """The character's best active defense against one attack (:func:`character_defenses`'s
    highest value; of equals, Dodge first, then a parry, then a block), or, when none can be
    tried, the first choice, whose ``value`` is None and whose ``reason`` says why ("none,
    because ...", never an error).

    Args:
        document: A schema-valid character document (never modified).
        combat_reflexes: As for :func:`character_defense`.
        **options: As for :func:`character_defenses`.

    Returns:
        A :class:`DefenseChoice`.

    Raises:
        CharacterError: As :func:`character_defense`.
    """
    choices = character_defenses(document, combat_reflexes=combat_reflexes, **options)
    return _best_of(choices) or choices[0]
