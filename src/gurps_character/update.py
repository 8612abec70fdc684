"""In-play changes: what engines may update (the schema decides), all or nothing, within bounds.

Why one module of this length: the updatable fields come from the schema's roles, and every
update function checks, clamps and writes through them; they are one concern.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timezone
from types import MappingProxyType
from typing import Any, Final, Literal, NoReturn, TypeVar, cast

from ._json import NotJsonError, copy_json
from ._once import once
from ._pointer import escape_token, parent_of, tokens_of
from .constants import SCHEMA
from .errors import CharacterError, NowTypeError, describe, guarded, json_detail, not_json_error
from .formula import FormulaError, resolve_schema_ref
from .formula._evaluator import Compiled, compile_formula
from .formula._tables import TableSet
from .formula._values import output_value

__all__ = [
    "DocumentT",
    "Pool",
    "PoolName",
    "UpdatableField",
    "apply_damage",
    "format_timestamp",
    "get_pool",
    "get_updatable_fields",
    "heal",
    "recover_fatigue",
    "spend_fatigue",
    "update_character",
]

DocumentT = TypeVar("DocumentT", bound=Mapping[str, Any])
"""The type of the document an update function is given, which is the type of what it returns:
``GurpsCharacter`` in, ``GurpsCharacter`` out (the object returned is always a new ``dict``)."""

PoolName = Literal["hp", "fp"]
"""The two pools, ``"hp"`` (hit points) and ``"fp"`` (fatigue points)."""


@dataclass(frozen=True, slots=True)
class UpdatableField:
    """A value engines may change in play, as the schema declares it (``x-gurps.role: "state"``).

    Attributes:
        pointer: JSON Pointer of the value; ``*`` stands for any array index.
        type: Its JSON type (``"integer"``).
        title: A human title derived from the schema (``"Hit Points (current)"``).
        description: What it means.
        labels: Localized labels by BCP 47 tag.
        bounds: ``{"min", "max"}`` formulas, evaluated against the value's parent object.
        reference: The Basic Set page.
    """

    pointer: str
    type: str | None
    title: str | None
    description: str | None
    labels: Mapping[str, str]
    bounds: Mapping[str, str]
    reference: str | None

    def to_dict(self) -> dict[str, Any]:
        """The field as JSON data.

        Returns:
            The reference's JSON form; absent parts are left out.
        """
        out: dict[str, Any] = {"pointer": self.pointer}
        for key, value in (("type", self.type), ("title", self.title), ("description", self.description)):
            if value is not None:
                out[key] = value
        if self.labels:
            out["labels"] = dict(self.labels)
        if self.bounds:
            out["bounds"] = dict(self.bounds)
        if self.reference is not None:
            out["reference"] = self.reference
        return out


@dataclass(frozen=True, slots=True)
class Pool:
    """A character's hit or fatigue points.

    Attributes:
        current: The points left now (0 or below when the character is hurt that far).
        max: The full value.
    """

    current: int
    max: int

    def to_dict(self) -> dict[str, int]:
        """The pool as JSON data.

        Returns:
            ``{"current", "max"}``.
        """
        return {"current": self.current, "max": self.max}


# ---------------------------------------------------------------- discovering fields


@dataclass(frozen=True, slots=True)
class _StateNode:
    pointer: str
    pattern: re.Pattern[str]
    node: Mapping[str, Any]
    title: str | None
    low: Compiled | None = None
    """The ``min`` bound formula, compiled once (None: no bound, or one that cannot compile)."""
    high: Compiled | None = None
    """The ``max`` bound formula."""


def _compiled_bound(node: Mapping[str, Any], name: str) -> Compiled | None:
    annotation = node.get("x-gurps")
    bounds = annotation.get("bounds") if isinstance(annotation, Mapping) else None
    expression = bounds.get(name) if isinstance(bounds, Mapping) else None
    if not isinstance(expression, str):
        return None
    try:
        return compile_formula(expression)
    except FormulaError:  # a formula that cannot be evaluated bounds nothing
        return None


def _state_nodes(schema: Mapping[str, Any]) -> tuple[_StateNode, ...]:
    found: list[_StateNode] = []
    # (schema node, pointer, title of the owning object, depth)
    stack: list[tuple[Mapping[str, Any], str, str | None, str | None]] = [(schema, "", None, None)]
    while stack:
        raw, pointer, owner_title, name = stack.pop()
        node = resolve_schema_ref(schema, raw)
        annotation = node.get("x-gurps")
        if isinstance(annotation, Mapping) and annotation.get("role") == "state":
            title = node.get("title")
            if title is None and owner_title is not None and name is not None:
                title = f"{owner_title} ({name})"
            low, high = _compiled_bound(node, "min"), _compiled_bound(node, "max")
            found.append(_StateNode(pointer, _pointer_pattern(pointer), node, title, low, high))
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            for key in reversed(list(properties)):
                stack.append((properties[key], f"{pointer}/{escape_token(key)}", node.get("title"), key))
        items = node.get("items")
        if isinstance(items, Mapping):
            stack.append((items, f"{pointer}/*", owner_title, name))
    return tuple(found)


def _pointer_pattern(pointer: str) -> re.Pattern[str]:
    parts = [r"(0|[1-9][0-9]*)" if token == "*" else re.escape(token) for token in pointer.split("/")]
    return re.compile("/".join(parts))


@once
def _bundled_state_nodes() -> tuple[_StateNode, ...]:
    return _state_nodes(SCHEMA)


@guarded
def get_updatable_fields() -> tuple[UpdatableField, ...]:
    """What engines may change in play, read from the schema (``x-gurps.role: "state"``).

    Returns:
        One :class:`UpdatableField` per state value, in schema order; today the current HP
        (``/secondary/hp/current``, from −10×HP to HP) and current FP (``/secondary/fp/current``,
        from −FP to FP).
    """
    fields = []
    for state in _bundled_state_nodes():
        annotation = state.node.get("x-gurps", {})
        node_type = state.node.get("type")
        fields.append(
            UpdatableField(
                pointer=state.pointer,
                type=node_type if isinstance(node_type, str) else None,
                title=state.title,
                description=state.node.get("description"),
                labels=MappingProxyType(dict(annotation.get("label", {}))),
                bounds=MappingProxyType(dict(annotation.get("bounds", {}))),
                reference=annotation.get("reference"),
            )
        )
    return tuple(fields)


# ---------------------------------------------------------------- applying changes


def format_timestamp(now: datetime | None) -> str:
    """``now`` in UTC as JavaScript's ``toISOString`` writes it (``2026-10-05T10:00:00.000Z``).

    Raises:
        TypeError: ``now`` is a naive datetime (its time zone would be a guess).
        CharacterError: ``invalidArgument`` when ``now`` in UTC falls outside the years 1 to 9999
            (an aware ``datetime.min`` east of Greenwich, ``datetime.max`` west of it).
    """
    if now is None:
        now = datetime.now(UTC)
    if type(now) is datetime and type(now.tzinfo) is timezone:
        # a fixed offset, exactly: equal times are one instant (a zone's repeated hour is not,
        # and a subclass could hash or format otherwise)
        return _kept_stamp(now)
    return _stamp(now)


def _stamp(now: datetime) -> str:
    if not isinstance(now, datetime):
        raise NowTypeError(f"now must be a timezone-aware datetime, not {type(now).__name__}")
    if now.tzinfo is None or now.utcoffset() is None:
        raise NowTypeError("now must be timezone-aware (a naive datetime has no definite instant)")
    try:
        moment = now.astimezone(UTC)
    except OverflowError:
        raise CharacterError(
            "invalidArgument",
            f"now ({now.isoformat()}) is outside the years 1 to 9999 in UTC.",
            {"name": "now", "value": now.isoformat()},
        ) from None
    # four-digit years, as toISOString writes them (strftime's %Y gives "5" for the year 5)
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T{moment.hour:02d}:{moment.minute:02d}:"
        f"{moment.second:02d}.{moment.microsecond // 1000:03d}Z"
    )


_kept_stamp: Final = functools.lru_cache(maxsize=64)(_stamp)
"""The stamps of the last times given (a fight's blows often share one; an error is not kept)."""

_MISSING: Any = object()


def _change_list(changes: object) -> list[tuple[Any, Any]]:
    """Normalizes the accepted shapes of ``changes`` into ``(pointer, value)`` pairs."""
    if changes is None:
        return []
    if isinstance(changes, Mapping):
        changes = list(changes.items())
    if isinstance(changes, str | bytes) or not isinstance(changes, Iterable):
        raise CharacterError(
            "invalidArgument",
            "changes must be a mapping {pointer: value} or a list of (pointer, value) pairs.",
            {"name": "changes"},
        )
    pairs: list[tuple[Any, Any]] = []
    for index, change in enumerate(changes):
        if isinstance(change, Mapping):
            pointer, value = change.get("pointer"), change.get("value", _MISSING)
        elif isinstance(change, tuple | list) and len(change) == 2:
            pointer, value = change[0], change[1]
        else:
            pointer, value = _MISSING, _MISSING
        if not isinstance(pointer, str):  # a malformed item is the caller's mistake, not the document's
            raise CharacterError(
                "invalidArgument",
                f"changes[{index}] must be a (pointer, value) pair or a {{pointer, value}} mapping "
                f"with a string pointer, not {describe(change)}.",
                {"name": f"changes[{index}]"},
            )
        pairs.append((pointer, value))
    return pairs


def _updatable_patterns() -> list[str]:
    return [state.pointer for state in _bundled_state_nodes()]


@functools.lru_cache(maxsize=1024)
def _state_matching(pointer: str) -> _StateNode | None:
    """The updatable value a pointer names, or None; kept for the pointers used most (a fight
    writes the pools' ``current`` at every blow, and each match tries every pattern)."""
    for state in _bundled_state_nodes():
        if state.pattern.fullmatch(pointer):
            return state
    return None


def _find_state(pointer: object) -> _StateNode:
    if type(pointer) is str:  # exactly: a str subclass could hash or compare otherwise
        found = _state_matching(pointer)
        if found is not None:
            return found
    elif isinstance(pointer, str):
        for state in _bundled_state_nodes():
            if state.pattern.fullmatch(pointer):
                return state
    shown = pointer if isinstance(pointer, str) else describe(pointer)
    raise CharacterError(
        "notUpdatable",
        f"{shown} is not in-play state; engines may update only: {', '.join(_updatable_patterns())}.",
        {"pointer": pointer if isinstance(pointer, str) else None, "updatable": _updatable_patterns()},
    )


def _checked_value(pointer: str, value: Any, state: _StateNode) -> Any:
    expected = state.node.get("type")
    ok = False
    if isinstance(value, bool):
        ok = expected == "boolean"
    elif isinstance(value, int):
        ok = expected in ("integer", "number") and _is_double(value)
    elif isinstance(value, float) and math.isfinite(value):
        if expected == "integer" and value.is_integer():
            value, ok = int(value), True
        else:
            ok = expected == "number"
    elif isinstance(value, str):
        ok = expected == "string"
    if ok:
        return value
    details: dict[str, Any] = {"pointer": pointer}
    if value is not _MISSING:
        details["value"] = json_detail(value)
    details["type"] = expected
    shown = "no value" if value is _MISSING else describe(value)
    raise CharacterError("invalidValue", f"{pointer} must be {expected}, got {shown}.", details)


def _parent_of(document: dict[str, Any], pointer: str, value: Any) -> tuple[dict[str, Any], str]:
    node, key = parent_of(document, pointer)
    if node is None:
        raise CharacterError(
            "invalidValue",
            f"{pointer} cannot be set: the document has no object to hold it.",
            {"pointer": pointer, "value": value},
        )
    return node, key


_NO_TABLES: Final = TableSet(None, eager=True)
"""Bounds are evaluated without rule tables (and nothing is ever written to this one)."""


def _bound(
    compiled: Compiled | None, document: Mapping[str, Any], parent: Mapping[str, Any]
) -> int | float | None:
    """A bound's value for ``parent`` (None when there is none or it is not a finite number), as
    :func:`~gurps_character.formula.evaluate` would give it."""
    if compiled is None:
        return None
    try:
        value = output_value(compiled(document, parent, _NO_TABLES))
    except MemoryError:  # pragma: no cover
        raise
    except Exception:  # what evaluate() reports as a FormulaError: no bound
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _check_bounds(
    pointer: str, value: int | float, state: _StateNode, document: dict[str, Any], parent: dict[str, Any]
) -> None:
    low = _bound(state.low, document, parent)
    high = _bound(state.high, document, parent)
    if (low is None and state.low is not None) or (high is None and state.high is not None):
        # the schema bounds the value, but the document lacks what the bound is computed from
        # (a pool without an integer maximum): nothing could be checked
        where = pointer.rpartition("/")[0]
        raise CharacterError(
            "invalidDocument",
            f"The bounds of {pointer} cannot be computed from {where or '(root)'}.",
            {"pointer": where},
        )
    if (low is not None and value < low) or (high is not None and value > high):
        raise CharacterError(
            "outOfBounds",
            f"{pointer} = {value} is outside its bounds ({low} … {high}).",
            {"pointer": pointer, "value": value, "min": low, "max": high},
        )


def _copy_document(document: object) -> dict[str, Any]:
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    try:
        copied = copy_json(document)
    except NotJsonError as err:
        raise not_json_error(err) from None
    assert isinstance(copied, dict)
    return copied


@guarded
def update_character(
    document: DocumentT,
    changes: Mapping[str, Any] | Iterable[tuple[str, Any]] | Iterable[Mapping[str, Any]] | None,
    *,
    now: datetime | None = None,
) -> DocumentT:
    """Applies in-play changes to a copy of a document, all or nothing.

    Args:
        document: A character document; never modified.
        changes: ``{pointer: value}``, or ``(pointer, value)`` pairs, or ``{"pointer", "value"}``
            mappings, applied in order.
        now: A timezone-aware time for ``meta.updatedAt`` (default: the current time).

    Returns:
        A new document (a ``dict``, typed as ``document`` is) with the changes and
        ``meta.updatedAt`` set (unchanged when there is no change).

    Raises:
        CharacterError: ``notAnObject`` (the document is not a mapping), ``invalidJson`` (it holds
            something JSON cannot, such as a set), ``invalidArgument`` (``changes`` of another
            shape, an item that is not a pair or mapping with a string pointer, or ``now`` in
            UTC outside the years 1 to 9999), ``notUpdatable`` (not in-play state; details
            list what is), ``invalidValue`` (wrong type, or no object to hold it), ``outOfBounds``
            (outside the schema's bounds, with the evaluated ``min`` and ``max``),
            ``invalidDocument`` (the document lacks what the bounds are computed from, such as an
            integer maximum).
        TypeError: ``now`` is naive.
    """
    return cast(DocumentT, updates_applied(document, changes, now))  # a new dict of the same type


def _path_copied(document: dict[str, Any], pointers: Iterable[str]) -> dict[str, Any]:
    """A new root sharing every object with ``document`` except those on the way to each
    pointer's parent and ``meta``, which are copied (one level each): writing there leaves
    ``document`` as it was. For documents of plain dicts and lists the library owns."""
    updated = dict(document)
    copied: set[int] = {id(updated)}  # each object on the way copied once, whatever the pointers
    for path in (*pointers, "/meta/updatedAt"):
        node: Any = updated
        for token in tokens_of(path)[:-1]:
            key: str | int = token
            if isinstance(node, list) and token.isascii() and token.isdigit() and len(token) <= 15:
                key = int(token)
                if key >= len(node):
                    break
            elif not (isinstance(node, dict) and token in node):
                break  # nothing more on the way: the write refuses it, or sets a new value
            child = node[key]
            if type(child) is not dict and type(child) is not list:
                break
            if id(child) not in copied:
                child = child.copy()
                copied.add(id(child))
                node[key] = child
            node = child
    return updated


def updates_applied(
    document: Mapping[str, Any], changes: object, now: datetime | None, *, owned: bool = False
) -> dict[str, Any]:
    """What :func:`update_character` does, typed for the library's own callers: a new ``dict``.

    ``owned``: ``document`` is plain JSON (dicts and lists) that the caller owns and never hands
    out mutable (the fight layer's): only the objects on the way to the changes and ``meta`` are
    copied, the rest is shared with ``document``, which stays unchanged all the same.
    """
    stamp = format_timestamp(now)
    pairs = _change_list(changes)
    if owned and type(document) is dict:
        updated = _path_copied(document, [pointer for pointer, _ in pairs])
    else:
        updated = _copy_document(document)
    for pointer, raw in pairs:
        state = _find_state(pointer)
        value = _checked_value(pointer, raw, state)
        parent, key = _parent_of(updated, pointer, value)
        _check_bounds(pointer, value, state, updated, parent)
        parent[key] = value
    if pairs:
        meta = updated.get("meta")
        if isinstance(meta, dict):
            meta["updatedAt"] = stamp
        else:
            updated["meta"] = {"updatedAt": stamp} if meta is None else meta
    return updated


# ---------------------------------------------------------------- pools


def _pool_object(document: Mapping[str, Any], pool: object) -> Mapping[str, Any]:
    if pool not in ("hp", "fp"):
        raise CharacterError(
            "invalidArgument",
            f"pool must be 'hp' or 'fp', not {describe(pool)}.",
            {"name": "pool", "value": pool if isinstance(pool, str) else None},
        )
    if type(document) is not dict and not isinstance(document, Mapping):  # dict: no ABC check
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    secondary = document.get("secondary")
    holder = secondary.get(pool) if type(secondary) is dict or isinstance(secondary, Mapping) else None
    if type(holder) is not dict and not isinstance(holder, Mapping):
        _no_pool_value(f"/secondary/{pool}/value", None)
    return holder


_SURELY_DOUBLE: Final = 2**1000
"""Integers of smaller magnitude are finite doubles, no conversion needed to know it."""


def _pool_integer(holder: Mapping[str, Any], pointer: str, default: object = _MISSING) -> int:
    """The pool's ``value`` or ``current``: an integer, as the schema says (a whole float such
    as ``12.0`` is 12). Anything else (text, a boolean, a fraction, a number beyond doubles) is
    refused: read as a number, ``"0"`` would have been full HP."""
    name = pointer.rpartition("/")[2]
    value = holder.get(name, default)
    if type(value) is int and -_SURELY_DOUBLE < value < _SURELY_DOUBLE:  # the usual case, fast
        return value
    if value is _MISSING:
        _no_pool_value(pointer, None)
    if isinstance(value, int) and not isinstance(value, bool) and _is_double(value):
        return value
    if isinstance(value, float) and value.is_integer():  # also false for NaN and the infinities
        return int(value)
    _no_pool_value(pointer, value)


def _no_pool_value(pointer: str, value: object) -> NoReturn:
    if value is None:
        raise CharacterError("invalidDocument", f"The document has no {pointer}.", {"pointer": pointer})
    raise CharacterError(
        "invalidDocument", f"{pointer} must be an integer, not {describe(value)}.", {"pointer": pointer}
    )


@guarded
def get_pool(document: Mapping[str, Any], pool: PoolName) -> Pool:
    """The current and maximum HP or FP. An absent ``current`` means full.

    The pool must be as the schema has it: ``/secondary/<pool>/value`` an integer, and
    ``current``, when present, an integer too (a whole float such as ``12.0`` counts; both come
    back as ``int``). Nothing else of the document is looked at.

    Args:
        document: A character document.
        pool: ``"hp"`` or ``"fp"``.

    Returns:
        ``Pool(current, max)`` read from ``/secondary/<pool>``.

    Raises:
        CharacterError: ``invalidArgument`` for another pool name; ``notAnObject``;
            ``invalidDocument`` (with the ``pointer``) when the pool, its value or its current
            value is missing or not an integer.
    """
    holder = _pool_object(document, pool)
    maximum = _pool_integer(holder, f"/secondary/{pool}/value")
    current = _pool_integer(holder, f"/secondary/{pool}/current", maximum)
    return Pool(current, maximum)


def _is_double(value: int) -> bool:
    """Whether an integer is a finite double (JavaScript reads a larger one as Infinity)."""
    try:
        float(value)
    except OverflowError:
        return False
    return True


def _amount(amount: object) -> int:
    if (
        isinstance(amount, bool)
        or not isinstance(amount, int | float)
        or (isinstance(amount, float) and not amount.is_integer())
        or (isinstance(amount, int) and not _is_double(amount))
        or amount < 0
    ):
        raise CharacterError(
            "invalidAmount",
            f"The amount must be a non-negative integer, not {describe(amount)}.",
            {"amount": json_detail(amount)},
        )
    return int(amount)


def _clamped_target(
    document: Mapping[str, Any], pool: PoolName, current: int | float, delta: int
) -> int | float:
    """``current + delta`` clamped to the schema's bounds for ``/secondary/<pool>/current``.

    As the reference clamps: first up to ``min``, then down to ``max`` (with ``min > max`` the
    result is ``max``, which the update then rejects as out of bounds).
    """
    state = _find_state(f"/secondary/{pool}/current")
    holder = _pool_object(document, pool)
    low, high = _bound(state.low, document, holder), _bound(state.high, document, holder)
    target: int | float = current + delta
    if low is not None:
        target = max(low, target)
    if high is not None:
        target = min(high, target)
    return target


def _shift_pool(document: DocumentT, pool: PoolName, delta: int, now: datetime | None) -> DocumentT:
    target = _clamped_target(document, pool, get_pool(document, pool).current, delta)
    return update_character(document, {f"/secondary/{pool}/current": target}, now=now)


@guarded
def apply_damage(document: DocumentT, amount: int, *, now: datetime | None = None) -> DocumentT:
    """Takes ``amount`` HP off, stopping at −10×HP (total bodily destruction, B419).

    Args:
        document: A character document; never modified.
        amount: The HP lost, a non-negative whole number.
        now: A timezone-aware time for ``meta.updatedAt`` (default: the current time).

    Returns:
        A new document with ``/secondary/hp/current`` and ``meta.updatedAt`` set.

    Raises:
        CharacterError: ``invalidAmount`` for a negative, fractional or non-numeric amount;
            ``notAnObject`` or ``invalidDocument`` when the document has no HP pool;
            ``invalidJson`` when the document holds something JSON cannot (a set ...);
            ``outOfBounds`` when the pool's bounds admit no value (a negative maximum);
            ``invalidArgument`` when ``now`` in UTC falls outside the years 1 to 9999.
        TypeError: ``now`` is a naive datetime.
    """
    return _shift_pool(document, "hp", -_amount(amount), now)


@guarded
def heal(document: DocumentT, amount: int, *, now: datetime | None = None) -> DocumentT:
    """Restores ``amount`` HP, never above the maximum.

    Args:
        document: A character document; never modified.
        amount: The HP regained, a non-negative whole number.
        now: A timezone-aware time for ``meta.updatedAt`` (default: the current time).

    Returns:
        A new document with ``/secondary/hp/current`` and ``meta.updatedAt`` set.

    Raises:
        CharacterError: ``invalidAmount`` for a negative, fractional or non-numeric amount;
            ``notAnObject`` or ``invalidDocument`` when the document has no HP pool;
            ``invalidJson`` when the document holds something JSON cannot (a set ...);
            ``outOfBounds`` when the pool's bounds admit no value (a negative maximum);
            ``invalidArgument`` when ``now`` in UTC falls outside the years 1 to 9999.
        TypeError: ``now`` is a naive datetime.
    """
    return _shift_pool(document, "hp", _amount(amount), now)


@guarded
def spend_fatigue(document: DocumentT, amount: int, *, now: datetime | None = None) -> DocumentT:
    """Spends ``amount`` FP, stopping at −FP (unconscious, B426).

    Args:
        document: A character document; never modified.
        amount: The FP spent, a non-negative whole number.
        now: A timezone-aware time for ``meta.updatedAt`` (default: the current time).

    Returns:
        A new document with ``/secondary/fp/current`` and ``meta.updatedAt`` set.

    Raises:
        CharacterError: ``invalidAmount`` for a negative, fractional or non-numeric amount;
            ``notAnObject`` or ``invalidDocument`` when the document has no FP pool;
            ``invalidJson`` when the document holds something JSON cannot (a set ...);
            ``outOfBounds`` when the pool's bounds admit no value (a negative maximum);
            ``invalidArgument`` when ``now`` in UTC falls outside the years 1 to 9999.
        TypeError: ``now`` is a naive datetime.
    """
    return _shift_pool(document, "fp", -_amount(amount), now)


@guarded
def recover_fatigue(document: DocumentT, amount: int, *, now: datetime | None = None) -> DocumentT:
    """Recovers ``amount`` FP, never above the maximum.

    Args:
        document: A character document; never modified.
        amount: The FP recovered, a non-negative whole number.
        now: A timezone-aware time for ``meta.updatedAt`` (default: the current time).

    Returns:
        A new document with ``/secondary/fp/current`` and ``meta.updatedAt`` set.

    Raises:
        CharacterError: ``invalidAmount`` for a negative, fractional or non-numeric amount;
            ``notAnObject`` or ``invalidDocument`` when the document has no FP pool;
            ``invalidJson`` when the document holds something JSON cannot (a set ...);
            ``outOfBounds`` when the pool's bounds admit no value (a negative maximum);
            ``invalidArgument`` when ``now`` in UTC falls outside the years 1 to 9999.
        TypeError: ``now`` is a naive datetime.
    """
    return _shift_pool(document, "fp", _amount(amount), now)
