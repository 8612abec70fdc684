"""Weapon modes and what GCS resolves them against: the character (striking, lifting and
telekinetic ST, thrust and swing, the Parry and Block bonuses), the traits, items, skills and spells
that hold weapons, and each mode with GCS's level from each of its defaults."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final

from ..format.features import Feature, display_name, owner_features, trait_level
from ..format.fields import (
    MAX_DEPTH,
    Node,
    boolean,
    children,
    fill_placeholders,
    kind_of,
    mapping,
    node_list,
    number,
    number_or_text,
    text,
)
from ..format.progression import progression_of, swing, thrust
from ..format.units import dice
from ..format.weapon_bonuses import WeaponIdentity
from ..format.weapon_damage import WeaponDamageResult, Wielder
from .context import Context
from .skills import SkillSections
from .weapon_skills import WeaponSkill, WeaponSkills

__all__ = [
    "Character",
    "Default",
    "Mode",
    "Owner",
    "character_of",
    "criterion_text",
    "mode_of",
    "owner_of",
    "weapon_owners",
]

_RULE_OF_20: Final = 20
_SKILL_BASED: Final = ("skill", "parry", "block")


@dataclass(slots=True)
class Character:
    """What every weapon of one import is resolved with."""

    ctx: Context
    wielder: Wielder
    skills: WeaponSkills
    parry_bonus: float
    block_bonus: float
    half_stat_defaults: bool
    skill_encumbrance: int | None = None
    """The encumbrance level skills suffer (0-4), figured when a weapon needs it."""
    defaults: dict[tuple[object, ...], Default] = field(default_factory=dict)
    """The skill defaults resolved so far, by what they say (see :func:`_default`)."""
    saved_damage: dict[str, WeaponDamageResult] = field(default_factory=dict)
    """GCS's saved damage texts read so far (see :func:`.weapons._saved_damage`)."""


@dataclass(frozen=True, slots=True)
class Default:
    """One default of a weapon: its type, GCS's level from it (modifier included; None when it
    names nothing the character has), the skill name and specialization it names, and the
    document skill of the best level it found."""

    kind: str
    level: float | None
    name: str = ""
    specialization: str = ""
    skill: str | None = None


@dataclass(frozen=True, slots=True)
class Owner:
    """A trait, item, skill or spell with weapons: its name, level (when leveled), tags and own
    features."""

    node: Node
    name: str
    level: int | None
    tags: tuple[str, ...]
    own: tuple[Feature, ...]


@dataclass(frozen=True, slots=True)
class Mode:
    """One weapon mode with what GCS resolves it against."""

    weapon: Node
    owner: Node
    owner_name: str
    pointer: str
    melee: bool
    identity: WeaponIdentity
    levels: int | None
    defaults: tuple[Default, ...]


# ---------------------------------------------------------------- the character


def character_of(
    ctx: Context, skills: SkillSections, st: int, damage: dict[str, Any] | None, telekinetic: int
) -> Character:
    settings = mapping(ctx.data, "settings")
    calc = mapping(ctx.data, "calc")
    values = ctx.attribute_values
    progression = progression_of(settings)
    striking = _strength(ctx, "striking", st)
    thrust_dice = _character_dice(damage, calc, "thrust", striking, progression)
    swing_dice = _character_dice(damage, calc, "swing", striking, progression)
    wielder = Wielder(
        striking=striking,
        lifting=_strength(ctx, "lifting", st),
        telekinetic=telekinetic,
        iq=math.floor(max(values.get("iq", 10), 0)),
        progression=progression,
        thrust=thrust_dice,
        swing=swing_dice,
        dice_plus_adds=boolean(settings, "use_modifying_dice_plus_adds"),
    )
    parry_bonus = number(calc, "parry_bonus")
    block_bonus = number(calc, "block_bonus")
    return Character(
        ctx=ctx,
        wielder=wielder,
        skills=WeaponSkills(ctx, skills),
        parry_bonus=math.floor(ctx.features.attribute_bonus("parry") if parry_bonus is None else parry_bonus),
        block_bonus=math.floor(ctx.features.attribute_bonus("block") if block_bonus is None else block_bonus),
        half_stat_defaults=boolean(settings, "use_half_stat_defaults"),
    )


def _strength(ctx: Context, kind: str, st: int) -> int:
    """GCS's striking or lifting ST: the file's ``striking_st``/``lifting_st`` attribute, or ST
    (at least 0), plus the Striking or Lifting ST bonuses (GCS's saved ones when it saved them),
    rounded down."""
    base = ctx.attribute_values.get(f"{kind}_st")
    saved = number(mapping(ctx.data, "calc"), f"{kind}_st_bonus")
    bonus = ctx.features.attribute_bonus("st", f"{kind}_only") if saved is None else saved
    return math.floor((max(st, 0) if base is None else base) + bonus)


def _character_dice(
    damage: dict[str, Any] | None, calc: Node, key: str, striking: int, progression: str
) -> tuple[int, int]:
    """The character's thrust or swing: the document's (what ``thr``/``sw`` resolve against),
    else GCS's saved one, else the progression's."""
    entry = damage.get(key) if isinstance(damage, dict) else None
    if isinstance(entry, dict) and type(entry.get("dice")) is int and type(entry.get("adds")) is int:
        return entry["dice"], entry["adds"]
    saved = dice(text(calc, key))
    if saved is not None:
        return saved
    rule = thrust if key == "thrust" else swing
    return rule(striking, progression) or rule(striking, "basic_set") or (1, 0)


# ---------------------------------------------------------------- owners and modes


def weapon_owners(ctx: Context) -> tuple[list[tuple[Node, str, bool]], int]:
    """Nodes that may hold weapons, with whether GCS's sheet lists their weapons as ready: enabled
    traits, carried equipment (ready when equipped, below equipped containers), skills, spells;
    and telekinetic ST (the levels of the enabled, leveled traits named Telekinesis)."""
    owners: list[tuple[Node, str, bool]] = []
    telekinesis = 0.0
    key = ctx.traits_key
    for node, pointer, _ in ctx.section(key, skip_disabled=True):
        if node_list(node, "weapons"):
            owners.append((node, pointer, True))
        if text(node, "name")[:11].lower() == "telekinesis" and display_name(node).lower() == "telekinesis":
            telekinesis += trait_level(node) if _owner_level(node) is not None else 0
    # file order, each item ready only below ready containers
    stack: list[tuple[list[Any], int, str, bool]] = [
        (node_list(ctx.data, "equipment"), 0, "/equipment", True)
    ]
    while stack:
        items, index, base, parent_ready = stack.pop()
        while index < len(items):
            node = items[index]
            pointer = f"{base}/{index}"
            index += 1
            if type(node) is not dict:
                continue
            quantity = number(node, "quantity")
            ready = parent_ready and boolean(node, "equipped") and (quantity is None or quantity > 0)
            if node_list(node, "weapons"):
                owners.append((node, pointer, ready))
            if children(node) and len(stack) + 1 < MAX_DEPTH:
                stack.append((items, index, base, parent_ready))
                stack.append((children(node), 0, pointer + "/children", ready))
                break
    for key in ("skills", "spells"):
        for node, pointer, _ in ctx.section(key):
            if node_list(node, "weapons"):
                owners.append((node, pointer, True))
    return owners, math.floor(telekinesis)


def _owner_level(owner: Node) -> int | None:
    """The level of a leveled trait or item (GCS multiplies per-level damage by it), else None."""
    kind = kind_of(owner)
    if kind in ("trait", "trait_container"):
        leveled = (
            boolean(owner, "can_level")
            if "can_level" in owner
            else number_or_text(owner, "levels") is not None
        )
        return math.trunc(trait_level(owner)) if leveled and kind == "trait" else None
    if kind.startswith("equipment"):
        level = number(owner, "level")
        return math.trunc(level) if level is not None and level > 0 else None
    return None


def owner_of(node: Node, pointer: str) -> Owner:
    level = _owner_level(node)
    tags = tuple(tag for key in ("tags", "categories") for tag in node_list(node, key) if type(tag) is str)
    own = tuple(owner_features(node, pointer, level or 0))
    return Owner(node, display_name(node) or "(unnamed)", level, tags, own)


def mode_of(character: Character, weapon: Node, holder: Owner, pointer: str, kind: str) -> Mode:
    """The weapon mode with its defaults' levels and what GCS matches weapon bonuses against:
    its skill default with the best level (the skill "weapons with required skill" bonuses
    name)."""
    owner = holder.node
    defaults = tuple(  # (a list first: no generator to resume for each default)
        [
            _default(character, default, owner)
            for default in node_list(weapon, "defaults")
            if type(default) is dict
        ]
    )
    best: Default | None = None
    for default in defaults:
        if default.kind not in _SKILL_BASED or default.level is None:
            continue
        if best is None or best.level is None or default.level > best.level:
            best = default
    skill, specialization = (best.name, best.specialization) if best is not None else ("", "")
    relative = character.skills.relative(skill, specialization)
    identity = WeaponIdentity(
        owner=holder.name,
        usage=_usage(weapon, owner),
        tags=holder.tags,
        skill=skill,
        specialization=specialization,
        relative_level=relative,
        own=holder.own,
    )
    melee = kind == "melee_weapon"
    return Mode(weapon, owner, holder.name, pointer, melee, identity, holder.level, defaults)


def _usage(weapon: Node, owner: Node) -> str:
    """The weapon's use (``Swung``, ``Thrown``), placeholders filled from its owner's replacements."""
    return fill_placeholders(text(weapon, "usage"), owner).strip()


# ---------------------------------------------------------------- defaults


def criterion_text(value: object, owner: Node) -> str:
    if type(value) is dict:
        value = value.get("qualifier")
    return fill_placeholders(value, owner).strip() if type(value) is str else ""


def _criterion(value: object, owner: Node) -> object:
    """A default's name or specialization as a criterion: text is "is" (empty text: any)."""
    if type(value) is str:
        value = fill_placeholders(value, owner).strip()
        return {"compare": "is", "qualifier": value} if value else None
    if type(value) is dict and type(value.get("qualifier")) is str:
        return {**value, "qualifier": fill_placeholders(value["qualifier"], owner)}
    return value


def _default(character: Character, default: Node, owner: Node) -> Default:
    """GCS's level from one default of a weapon: the best level among the skills it names
    (halved + 3 + the Parry or Block bonus for a parry or block default), or the attribute (at
    most 20, the rule of 20), plus the default's modifier; no level when it names nothing there."""
    kind = text(default, "type").strip().lower()
    modifier = number(default, "modifier") or 0
    if kind not in _SKILL_BASED:
        value = character.ctx.attribute_values.get(kind)
        if value is None:
            return Default(kind, 10 + modifier if kind == "10" else None)
        value = min(value, _RULE_OF_20)
        if character.half_stat_defaults:
            value = math.floor(value / 2) + 5
        return Default(kind, value + modifier)
    raw_name, raw_specialization = default.get("name"), default.get("specialization")
    tags = default.get("tags")
    # A weapon's modes repeat their defaults: one that names a skill in plain text (no
    # placeholder, no tags) resolves the same for each of them. (Its best skill is remembered
    # by the search too, which takes nothing from the budget again.)
    key: tuple[object, ...] | None = None
    if (
        type(raw_name) is str
        and "@" not in raw_name
        and tags is None
        and (
            raw_specialization is None or (type(raw_specialization) is str and "@" not in raw_specialization)
        )
    ):
        key = (kind, type(modifier), modifier, raw_name, raw_specialization)
        known = character.defaults.get(key)
        if known is not None:
            return known
    found = _skill_default(character, kind, modifier, raw_name, raw_specialization, tags, owner)
    if key is not None:
        character.defaults[key] = found
    return found


def _skill_default(
    character: Character,
    kind: str,
    modifier: float,
    raw_name: object,
    raw_specialization: object,
    tags: object,
    owner: Node,
) -> Default:
    """:func:`_default` for a default that names a skill (``skill``, ``parry``, ``block``)."""
    if type(raw_name) is str:  # the usual default: a skill's name, found by name
        name: object = None
        candidates = character.skills.named(
            fill_placeholders(raw_name, owner) if "@" in raw_name else raw_name
        )
    else:
        name = _criterion(raw_name, owner)
        candidates = _named_skills(character, name)
    specialization = _criterion(raw_specialization, owner) if raw_specialization else None
    if type(specialization) is dict and text(specialization, "compare") == "is":
        wanted = raw_name if type(raw_name) is str else None
        if wanted is not None and "@" in wanted:
            wanted = fill_placeholders(wanted, owner)
        candidates = character.skills.specialized(wanted, text(specialization, "qualifier"))
    best = character.skills.best(candidates, (name, specialization, tags))
    if best is None or best.level is None:
        return Default(kind, None)
    level = best.level
    if kind == "parry":
        level = math.floor(level / 2) + 3 + character.parry_bonus
    elif kind == "block":
        level = math.floor(level / 2) + 3 + character.block_bonus
    texts = criterion_text(raw_name, owner), criterion_text(raw_specialization, owner)
    return Default(kind, level + modifier, *texts, best.document_name)


def _named_skills(character: Character, name: object) -> list[WeaponSkill]:
    if type(name) is dict and (text(name, "compare") or "is") == "is":
        return character.skills.named(text(name, "qualifier"))
    return character.skills.every()
