"""A fight, turn by turn: the state the Basic Set keeps for each combatant between rolls.

A :class:`Fighter` is built once from a loaded character (:func:`~gurps_character.load_character`'s
result, JSON, YAML or GCS alike, or a document): the sheet is checked and its numbers derived
once, then reused. It holds what the rules carry from one roll to the next: shock (on this turn,
and owed for the next), stun and its recovery, posture, the maneuver in force, the defenses made
since the fighter's last turn (parries per weapon, the block, the retreat and against whom), Aim,
crippled locations and what was dropped, unconsciousness, mortal wounds, death and the rolls
owed. HP and FP live in the character document only, changed through
:func:`~gurps_character.apply_hit` and :func:`~gurps_character.change_pool`: ``fighter.character``
is the document after the fight so far.

Every operation returns a :class:`FightStep`: the new fighter and the :class:`FightEvent` records
of what happened (which rule, which page), never changing its inputs. A turn:

* :meth:`Fighter.start_turn`: shock owed becomes this turn's, the per-turn defenses reset, a
  stunned or off-balance fighter must Do Nothing, the 0 HP and 0 FP rolls are owed;
* :meth:`Fighter.choose`: the maneuver (Do Nothing waives the 0 HP roll);
* :meth:`Fighter.attack`: effective skill with shock, posture, the maneuver and Aim; the roll (given
  or rolled with an injected ``random.Random``); a critical success rolls on the Critical Hit or
  Head Blow Table and allows no defense, a critical failure on the Critical Miss Table;
* the defender's :meth:`Fighter.defenses`, :meth:`Fighter.best_defense` (None and the reason when
  there is none) and :meth:`Fighter.defend`;
* :meth:`Fighter.take_hit`: the damage resolved and applied with the critical effect, shock added
  up and capped, the knockdown roll owed on a major wound or a head or vitals blow, crippling and
  what it drops;
* :meth:`Fighter.resolve`: an owed roll (knockdown, keeping one's feet, consciousness, death,
  stun recovery, Will) and its consequence;
* :meth:`Fighter.end_turn`: shock ends, the stun recovery roll is owed.

The state is plain data: :meth:`Fighter.to_dict` and :meth:`Fighter.from_dict` (with the character
document it goes with, refused with ``stateMismatch`` when it is another character's or an older
version of it).

Why one module, and one class of this length: a fight is one state object, as a chess board is
(python-chess's ``Board``): :class:`Fighter` holds what the rules carry between rolls and every
operation that advances it, so each rule reads and writes the same fields; the critical tables
are data in :mod:`.criticals`, the arithmetic is :mod:`.combat`'s and :mod:`.damage`'s.
"""

from __future__ import annotations

import contextlib
import functools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any, Final, Literal, TypeAlias, TypeVar, cast, get_args

from .combat import (
    AttackManeuver,
    DefenderManeuver,
    Defense,
    DefenseKind,
    Posture,
    RollResult,
    _choice,
    _integer,
    _roll,
    attack_skill,
    defense,
    feint_penalty,
    hit_location,
    roll_3d,
    success_roll,
)
from .combat_character import (
    CharacterAttack,
    CharacterDefense,
    DefenseChoice,
    character_attack_skill,
    character_defenses,
)
from .conditions import FollowUp, PoolChange, _pool_state, pool_changed
from .criticals import CriticalEffect, CriticalTable, critical_effect, critical_table_for
from .damage import (
    Hit,
    WeaponDamage,
    _apply_resolved,
    _knockdown_modifier,
    _pain_threshold,
    _sheet_is_male,
    resolve_damage_notation,
    resolve_hit,
)
from .errors import CharacterError, guarded
from .locations import LOCATION_NAMES, location_role
from .stats import CombatStats, combat_stats
from .update import _copy_document

__all__ = [
    "Attack",
    "FightEvent",
    "FightStep",
    "Fighter",
    "OwedRoll",
    "OwedRollKind",
]

OwedRollKind: TypeAlias = Literal[
    "knockdownCheck",
    "keepFeetCheck",
    "consciousnessCheck",
    "deathCheck",
    "stunRecovery",
    "actWhileCollapsed",
    "aimWillCheck",
    "concentrateWillCheck",
]
"""A roll a fighter owes (:class:`OwedRoll`)."""

_STATE_VERSION: Final = 1
_ATTACKS: Final[Mapping[str, int]] = {
    "attack": 1,
    "all_out_attack_determined": 1,
    "all_out_attack_double": 2,
    "all_out_attack_feint": 1,
    "all_out_attack_strong": 1,
    "move_and_attack": 1,
}
_MANEUVERS: Final[tuple[str, ...]] = get_args(DefenderManeuver)
_POSTURES: Final[tuple[str, ...]] = get_args(Posture)
_UNARMED_STYLES: Final = frozenset({"unarmed", "boxing", "judo", "karate"})
_ARMS: Final = frozenset({"arm", "hand"})
_KEPT_SITUATIONS: Final = 4096
"""How many defenses in a situation a character keeps."""
_KEPT_HITS: Final = 1024
"""How many resolved blows a character keeps (a fight sees a handful of distinct ones)."""
_HP_HALVES: Final = frozenset({"reeling", "collapse", "dying", "dead", "destroyed"})
"""HP states that halve Move and Dodge (B419)."""
_FP_HALVES: Final = frozenset({"tired", "collapse", "unconscious"})
"""FP states that halve Move, Dodge and ST (B426)."""
_LEGS: Final = frozenset({"leg", "foot"})


_R = TypeVar("_R")


def _remembered(function: Callable[..., _R]) -> Callable[..., _R]:
    """``function`` (pure, of JSON-like scalars, with a frozen result) remembered for the last
    few thousand arguments: a fight asks the same defenses and attacks again and again, each
    check and modifier of them costing as much as the rest of the exchange. ``typed``: ``True``
    and ``1`` are different arguments (one is refused). An argument that cannot be hashed (a
    list where a number belongs) goes to ``function`` itself, which refuses it as it would."""
    remembered = functools.lru_cache(maxsize=4096, typed=True)(function)

    def call(*args: Any, **kwargs: Any) -> _R:
        try:
            return remembered(*args, **kwargs)
        except TypeError:  # unhashable: the function's own answer, error or not
            return function(*args, **kwargs)

    return call


_defense: Final = _remembered(defense)
_attack_skill: Final = _remembered(attack_skill)


# ---------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class FightEvent:
    """Something that happened to a fighter, and the rule behind it.

    Attributes:
        kind: What happened, an id (``shock``, ``stunned``, ``knockedDown``, ``parried``, ...).
        page: The Basic Set page.
        values: The numbers and names it concerns (JSON-ready).
    """

    kind: str
    page: str
    values: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def to_dict(self) -> dict[str, Any]:
        """The fight event as JSON data.

        Returns:
            ``{"kind", "page", "values"}``.
        """
        return {"kind": self.kind, "page": self.page, "values": dict(self.values)}


def _event(what: str, page: str, /, **values: Any) -> FightEvent:
    return FightEvent(what, page, MappingProxyType(values))


@dataclass(frozen=True, slots=True)
class OwedRoll:
    """A roll the fighter owes, and when.

    Attributes:
        kind: The :data:`OwedRollKind`.
        attribute: ``"ht"``, ``"will"``, ``"iq"`` or ``"dx"`` (keeping one's feet: the best of
            DX, Acrobatics and Judo).
        modifier: Added to the attribute.
        when: ``"now"`` (before anything else), ``"startOfTurn"`` (before the maneuver) or
            ``"endOfTurn"``.
        page: The Basic Set page.
        n: For a death check, the multiple of -HP crossed.
    """

    kind: OwedRollKind
    attribute: Literal["ht", "will", "iq", "dx"]
    modifier: int
    when: Literal["now", "startOfTurn", "endOfTurn"]
    page: str
    n: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The owed roll as JSON data.

        Returns:
            ``{"kind", "attribute", "modifier", "when", "page", "n"?}``.
        """
        out: dict[str, Any] = {
            "kind": self.kind,
            "attribute": self.attribute,
            "modifier": self.modifier,
            "when": self.when,
            "page": self.page,
        }
        if self.n is not None:
            out["n"] = self.n
        return out


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack made (:meth:`Fighter.attack`), for the defender and the damage.

    Attributes:
        attacker: The attacker's name.
        weapon: The weapon row used, or None (a skill).
        ranged: A ranged attack.
        location: Where it was aimed (the rule's name or a rolled side).
        skill: The :class:`~gurps_character.CharacterAttack`: effective skill and its modifiers.
        roll: The :class:`~gurps_character.RollResult` of the attack roll.
        critical: The critical table's effect: a critical hit's (no defense) or a critical
            miss's (the attacker's), else None.
        damage: The weapon's damage for the attacker (:class:`~gurps_character.WeaponDamage`),
            or None when the weapon has none the damage module reads.
        deceptive: The Deceptive Attack level (-1 to the defense per level, B369).
        unarmed: The attack is bare-handed (its critical miss uses the unarmed table).
        swung: The damage line used is a swing (a bare-handed parry of it is at -3, B376).
        feint: The penalty a Feint won against this target gives its defenses (B365).
    """

    attacker: str
    weapon: str | None
    ranged: bool
    location: str
    skill: CharacterAttack
    roll: RollResult
    critical: CriticalEffect | None
    damage: WeaponDamage | None
    deceptive: int = 0
    unarmed: bool = False
    swung: bool = False
    feint: int = 0

    @property
    def hits(self) -> bool:
        """Whether the attack roll succeeded (the defender may still defend, unless
        :attr:`defendable` is False)."""
        return self.roll.success

    @property
    def defendable(self) -> bool:
        """Whether an active defense is allowed, which it is not against a critical hit (B556)."""
        return not (self.roll.success and self.roll.critical)

    def to_dict(self) -> dict[str, Any]:
        """The attack as JSON data.

        Returns:
            ``{"attacker", "weapon", "ranged", "location", "effective", "skill", "roll", "critical", "damage",
            "deceptive", "unarmed", "swung", "feint"}`` (camelCase inside).
        """
        return {
            "attacker": self.attacker,
            "weapon": self.weapon,
            "ranged": self.ranged,
            "location": self.location,
            "effective": self.skill.effective,
            "skill": self.skill.to_dict(),
            "roll": self.roll.to_dict(),
            "critical": None if self.critical is None else self.critical.to_dict(),
            "damage": None if self.damage is None else self.damage.to_dict(),
            "deceptive": self.deceptive,
            "unarmed": self.unarmed,
            "swung": self.swung,
            "feint": self.feint,
        }


@dataclass(frozen=True, slots=True)
class FightStep:
    """What an operation gives: the new fighter and what happened.

    Attributes:
        fighter: The :class:`Fighter` after the operation (the one called is unchanged).
        events: What happened, in order (:class:`FightEvent`).
        attack: The :class:`Attack` made (:meth:`Fighter.attack`), else None.
        defense: The defense tried (:meth:`Fighter.defend`), else None.
        roll: The roll made (attack, defense or owed roll), else None.
        hit: The :class:`~gurps_character.Hit` taken (:meth:`Fighter.take_hit`), else None.
        critical: A critical table's effect rolled here: on the attacker's Critical Miss Table
            after a critical success of a defense (for :meth:`Fighter.apply_critical` on the
            attacker), or the one this fighter suffered; else None.
    """

    fighter: Fighter
    events: tuple[FightEvent, ...]
    attack: Attack | None = None
    defense: DefenseChoice | None = None
    roll: RollResult | None = None
    hit: Hit | None = None
    _change: PoolChange | None = field(default=None, repr=False)
    critical: CriticalEffect | None = None

    @property
    def change(self) -> PoolChange | None:
        """The pool change made (a :class:`~gurps_character.PoolChange`), else None; its
        ``document`` is a fresh copy on each read (the fighter's own never leaves it)."""
        if self._change is None:
            return None
        return replace(self._change, document=_handed_out(self._change.document))

    @property
    def success(self) -> bool | None:
        """The roll's success (a defense made, an owed roll passed), or None without a roll."""
        return None if self.roll is None else self.roll.success

    def to_dict(self) -> dict[str, Any]:
        """The fight step as JSON data.

        Returns:
            ``{"fighter", "events", "attack"?, "defense"?, "roll"?, "hit"?, "change"?, "critical"?}`` (the
            change without its document).
        """
        out: dict[str, Any] = {
            "fighter": self.fighter.to_dict(),
            "events": [e.to_dict() for e in self.events],
        }
        if self.attack is not None:
            out["attack"] = self.attack.to_dict()
        if self.defense is not None:
            out["defense"] = self.defense.to_dict()
        if self.roll is not None:
            out["roll"] = self.roll.to_dict()
        if self.hit is not None:
            out["hit"] = self.hit.to_dict()
        if self._change is not None:
            change = self._change.to_dict()
            change.pop("document", None)
            out["change"] = change
        if self.critical is not None:
            out["critical"] = self.critical.to_dict()
        return out


# ---------------------------------------------------------------- the sheet, read once


class _Sheet:
    """What the fight reads from the character, derived once per document and reused: the
    combat view, the bases of attacks and defenses (by the pools' halving), the attributes."""

    __slots__ = (
        "attacks",
        "damage",
        "defenses",
        "document",
        "halved",
        "hit_options",
        "hits",
        "shield_db",
        "situations",
        "stats",
        "unbalanced_names",
    )

    def __init__(
        self,
        document: Mapping[str, Any],
        stats: CombatStats | None = None,
        shield_db: int | None = None,
        halved: tuple[bool, bool] | None = None,
    ) -> None:
        self.document = document
        self.shield_db = shield_db
        self.stats = combat_stats(document) if stats is None else stats
        self.attacks: dict[tuple[Any, ...], CharacterAttack] = {}
        self.defenses: dict[tuple[bool, bool], tuple[DefenseChoice, ...]] = {}
        self.damage: dict[tuple[str | None, str | None], WeaponDamage | None] = {}
        if halved is None:
            hp, fp = _pool_state(document, "hp"), _pool_state(document, "fp")
            halved = (hp.state in _HP_HALVES, fp.state in _FP_HALVES)
        self.halved = halved
        self.hit_options: dict[str, Any] | None = None
        self.unbalanced_names: frozenset[str] | None = None
        self.hits: dict[tuple[Any, ...], Hit] = {}
        # a defense in a situation (its choice, off balance, the options passed), as computed
        self.situations: dict[tuple[Any, ...], tuple[DefenseChoice, DefenseChoice]] = {}

    def hit_defaults(self) -> dict[str, Any]:
        """What :func:`~gurps_character.resolve_hit` reads from the traits and the profile
        (the pain threshold, a male's groin), read once: the options it takes for them."""
        if self.hit_options is None:
            found: dict[str, Any] = {"vulnerable_groin": _sheet_is_male(self.document) is True}
            # both thresholds listed: resolve_hit refuses it, with its own message
            with contextlib.suppress(CharacterError):
                found["pain_threshold"] = _pain_threshold(self.document)
            self.hit_options = found
        return self.hit_options

    def moved_to(self, change: PoolChange) -> _Sheet:
        """The sheet of the same character after a change of its pools: the numbers that do
        not depend on them (attacks, damage, the defenses of each halving) are kept, and the
        halvings are the change's states (a pool it left alone halves as before)."""
        hp_halves, fp_halves = self.halved
        for moved in (change, change.spill):
            if moved is not None and moved.pool == "hp":
                hp_halves = moved.after.state in _HP_HALVES
            elif moved is not None:
                fp_halves = moved.after.state in _FP_HALVES
        sheet = _Sheet(change.document, self.stats, self.shield_db, (hp_halves, fp_halves))
        sheet.attacks = self.attacks
        sheet.damage = self.damage
        sheet.hit_options = self.hit_options
        sheet.unbalanced_names = self.unbalanced_names
        sheet.hits = self.hits
        sheet.situations = self.situations
        if sheet.halved == self.halved:
            sheet.defenses = self.defenses
        return sheet

    def hit(self, basic: int, kind: str, where: str, options: Mapping[str, Any]) -> Hit:
        """:func:`~gurps_character.resolve_hit` on the character, remembered: it reads only what a
        fight never changes (maximum HP, ST, DR, traits, body, profile; never the pools'
        ``current``), so the same blow resolves alike all fight long. Keyed with each value's
        type (``True`` is not ``1``); a blow with an unhashable option is resolved anew."""
        try:
            blow = (type(basic), basic, type(kind), kind, type(where), where)
            key = (*blow, *sorted((k, type(v), v) for k, v in options.items()))
            found = self.hits.get(key)
        except TypeError:  # unhashable (or unorderable) options: resolve_hit refuses or takes them
            return resolve_hit(self.document, basic, cast(Any, kind), location=where, **options)
        if found is None:
            found = resolve_hit(self.document, basic, cast(Any, kind), location=where, **options)
            if len(self.hits) < _KEPT_HITS:
                self.hits[key] = found
        return found

    def unbalanced(self) -> frozenset[str]:
        """The melee weapons whose parry is U (B269), read once per character."""
        if self.unbalanced_names is None:
            melee = self.stats.weapons.melee
            self.unbalanced_names = frozenset(row.name for row in melee if row.parry.unbalanced)
        return self.unbalanced_names

    def halvings(self) -> tuple[bool, bool]:
        return self.halved

    def choices(self) -> tuple[DefenseChoice, ...]:
        key = self.halvings()
        found = self.defenses.get(key)
        if found is None:
            db: dict[str, Any] = {} if self.shield_db is None else {"shield_db": self.shield_db}
            found = self.defenses[key] = character_defenses(self.document, **db)
        return found

    def attack(self, weapon: str | None, mode: str | None, skill: str | None) -> CharacterAttack:
        key = (weapon, mode, skill, self.halvings()[1])
        found = self.attacks.get(key)
        if found is None:
            found = self.attacks[key] = character_attack_skill(
                self.document, weapon=weapon, mode=mode, skill=skill
            )
        return found

    def attribute(self, name: str) -> int:
        if name == "will":
            return int(self.document["secondary"]["will"]["value"])
        if name == "dx":
            best = int(self.document["attributes"]["dx"]["value"])
            for found in self.stats.skills:
                if found.name.casefold() in ("acrobatics", "judo") and found.level is not None:
                    best = max(best, found.level)
            return best
        return int(self.document["attributes"][name]["value"])


def _handed_out(document: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy of a document: what a fighter takes in and hands out, so that the documents
    its states share (see ``updates_applied``'s ``owned``) are never reachable from outside."""
    return _copy_document(document)


def _identity(document: Mapping[str, Any]) -> dict[str, Any]:
    meta = document.get("meta") or {}
    return {"name": document.get("profile", {}).get("name"), "createdAt": meta.get("createdAt")}


def _version(document: Mapping[str, Any]) -> dict[str, Any]:
    meta = document.get("meta") or {}
    return {
        "updatedAt": meta.get("updatedAt"),
        "hp": _pool_state(document, "hp").current,
        "fp": _pool_state(document, "fp").current,
    }


def _not_allowed(message: str, **details: Any) -> CharacterError:
    return CharacterError("notAllowed", message, details)


# ---------------------------------------------------------------- the fighter


@dataclass(frozen=True)  # no slots: a new state is its predecessor's __dict__ updated (``_with``)
class Fighter:
    """One combatant's fight state (see the module documentation).

    Build it with :meth:`from_character`; every operation returns a :class:`FightStep` with a
    new one.

    Attributes:
        name: The fighter's name in the fight (the character's, unless another was given).
        turn: How many turns the fighter has started.
        maneuver: The maneuver in force (a :data:`~gurps_character.DefenderManeuver`), or None
            before the first.
        posture: The :data:`~gurps_character.Posture`.
        shock: The shock penalty on this turn (0 to -8, B419).
        shock_owed: The shock of the hits since the fighter's last turn, for the next (capped).
        shock_cap: The cap of ``shock_owed``: -4, or -8 when doubled shock counts.
        stunned: ``"physical"``, ``"mental"`` or None (B420).
        stun_waited: A turn of Do Nothing has begun since the stun (its recovery roll is owed at
            the end of it).
        parries: Parries made since the fighter's last turn, by weapon (``""``: the sheet's).
        blocked: A block was made since the fighter's last turn.
        retreated_from: The attacker the fighter retreated from since its last turn, or None.
        unbalanced: Weapons (U) that attacked this turn: no parry with them until the next.
        attacks_made: Attacks made this turn.
        aim: ``(weapon, turns)`` of the Aim in progress, or None.
        crippled: Crippled locations (a rolled side kept: ``right_arm``), in order.
        funny_bone: ``(location, turns left)`` of crippling from a critical hit that wears off.
        dropped: What the fighter dropped: weapon names (dropping everything drops each weapon
            held, never its fists), ``right_arm`` (what a crippled arm held); Ready picks a
            weapon up.
        unready: Weapons that need a Ready maneuver (turned in the hand, a dropped shield).
        wielding: The weapon the fighter attacked or parried with, aimed or readied last (never
            its fists, feet or teeth: they are not put down), or None before any. It is the one
            a critical row drops when it says "the weapon" (B556-B557): the Critical Head Blow's
            14 on a victim, a Critical Miss applied without the weapon; before any, the first
            weapon the sheet lists is taken as the one in hand.
        off_balance: A penalty to every active defense until the fighter's next turn (0, -1 or
            -2: a lost balance, a dropped guard, a torn muscle).
        do_nothing_next: The fighter must Do Nothing on its next turn.
        unconscious: The fighter is unconscious.
        mortally_wounded: The fighter is mortally wounded (B423): it takes no further action.
        dead: The fighter is dead.
        owed: The rolls owed, in the order to make them.
        conscious_checked: At 0 HP or less, the consciousness roll was made this turn (a
            fighter that Did Nothing owes it when it defends, B419).
        must_do_nothing: This turn is one of Do Nothing (stunned, or off balance).
        feints: Feints won, by foe: the penalty to that foe's defenses against the fighter's
            next attack on it (B365).

    One class of this length on purpose: see the module's documentation.
    """

    name: str
    _document: dict[str, Any] = field(repr=False)
    turn: int = 0
    maneuver: DefenderManeuver | None = None
    posture: Posture = "standing"
    shock: int = 0
    shock_owed: int = 0
    shock_cap: int = -4
    stunned: Literal["physical", "mental"] | None = None
    stun_waited: bool = False
    parries: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    blocked: bool = False
    retreated_from: str | None = None
    unbalanced: tuple[str, ...] = ()
    attacks_made: int = 0
    aim: tuple[str, int] | None = None
    crippled: tuple[str, ...] = ()
    funny_bone: tuple[tuple[str, int], ...] = ()
    dropped: tuple[str, ...] = ()
    unready: tuple[str, ...] = ()
    wielding: str | None = None
    off_balance: int = 0
    do_nothing_next: bool = False
    unconscious: bool = False
    mortally_wounded: bool = False
    dead: bool = False
    owed: tuple[OwedRoll, ...] = ()
    conscious_checked: bool = False
    must_do_nothing: bool = False
    feints: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    _sheet: _Sheet = field(default=cast(_Sheet, None), repr=False, compare=False)

    @property
    def character(self) -> dict[str, Any]:
        """The character document now, with HP and FP as the fight has left them (a fresh copy
        on each read; the fighter's own, which its successive states share, never leaves it, so
        nothing done to it changes a state)."""
        return _handed_out(self._document)

    # ------------------------------------------------------------ building and saving

    @classmethod
    @guarded
    def from_character(
        cls, character: Any, *, name: str | None = None, shield_db: int | None = None
    ) -> Fighter:
        """A fighter at the start of a fight: standing, no shock, nothing owed.

        Args:
            character: What :func:`~gurps_character.load_character` returns (its ``character``
                is taken), or a character document (never modified).
            name: The fighter's name in the fight (default: the character's).
            shield_db: The DB of the shield or cloak the fighter carries (B374), counted once in
                every defense; None: the sheet's (what GCS counted for an imported character, 0
                for a sheet of the format, whose formulas leave DB out). Pass ``shield_db=0`` to
                a defense against a firearm.

        Returns:
            A :class:`Fighter`.

        Raises:
            CharacterError: ``notAnObject`` or ``schema`` when the document is no character,
                ``invalidJson`` when it holds something JSON cannot (a set ...);
                ``invalidArgument`` for a name that is not a string or a DB that is not a whole
                number of at least 0.
        """
        document = getattr(character, "character", character)
        if not isinstance(document, Mapping):
            raise CharacterError("notAnObject", "A character document must be a JSON object.")
        db = None if shield_db is None else _integer(shield_db, "shield_db", 0)
        # the fighter's own copy: its later documents share with it what a hit leaves unchanged
        document = _handed_out(document)
        sheet = _Sheet(document, shield_db=db)
        own = _identity(document)["name"]
        chosen = own if name is None else name
        if not isinstance(chosen, str):
            raise CharacterError("invalidArgument", "name must be a string.", {"name": "name"})
        unconscious = _pool_state(document, "fp").state == "unconscious"
        dead = _pool_state(document, "hp").state in ("dead", "destroyed")
        return cls(chosen, document, unconscious=unconscious, dead=dead, _sheet=sheet)

    def to_dict(self) -> dict[str, Any]:
        """The fighter's state as JSON data, without the document.

        Save it beside the document and resume with :meth:`from_dict`. Never raises: the state
        only reads the fighter's own document, checked when the fighter was made.

        Returns:
            The state (camelCase keys); its ``character`` identifies the document it goes with
            (name, creation, last update, HP and FP).
        """
        return {
            "version": _STATE_VERSION,
            "name": self.name,
            "shieldDb": self._sheet.shield_db,
            "character": {**_identity(self._document), **_version(self._document)},
            "turn": self.turn,
            "maneuver": self.maneuver,
            "posture": self.posture,
            "shock": self.shock,
            "shockOwed": self.shock_owed,
            "shockCap": self.shock_cap,
            "stunned": self.stunned,
            "stunWaited": self.stun_waited,
            "parries": dict(self.parries),
            "blocked": self.blocked,
            "retreatedFrom": self.retreated_from,
            "unbalanced": list(self.unbalanced),
            "attacksMade": self.attacks_made,
            "aim": None if self.aim is None else {"weapon": self.aim[0], "turns": self.aim[1]},
            "crippled": list(self.crippled),
            "funnyBone": [{"location": where, "turns": turns} for where, turns in self.funny_bone],
            "dropped": list(self.dropped),
            "unready": list(self.unready),
            "wielding": self.wielding,
            "offBalance": self.off_balance,
            "doNothingNext": self.do_nothing_next,
            "unconscious": self.unconscious,
            "mortallyWounded": self.mortally_wounded,
            "dead": self.dead,
            "owed": [roll.to_dict() for roll in self.owed],
            "consciousChecked": self.conscious_checked,
            "mustDoNothing": self.must_do_nothing,
            "feints": dict(self.feints),
        }

    @classmethod
    @guarded
    def from_dict(cls, data: Mapping[str, Any], character: Any) -> Fighter:
        """The fighter :meth:`to_dict` saved, with the character document it goes with.

        Args:
            data: What :meth:`to_dict` gave (parsed JSON).
            character: The document the state goes with (or :func:`~gurps_character.load_character`'s
                result), as it was when the state was saved.

        Returns:
            The :class:`Fighter`.

        Raises:
            CharacterError: ``stateMismatch`` when the state is another character's, or the
                document has changed since (an older or newer version: its HP, FP or last
                update differ); ``invalidState`` when ``data`` is not a state this version
                wrote; as :meth:`from_character` for the document.
        """
        document = getattr(character, "character", character)
        if not isinstance(data, Mapping) or data.get("version") != _STATE_VERSION:
            raise CharacterError(
                "invalidState",
                f"The fight state is not one this library writes (version {_STATE_VERSION}).",
                {"version": data.get("version") if isinstance(data, Mapping) else None},
            )
        db = data.get("shieldDb")
        fresh = cls.from_character(document, shield_db=db if type(db) is int and db >= 0 else None)
        saved = data.get("character")
        if not isinstance(saved, Mapping):
            raise CharacterError(
                "invalidState", "The fight state names no character.", {"field": "character"}
            )
        identity = _identity(fresh._document)
        if any(saved.get(key) != value for key, value in identity.items()):
            raise CharacterError(
                "stateMismatch",
                f"The fight state is {saved.get('name')!r}'s, not {identity['name']!r}'s.",
                {"state": dict(saved), "document": identity},
            )
        version = _version(fresh._document)
        if any(saved.get(key) != value for key, value in version.items()):
            raise CharacterError(
                "stateMismatch",
                "The document has changed since the fight state was saved (HP, FP or its last "
                "update differ): resume with the document saved with the state.",
                {"state": dict(saved), "document": version},
            )
        try:
            return _restored(fresh, data)
        except CharacterError as error:  # a field with a value no fighter has (a posture ...)
            raise CharacterError(
                "invalidState", f"The fight state is malformed: {error.message}", {"field": error.details}
            ) from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise CharacterError(
                "invalidState", f"The fight state is malformed: {error!r}.", {"field": str(error)}
            ) from None

    # ------------------------------------------------------------ helpers

    def _with(self, **changes: Any) -> Fighter:
        """A copy with ``changes`` (field names only): the fields copied at once, bypassing the
        frozen ``__setattr__`` as the dataclass's own ``__init__`` does (``dataclasses.replace``
        re-runs ``__init__`` field by field, and a fighter is copied a few times per blow)."""
        new = object.__new__(Fighter)
        fields_of_new = new.__dict__
        fields_of_new.update(self.__dict__)
        fields_of_new.update(changes)
        return new

    def _moved(self, change: PoolChange) -> Fighter:
        return self._with(_document=change.document, _sheet=self._sheet.moved_to(change))

    def _owe(self, roll: OwedRoll) -> Fighter:
        if any(o.kind == roll.kind and o.n == roll.n for o in self.owed):
            return self
        return self._with(owed=(*self.owed, roll))

    def _acts(self) -> None:
        if self.dead:
            raise _not_allowed(f"{self.name} is dead.", fighter=self.name, because="dead")
        if self.unconscious or self.mortally_wounded:
            raise _not_allowed(f"{self.name} is unconscious.", fighter=self.name, because="unconscious")

    def _owed_now(self) -> None:
        pending = [o.kind for o in self.owed if o.when == "now"]
        if pending:
            raise _not_allowed(
                f"{self.name} owes {', '.join(pending)} first: resolve it.", fighter=self.name, owed=pending
            )

    def can_use(self, weapon: str) -> bool:
        """Whether the weapon is in hand and ready: not dropped, broken or unready (a Ready
        maneuver fixes that). ``weapon`` is a row's name, or a name whose modes are rows
        ("Broadsword" for GCS's "Broadsword (Swung)"), case and spacing aside.

        Args:
            weapon: The weapon's name.

        Returns:
            True when it can attack or parry.
        """
        return not any(_same(held, weapon) for held in (*self.dropped, *self.unready))

    @property
    def able(self) -> bool:
        """Whether the fighter can act, being conscious, alive and not mortally wounded."""
        return not (self.dead or self.unconscious or self.mortally_wounded)

    # ------------------------------------------------------------ turns

    def start_turn(self) -> FightStep:
        """The start of the fighter's turn (B324): the shock owed becomes this turn's (B419);
        parries, the block, the retreat, U weapons' attacks and an off-balance penalty of the
        last turn end; a stunned or off-balance fighter must Do Nothing (B420, B556); at 0 HP or
        less the consciousness roll is owed (HT at -n, B419), at 0 FP or less a Will roll to act
        (B426). Never raises: it reads only the fighter's own document, checked when the fighter
        was made.

        Returns:
            A :class:`FightStep`.
        """
        events = [_event("turnStarted", "B324", turn=self.turn + 1)]
        state = self._with(
            turn=self.turn + 1,
            shock=self.shock_owed,
            shock_owed=0,
            shock_cap=-4,
            parries=MappingProxyType({}),
            blocked=False,
            retreated_from=None,
            unbalanced=(),
            attacks_made=0,
            off_balance=0,
            maneuver=None,
            conscious_checked=False,
            must_do_nothing=False,
        )
        if self.shock_owed:
            events.append(_event("shock", "B419", penalty=self.shock_owed))
        if not self.able:
            events.append(_event("incapacitated", "B419", dead=self.dead, unconscious=self.unconscious))
            return FightStep(state, tuple(events))
        forced = self.stunned is not None or self.do_nothing_next
        if forced:
            why = "stunned" if self.stunned is not None else "offBalance"
            events.append(_event("mustDoNothing", "B420" if self.stunned else "B556", because=why))
            state = state._with(
                maneuver="do_nothing",
                do_nothing_next=False,
                stun_waited=self.stunned is not None,
                must_do_nothing=True,
            )
        hp = _pool_state(self._document, "hp")
        fp = _pool_state(self._document, "fp")
        if hp.current <= 0 and not forced:
            state = state._owe(OwedRoll("consciousnessCheck", "ht", -(hp.n or 0), "startOfTurn", "B419"))
            events.append(_event("rollOwed", "B419", kind="consciousnessCheck", modifier=-(hp.n or 0)))
        if fp.current <= 0 and not forced:
            state = state._owe(OwedRoll("actWhileCollapsed", "will", 0, "startOfTurn", "B426"))
            events.append(_event("rollOwed", "B426", kind="actWhileCollapsed", modifier=0))
        return FightStep(state, tuple(events))

    def end_turn(self) -> FightStep:
        """The end of the fighter's turn: this turn's shock ends (B419); a fighter stunned since
        before this turn owes its recovery roll (HT, IQ for a mental stun, B420); a crippling
        from a critical hit wears off a turn (a second) closer.

        Returns:
            A :class:`FightStep`.
        """
        events: list[FightEvent] = [_event("turnEnded", "B324", turn=self.turn)]
        state = self._with(shock=0)
        if self.feints and self.maneuver not in ("feint", "all_out_attack_feint"):
            state = state._with(feints=MappingProxyType({}))  # a Feint counts on the next turn only
        if self.stunned is not None and self.stun_waited and self.able:
            attribute: Literal["ht", "iq"] = "ht" if self.stunned == "physical" else "iq"
            state = state._owe(OwedRoll("stunRecovery", attribute, 0, "endOfTurn", "B420"))
            events.append(_event("rollOwed", "B420", kind="stunRecovery", attribute=attribute))
        if self.funny_bone:
            left = tuple((where, turns - 1) for where, turns in self.funny_bone)
            healed = [where for where, turns in left if turns <= 0]
            crippled = list(state.crippled)
            for where in healed:
                crippled.remove(where)
                events.append(_event("crippleWoreOff", "B556", location=where))
            state = state._with(
                funny_bone=tuple(item for item in left if item[1] > 0), crippled=tuple(crippled)
            )
        return FightStep(state, tuple(events))

    def choose(
        self, maneuver: DefenderManeuver, *, weapon: str | None = None, posture: Posture | None = None
    ) -> FightStep:
        """Chooses the turn's maneuver (B363-B366); it governs the fighter's defenses until its
        next turn. Do Nothing waives the 0 HP roll (B419); Aim counts turns with one weapon
        (``weapon``, B364); Change Posture takes ``posture`` (from lying: kneeling, crawling or
        sitting first, B551); Ready readies a dropped or unready ``weapon``.

        Args:
            maneuver: A :data:`~gurps_character.DefenderManeuver`.
            weapon: The weapon aimed (Aim) or readied (Ready).
            posture: The new posture (Change Posture).

        Returns:
            A :class:`FightStep`.

        Raises:
            CharacterError: ``invalidArgument`` for an unknown maneuver or posture;
                ``notAllowed`` for a fighter who cannot act, owes a roll now, must Do Nothing,
                or a posture change the rules forbid.
        """
        chosen = cast(DefenderManeuver, _choice(maneuver, "maneuver", _MANEUVERS))
        self._acts()
        self._owed_now()
        if self.must_do_nothing and chosen != "do_nothing":
            why = "stunned" if self.stunned is not None else "off balance"
            raise _not_allowed(
                f"{self.name} is {why} and must Do Nothing this turn (B420, B556).", because=why
            )
        events = [_event("maneuver", "B363", maneuver=chosen)]
        owed = self.owed
        if chosen == "do_nothing":
            waived = [o for o in owed if o.kind in ("consciousnessCheck", "actWhileCollapsed")]
            owed = tuple(o for o in owed if o not in waived)
            for o in waived:
                events.append(_event("rollWaived", o.page, kind=o.kind))
        elif any(o.when == "startOfTurn" for o in owed):
            pending = [o.kind for o in owed if o.when == "startOfTurn"]
            raise _not_allowed(
                f"{self.name} owes {', '.join(pending)} before a maneuver other than Do Nothing.",
                owed=pending,
            )
        state = self._with(maneuver=chosen, owed=owed)
        if chosen == "aim":
            if weapon is None:
                raise CharacterError("invalidArgument", "Aim needs the weapon aimed.", {"name": "weapon"})
            turns = self.aim[1] + 1 if self.aim is not None and self.aim[0] == weapon else 1
            state = state._with(aim=(weapon, turns))._wields(weapon)
            events.append(_event("aiming", "B364", weapon=weapon, turns=turns))
        elif chosen not in ("attack", "all_out_attack_determined", "all_out_attack_strong"):
            state = state._with(aim=None)
        if chosen == "change_posture":
            state = state._with(posture=self._new_posture(posture))
            events.append(_event("posture", "B364", posture=state.posture))
        if chosen == "ready" and weapon is not None:
            state = state._with(
                unready=tuple(w for w in self.unready if not _same(w, weapon)),
                dropped=tuple(w for w in self.dropped if not _same(w, weapon)),
            )._wields(weapon)
            events.append(_event("readied", "B366", weapon=weapon))
        if chosen == "move_and_attack" and self.posture != "standing":
            raise _not_allowed("Move and Attack needs a standing fighter.", posture=self.posture)
        return FightStep(state, tuple(events))

    def _new_posture(self, posture: object) -> Posture:
        new = cast(Posture, _choice(posture, "posture", _POSTURES))
        if self.posture == "lying" and new in ("standing", "crouching"):
            raise _not_allowed(
                "From lying, Change Posture goes to kneeling, crawling or sitting first (B551).",
                posture=new,
                allowed=["kneeling", "crawling", "sitting"],
            )
        return new

    # ------------------------------------------------------------ attacking

    def attack(
        self,
        *,
        weapon: str | None = None,
        mode: str | None = None,
        skill: str | None = None,
        location: str = "torso",
        roll: int | None = None,
        critical_roll: int | None = None,
        rng: random.Random | None = None,
        deceptive: int = 0,
        target: str | None = None,
        **options: Any,
    ) -> FightStep:
        """An attack under the maneuver in force: the effective skill from
        :func:`~gurps_character.character_attack_skill` with this turn's shock, the fighter's
        posture (melee), the maneuver and the Aim in progress; the roll judged by
        :func:`~gurps_character.success_roll`. A critical success rolls on the Critical Hit
        Table (Critical Head Blow Table for the skull, face or eye) and allows no defense; a
        critical failure rolls on the Critical Miss Table (unarmed: its unarmed version) and
        its effect is applied to the attacker. A U weapon cannot parry until the next turn.

        Args:
            weapon: The name of one of the character's weapons, or None (as for
                :func:`~gurps_character.character_attack_skill`).
            mode: Which of the weapon's modes (None: the only one, or any that give the same
                numbers).
            skill: The name of the skill to attack with, or None: the weapon's.
            location: Where the blow is aimed (``"random"``: rolled on B552 with ``rng``).
            roll: The 3d attack roll; None rolls it with ``rng``.
            critical_roll: The 3d roll on a critical table, when one is needed; None rolls it.
            rng: A ``random.Random`` for the rolls not given.
            deceptive: The Deceptive Attack level.
            target: The foe's name: a Feint won against it counts in this attack (and is spent).
            **options: Any other keyword of :func:`~gurps_character.attack_skill`
                (``distance_yards``, ``target_sm`` ...).

        Returns:
            A :class:`FightStep` with the :class:`Attack`.

        Raises:
            CharacterError: ``notAllowed`` when the fighter cannot act, owes a roll, has not
                chosen an attacking maneuver or has made its attacks; ``invalidArgument`` as
                :func:`~gurps_character.character_attack_skill`.
        """
        self._acts()
        self._owed_now()
        maneuver = self.maneuver
        if maneuver is None or maneuver not in _ATTACKS:
            raise _not_allowed(
                f"{self.name}'s maneuver ({maneuver}) allows no attack: choose attack, an All-Out "
                "Attack or Move and Attack.",
                maneuver=maneuver,
            )
        if self.attacks_made >= _ATTACKS[maneuver]:
            raise _not_allowed(f"{self.name} has made its attacks this turn.", attacks=self.attacks_made)
        if weapon is not None and not self.can_use(weapon):
            raise _not_allowed(f"{weapon!r} is not ready (dropped or unready).", weapon=weapon)
        where = hit_location(roll_3d(rng)) if location == "random" else location
        base = self._sheet.attack(weapon, mode, skill)
        passed: dict[str, Any] = dict(base.options)
        passed.update(options)
        ranged = bool(passed.get("ranged", False))
        passed["maneuver"] = cast(AttackManeuver, maneuver)
        passed["location"] = LOCATION_NAMES.get(where, where)
        if self.shock:
            passed["shock"] = self.shock
        if deceptive:
            passed["deceptive"] = deceptive
        if not ranged and self.posture != "standing":
            passed["posture"] = self.posture
        if (
            ranged
            and self.aim is not None
            and weapon is not None
            and self.aim[0] == weapon
            and "aim_turns" not in options
        ):
            passed["aim_turns"] = self.aim[1]
        result = _attack_skill(base.base, **passed)
        made = CharacterAttack(
            result, base.base, base.sheet_value, base.source, base.pointer, base.weapon, base.skill,
            base.adjustments, MappingProxyType(passed),
        )  # fmt: skip
        rolled = success_roll(result.effective, roll, rng=rng)
        unarmed = self._unarmed(base.weapon)
        line = self._damage_line(base.weapon, mode)
        swung = line is not None and line.base == "swing"
        critical: CriticalEffect | None = None
        events = [
            _event("attacked", "B369", weapon=base.weapon, effective=result.effective, roll=rolled.roll)
        ]
        feint = self.feints.get(target, 0) if target is not None else 0
        spent = {name: value for name, value in self.feints.items() if name != target}
        state = self._with(attacks_made=self.attacks_made + 1, aim=None, feints=MappingProxyType(spent))
        state = state._wields(base.weapon)
        if rolled.critical and rolled.success:
            hit_table = critical_table_for(where)
            critical = critical_effect(hit_table, critical_roll, rng=rng)
            events.append(
                _event(
                    "criticalHit", critical.page, table=hit_table, roll=critical.roll, effect=critical.effect
                )
            )
        elif rolled.critical:
            table: CriticalTable = "unarmed_critical_miss" if unarmed else "critical_miss"
            critical = critical_effect(table, critical_roll, rng=rng, ranged=ranged, swung=swung)
            events.append(
                _event("criticalMiss", critical.page, table=table, roll=critical.roll, effect=critical.effect)
            )
            suffered = state._suffer(critical, base.weapon, "attack")
            state, events = suffered.fighter, [*events, *suffered.events]
        if base.weapon is not None and self._is_unbalanced(base.weapon):
            state = state._with(unbalanced=(*state.unbalanced, base.weapon))
        record = Attack(
            attacker=self.name,
            weapon=base.weapon,
            ranged=ranged,
            location=where,
            skill=made,
            roll=rolled,
            critical=critical,
            damage=self._weapon_damage(base.weapon, mode),
            deceptive=deceptive,
            unarmed=unarmed,
            swung=swung,
            feint=feint,
        )
        return FightStep(state, tuple(events), attack=record, roll=rolled, critical=critical)

    def _damage_lines(self, weapon: str | None) -> tuple[Any, ...]:
        rows: tuple[Any, ...] = (*self._sheet.stats.weapons.melee, *self._sheet.stats.weapons.ranged)
        for row in rows:
            if row.name == weapon:
                return tuple(row.damage)
        return ()

    def _weapon_damage(self, weapon: str | None, mode: str | None) -> WeaponDamage | None:
        cache = self._sheet.damage
        if (weapon, mode) not in cache:
            cache[weapon, mode] = self._resolved_damage(weapon, mode)
        return cache[weapon, mode]

    def _damage_line(self, weapon: str | None, mode: str | None) -> Any:
        """The weapon's damage line for ``mode`` (``swing``, ``thrust``), else its first, or None."""
        lines = self._damage_lines(weapon)
        if not lines:
            return None
        wanted = mode.casefold() if mode is not None else None
        return next((ln for ln in lines if wanted is not None and ln.base == wanted), lines[0])

    def _resolved_damage(self, weapon: str | None, mode: str | None) -> WeaponDamage | None:
        line = self._damage_line(weapon, mode)
        if line is None:
            return None
        try:
            return resolve_damage_notation(self._document, line.notation)
        except CharacterError:
            return None

    def _unarmed(self, weapon: str | None) -> bool:
        for choice in self._sheet.choices():
            if choice.kind == "parry" and choice.weapon == weapon and choice.defense is not None:
                return choice.defense.options.get("parry_style") in _UNARMED_STYLES
        name = (weapon or "").casefold()
        return name.startswith(("natural attacks", "punch", "kick", "bite"))

    def _is_unbalanced(self, weapon: str) -> bool:
        return weapon in self._sheet.unbalanced()

    # ------------------------------------------------------------ defending

    def defenses(
        self, attack: Attack | None = None, *, retreat: bool = False, **options: Any
    ) -> tuple[DefenseChoice, ...]:
        """Every active defense against ``attack`` now (:func:`~gurps_character.character_defenses`
        with the fight's state): the maneuver in force (All-Out Attack: none; Move and Attack:
        no parry, no retreat; All-Out Defense: +2 to its defense), posture, stun, earlier parries
        with each weapon (-4 each, B376), the block already made (one per turn), U weapons that
        attacked, dropped weapons, the retreat (once per turn, from one attacker, its bonus held
        against that attacker), a critical hit (no defense), the attack's Deceptive level and
        an off-balance -2. A defense that cannot be tried has ``value`` None and its ``reason``.

        Args:
            attack: The :class:`Attack` defended against, or None (any melee attack).
            retreat: Retreat (B377): refused when the rules forbid it.
            **options: Any other keyword of :func:`~gurps_character.defense`
                (``attack_direction``, ``feint`` ...).

        Returns:
            The choices, Dodge first.
        """
        out: list[DefenseChoice] = []
        for choice in self._sheet.choices():
            out.append(self._situation(choice, attack, retreat, options))
        return tuple(out)

    def best_defense(
        self, attack: Attack | None = None, *, retreat: bool = False, **options: Any
    ) -> DefenseChoice | None:
        """The best of :meth:`defenses` (the highest; of equals Dodge, then a parry, then a
        block), or None when none can be tried (:meth:`why_no_defense` says why).

        Args:
            attack: As for :meth:`defenses`.
            retreat: As for :meth:`defenses`.
            **options: As for :meth:`defenses`.

        Returns:
            A :class:`~gurps_character.DefenseChoice`, or None.
        """
        return _best(self.defenses(attack, retreat=retreat, **options))

    def why_no_defense(self, attack: Attack | None = None, **options: Any) -> str | None:
        """Why no defense can be tried against ``attack`` (the first reason), or None when one can.

        Args:
            attack: As for :meth:`defenses`.
            **options: As for :meth:`defenses`.

        Returns:
            A :data:`~gurps_character.NoDefenseWhy` (or ``critical_hit``), or None.
        """
        choices = self.defenses(attack, **options)
        if any(choice.value is not None for choice in choices):
            return None
        return next((choice.reason for choice in choices if choice.reason is not None), None)

    def _situation(
        self, choice: DefenseChoice, attack: Attack | None, retreat: bool, options: Mapping[str, Any]
    ) -> DefenseChoice:
        found = choice.defense
        if found is None:
            return choice
        why = self._forbidden(choice, attack)
        if why is not None:
            return replace(choice, reason=cast(Any, why))
        passed: dict[str, Any] = dict(found.options)
        passed.update(options)
        if self.maneuver is not None:
            passed["maneuver_of_defender"] = self.maneuver
        if self.posture != "standing":
            passed["posture"] = self.posture
        if self.stunned is not None:
            passed["stunned"] = True
        if attack is not None:
            if attack.deceptive:
                passed["deceptive"] = attack.deceptive
            if attack.feint and "feint" not in options:
                passed["feint"] = attack.feint
            if attack.ranged:
                passed["vs_ranged"] = True
        held = (
            attack is not None
            and self.retreated_from == attack.attacker
            and not attack.ranged
            and self.stunned is None
            and self.posture not in ("kneeling", "sitting")
            and self.maneuver != "move_and_attack"
        )
        if retreat or held:
            if self.retreated_from is not None and not held:
                return replace(choice, reason=cast(Any, "retreat_used"))
            passed["retreat"] = True
        if choice.kind == "parry":
            passed["parries_so_far"] = self.parries.get(choice.weapon or "", 0)
            if (
                attack is not None
                and attack.swung
                and not attack.unarmed
                and passed.get("parry_style") in ("unarmed", "boxing")
            ):
                passed["unarmed_vs_weapon"] = True
        kept = self._sheet.situations
        # each value with its type: True is not 1
        key: tuple[Any, ...] | None = (
            id(choice),
            self.off_balance,
            *[(k, type(v), v) for k, v in passed.items()],
        )
        try:
            known = kept.get(cast(tuple[Any, ...], key))
        except TypeError:  # an unhashable option: computed, and refused, as always
            key, known = None, None
        if known is not None and known[0] is choice:  # the very choice: its id was not reused
            return known[1]
        result = _defense(choice.kind, found.base, **passed)
        if result.value is not None and self.off_balance:
            result = Defense(
                result.value + self.off_balance,
                (*result.modifiers, ("off_balance", self.off_balance, "B556")),
                None,
            )
        made = CharacterDefense(
            found.kind, result, found.base, found.sheet_value, found.source, found.pointer,
            found.weapon, found.skill, found.adjustments, MappingProxyType(passed), found.db,
            found.db_source,
        )  # fmt: skip
        out = DefenseChoice(choice.kind, choice.weapon, made, cast(Any, result.reason))
        if key is not None and len(kept) < _KEPT_SITUATIONS:
            kept[key] = (choice, out)
        return out

    def _forbidden(self, choice: DefenseChoice, attack: Attack | None) -> str | None:
        if not self.able:
            return "unconscious"
        if attack is not None and not attack.defendable:
            return "critical_hit"
        if choice.kind == "block" and self.blocked:
            return "block_used"
        weapon = choice.weapon
        if weapon is not None and not self.can_use(weapon):
            return "weapon_dropped"
        if choice.kind == "parry" and weapon is not None and weapon in self.unbalanced:
            return "unbalanced_weapon"
        if choice.kind == "parry" and attack is not None and attack.ranged:
            return "ranged_attack"
        return None

    def defend(
        self,
        attack: Attack | None = None,
        choice: DefenseChoice | DefenseKind | None = None,
        *,
        weapon: str | None = None,
        retreat: bool = False,
        roll: int | None = None,
        critical_roll: int | None = None,
        rng: random.Random | None = None,
        **options: Any,
    ) -> FightStep:
        """An active defense against ``attack``, and its bookkeeping: a parry counts against
        that weapon until the fighter's next turn, a block uses the turn's block, a retreat
        the turn's retreat (held against that attacker), any defense spoils an Aim (B364) and
        owes a Concentrate's Will-3 roll (B366); at 0 HP or less, a fighter that has not made
        its consciousness roll this turn (it Did Nothing) owes it now (B419). A critical
        failure: a dodge leaves the fighter lying, a block loses the shield until readied, a
        parry rolls on the Critical Miss Table (unarmed: its unarmed version); a critical
        success sends the attacker to the Critical Miss Table (``FightStep.critical``, for
        :meth:`apply_critical` on the attacker).

        Args:
            attack: The :class:`Attack` defended against.
            choice: A :class:`~gurps_character.DefenseChoice` of :meth:`defenses`, a kind
                (``"dodge"``, ``"parry"`` with ``weapon``, ``"block"``), or None for the best.
            weapon: The parrying or blocking weapon, with a kind.
            retreat: Retreat (B377).
            roll: The 3d defense roll; None rolls it with ``rng``.
            critical_roll: The roll on a critical table, when one is needed.
            rng: A ``random.Random`` for the rolls not given.
            **options: As for :meth:`defenses`.

        Returns:
            A :class:`FightStep` with the ``defense`` tried and its ``roll``.

        Raises:
            CharacterError: ``notAllowed`` when no such defense can be tried (the message
                says why); ``invalidArgument`` for an unknown kind or weapon.
        """
        self._owed_now()
        picked = self._pick(attack, choice, weapon, retreat, options)
        value = picked.value
        if value is None:
            raise _not_allowed(
                f"{self.name} cannot {picked.kind}: {picked.reason}.", kind=picked.kind, because=picked.reason
            )
        rolled = success_roll(value, roll, rng=rng)
        events = [
            _event(
                "defended",
                "B374",
                kind=picked.kind,
                weapon=picked.weapon,
                value=value,
                roll=rolled.roll,
                success=rolled.success,
            )
        ]
        state = self
        if picked.kind == "parry":
            key = picked.weapon or ""
            state = state._with(parries=MappingProxyType({**self.parries, key: self.parries.get(key, 0) + 1}))
            state = state._wields(picked.weapon)
        elif picked.kind == "block":
            state = state._with(blocked=True)
        if picked.defense is not None and picked.defense.options.get("retreat") and attack is not None:
            state = state._with(retreated_from=attack.attacker)
        if self.aim is not None:
            state = state._with(aim=None)
            events.append(_event("aimSpoiled", "B364", weapon=self.aim[0]))
        if self.maneuver == "concentrate":
            state = state._owe(OwedRoll("concentrateWillCheck", "will", -3, "now", "B366"))
        hp = _pool_state(self._document, "hp")
        if hp.current <= 0 and not self.conscious_checked:  # a defense is no Do Nothing (B419)
            state = state._owe(OwedRoll("consciousnessCheck", "ht", -(hp.n or 0), "now", "B419"))
            events.append(_event("rollOwed", "B419", kind="consciousnessCheck", modifier=-(hp.n or 0)))
        critical: CriticalEffect | None = None
        if rolled.critical and rolled.success and attack is not None:
            miss: CriticalTable = "unarmed_critical_miss" if attack.unarmed else "critical_miss"
            critical = critical_effect(miss, critical_roll, rng=rng, ranged=attack.ranged)
            events.append(
                _event("attackerCriticalMiss", critical.page, roll=critical.roll, effect=critical.effect)
            )
        elif rolled.critical and not rolled.success:
            if picked.kind == "dodge":
                state = state._with(posture="lying")
                events.append(_event("fell", "B556", because="criticalDodgeFailure"))
            elif picked.kind == "block":
                shield = picked.weapon or "shield"
                state = state._with(unready=(*state.unready, shield))
                events.append(_event("shieldLost", "B556", weapon=shield))
            else:
                unarmed = (
                    picked.defense is not None
                    and picked.defense.options.get("parry_style") in _UNARMED_STYLES
                )
                parry_miss: CriticalTable = "unarmed_critical_miss" if unarmed else "critical_miss"
                critical = critical_effect(parry_miss, critical_roll, rng=rng)
                suffered = state._suffer(critical, picked.weapon, "parry")
                state = suffered.fighter
                events.extend(suffered.events)
        return FightStep(state, tuple(events), defense=picked, roll=rolled, critical=critical)

    def _pick(
        self,
        attack: Attack | None,
        choice: DefenseChoice | DefenseKind | None,
        weapon: str | None,
        retreat: bool,
        options: Mapping[str, Any],
    ) -> DefenseChoice:
        choices = self.defenses(attack, retreat=retreat, **options)
        if choice is None:
            best = _best(choices)
            if best is None:
                reason = next((c.reason for c in choices if c.reason is not None), "none")
                raise _not_allowed(f"{self.name} has no defense: {reason}.", because=reason)
            return best
        if isinstance(choice, DefenseChoice):
            kind, weapon = choice.kind, choice.weapon
        else:
            kind = cast(DefenseKind, _choice(choice, "choice", ("dodge", "parry", "block")))
        matching = [c for c in choices if c.kind == kind and (weapon is None or _same(c.weapon, weapon))]
        if not matching:
            listed = [c.weapon for c in choices if c.kind == kind]
            raise CharacterError(
                "invalidArgument",
                f"{self.name} has no {kind} with {weapon!r}; its {kind} weapons are {listed}.",
                {"name": "weapon", "value": weapon, "allowed": listed},
            )
        usable = [c for c in matching if c.value is not None]
        return max(usable, key=lambda c: cast(int, c.value)) if usable else matching[0]

    # ------------------------------------------------------------ suffering

    def feint(
        self,
        target: str,
        defender_skill: int,
        *,
        weapon: str | None = None,
        mode: str | None = None,
        skill: str | None = None,
        roll: int | None = None,
        defender_roll: int | None = None,
        rng: random.Random | None = None,
    ) -> FightStep:
        """A Feint (B365) under the Feint maneuver: a Quick Contest of the fighter's skill with the
        weapon against the foe's best melee skill, unarmed skill, Cloak, Shield or DX
        (``defender_skill``); the penalty won (:func:`~gurps_character.feint_penalty`) counts
        against the foe's defenses against the fighter's next attack on it (``attack(target=)``).

        Args:
            target: The foe's name.
            defender_skill: The foe's skill in the contest.
            weapon: The feinter's weapon, as for :meth:`attack`.
            mode: The weapon's mode, as for :meth:`attack`.
            skill: The feinter's skill, as for :meth:`attack`.
            roll: The feinter's 3d roll; None rolls it with ``rng``.
            defender_roll: The foe's 3d roll; None rolls it with ``rng``.
            rng: A ``random.Random`` for the rolls not given.

        Returns:
            A :class:`FightStep` with the feinter's ``roll``.

        Raises:
            CharacterError: ``notAllowed`` when the maneuver is not Feint (or an All-Out Attack
                (Feint)), the fighter cannot act or owes a roll; ``invalidArgument`` for a roll
                outside 3-18, a ``defender_skill`` that is not a whole number, or a weapon,
                mode or skill the character does not have.
        """
        self._acts()
        self._owed_now()
        if self.maneuver not in ("feint", "all_out_attack_feint"):
            raise _not_allowed(
                f"{self.name}'s maneuver ({self.maneuver}) is no Feint.", maneuver=self.maneuver
            )
        own = self._sheet.attack(weapon, mode, skill).base + self.shock
        mine = roll_3d(rng) if roll is None else _roll(roll, "roll")
        theirs = roll_3d(rng) if defender_roll is None else _roll(defender_roll, "defender_roll")
        won = feint_penalty(own, mine, _integer(defender_skill, "defender_skill"), theirs)
        state = self._with(feints=MappingProxyType({**self.feints, target: won}))
        event = _event("feinted", "B365", target=target, penalty=won, roll=mine, defenderRoll=theirs)
        return FightStep(state, (event,), roll=success_roll(own, mine))

    def apply_critical(self, effect: CriticalEffect, weapon: str | None = None) -> FightStep:
        """Applies a Critical Miss Table effect to this fighter (the attacker whose foe's defense
        was a critical success, B556): a weapon dropped, broken or unready, a fall, a lost
        balance (Do Nothing, -2 to defenses until the next turn), a useless arm, a knock-out.

        Args:
            effect: The :class:`~gurps_character.CriticalEffect` (``FightStep.critical``).
            weapon: The weapon concerned (the one that attacked: ``Attack.weapon``); None: on
                the Critical Miss Table, the one the fighter wields (:attr:`wielding`, its last
                attack's), on the unarmed one none.

        Returns:
            A :class:`FightStep`.
        """
        return self._suffer(effect, weapon, "attack")

    def _suffer(self, effect: CriticalEffect, weapon: str | None, doing: str) -> FightStep:
        if weapon is None and effect.table == "critical_miss":  # the unarmed table's is a limb
            weapon = self._held()
        state = self
        events: list[FightEvent] = []
        page = effect.page
        if effect.weapon_breaks and weapon is not None:
            state = state._with(dropped=(*state.dropped, weapon))
            events.append(_event("weaponBroken", page, weapon=weapon))
        if effect.drops == "weapon" and weapon is not None:
            state = state._with(dropped=(*state.dropped, weapon))
            events.append(_event("dropped", page, weapon=weapon))
        if effect.weapon_unready and weapon is not None:
            state = state._with(unready=(*state.unready, weapon))
            events.append(_event("weaponUnready", page, weapon=weapon))
        if effect.own_limb_crippled and weapon is not None:
            state = state._with(unready=(*state.unready, weapon))
            events.append(_event("limbUseless", page, weapon=weapon, minutes=30))
        if effect.ends_turn:  # nothing else this turn; the defenses' penalty until the next
            state = state._with(attacks_made=max(_ATTACKS.values()), off_balance=effect.defense_penalty)
            events.append(_event("offBalance", page, defensePenalty=effect.defense_penalty))
        elif effect.defense_penalty:
            state = state._with(off_balance=effect.defense_penalty)
            events.append(_event("defensePenalty", page, penalty=effect.defense_penalty))
        if effect.falls or (effect.stumbles and doing == "parry"):
            state = state._with(posture="lying")
            events.append(_event("fell", page))
        elif effect.stumbles:
            events.append(_event("stumbled", page))
        if effect.keep_feet_roll:
            state = state._owe(OwedRoll("keepFeetCheck", "dx", 0, "now", page))
        if effect.unconscious:
            state = state._knocked_out()
            events.append(_event("unconscious", page))
        if effect.hits_self != "none" or effect.self_injury is not None:
            events.append(_event("selfInjury", page, hitsSelf=effect.hits_self, damage=effect.self_injury))
        return FightStep(state, tuple(events), critical=effect)

    def _knocked_out(self) -> Fighter:
        """Unconscious: lying, everything dropped; of the rolls owed only death checks remain."""
        owed = tuple(o for o in self.owed if o.kind == "deathCheck")
        return self._with(unconscious=True, posture="lying", dropped=self._all_dropped(), owed=owed)

    def _wields(self, weapon: str | None) -> Fighter:
        """The fighter with ``weapon`` in hand (:attr:`wielding`); fists, feet and teeth leave
        what the hand holds as it was."""
        if weapon is None or self._unarmed(weapon) or weapon == self.wielding:
            return self
        return self._with(wielding=weapon)

    def _held(self) -> str | None:
        """The weapon in the fighter's hand: :attr:`wielding`, else the sheet's first weapon
        (not its fists); None when it has none or has dropped it already (a broken one too)."""
        weapon = self.wielding
        if weapon is None:
            weapon = next(iter(self._holdable()), None)
        if weapon is None or any(_same(gone, weapon) for gone in self.dropped):
            return None
        return weapon

    def _holdable(self) -> list[str]:
        """The sheet's weapons a hand holds (not fists, feet or teeth), melee then ranged."""
        weapons = self._sheet.stats.weapons
        names = [row.name for row in weapons.melee] + [row.name for row in weapons.ranged]
        return [name for name in names if not self._unarmed(name)]

    def _all_dropped(self) -> tuple[str, ...]:
        """What the fighter drops when it drops everything: each weapon it holds (not its fists,
        feet or teeth), each once."""
        return tuple(dict.fromkeys((*self.dropped, *self._holdable())))

    def stun(self, kind: Literal["physical", "mental"] = "mental") -> FightStep:
        """Stuns the fighter (a mental stun after surprise, B393; physical as B420): Do Nothing
        on its next turn, -4 to defenses, no retreat; the recovery roll (IQ for mental, HT for
        physical) at the end of that turn.

        Args:
            kind: ``"physical"`` or ``"mental"``.

        Returns:
            A :class:`FightStep`.

        Raises:
            CharacterError: ``invalidArgument`` for another ``kind``.
        """
        which = cast(Literal["physical", "mental"], _choice(kind, "kind", ("physical", "mental")))
        return FightStep(
            self._with(stunned=which, stun_waited=False), (_event("stunned", "B420", kind=which),)
        )

    def take_hit(
        self,
        basic_damage: int | None = None,
        damage_type: str | None = None,
        *,
        attack: Attack | None = None,
        location: str | None = None,
        rng: random.Random | None = None,
        now: datetime | None = None,
        **options: Any,
    ) -> FightStep:
        """A hit resolved (:func:`~gurps_character.resolve_hit`) and applied
        (:func:`~gurps_character.apply_hit`), with the attack's critical effect: damage
        multiplied or maximal, DR halved or ignored, a major wound whenever anything
        penetrates, doubled shock, a funny-bone crippling, an eye hit, drops. Shock adds up
        until the fighter's next turn, at most -4 (-8 when doubled, B419); a major wound or a
        head or vitals blow owes the knockdown roll (B420); a crippled arm or hand drops what
        it holds, a crippled leg or foot makes the fighter fall (B420-B421); death checks are
        owed now, the 0 HP roll at the next turn; an Aim owes a Will roll, a Concentrate a
        Will-3 roll.

        Args:
            basic_damage: The basic damage rolled; None rolls the attack's weapon damage with
                ``rng``.
            damage_type: The damage type (default: the attack's weapon's).
            attack: The :class:`Attack` that hit (its critical effect, location and damage).
            location: Where it lands (default: the attack's location, else the torso).
            rng: A ``random.Random`` for the damage roll.
            now: A timezone-aware time for the document's ``meta.updatedAt`` (default: now).
            **options: Any other keyword of :func:`~gurps_character.resolve_hit`
                (``armor_divisor``, ``pain_threshold`` ...).

        Returns:
            A :class:`FightStep` with the ``hit`` and the ``change``.

        Raises:
            CharacterError: ``notAllowed`` when the fighter is dead; ``invalidArgument`` when
                neither damage nor a weapon's damage is given, or ``now`` in UTC falls outside
                the years 1 to 9999; ``outOfBounds`` when the character's HP maximum is negative
                (the pool's bounds admit no value); and as :func:`~gurps_character.resolve_hit`.
        """
        if self.dead:
            raise _not_allowed(f"{self.name} is dead.", because="dead")
        critical = attack.critical if attack is not None and attack.roll.success else None
        damage = attack.damage if attack is not None else None
        where = location or (attack.location if attack is not None else "torso")
        kind = damage_type or (damage.damage_type if damage is not None else None)
        if kind is None:
            raise CharacterError("invalidArgument", "take_hit needs a damage_type.", {"name": "damage_type"})
        options = {**self._sheet.hit_defaults(), **options}
        if damage is not None and "armor_divisor" not in options and damage.armor_divisor != 1:
            options["armor_divisor"] = damage.armor_divisor
        events: list[FightEvent] = []
        if basic_damage is None:
            if damage is None:
                raise CharacterError(
                    "invalidArgument", "take_hit needs basic_damage.", {"name": "basic_damage"}
                )
            basic = damage.roll(rng)
        else:
            basic = _integer(basic_damage, "basic_damage", 0)
        if critical is not None:
            if critical.maximum_damage and damage is not None:
                basic = max(damage.minimum, (damage.dice * 6 + damage.adds) * damage.multiplier)
            basic *= critical.damage_multiplier
            if critical.eye_hit and LOCATION_NAMES.get(where, where) in ("skull", "face"):
                if kind in ("imp", "pi-", "pi", "pi+", "pi++"):
                    where = "eye"
                else:  # no eye hit for this damage: the table's row 4
                    critical = replace(critical, dr="half_up", major_wound=True)
        hit = self._sheet.hit(basic, kind, where, options)
        if critical is not None and critical.dr != "normal":
            hit = self._dr_changed(hit, critical, kind, where, options)
        change = _apply_resolved(self._document, hit, now, owned=True)  # resolved just now: not checked again
        state = self._moved(change)
        events.append(_event("hit", "B377", location=hit.location, injury=hit.injury, basicDamage=basic))
        state, more = state._after_hit(hit, change, critical, kind)
        return FightStep(state, (*events, *more), hit=hit, _change=change, critical=critical)

    def _dr_changed(
        self, hit: Hit, critical: CriticalEffect, kind: str, where: str, options: dict[str, Any]
    ) -> Hit:
        if critical.dr == "ignored":
            return self._sheet.hit(hit.basic_damage, kind, where, {**options, "armor_divisor": math.inf})
        target = hit.effective_dr // 2 if critical.dr == "half_down" else (hit.effective_dr + 1) // 2
        listed = target - hit.natural_dr
        if listed >= 0:
            return self._sheet.hit(
                hit.basic_damage, kind, where, {**options, "dr": listed, "armor_divisor": 1}
            )
        divisor = float(options.get("armor_divisor", 1)) * 2
        return self._sheet.hit(hit.basic_damage, kind, where, {**options, "armor_divisor": divisor})

    def _after_hit(
        self, hit: Hit, change: PoolChange, critical: CriticalEffect | None, kind: str
    ) -> tuple[Fighter, list[FightEvent]]:
        state = self
        events: list[FightEvent] = []
        shock = hit.shock
        doubled = shock < -4 or hit.pain_threshold == "low"
        if critical is not None and critical.double_shock and hit.penetrating > 0:
            shock = max(-8, shock * 2)
            doubled = True
        if shock:
            cap = -8 if doubled or self.shock_cap == -8 else -4
            owed = max(cap, self.shock_owed + shock)
            state = state._with(shock_owed=owed, shock_cap=cap)
            events.append(_event("shockOwed", "B419", shock=shock, owed=owed))
        role = location_role(LOCATION_NAMES.get(hit.location, hit.location))
        side = hit.location
        if hit.crippled:
            state = state._with(crippled=(*state.crippled, side))
            events.append(_event("crippled", "B421", location=side))
            state, more = state._cripple_effects(side, role)
            events.extend(more)
        elif (
            critical is not None
            and critical.cripples_limb
            and hit.penetrating > 0
            and role in ("limb", "extremity")
        ):
            turns = max(2, 16 - self._sheet.attribute("ht"))
            state = state._with(
                crippled=(*state.crippled, side), funny_bone=(*state.funny_bone, (side, turns))
            )
            events.append(_event("crippled", "B556", location=side, turns=turns))
            state, more = state._cripple_effects(side, role)
            events.extend(more)
        if hit.blinded_eyes:
            state = state._with(crippled=(*state.crippled, *("eye",) * hit.blinded_eyes))
        if critical is not None and critical.drops == "everything":
            state = state._with(dropped=state._all_dropped())
            events.append(_event("dropped", critical.page, what="everything"))
        held = state._held() if critical is not None and critical.drops == "weapon" else None
        if critical is not None and held is not None:
            state = state._with(dropped=(*state.dropped, held))
            events.append(_event("dropped", critical.page, weapon=held))
        if critical is not None and critical.do_nothing_next:
            state = state._with(do_nothing_next=True)
            events.append(_event("offBalance", critical.page))
        if critical is not None and critical.deafened_or_scarred and hit.penetrating > 0:
            events.append(_event("deafened" if kind == "cr" else "scarred", critical.page))
        knockdown = any(roll.kind == "knockdown" for roll in hit.rolls)
        for follow_up in change.follow_ups:
            state, more = state._follow(follow_up)
            events.extend(more)
        if critical is not None and critical.major_wound and hit.penetrating > 0 and not knockdown:
            modifier = _knockdown_modifier(cast(Any, role), kind, True, hit.pain_threshold, False)
            state = state._owe(OwedRoll("knockdownCheck", "ht", modifier, "now", "B420"))
            events.append(_event("rollOwed", "B420", kind="knockdownCheck", modifier=modifier))
        if hit.injury > 0 and state.able:
            if state.aim is not None:
                state = state._owe(OwedRoll("aimWillCheck", "will", 0, "now", "B364"))
            if state.maneuver == "concentrate":
                state = state._owe(OwedRoll("concentrateWillCheck", "will", -3, "now", "B366"))
        return state, events

    def _cripple_effects(self, side: str, role: str) -> tuple[Fighter, list[FightEvent]]:
        rule = LOCATION_NAMES.get(side, side)
        if rule in _ARMS:
            return self._with(dropped=(*self.dropped, side)), [_event("dropped", "B420", what=side)]
        if rule in _LEGS:
            return self._with(posture="lying"), [_event("fell", "B420", because=side)]
        return self, []

    def _follow(self, follow_up: FollowUp) -> tuple[Fighter, list[FightEvent]]:
        kind = follow_up.kind
        page = follow_up.reference
        if kind == "death":
            return self._with(dead=True, posture="lying", owed=()), [_event("dead", page)]
        if kind == "deathCheck":
            roll = OwedRoll("deathCheck", "ht", follow_up.modifier or 0, "now", page, follow_up.n)
            return self._owe(roll), [_event("rollOwed", page, kind="deathCheck", n=follow_up.n)]
        if kind == "knockdownCheck":
            roll = OwedRoll("knockdownCheck", "ht", follow_up.modifier or 0, "now", page)
            return self._owe(roll), [_event("rollOwed", page, kind="knockdownCheck", modifier=roll.modifier)]
        if kind == "keepFeetCheck":
            roll = OwedRoll("keepFeetCheck", "dx", follow_up.modifier or 0, "now", page)
            return self._owe(roll), [_event("rollOwed", page, kind="keepFeetCheck", modifier=roll.modifier)]
        if kind == "unconsciousness":
            return self._knocked_out(), [_event("unconscious", page)]
        if kind == "consciousnessCheck":  # owed at the start of the next turn: start_turn lists it
            return self, [
                _event("rollOwedNextTurn", page, kind="consciousnessCheck", modifier=follow_up.modifier)
            ]
        if kind == "blinding":
            return self, [_event("blinded", page, eyes=follow_up.amount)]
        return self, [_event(kind, page, amount=follow_up.amount)]

    def spend_fatigue(self, amount: int, *, now: datetime | None = None) -> FightStep:
        """FP spent (B426), through :func:`~gurps_character.change_pool` with the injury past
        0 FP taken off HP in the same write; -1xFP knocks the fighter out.

        Args:
            amount: FP spent, a whole number of at least 0.
            now: A timezone-aware time for the document's ``meta.updatedAt`` (default: now).

        Returns:
            A :class:`FightStep` with the ``change``.

        Raises:
            CharacterError: ``invalidArgument`` when ``amount`` is not a whole number of at
                least 0, or ``now`` in UTC falls outside the years 1 to 9999; ``outOfBounds``
                when the character's FP (or HP) maximum is negative (the pool's bounds admit no
                value).
        """
        spent = _integer(amount, "amount", 0)
        change = pool_changed(self._document, "fp", -spent, now, spill_to_hp=True, owned=True)
        state = self._moved(change)
        events = [_event("fatigue", "B426", spent=spent, fp=change.after.current)]
        for follow_up in change.follow_ups:
            state, more = state._follow(follow_up)
            events.extend(more)
        return FightStep(state, tuple(events), _change=change)

    # ------------------------------------------------------------ owed rolls

    def resolve(
        self, kind: OwedRollKind | None = None, roll: int | None = None, *, rng: random.Random | None = None
    ) -> FightStep:
        """Makes an owed roll (the first owed, or the first of ``kind``) and applies its outcome:
        knockdown failed: stunned, lying, everything dropped, and unconscious on a failure by 5
        or more or a critical failure (B420); keeping one's feet failed: lying (B378);
        consciousness failed: unconscious (B419); a death check failed by 1 or 2: mortally
        wounded, by more: dead (B419, B423); stun recovery made: the stun ends (B420); Will to
        act failed: collapsed, unconscious while FP stays at 0 or less (B426); Aim's Will
        failed: the Aim is lost (B364); Concentrate's failed: the task is lost (B366).

        Args:
            kind: The :data:`OwedRollKind` to make, or None for the first owed now (else the
                first owed).
            roll: The 3d roll; None rolls it with ``rng``.
            rng: A ``random.Random`` for the roll.

        Returns:
            A :class:`FightStep` with the ``roll``.

        Raises:
            CharacterError: ``notAllowed`` when no such roll is owed; ``invalidArgument`` for a
                roll outside 3-18, or both a roll and an ``rng``.
        """
        if kind is None:  # a roll owed now comes before one owed at a turn's start or end
            owed = next((o for o in self.owed if o.when == "now"), self.owed[0] if self.owed else None)
        else:
            owed = next((o for o in self.owed if o.kind == kind), None)
        if owed is None:
            raise _not_allowed(
                f"{self.name} owes no {kind or 'roll'}.", kind=kind, owed=[o.kind for o in self.owed]
            )
        target = self._sheet.attribute(owed.attribute) + owed.modifier
        rolled = success_roll(target, None if roll is None else _roll(roll, "roll"), rng=rng)
        rest = list(self.owed)
        rest.remove(owed)
        state = self._with(owed=tuple(rest))
        events = [
            _event(
                "rolled", owed.page, kind=owed.kind, target=target, roll=rolled.roll, success=rolled.success
            )
        ]
        if not rolled.success:
            state, more = state._failed(owed, rolled)
            events.extend(more)
        elif owed.kind == "stunRecovery":
            state = state._with(stunned=None, stun_waited=False)
            events.append(_event("stunEnded", owed.page))
        elif owed.kind == "consciousnessCheck":
            state = state._with(conscious_checked=True)
        return FightStep(state, tuple(events), roll=rolled)

    def _failed(self, owed: OwedRoll, rolled: RollResult) -> tuple[Fighter, list[FightEvent]]:
        page = owed.page
        if owed.kind == "knockdownCheck":
            if rolled.critical or rolled.margin <= -5:
                return self._knocked_out()._with(stunned=None), [_event("unconscious", page)]
            dropped = self._all_dropped()
            # already down: no feet left to keep (B378, as apply_hit orders them)
            rest = tuple(o for o in self.owed if o.kind != "keepFeetCheck")
            state = self._with(
                owed=rest, stunned="physical", stun_waited=False, posture="lying", dropped=dropped, aim=None
            )
            return state, [
                _event("stunned", page, kind="physical"),
                _event("fell", page),
                _event("dropped", page, what="everything"),
            ]
        if owed.kind == "keepFeetCheck":
            return self._with(posture="lying"), [_event("fell", page)]
        if owed.kind in ("consciousnessCheck", "actWhileCollapsed"):
            return self._knocked_out(), [_event("unconscious", page)]
        if owed.kind == "deathCheck":
            if rolled.margin >= -2 and not rolled.critical:
                state = self._with(mortally_wounded=True, posture="lying")
                return state, [_event("mortallyWounded", "B423")]
            return self._with(dead=True, posture="lying", owed=()), [_event("dead", page)]
        if owed.kind == "stunRecovery":
            return self._with(stun_waited=False), [_event("stillStunned", page)]
        if owed.kind == "aimWillCheck":
            return self._with(aim=None), [_event("aimLost", page)]
        return self, [_event("concentrationLost", page)]


_FIELDS: Final = tuple(f.name for f in fields(Fighter))


def _best(choices: Sequence[DefenseChoice]) -> DefenseChoice | None:
    """The highest value (the first of equals: Dodge, then a parry, then a block), or None."""
    best: DefenseChoice | None = None
    for choice in choices:
        value = choice.value
        if value is not None and (best is None or value > cast(int, best.value)):
            best = choice
    return best


def _same(a: str | None, b: str) -> bool:
    """Whether two names are one weapon, case and spacing aside: a row ``X (mode)`` is a mode of
    ``X`` (GCS's "Broadsword (Swung)" and "Broadsword (Thrust)" are one broadsword, dropped and
    readied together)."""
    if a is None:
        return False
    x, y = " ".join(a.split()).casefold(), " ".join(b.split()).casefold()
    return x == y or x.startswith(y + " (") or _weapon_of(x) == _weapon_of(y)


def _weapon_of(row: str) -> str:
    """The weapon a row's name names: ``X`` of ``X (mode)``, else the name."""
    if row.endswith(")") and " (" in row:
        return row[: row.rindex(" (")]
    return row


def _restored(fresh: Fighter, data: Mapping[str, Any]) -> Fighter:
    """The saved fields over a fresh fighter of the same document, each checked for its type."""

    def text_or_none(value: Any) -> str | None:
        if value is not None and not isinstance(value, str):
            raise TypeError("a string or null")
        return value

    def strings(value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TypeError("a list of strings")
        return tuple(value)

    def whole(value: Any, low: int | None = None, high: int | None = None) -> int:
        if type(value) is not int or (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"a whole number, not {value!r}")
        return value

    def flag(value: Any) -> bool:
        if not isinstance(value, bool):
            raise TypeError("a bool")
        return value

    maneuver = data["maneuver"]
    if maneuver is not None:
        _choice(maneuver, "maneuver", _MANEUVERS)
    aim = data["aim"]
    parries = data["parries"]
    if not isinstance(parries, Mapping):
        raise TypeError("parries: an object")
    owed = []
    for item in data["owed"]:
        owed.append(
            OwedRoll(
                cast(OwedRollKind, _choice(item["kind"], "kind", _OWED_KINDS)),
                cast(Any, _choice(item["attribute"], "attribute", ("ht", "will", "iq", "dx"))),
                whole(item["modifier"]),
                cast(Any, _choice(item["when"], "when", ("now", "startOfTurn", "endOfTurn"))),
                str(item["page"]),
                item.get("n"),
            )
        )
    stunned = data["stunned"]
    if stunned is not None:
        _choice(stunned, "stunned", ("physical", "mental"))
    return replace(
        fresh,
        name=str(data["name"]),
        turn=whole(data["turn"], 0),
        maneuver=maneuver,
        posture=cast(Posture, _choice(data["posture"], "posture", _POSTURES)),
        shock=whole(data["shock"], -8, 0),
        shock_owed=whole(data["shockOwed"], -8, 0),
        shock_cap=whole(data["shockCap"], -8, -4),
        stunned=stunned,
        stun_waited=flag(data["stunWaited"]),
        parries=MappingProxyType({str(k): whole(v, 0) for k, v in parries.items()}),
        blocked=flag(data["blocked"]),
        retreated_from=text_or_none(data["retreatedFrom"]),
        unbalanced=strings(data["unbalanced"]),
        attacks_made=whole(data["attacksMade"], 0),
        aim=None if aim is None else (str(aim["weapon"]), whole(aim["turns"], 1)),
        crippled=strings(data["crippled"]),
        funny_bone=tuple((str(i["location"]), whole(i["turns"], 0)) for i in data["funnyBone"]),
        dropped=strings(data["dropped"]),
        unready=strings(data["unready"]),
        wielding=text_or_none(data.get("wielding")),  # absent from a state saved before it was kept
        off_balance=whole(data["offBalance"], -2, 0),
        do_nothing_next=flag(data["doNothingNext"]),
        unconscious=flag(data["unconscious"]),
        mortally_wounded=flag(data["mortallyWounded"]),
        dead=flag(data["dead"]),
        owed=tuple(owed),
        conscious_checked=flag(data["consciousChecked"]),
        must_do_nothing=flag(data["mustDoNothing"]),
        feints=MappingProxyType({str(k): whole(v, 0) for k, v in data["feints"].items()}),
    )


_OWED_KINDS: Final[tuple[str, ...]] = (
    "knockdownCheck",
    "keepFeetCheck",
    "consciousnessCheck",
    "deathCheck",
    "stunRecovery",
    "actWhileCollapsed",
    "aimWillCheck",
    "concentrateWillCheck",
)
