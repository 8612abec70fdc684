"""Conditions and follow-ups: what the Basic Set says a character's HP and FP mean, as data.

The reference library stops at clamped numbers. This module goes one step further and answers the
questions every engine otherwise answers for itself (and often gets wrong at the edges):

* :func:`get_condition`: the state of each pool, its effects on Move, Dodge and ST, and the rolls
  the rules call for every turn while the character is in that state;
* :func:`change_pool`: a relative HP or FP change (written as :func:`~gurps_character.update_character`
  writes it, clamped to the schema's bounds) that also reports the thresholds it crossed and the
  follow-ups the rules now owe (death checks, a consciousness check, unconsciousness, the HP
  injury of fatigue spent below 0 FP).

The rules (``M`` is the pool's maximum, ``c`` its current value, both integers; each state holds
from its threshold down to the next one):

HP (B419):

* ``healthy``: ``c >= M``. ``wounded``: ``c < M``. No effect.
* ``reeling``: below 1/3 HP, ``3c < M``, i.e. ``c <= ceil(M/3) - 1`` (for 15 HP: 4, not 5).
  Halve Move and Dodge, rounding up.
* ``collapse``: ``c <= 0``. As reeling, and roll HT at the start of each turn to stay conscious.
* ``dying`` n = 1…4: ``c <= -n*M``. As collapse, that HT roll at -n; reaching each multiple
  calls for a death check (HT; failure by 1 or 2 is a mortal wound, B423).
* ``dead``: ``c <= -5*M``. ``destroyed``: ``c <= -10*M``, which is also the lower bound.

FP (B426):

* ``rested``: ``c >= M``. ``tiring``: ``c < M``. No effect.
* ``tired``: below 1/3 FP, ``3c < M``. Halve Move, Dodge and ST, rounding up.
* ``collapse``: ``c <= 0``. As tired; roll Will to do anything besides talk or rest; each FP
  lost from here also costs 1 HP.
* ``unconscious``: ``c <= -M``, which is also the lower bound: further FP costs come off HP
  instead.

Decisions the Basic Set leaves open, made once here:

* States are **cumulative and monotone**: each is entered at a threshold and holds at every lower
  value, and the effects of a state hold in every worse one (B419: "in addition to the above").
* A pool whose maximum is 0 or less has no scale: its fractions and multiples all collapse onto 0
  and would call a 0-HP thing "destroyed". Such a pool is at its full state while
  ``current >= max`` and ``collapse`` below (the one threshold that does not depend on the
  maximum); it never reaches ``reeling``/``tired``, ``dying``, ``dead`` or ``unconscious``.
* Halving is applied once for each pool whose state halves, each time rounding up: Move 5 while
  both reeling and tired is 3, then 2. It applies to the encumbered Move and Dodge of each
  encumbrance level (B17) as the document records them.
* Rolls are omitted when they cannot matter: a dead or destroyed character rolls nothing, and
  a character unconscious from fatigue does not roll to stay conscious. Follow-ups likewise:
  a change that kills owes ``death`` alone (no death checks or consciousness check before it).
* The functions have no memory: a death check is owed each time a change goes down across a
  multiple of -HP, even if the character was healed above it and fell again.

Why one module of this length: the HP and FP conditions (B419, B426) are two tables of one
shape with the follow-ups their thresholds owe, read and changed by the same functions.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeAlias

from ._extension import importer_record
from .errors import CharacterError, describe, guarded, json_detail
from .update import PoolName, _clamped_target, format_timestamp, get_pool, updates_applied

__all__ = [
    "Condition",
    "ConditionEffects",
    "FollowUp",
    "FollowUpKind",
    "FpState",
    "HpState",
    "PoolChange",
    "PoolState",
    "Roll",
    "RollKind",
    "Threshold",
    "change_pool",
    "get_condition",
]

HpState: TypeAlias = Literal["healthy", "wounded", "reeling", "collapse", "dying", "dead", "destroyed"]
"""The state of the HP pool (B419)."""

FpState: TypeAlias = Literal["rested", "tiring", "tired", "collapse", "unconscious"]
"""The state of the FP pool (B426)."""

StateName: TypeAlias = HpState | FpState

RollKind: TypeAlias = Literal["consciousnessCheck", "actWhileCollapsed", "knockdown", "keepFeet"]
"""A roll the rules call for, every turn while a state lasts or once after a hit (see :class:`Roll`)."""

FollowUpKind: TypeAlias = Literal[
    "consciousnessCheck",
    "deathCheck",
    "death",
    "unconsciousness",
    "fatigueInjury",
    "knockdownCheck",
    "keepFeetCheck",
    "blinding",
]
"""Something the rules owe once, because a change crossed a threshold."""

_HALVES: frozenset[str] = frozenset(
    {"reeling", "tired", "collapse", "dying", "dead", "destroyed", "unconscious"}
)
_FULL: dict[PoolName, StateName] = {"hp": "healthy", "fp": "rested"}


# ---------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Threshold:
    """A boundary of a pool's states: at ``at`` and below, the pool is in ``state`` (or worse).

    Attributes:
        state: The state that begins at this threshold.
        n: For ``dying``, the multiple of -HP (1…4); otherwise None.
        at: The highest current value in ``state``: for HP 15, ``reeling`` is at 4 and
            ``dying`` 1 at -15.
    """

    state: StateName
    n: int | None
    at: int

    def to_dict(self) -> dict[str, Any]:
        """The threshold as JSON data.

        Returns:
            ``{"state", "n"?, "at"}``.
        """
        out: dict[str, Any] = {"state": self.state}
        if self.n is not None:
            out["n"] = self.n
        out["at"] = self.at
        return out


@dataclass(frozen=True, slots=True)
class PoolState:
    """The state of one pool at one moment.

    Attributes:
        state: An :data:`HpState` for HP, an :data:`FpState` for FP.
        n: For ``dying``, how many full multiples of HP below zero (1…4); otherwise None.
        current: The current value (an absent ``current`` in the document means full).
        max: The pool's maximum (``/secondary/<pool>/value``).
    """

    state: StateName
    n: int | None
    current: int
    max: int

    def to_dict(self) -> dict[str, Any]:
        """The pool state as JSON data.

        Returns:
            ``{"state", "n"?, "current", "max"}``.
        """
        out: dict[str, Any] = {"state": self.state}
        if self.n is not None:
            out["n"] = self.n
        out["current"] = self.current
        out["max"] = self.max
        return out


@dataclass(frozen=True, slots=True)
class ConditionEffects:
    """What the pools' states do to the character's numbers.

    Attributes:
        halve_move: Move is halved (reeling or worse, B419; tired or worse, B426).
        halve_dodge: Dodge is halved (same states as Move).
        halve_st: ST is halved (tired or worse, B426).
    """

    halve_move: bool
    halve_dodge: bool
    halve_st: bool

    def to_dict(self) -> dict[str, bool]:
        """The condition effects as JSON data.

        Returns:
            ``{"halveMove", "halveDodge", "halveSt"}``.
        """
        return {"halveMove": self.halve_move, "halveDodge": self.halve_dodge, "halveSt": self.halve_st}


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll the rules call for: every turn while the pools stay in their present state
    (:func:`get_condition`), or once, right after a hit (:func:`~gurps_character.resolve_hit`).

    Attributes:
        kind: ``consciousnessCheck`` (HP at 0 or less: HT at the start of each turn, at -n
            while dying; on a failure the character falls unconscious; no roll is needed on a
            turn of Do Nothing without defending, B419: the same roll a change to 0 HP owes as
            the :class:`FollowUp` ``consciousnessCheck``, one roll under one name);
            ``actWhileCollapsed`` (FP at 0 or less: Will before each maneuver other than Do
            Nothing, and to do anything besides talk or rest; on a failure the character
            collapses until FP is positive again, B426);
            ``knockdown`` (after a major wound, or a head or vitals hit that causes shock: HT;
            a failure stuns and knocks the character down, a failure by 5 or more or a
            critical failure knocks him out, B420); ``keepFeet`` (after knockback: the best of
            DX, Acrobatics or Judo; a failure means falling down, B378).
        attribute: ``"ht"``, ``"will"`` or ``"dx"`` (for ``keepFeet``, DX or the better of
            Acrobatics and Judo).
        modifier: Added to the attribute (0, -n, or the hit's modifiers).
        when: ``"eachTurn"``, ``"beforeEachManeuver"`` (a turn is one second) or
            ``"immediately"`` (once, after a hit).
        reference: The Basic Set page.
    """

    kind: RollKind
    attribute: Literal["ht", "will", "dx"]
    modifier: int
    when: Literal["eachTurn", "beforeEachManeuver", "immediately"]
    reference: str

    def to_dict(self) -> dict[str, Any]:
        """The roll as JSON data.

        Returns:
            ``{"kind", "attribute", "modifier", "when", "reference"}``.
        """
        return {
            "kind": self.kind,
            "attribute": self.attribute,
            "modifier": self.modifier,
            "when": self.when,
            "reference": self.reference,
        }


@dataclass(frozen=True, slots=True)
class Condition:
    """A character's condition: pool states, their effects, effective numbers and rolls owed.

    Attributes:
        hp: The HP state (B419).
        fp: The FP state (B426).
        effects: What halves.
        move: Effective Move for each encumbrance level, in the document's order (None to
            Extra-Heavy, B17), halved and rounded up once per halving pool.
        dodge: Effective Dodge for each encumbrance level, halved the same way.
        st: Effective ST (halved, rounded up, while tired or worse). Quantities the document
            derives from ST (HP, damage, Basic Lift) are not recomputed.
        rolls: The rolls the rules call for each turn, HP's first.
    """

    hp: PoolState
    fp: PoolState
    effects: ConditionEffects
    move: tuple[int, ...]
    dodge: tuple[int, ...]
    st: int
    rolls: tuple[Roll, ...]

    def to_dict(self) -> dict[str, Any]:
        """The condition as JSON data.

        Returns:
            ``{"hp", "fp", "effects", "move", "dodge", "st", "rolls"}`` (camelCase JSON).
        """
        return {
            "hp": self.hp.to_dict(),
            "fp": self.fp.to_dict(),
            "effects": self.effects.to_dict(),
            "move": list(self.move),
            "dodge": list(self.dodge),
            "st": self.st,
            "rolls": [roll.to_dict() for roll in self.rolls],
        }


@dataclass(frozen=True, slots=True)
class FollowUp:
    """Something the rules owe once because of a change: data for the engine to act on.

    Kinds and their fields (the others are None and left out of :meth:`to_dict`):

    * ``consciousnessCheck`` (B419): HP went from above 0 to 0 or less. ``attribute`` ``"ht"``,
      ``modifier`` -n (the full multiples of HP below zero after the change), ``at`` 0,
      ``when`` ``"startOfNextTurn"``. Success: act normally, rolling again every turn (see
      :class:`Roll`); failure: unconscious. Not owed while unconscious from fatigue. The same
      roll as the :class:`Roll` ``consciousnessCheck`` that :func:`get_condition` lists each
      turn: one roll, under one name, not two.
    * ``deathCheck`` (B419): HP went down across -n*HP (n = 1…4). ``attribute`` ``"ht"``,
      ``modifier`` 0, ``n``, ``at`` -n*HP, ``when`` ``"immediately"``. Failure: death (a failure
      by only 1 or 2: mortally wounded, B423). One per multiple crossed, in order.
    * ``death`` (B419): HP went down across -5*HP. ``at`` -5*HP. Owed alone: the checks a
      fatal change crossed on the way no longer matter.
    * ``unconsciousness`` (B426): FP went down across -FP. ``at`` -FP. The character falls
      unconscious and wakes at positive FP.
    * ``fatigueInjury`` (B426): FP was spent at or below 0 FP: each such FP also costs 1 HP,
      and past -FP (where FP stops) the cost comes off HP instead. ``amount``: the HP injury
      (equal to the FP spent below 0, clamped or not); ``applied``: whether this call
      already took it off HP (``spill_to_hp=True``).
    * ``knockdownCheck`` (B420, owed by :func:`~gurps_character.apply_hit`): a major wound, or a
      head or vitals hit that causes shock. ``attribute`` ``"ht"``, ``modifier`` the hit's
      (location, pain threshold), ``when`` ``"immediately"``. Failure: stunned and knocked down;
      failure by 5 or more, or a critical failure: unconscious.
    * ``keepFeetCheck`` (B378, owed by :func:`~gurps_character.apply_hit`): knocked back
      ``amount`` yards. ``attribute`` ``"dx"`` (or the better of Acrobatics and Judo),
      ``modifier`` -1 per yard after the first (+4 with Perfect Balance), ``when``
      ``"immediately"``. Failure: the character falls down.
    * ``blinding`` (B399, owed by :func:`~gurps_character.apply_hit`): ``amount`` eyes (1 or 2)
      are blinded: an eye crippled by injury over HP/10, or corrosion to the face that is a
      major wound (both eyes when the injury is over the full HP).

    Attributes:
        kind: The :data:`FollowUpKind`.
        reference: The Basic Set page.
        attribute: The attribute to roll, for checks (``"ht"``, or ``"dx"`` to keep one's feet).
        modifier: The roll's modifier, for checks.
        when: ``"immediately"`` or ``"startOfNextTurn"``, for checks.
        n: The multiple of -HP, for death checks.
        at: The threshold crossed.
        amount: The HP injury, for ``fatigueInjury``; the yards, for ``keepFeetCheck``; the eyes,
            for ``blinding``.
        applied: Whether the injury was applied, for ``fatigueInjury``.
    """

    kind: FollowUpKind
    reference: str
    attribute: Literal["ht", "dx"] | None = None
    modifier: int | None = None
    when: Literal["immediately", "startOfNextTurn"] | None = None
    n: int | None = None
    at: int | None = None
    amount: int | None = None
    applied: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """The follow up as JSON data.

        Returns:
            ``{"kind", ...the kind's fields, "reference"}``.
        """
        out: dict[str, Any] = {"kind": self.kind}
        for key, value in (
            ("attribute", self.attribute),
            ("modifier", self.modifier),
            ("when", self.when),
            ("n", self.n),
            ("at", self.at),
            ("amount", self.amount),
            ("applied", self.applied),
        ):
            if value is not None:
                out[key] = value
        out["reference"] = self.reference
        return out


@dataclass(frozen=True, slots=True)
class PoolChange:
    """The outcome of :func:`change_pool`.

    Attributes:
        pool: ``"hp"`` or ``"fp"``.
        requested: The change asked for (negative: damage or fatigue; positive: healing or rest).
        taken: The change made, ``after.current - before.current`` (differs from ``requested``
            when clamped to the bounds).
        clamped: Whether ``taken != requested``.
        before: The pool's state before.
        after: The pool's state after.
        crossed: The thresholds passed, in the order the value passed them (downwards for
            damage, upwards for healing).
        follow_ups: What the rules now owe, in order (see :class:`FollowUp`); empty when the
            pool goes up. With a spill, the HP change's follow-ups come last.
        spill: With ``spill_to_hp=True`` and a fatigue injury, the HP change it made (its
            ``document`` is the same new document); otherwise None.
        document: The new document (not part of :meth:`to_dict`).
    """

    pool: PoolName
    requested: int
    taken: int
    clamped: bool
    before: PoolState
    after: PoolState
    crossed: tuple[Threshold, ...]
    follow_ups: tuple[FollowUp, ...]
    spill: PoolChange | None
    document: dict[str, Any] = field(repr=False, hash=False)

    def to_dict(self) -> dict[str, Any]:
        """The pool change as JSON data.

        Returns:
            ``{"pool", "requested", "taken", "clamped", "before", "after", "crossed", "followUps", "spill"?}``
            (the document is left out).
        """
        out: dict[str, Any] = {
            "pool": self.pool,
            "requested": self.requested,
            "taken": self.taken,
            "clamped": self.clamped,
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
            "crossed": [threshold.to_dict() for threshold in self.crossed],
            "followUps": [follow_up.to_dict() for follow_up in self.follow_ups],
        }
        if self.spill is not None:
            out["spill"] = self.spill.to_dict()
        return out


# ---------------------------------------------------------------- the tables


@functools.lru_cache(maxsize=1024)
def _thresholds(pool: PoolName, maximum: int) -> tuple[Threshold, ...]:
    """The pool's thresholds, mildest first; their ``at`` never increases along the tuple.

    Kept for each maximum (frozen, so shared safely): a fight reads the states a few times per
    blow, and building them again cost a tenth of an exchange."""
    if maximum <= 0:
        # No scale: only "0 or less" still means something, and only below the (full) maximum.
        return (Threshold("collapse", None, maximum - 1),)
    third = -(-maximum // 3) - 1  # the highest value below 1/3 of the maximum
    if pool == "hp":
        return (
            Threshold("wounded", None, maximum - 1),
            Threshold("reeling", None, third),
            Threshold("collapse", None, 0),
            *(Threshold("dying", n, -n * maximum) for n in range(1, 5)),
            Threshold("dead", None, -5 * maximum),
            Threshold("destroyed", None, -10 * maximum),
        )
    return (
        Threshold("tiring", None, maximum - 1),
        Threshold("tired", None, third),
        Threshold("collapse", None, 0),
        Threshold("unconscious", None, -maximum),
    )


def _state(pool: PoolName, current: int, maximum: int) -> PoolState:
    state, n = _FULL[pool], None
    for threshold in _thresholds(pool, maximum):
        if current > threshold.at:
            break
        state, n = threshold.state, threshold.n
    return PoolState(state, n, current, maximum)


def _crossed(pool: PoolName, before: int, after: int, maximum: int) -> tuple[Threshold, ...]:
    thresholds = _thresholds(pool, maximum)
    if after < before:
        return tuple(t for t in thresholds if after <= t.at < before)
    return tuple(t for t in reversed(thresholds) if before <= t.at < after)


def _halve(value: int, times: int) -> int:
    for _ in range(times):
        value = -(-value // 2)
    return value


def halvings(hp_current: int, hp_max: int, fp_current: int, fp_max: int) -> int:
    """How many times Move and Dodge are halved (each rounding up): once while HP is reeling or
    worse (B419), once while FP is tired or worse (B426), as :func:`get_condition` halves them."""
    return int(_state("hp", hp_current, hp_max).state in _HALVES) + int(
        _state("fp", fp_current, fp_max).state in _HALVES
    )


def halved(value: int, times: int) -> int:
    """``value`` halved ``times`` times, rounding up each time (B419, B426)."""
    return _halve(value, times)


# ---------------------------------------------------------------- reading the document


def _integer(value: object, pointer: str) -> int:
    if type(value) is int:  # the usual case, checked fast
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CharacterError(
            "invalidDocument", f"The document has no number at {pointer}.", {"pointer": pointer}
        )
    if isinstance(value, float):
        if not value.is_integer():  # also NaN and the infinities
            raise CharacterError("invalidDocument", f"{pointer} must be an integer.", {"pointer": pointer})
        return int(value)
    return value


def _pool_state(document: Mapping[str, Any], pool: PoolName) -> PoolState:
    raw = get_pool(document, pool)
    maximum = _integer(raw.max, f"/secondary/{pool}/value")
    current = _integer(raw.current, f"/secondary/{pool}/current")
    return _state(pool, current, maximum)


def _member(node: object, *path: str) -> object:
    for token in path:
        node = node.get(token) if type(node) is dict or isinstance(node, Mapping) else None
    return node


def _levels(document: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    """``(move, dodge)`` of each encumbrance level, in the document's order, before any halving
    for the pools (see :func:`unhalved_levels`)."""
    levels = _member(document, "encumbrance", "levels")
    if not isinstance(levels, list | tuple) or not levels:
        raise CharacterError(
            "invalidDocument", "The document has no /encumbrance/levels.", {"pointer": "/encumbrance/levels"}
        )
    rows: list[tuple[int, int]] = []
    for index, level in enumerate(levels):
        pointer = f"/encumbrance/levels/{index}"
        rows.append(
            (
                _integer(_member(level, "move"), f"{pointer}/move"),
                _integer(_member(level, "dodge"), f"{pointer}/dodge"),
            )
        )
    return unhalved_levels(document, tuple(rows))


def unhalved_levels(
    document: Mapping[str, Any], stored: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, int], ...]:
    """``(move, dodge)`` of each level before the pools' halving: the stored values, unless the
    GCS importer recorded what they were before GCS halved them.

    GCS saves Move and Dodge already halved while a pool is low (a creature at 0 FP, a wounded
    character), and the import keeps GCS's numbers; halving those again for the condition would
    halve twice. The importer then records the values before the halving
    (``unhalvedEncumbrance``: ``{"move": [...], "dodge": [...]}``, one number per level); they
    are used when they fit the document's levels one for one, whole numbers all."""
    record = importer_record(document, "unhalvedEncumbrance")
    if not isinstance(record, Mapping):
        return stored
    moves, dodges = record.get("move"), record.get("dodge")
    if not (isinstance(moves, list) and isinstance(dodges, list)):
        return stored
    if not len(moves) == len(dodges) == len(stored):
        return stored
    if not all(type(value) is int for value in (*moves, *dodges)):
        return stored
    return tuple(zip(moves, dodges, strict=True))


# ---------------------------------------------------------------- get_condition


def _rolls(hp: PoolState, fp: PoolState) -> tuple[Roll, ...]:
    rolls: list[Roll] = []
    if hp.state in ("dead", "destroyed"):
        return ()
    if hp.state in ("collapse", "dying") and fp.state != "unconscious":
        rolls.append(Roll("consciousnessCheck", "ht", -(hp.n or 0), "eachTurn", "B419"))
    if fp.state == "collapse":
        rolls.append(Roll("actWhileCollapsed", "will", 0, "beforeEachManeuver", "B426"))
    return tuple(rolls)


@guarded
def get_condition(document: Mapping[str, Any]) -> Condition:
    """The character's condition: HP and FP states, their effects and the rolls owed each turn.

    HP (B419): ``healthy`` at full, ``wounded`` below full, ``reeling`` below 1/3 HP (current
    ≤ ceil(HP/3) - 1: for 15 HP, 4 is reeling and 5 is not), ``collapse`` at 0 or less,
    ``dying`` with n = 1…4 at -n*HP or less, ``dead`` at -5*HP or less, ``destroyed`` at -10*HP.
    FP (B426): ``rested`` at full, ``tiring`` below full, ``tired`` below 1/3 FP, ``collapse`` at
    0 or less, ``unconscious`` at -FP. Reeling or worse halves Move and Dodge; tired or worse
    halves Move, Dodge and ST; each halving rounds up, once per pool. While HP is at 0 or less
    the character rolls HT every turn to stay conscious (at -n while dying); while FP is at 0 or
    less, Will to act. The module docstring has the full table and the decisions made where the
    Basic Set is silent (a maximum of 0 or less, dead characters, stacking).

    Args:
        document: A character document (never modified). It needs the two pools
            (``/secondary/hp``, ``/secondary/fp``), ``/attributes/st/value`` and
            ``/encumbrance/levels``, all integers; an absent ``current`` means full.

    Returns:
        A :class:`Condition`.

    Raises:
        CharacterError: ``notAnObject``; ``invalidDocument`` (with the ``pointer``) when a pool,
            ST or an encumbrance level is missing or not an integer.
    """
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    hp = _pool_state(document, "hp")
    fp = _pool_state(document, "fp")
    st = _integer(_member(document, "attributes", "st", "value"), "/attributes/st/value")
    levels = _levels(document)
    hp_halves = hp.state in _HALVES
    fp_halves = fp.state in _HALVES
    times = int(hp_halves) + int(fp_halves)
    return Condition(
        hp=hp,
        fp=fp,
        effects=ConditionEffects(hp_halves or fp_halves, hp_halves or fp_halves, fp_halves),
        move=tuple(_halve(move, times) for move, _ in levels),
        dodge=tuple(_halve(dodge, times) for _, dodge in levels),
        st=_halve(st, int(fp_halves)),
        rolls=_rolls(hp, fp),
    )


# ---------------------------------------------------------------- change_pool


def _delta(delta: object) -> int:
    if isinstance(delta, int) and not isinstance(delta, bool):
        return delta
    if isinstance(delta, float) and delta.is_integer():
        return int(delta)
    raise CharacterError(
        "invalidAmount",
        f"The change must be an integer, not {describe(delta)}.",
        {"amount": json_detail(delta)},
    )


def _target(document: Mapping[str, Any], pool: PoolName, current: int, delta: int) -> int:
    """``current + delta`` clamped to the schema's bounds, as the pool helpers clamp it."""
    target = _clamped_target(document, pool, current, delta)
    # The bounds are integer formulas of an integer maximum, so this is an integer.
    return _integer(target, f"/secondary/{pool}/current")


def _hp_follow_ups(crossed: tuple[Threshold, ...], after: PoolState, conscious: bool) -> list[FollowUp]:
    """What HP thresholds crossed going down owe (the caller passes no upward crossings)."""
    dead = [t for t in crossed if t.state == "dead"]
    if dead:
        return [FollowUp("death", "B419", at=dead[0].at)]
    if after.state in ("dead", "destroyed"):
        return []
    owed: list[FollowUp] = []
    for threshold in crossed:
        if threshold.state == "collapse" and conscious:
            owed.append(
                FollowUp(
                    "consciousnessCheck",
                    "B419",
                    attribute="ht",
                    modifier=-(after.n or 0),
                    when="startOfNextTurn",
                    at=threshold.at,
                )
            )
        elif threshold.state == "dying":
            owed.append(
                FollowUp(
                    "deathCheck",
                    "B419",
                    attribute="ht",
                    modifier=0,
                    when="immediately",
                    n=threshold.n,
                    at=threshold.at,
                )
            )
    return owed


def _fp_follow_ups(crossed: tuple[Threshold, ...]) -> list[FollowUp]:
    """What FP thresholds crossed going down owe (the caller passes no upward crossings)."""
    return [FollowUp("unconsciousness", "B426", at=t.at) for t in crossed if t.state == "unconscious"]


def _fatigue_injury(before: int, delta: int) -> int:
    """FP spent at or below 0 (B426): each FP lost from a value of 0 or less costs 1 HP."""
    return max(0, min(before, 0) - (before + delta)) if delta < 0 else 0


def _is_conscious(document: Mapping[str, Any]) -> bool:
    """False only when the document's FP says the character is unconscious (B426)."""
    try:
        return _pool_state(document, "fp").state != "unconscious"
    except CharacterError:
        return True  # no usable FP pool: nothing says the character is unconscious


def _result(
    pool: PoolName,
    requested: int,
    before: PoolState,
    target: int,
    follow_ups: tuple[FollowUp, ...] | None,
    spill: PoolChange | None,
    document: dict[str, Any],
    *,
    conscious: bool,
) -> PoolChange:
    """The :class:`PoolChange` for ``before`` -> ``target``; HP follow-ups when none are given."""
    after = _state(pool, target, before.max)
    crossed = _crossed(pool, before.current, target, before.max)
    if follow_ups is None:
        down = crossed if target < before.current else ()  # going up owes nothing
        follow_ups = tuple(_hp_follow_ups(down, after, conscious))
    taken = target - before.current
    return PoolChange(
        pool=pool,
        requested=requested,
        taken=taken,
        clamped=taken != requested,
        before=before,
        after=after,
        crossed=crossed,
        follow_ups=follow_ups,
        spill=spill,
        document=document,
    )


@guarded
def change_pool(
    document: Mapping[str, Any],
    pool: PoolName,
    delta: int,
    *,
    now: datetime | None = None,
    spill_to_hp: bool = False,
) -> PoolChange:
    """Changes HP or FP by ``delta`` and reports what the rules now call for.

    The new value is ``current + delta`` clamped to the schema's bounds (HP: -10*HP … HP, B419;
    FP: -FP … FP, B426), written with :func:`~gurps_character.update_character` exactly as
    :func:`~gurps_character.apply_damage`, :func:`~gurps_character.heal`,
    :func:`~gurps_character.spend_fatigue` and :func:`~gurps_character.recover_fatigue` write it
    (``meta.updatedAt`` is set even for a change of 0).

    Going down, the result owes (see :class:`FollowUp`): a consciousness check (HT at -n) on
    reaching 0 HP or less from above; a death check (HT) for each multiple of -HP crossed, down
    to -4*HP; ``death`` alone on reaching -5*HP; ``unconsciousness`` on reaching -FP; and a
    ``fatigueInjury`` for FP spent at or below 0 FP (1 HP per FP, B426, including FP the clamp at
    -FP refused: "any FP cost comes off your HP instead"). Going up owes nothing.

    Args:
        document: A character document; never modified.
        pool: ``"hp"`` or ``"fp"``.
        delta: A whole number: negative for damage or fatigue, positive for healing or rest.
        now: A timezone-aware time for ``meta.updatedAt`` (default: the current time).
        spill_to_hp: For FP, also take the fatigue injury off HP (clamped at -10*HP) in the same
            write: both pools change or, on any error, neither. The HP change is reported in
            ``spill`` and its follow-ups are appended. Ignored for HP.

    Returns:
        A :class:`PoolChange`; ``document`` is the new document.

    Raises:
        CharacterError: ``notAnObject``; ``invalidJson`` when the document holds something JSON
            cannot (a set ...); ``invalidArgument`` for a pool other than ``"hp"`` or ``"fp"``,
            or ``now`` in UTC outside the years 1 to 9999; ``invalidAmount`` for a ``delta`` that
            is not a whole number (``True``, ``1.5``, ``"3"``); ``invalidDocument`` when the pool
            (or, to spill into it, the HP pool) is missing or not an integer; ``outOfBounds``
            when the bounds admit no value (a negative maximum).
        TypeError: ``now`` is naive.
    """
    return pool_changed(document, pool, delta, now, spill_to_hp=spill_to_hp)


def pool_changed(
    document: Mapping[str, Any],
    pool: PoolName,
    delta: int,
    now: datetime | None,
    *,
    spill_to_hp: bool = False,
    owned: bool = False,
) -> PoolChange:
    """:func:`change_pool`, for the library's own callers; ``owned``: the new document shares
    what did not change with ``document``, which the caller owns (see ``updates_applied``)."""
    format_timestamp(now)  # a naive time is refused whatever else is wrong
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    amount = _delta(delta)
    before = _pool_state(document, pool)  # also refuses an unknown pool name
    target = _target(document, pool, before.current, amount)
    pointer = f"/secondary/{pool}/current"

    if pool == "hp":
        conscious = _is_conscious(document)
        written = updates_applied(document, {pointer: target}, now, owned=owned)
        return _result("hp", amount, before, target, None, None, written, conscious=conscious)

    after = _state("fp", target, before.max)
    crossed = _crossed("fp", before.current, target, before.max)
    follow_ups = _fp_follow_ups(crossed if target < before.current else ())
    injury = _fatigue_injury(before.current, amount)
    changes: list[tuple[str, int]] = [(pointer, target)]
    hp_before: PoolState | None = None
    hp_target = 0
    if injury:
        follow_ups.append(FollowUp("fatigueInjury", "B426", amount=injury, applied=spill_to_hp))
        if spill_to_hp:
            hp_before = _pool_state(document, "hp")
            hp_target = _target(document, "hp", hp_before.current, -injury)
            changes.append(("/secondary/hp/current", hp_target))
    written = updates_applied(document, changes, now, owned=owned)

    spill: PoolChange | None = None
    if hp_before is not None:
        conscious = after.state != "unconscious"
        spill = _result("hp", -injury, hp_before, hp_target, None, None, written, conscious=conscious)
        follow_ups.extend(spill.follow_ups)
    return _result("fp", amount, before, target, tuple(follow_ups), spill, written, conscious=True)
