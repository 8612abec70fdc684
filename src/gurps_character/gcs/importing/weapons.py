"""Weapons: every weapon GCS lists (enabled traits, carried equipment, skills, spells) to the
format's melee and ranged entries, with GCS's damage, and the level, parry and block GCS gives
each weapon mode (its ``calc``, or GCS's rules when the file saved none) in records parallel to
the document's lists, and the best parry and block."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Final

from ..format.features import (
    Feature,
    WeaponIdentity,
    display_name,
    matches,
    owner_features,
    text_weight,
    trait_level,
    weapon_amount,
    weapon_bonuses,
    weapon_skill_bonuses,
)
from ..format.fields import (
    MAX_DEPTH,
    Node,
    boolean,
    children,
    fill_placeholders,
    is_container,
    kind_of,
    leading_whole_number,
    mapping,
    node_list,
    number,
    number_or_text,
    number_text,
    plain,
    text,
    whole_number,
)
from ..format.progression import basic_lift_pounds, progression_of, swing, thrust
from ..format.units import dice, js_round, kilograms
from ..format.weapon_damage import (
    WeaponDamageResult,
    Wielder,
    damage_by_rules,
    damage_entry,
    damage_from_calc,
    plain_dice,
    raw_damage_text,
)
from .context import Context
from .notes import listing, shortened
from .skills import SkillSections

__all__ = ["WeaponSections", "weapon_sections"]

_RANGE: Final = re.compile(r"\s*(x?)([0-9,]*\.?[0-9]+)\s*(?:/\s*(x?)([0-9,]*\.?[0-9]+))?\s*")
_RSL_NUMBER: Final = re.compile(r"([+-][0-9]+)\s*$")
_RSL_NAME: Final = re.compile(r"[A-Za-z]\w*")
_RULE_OF_20: Final = 20
_MAX_CAUSES: Final = 400
"""Characters of the bonuses a weapon's notes name (a file can give one weapon thousands)."""
_MAX_NAME: Final = 200
"""Characters of an owner's name and of a usage in a weapon entry's name (each mode repeats them)."""
_SKILL_BASED: Final = ("skill", "parry", "block")


@dataclass(slots=True)
class WeaponSections:
    melee: list[dict[str, Any]] = field(default_factory=list)
    ranged: list[dict[str, Any]] = field(default_factory=list)
    parry: dict[str, Any] = field(default_factory=lambda: {"skill": None, "value": None})
    block: dict[str, Any] = field(default_factory=lambda: {"skill": None, "value": None})
    records: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {"melee": [], "ranged": []})
    """One record per entry of ``melee`` and ``ranged``: the GCS pointer, level, parry, block."""


@dataclass(frozen=True, slots=True)
class _Skill:
    """A GCS skill (or technique) as weapon defaults and bonuses see it."""

    name: str
    specialization: str
    tags: tuple[str, ...]
    level: float | None
    relative: float | None
    has_points: bool
    document_name: str | None


@dataclass(slots=True)
class _Character:
    """What every weapon of one import is resolved with."""

    ctx: Context
    wielder: Wielder
    skills: _Skills
    parry_bonus: float
    block_bonus: float
    half_stat_defaults: bool
    skill_encumbrance: int | None = None
    """The encumbrance level skills suffer (0-4), figured when a weapon needs it."""
    defaults: dict[tuple[object, ...], _Default] = field(default_factory=dict)
    """The skill defaults resolved so far, by what they say (see :func:`_default`)."""
    saved_damage: dict[str, WeaponDamageResult] = field(default_factory=dict)
    """GCS's saved damage texts read so far (see :func:`_saved_damage`)."""


@dataclass(slots=True)
class _Defense:
    value: int | None = None
    skill: str | None = None
    cause: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class _Owner:
    """A trait, item, skill or spell with weapons: its name, level (when leveled), tags and own
    features."""

    node: Node
    name: str
    level: int | None
    tags: tuple[str, ...]
    own: tuple[Feature, ...]


@dataclass(frozen=True, slots=True)
class _Default:
    """One default of a weapon: its type, GCS's level from it (modifier included; None when it
    names nothing the character has), the skill name and specialization it names, and the
    document skill of the best level it found."""

    kind: str
    level: float | None
    name: str = ""
    specialization: str = ""
    skill: str | None = None


@dataclass(frozen=True, slots=True)
class _Mode:
    """One weapon mode with what GCS resolves it against."""

    weapon: Node
    owner: Node
    owner_name: str
    pointer: str
    melee: bool
    identity: WeaponIdentity
    levels: int | None
    defaults: tuple[_Default, ...]


def weapon_sections(
    ctx: Context, skills: SkillSections, st: int, damage: dict[str, Any] | None = None
) -> WeaponSections:
    """The weapon entries, their records and the best defenses. ``damage`` is the document's
    ``/damage`` (thrust and swing), which ``thr``/``sw`` notations resolve against."""
    out = WeaponSections()
    parry, block = _Defense(), _Defense()
    owners, telekinetic = _weapon_owners(ctx)
    if not owners:
        return out
    character = _character(ctx, skills, st, damage, telekinetic)
    for owner_node, pointer, shown in owners:
        owner: _Owner | None = None
        for index, weapon in enumerate(node_list(owner_node, "weapons")):
            if type(weapon) is not dict:
                continue
            kind = kind_of(weapon)
            if kind not in ("melee_weapon", "ranged_weapon"):
                continue
            if owner is None:
                owner = _owner(owner_node, pointer)
            mode = _mode(character, weapon, owner, f"{pointer}/weapons/{index}", kind)
            record = _record(character, mode)
            result = _damage(character, mode)
            if mode.melee:
                out.melee.append(_melee(character, mode, result, record))
                out.records["melee"].append(record)
                if shown and not boolean(weapon, "hide"):
                    _best(parry, mode, record, "parry")
                    _best(block, mode, record, "block")
            else:
                out.ranged.append(_ranged(character, mode, result, record, st))
                out.records["ranged"].append(record)
    for defense, key, target in ((parry, "parry", out.parry), (block, "block", out.block)):
        if defense.value is not None:
            target["skill"] = defense.skill
            target["value"] = defense.value
            ctx.cause(f"/defenses/{key}/value", defense.cause, defense.source)
    if out.melee or out.ranged:
        ctx.note(
            "",
            "approximated",
            "Weapons are listed one entry per GCS weapon mode, with a damage notation that resolves to "
            "GCS's dice and GCS's own damage text in the notes; each mode's level, parry and block are in "
            "extensions (weapons); their cost and weight are counted with the equipment.",
        )
    return out


# ---------------------------------------------------------------- the character


def _character(
    ctx: Context, skills: SkillSections, st: int, damage: dict[str, Any] | None, telekinetic: int
) -> _Character:
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
    return _Character(
        ctx=ctx,
        wielder=wielder,
        skills=_Skills(ctx, skills),
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


class _Skills:
    """The character's GCS skills and techniques by lower-case name, read when a weapon asks."""

    def __init__(self, ctx: Context, sections: SkillSections) -> None:
        self.ctx = ctx
        self.sections = sections
        self.nodes: dict[str, list[tuple[Node, str]]] | None = None
        self.read: dict[str, list[_Skill]] = {}
        self._every: list[_Skill] | None = None
        self._by_specialization: dict[tuple[None, str], list[_Skill]] = {}
        self._by_name_and_specialization: dict[tuple[str, str], list[_Skill]] = {}
        self._best: dict[tuple[object, ...], _Skill | None] = {}
        self._relative: dict[tuple[str, str], float | None] = {}

    def named(self, name: str) -> list[_Skill]:
        """The skills of a name (any case)."""
        if self.nodes is None:
            self.nodes = {}
            for node, pointer, _ in self.ctx.section("skills"):
                if not is_container(node):
                    key = text(node, "name")
                    key = (fill_placeholders(key, node) if "@" in key else key).strip().lower()
                    self.nodes.setdefault(key, []).append((node, pointer))
        key = name.strip().lower()
        found = self.read.get(key)
        if found is None:
            found = self.read[key] = [self._skill(node, pointer) for node, pointer in self.nodes.get(key, ())]
        return found

    def every(self) -> list[_Skill]:
        if self._every is None:
            self.named("")
            assert self.nodes is not None
            self._every = [found for name in list(self.nodes) for found in self.named(name)]
        return self._every

    def specialized(self, name: str | None, specialization: str) -> list[_Skill]:
        """The skills of a specialization (any case), of a name too unless it is None."""
        if name is not None:  # the skills of the name only: the others need not be read
            key = (name.strip().lower(), specialization.lower())
            found = self._by_name_and_specialization.get(key)
            if found is None:
                found = [skill for skill in self.named(name) if skill.specialization.lower() == key[1]]
                self._by_name_and_specialization[key] = found
            return found
        if not self._by_specialization:
            for skill in self.every():
                wanted = skill.specialization.lower()
                self._by_specialization.setdefault((None, wanted), []).append(skill)
        return self._by_specialization.get((None, specialization.lower()), [])

    def best(self, candidates: list[_Skill], criteria: tuple[object, object, object]) -> _Skill | None:
        """The skill of the best level among ``candidates`` that a default's name, specialization
        and tags criteria accept (the first of equal levels), found once for the same
        candidates and criteria; each candidate tried is taken from the import's budget."""
        key = (id(candidates), *(_plain_key(criterion) for criterion in criteria))
        simple = None not in key[1:]
        if simple and key in self._best:
            return self._best[key]
        name, specialization, tags = criteria
        budget = self.ctx.features.budget
        texts = [value for criterion in criteria if type(criterion) is dict for value in criterion.values()]
        weight = 1 + text_weight(*(value for value in texts if type(value) is str))
        best: _Skill | None = None
        for found in candidates:
            if not budget.take(weight + text_weight(found.name, found.specialization, *found.tags)):
                break
            if found.level is None or (
                best is not None and best.level is not None and found.level <= best.level
            ):
                continue
            if (name is not None and not matches(name, found.name)) or (
                specialization is not None and not matches(specialization, found.specialization)
            ):
                continue
            if type(tags) is dict and not any(matches(tags, tag) for tag in found.tags or ("",)):
                continue
            best = found
        if simple:
            self._best[key] = best
        return best

    def relative(self, name: str, specialization: str) -> float | None:
        """The best relative level among the skills of a name (and specialization, when given)
        that have points, or None."""
        key = (name.strip().lower(), specialization.lower())
        if key not in self._relative:
            relative: float | None = None
            for found in self.named(name) if name else []:
                if not found.has_points or found.relative is None:
                    continue
                if specialization and found.specialization.lower() != key[1]:
                    continue
                relative = found.relative if relative is None else max(relative, found.relative)
            self._relative[key] = relative
        return self._relative[key]

    def _skill(self, node: Node, pointer: str) -> _Skill:
        """A skill with GCS's level (the saved one, else the document's) and relative level."""
        calc = mapping(node, "calc")
        level = number(calc, "level")
        position = self.sections.by_gcs_pointer.get(pointer)
        document_entry = self.sections.skills[position] if position is not None else None
        if level is None and document_entry is not None:
            level = document_entry.get("level")
        attribute = text(node, "difficulty").lower().partition("/")[0]
        return _Skill(
            name=fill_placeholders(text(node, "name"), node).strip(),
            specialization=fill_placeholders(text(node, "specialization"), node).strip(),
            tags=tuple(tag for tag in node_list(node, "tags") if type(tag) is str),
            level=level,
            relative=_relative_level(calc, level, self.ctx.attribute_values.get(attribute)),
            has_points=kind_of(node) == "technique" or (number(node, "points") or 0) > 0,
            document_name=document_entry["name"] if document_entry is not None else None,
        )


def _relative_level(calc: Node, level: float | None, attribute: float | None) -> float | None:
    found = _RSL_NUMBER.search(text(calc, "rsl"))
    relative = whole_number(found.group(1)) if found else None
    if relative is not None:
        return relative
    if _RSL_NAME.fullmatch(text(calc, "rsl")):
        return 0
    if level is not None and attribute is not None:
        return level - math.floor(attribute)
    return None


# ---------------------------------------------------------------- owners and modes


def _weapon_owners(ctx: Context) -> tuple[list[tuple[Node, str, bool]], int]:
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


def _owner(node: Node, pointer: str) -> _Owner:
    level = _owner_level(node)
    tags = tuple(tag for key in ("tags", "categories") for tag in node_list(node, key) if type(tag) is str)
    own = tuple(owner_features(node, pointer, level or 0))
    return _Owner(node, display_name(node) or "(unnamed)", level, tags, own)


def _entry_name(mode: _Mode) -> str:
    """The entry's name: the owner's and the usage, as each mode repeats them (shortened)."""
    owner = shortened(mode.owner_name, _MAX_NAME)
    usage = shortened(mode.identity.usage, _MAX_NAME)
    return f"{owner} ({usage})" if usage else owner


def _mode(character: _Character, weapon: Node, holder: _Owner, pointer: str, kind: str) -> _Mode:
    """The weapon mode with its defaults' levels and what GCS matches weapon bonuses against:
    its skill default with the best level (the skill "weapons with required skill" bonuses
    name)."""
    owner = holder.node
    defaults = tuple(
        _default(character, default, owner)
        for default in node_list(weapon, "defaults")
        if type(default) is dict
    )
    best: _Default | None = None
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
    return _Mode(weapon, owner, holder.name, pointer, melee, identity, holder.level, defaults)


def _criterion_text(value: object, owner: Node) -> str:
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


def _default(character: _Character, default: Node, owner: Node) -> _Default:
    """GCS's level from one default of a weapon: the best level among the skills it names
    (halved + 3 + the Parry or Block bonus for a parry or block default), or the attribute (at
    most 20, the rule of 20), plus the default's modifier; no level when it names nothing there."""
    kind = text(default, "type").strip().lower()
    modifier = number(default, "modifier") or 0
    if kind not in _SKILL_BASED:
        value = character.ctx.attribute_values.get(kind)
        if value is None:
            return _Default(kind, 10 + modifier if kind == "10" else None)
        value = min(value, _RULE_OF_20)
        if character.half_stat_defaults:
            value = math.floor(value / 2) + 5
        return _Default(kind, value + modifier)
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
    character: _Character,
    kind: str,
    modifier: float,
    raw_name: object,
    raw_specialization: object,
    tags: object,
    owner: Node,
) -> _Default:
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
        return _Default(kind, None)
    level = best.level
    if kind == "parry":
        level = math.floor(level / 2) + 3 + character.parry_bonus
    elif kind == "block":
        level = math.floor(level / 2) + 3 + character.block_bonus
    texts = _criterion_text(raw_name, owner), _criterion_text(raw_specialization, owner)
    return _Default(kind, level + modifier, *texts, best.document_name)


def _plain_key(criterion: object) -> object:
    """A criterion as a key, when it is plain: None, text, or text fields only (else None, and
    the search is not remembered)."""
    if criterion is None:
        return ()
    if type(criterion) is str:
        return criterion
    if type(criterion) is dict and len(criterion) <= 4 and all(type(v) is str for v in criterion.values()):
        return tuple(sorted(criterion.items()))
    return None


def _named_skills(character: _Character, name: object) -> list[_Skill]:
    if type(name) is dict and (text(name, "compare") or "is") == "is":
        return character.skills.named(text(name, "qualifier"))
    return character.skills.every()


# ---------------------------------------------------------------- level, parry, block


def _min_strength(character: _Character, mode: _Mode) -> int:
    """The weapon's minimum ST (its ``strength``, plus minimum-ST bonuses)."""
    minimum = float(leading_whole_number(text(mode.weapon, "strength")) or 0)
    for feature in weapon_bonuses(character.ctx.features, mode.identity, ("weapon_min_st_bonus",)):
        minimum += weapon_amount(feature)
    return math.trunc(minimum)


def _adjustment(character: _Character, mode: _Mode) -> tuple[float, list[str]]:
    """What GCS adds to every default of a weapon: -1 per point of ST below the minimum, and the
    skill bonuses to weapons of its name or to this weapon."""
    causes: list[str] = []
    damage_kind = text(mapping(mode.weapon, "damage"), "st").strip()
    wielder = character.wielder
    if damage_kind.startswith("tk_"):
        strength = wielder.telekinetic
    elif damage_kind.startswith("iq_"):
        strength = wielder.iq
    elif mode.melee or ("x" in text(mode.weapon, "range").lower() and not _crossbow(mode)):
        strength = wielder.striking
    else:
        strength = wielder.lifting
    shortfall = _min_strength(character, mode) - strength
    adjustment = 0.0
    if shortfall > 0:
        adjustment -= shortfall
        causes.append(f"-{shortfall} for ST below the weapon's minimum")
    for feature in weapon_skill_bonuses(character.ctx.features, mode.identity):
        amount = feature.amount()
        if amount:
            adjustment += amount
            causes.append(f"{amount:+g} from {feature.owner}")
    return adjustment, causes


def _encumbrance_penalty(character: _Character, mode: _Mode) -> int:
    """GCS's encumbrance penalty on a fencing weapon that can parry (its level and defenses)."""
    raw = text(mode.weapon, "parry")
    if not mode.melee or _defense_modifier(raw) is None or "f" not in raw.lower():
        return 0
    if character.skill_encumbrance is None:
        character.skill_encumbrance = _skill_encumbrance(character)
    return -character.skill_encumbrance


def _skill_encumbrance(character: _Character) -> int:
    """The encumbrance level for skills: the carried items' weight for skills (GCS's saved one,
    else their own weight and contents times the quantity) against Basic Lift × 1, 2, 3, 6, 10."""
    data = character.ctx.data
    unit = text(mapping(data, "settings"), "default_weight_units") or "lb"
    lift = kilograms(mapping(data, "calc").get("basic_lift"), "lb")
    if lift is None:
        # GCS's Basic Lift, as the encumbrance table has it: ST halved (rounded up) while a pool's
        # threshold halves it (B419, B426)
        lifting = character.wielder.lifting
        if character.ctx.active_ops.get("halve_st"):
            lifting = math.ceil(lifting / 2)
        lift = basic_lift_pounds(lifting, character.wielder.progression) / 2
    carried = 0.0
    stack: list[tuple[Node, float, int]] = [
        (item, 1.0, 0) for item in node_list(data, "equipment") if type(item) is dict
    ]
    while stack:
        item, times, depth = stack.pop()
        calc = mapping(item, "calc")
        quantity = number(item, "quantity")
        quantity = 1 if quantity is None else max(quantity, 0)
        saved = kilograms(calc.get("extended_weight_for_skills", calc.get("extended_weight")), "lb")
        if saved is not None:
            carried += saved * times
            continue
        weight = item.get("base_weight", item.get("weight"))  # base_weight: GCS 5 files since 2025-07
        carried += (kilograms(weight, unit) or 0) * quantity * times
        if depth < MAX_DEPTH:
            stack.extend(
                (child, times * quantity, depth + 1) for child in children(item) if type(child) is dict
            )
    return next((level for level, load in enumerate((1, 2, 3, 6, 10)) if carried <= lift * load + 1e-9), 4)


def _crossbow(mode: _Mode) -> bool:
    return any(
        type(default) is dict and _criterion_text(default.get("name"), mode.owner) == "Crossbow"
        for default in node_list(mode.weapon, "defaults")
    )


def _levels_by_rules(character: _Character, mode: _Mode) -> tuple[float | None, dict[str, float | None]]:
    """GCS's level of a weapon mode (the best default plus the adjustments, at least 0; None when
    no default applies) and, for melee, its parry and block (None when it cannot)."""
    adjustment, _ = _adjustment(character, mode)
    after = _encumbrance_penalty(character, mode)
    levels = [
        (default.kind, default.level + adjustment) for default in mode.defaults if default.level is not None
    ]
    level = max((value + after for _, value in levels), default=None)
    defenses: dict[str, float | None] = {}
    if mode.melee:
        for key, bonus in (("parry", character.parry_bonus), ("block", character.block_bonus)):
            defenses[key] = _defense_by_rules(character, mode, key, levels, bonus + after)
    return (None if level is None else max(level, 0)), defenses


def _defense_by_rules(
    character: _Character, mode: _Mode, key: str, levels: list[tuple[str, float]], bonus: float
) -> float | None:
    """GCS's parry or block with a weapon: 3 + half the best default (a parry or block default
    counts whole) + the weapon's modifier + the Parry or Block bonus + the weapon's own parry or
    block bonuses, at least 0; None when the weapon cannot."""
    modifier = _defense_modifier(text(mode.weapon, key))
    if modifier is None:
        return None
    if not levels:
        return 0
    best = max(value if kind == key else math.trunc(value / 2) for kind, value in levels)
    value = modifier + 3 + best + bonus
    for feature in weapon_bonuses(character.ctx.features, mode.identity, (f"weapon_{key}_bonus",)):
        value += weapon_amount(feature)
    return math.trunc(max(value, 0))


def _defense_modifier(raw: str) -> int | None:
    """A weapon's parry or block text (``0``, ``-1``, ``0F``, ``+2U``) as its modifier; None for
    ``No`` or nothing (the weapon cannot)."""
    raw = raw.strip()
    if not raw or "no" in raw.lower():
        return None
    return leading_whole_number(raw) or 0


def _record(character: _Character, mode: _Mode) -> dict[str, Any]:
    """GCS's level (and parry and block for melee) of a weapon mode: its ``calc``, or its rules."""
    calc = mapping(mode.weapon, "calc")
    record: dict[str, Any] = {"source": mode.pointer}
    by_rules: tuple[float | None, dict[str, float | None]] | None = None
    saved = number(calc, "level")
    if saved is not None:
        record["level"] = math.floor(saved)
    else:
        by_rules = _levels_by_rules(character, mode)
        level = by_rules[0]
        record["level"] = None if level is None else (0 if calc else math.floor(level))
    skill = _weapon_skill(mode, record["level"])
    if skill:
        record["skill"] = skill
    if not mode.melee:
        return record
    for key in ("parry", "block"):
        raw = text(mode.weapon, key)
        if calc and (key in calc or _defense_modifier(raw) is None):
            shown = calc.get(key, raw)
            value = _leading_int(shown) if type(shown) is str else None
            record[key] = value
            if type(shown) is str and value is not None:
                record[f"{key}Text"] = shown.strip()
            continue
        if calc:  # GCS saved no parry because it is what the weapon says
            record[key] = _leading_int(raw)
            continue
        if by_rules is None:
            by_rules = _levels_by_rules(character, mode)
        defense = by_rules[1].get(key)
        record[key] = None if defense is None else math.floor(defense)
        if defense is not None:
            flags = "".join(flag for flag in ("F", "U") if key == "parry" and flag in raw.upper())
            record[f"{key}Text"] = f"{math.floor(defense)}{flags}"
    return record


def _weapon_skill(mode: _Mode, level: int | None) -> str | None:
    """The document skill that gives the weapon its level: a skill default whose level is the
    weapon's level (else the one with the best level)."""
    best: _Default | None = None
    for default in mode.defaults:
        if default.kind != "skill" or default.skill is None or default.level is None:
            continue
        if level is not None and math.floor(default.level) == level:
            return default.skill
        if best is None or best.level is None or default.level > best.level:
            best = default
    return best.skill if best is not None else None


def _best(best: _Defense, mode: _Mode, record: dict[str, Any], key: str) -> None:
    value = record.get(key)
    if type(value) is not int or (best.value is not None and value <= best.value):
        return
    best.value = value
    best.skill = record.get("skill")
    shown = record.get(f"{key}Text", str(value))
    parts = [
        f"GCS's {key} with '{mode.owner_name}' ({mode.identity.usage or 'default use'}) is {shown}",
        f"from skill '{best.skill}'" if best.skill else "from a default that is no skill of the document",
        f"the weapon's {key} modifier {text(mode.weapon, key).strip() or '0'}",
    ]
    best.cause = ", ".join(parts)
    best.source = mode.pointer


def _leading_int(value: str) -> int | None:
    return leading_whole_number(value)


# ---------------------------------------------------------------- damage


def _damage(character: _Character, mode: _Mode) -> WeaponDamageResult:
    """GCS's damage for a mode: its saved ``calc.damage``, else GCS's rules."""
    saved = mapping(mode.weapon, "calc").get("damage")
    written = mode.weapon.get("damage")
    if type(written) is str:  # a very old file's damage: GCS's text
        return damage_from_calc(written)
    if type(saved) is str and saved.strip():
        found = _saved_damage(character, saved)
        plain = plain_dice(mode.weapon, character.wielder, mode.levels is not None)
        if plain is not None and found.roll == plain[0]:  # GCS's dice are the weapon's own
            raw = raw_damage_text(mode.weapon)
            return WeaponDamageResult(
                found.roll, found.divisor, found.type_text, found.text, (), plain[1], raw
            )
        rules = _rules(character, mode)
        if found.roll is not None and rules.roll == found.roll:  # the rules explain GCS's dice
            return WeaponDamageResult(
                found.roll,
                found.divisor,
                found.type_text,
                found.text,
                rules.causes,
                rules.thrust_or_swing,
                rules.raw,
            )
        return WeaponDamageResult(found.roll, found.divisor, found.type_text, found.text, raw=rules.raw)
    return _rules(character, mode)


def _saved_damage(character: _Character, saved: str) -> WeaponDamageResult:
    """:func:`damage_from_calc` of a text, read once per import (a file's weapons repeat them)."""
    found = character.saved_damage.get(saved)
    if found is None:
        found = character.saved_damage[saved] = damage_from_calc(saved)
    return found


def _rules(character: _Character, mode: _Mode) -> WeaponDamageResult:
    features = character.ctx.features

    def bonuses(kinds: tuple[str, ...]) -> list[Feature]:
        return weapon_bonuses(features, mode.identity, kinds)

    return damage_by_rules(
        mode.weapon,
        mode.owner,
        mode.levels,
        character.wielder,
        lambda: _min_strength(character, mode),
        bonuses,
    )


def _damage_entry(
    character: _Character, mode: _Mode, result: WeaponDamageResult
) -> tuple[dict[str, Any], list[str]]:
    raw_type = text(mapping(mode.weapon, "damage"), "type")
    return damage_entry(result, character.wielder, raw_type)


# ---------------------------------------------------------------- entries


def _resolved(weapon: Node, key: str) -> str:
    """GCS's resolved value (``calc``), or the raw field when GCS saved none."""
    calc = mapping(weapon, "calc")
    value = calc.get(key)
    if type(value) is str:
        return value
    if type(value) is int:
        return str(value)
    return text(weapon, key)


def _usage(weapon: Node, owner: Node) -> str:
    """The weapon's use (``Swung``, ``Thrown``), placeholders filled from its owner's replacements."""
    return fill_placeholders(text(weapon, "usage"), owner).strip()


def _weapon_notes(
    mode: _Mode, result: WeaponDamageResult, dice: bool, extra: list[str], level: int | None
) -> str:
    weapon = mode.weapon
    parts = []
    usage = mode.identity.usage
    if usage:
        parts.append(usage)
    raw = result.raw or raw_damage_text(weapon)
    if not dice:
        shown = result.text or raw
        parts.append(
            f"GCS damage {shown} (not dice: not rolled)" if shown else "no damage (not dice: not rolled)"
        )
    elif raw and raw != result.text:
        parts.append(f"GCS damage {raw}, {result.text} for this character")
    elif result.text:
        parts.append(f"GCS damage {result.text}")
    if result.causes:
        parts.append("including " + listing(list(result.causes), _MAX_CAUSES))
    parts.extend(extra)
    if level is not None:
        parts.append(f"skill level {level}")
    strength = text(weapon, "strength").strip()
    if strength:
        parts.append(f"min ST {strength}")
    for key in ("usage_notes", "local_notes", "notes"):
        more = text(weapon, key).strip()
        if more:
            parts.append(more)
    return "; ".join(parts)


def _melee(
    character: _Character, mode: _Mode, result: WeaponDamageResult, record: dict[str, Any]
) -> dict[str, Any]:
    damage, extra = _damage_entry(character, mode, result)
    entry: dict[str, Any] = {
        "name": _entry_name(mode),
        "damage": [damage],
    }
    reach = _resolved(mode.weapon, "reach").strip()
    if reach:
        entry["reach"] = reach
    parry = text(mode.weapon, "parry").strip()
    if parry:
        modifier = _leading_int(parry)
        entry["parry"] = {"notation": parry, "modifier": modifier, "unbalanced": "u" in parry.lower()}
    notes = _weapon_notes(mode, result, "base" in damage, extra, record.get("level"))
    if notes:
        entry["notes"] = notes
    return entry


def _range(weapon: Node, st: int) -> dict[str, Any] | None:
    raw = _resolved(weapon, "range").strip()
    if not raw:
        return None
    entry: dict[str, Any] = {"notation": raw}
    match = _RANGE.fullmatch(raw) if len(raw) < 40 else None
    if match:
        values: list[float] = []
        for times, amount in ((match.group(1), match.group(2)), (match.group(3), match.group(4))):
            if amount is None:
                continue
            read = number_text(amount)
            if read is None:  # beyond ±10^9: no range is read
                values = []
                break
            value = read * st if times else read
            values.append(js_round(value, 1))
        if len(values) == 2:
            entry["halfDamage"], entry["max"] = (plain(v) for v in values)
        elif len(values) == 1:
            entry["max"] = plain(values[0])
    return entry


def _ranged(
    character: _Character, mode: _Mode, result: WeaponDamageResult, record: dict[str, Any], st: int
) -> dict[str, Any]:
    damage, extra = _damage_entry(character, mode, result)
    entry: dict[str, Any] = {
        "name": _entry_name(mode),
        "damage": damage,
    }
    weapon = mode.weapon
    for key, target in (
        ("accuracy", "accuracy"),
        ("rate_of_fire", "rateOfFire"),
        ("shots", "shots"),
        ("strength", "minST"),
    ):
        value = _resolved(weapon, key).strip()
        if value:
            entry[target] = value
    found = _range(weapon, st)
    if found:
        entry["range"] = found
    bulk = _leading_int(_resolved(weapon, "bulk"))
    if bulk is not None and bulk <= 0:
        entry["bulk"] = bulk
    recoil = _leading_int(_resolved(weapon, "recoil"))
    entry["recoil"] = recoil if recoil is not None and recoil >= 1 else None
    legality = _leading_int(text(mode.owner, "legality_class"))
    if legality is not None and 0 <= legality <= 4:
        entry["legalityClass"] = legality
    notes = _weapon_notes(mode, result, "base" in damage, extra, record.get("level"))
    if notes:
        entry["notes"] = notes
    return entry
