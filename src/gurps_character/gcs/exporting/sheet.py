"""The shared state of an export to a new GCS file: the document, the GCS nodes made so far,
the traits and items that hold features, and the notes; with the small helpers every part uses.

:mod:`.new_character` assembles the file from the parts: :mod:`.stats` (attributes and the
values derived from them), :mod:`.traits`, :mod:`.skills`, :mod:`.equipment`, :mod:`.body`
(hit locations), :mod:`.profile`, :mod:`.weapons`, :mod:`.weapon_calc` and :mod:`.defenses`
(parry and block).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final, NamedTuple

from ..format.tids import TidMaker
from .notes import ExportNoteKind, NoteList

__all__ = [
    "ADJUSTMENTS",
    "DAMAGE_KEYS",
    "EQUIPMENT_KEYS",
    "LIMIT",
    "SKILL_KEYS",
    "TOP_CALC_KEYS",
    "TRAIT_KEYS",
    "WEAPON_CALC_KEYS",
    "WEAPON_KEYS",
    "Derived",
    "SheetBase",
    "Stack",
    "as_written",
    "dice_text",
    "finished",
    "fxp_text",
    "leading_int",
    "member",
    "number",
    "order_damage",
    "plain",
    "put_in_order",
    "reordered",
    "signed",
    "signed_number",
    "text_of",
    "trait_node",
]

LIMIT: Final = 1_000_000
"""The largest magnitude written into a GCS number; the document's larger ones are noted and
written at this bound (GCS keeps numbers to 4 decimals in 64 bits, and squares ST for lift)."""

ADJUSTMENTS: Final = "Sheet adjustments"
"""The trait that holds the features no trait or item of the document names."""

_LEADING_INT: Final = re.compile(r"\s*([+-]?\d{1,6})")
_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")


# ---------------------------------------------------------------- GCS's key order

TRAIT_KEYS: Final = (
    "id", "name", "reference", "local_notes", "tags", "modifiers", "base_points", "points_per_level",
    "weapons", "features", "can_level", "levels", "calc",
)  # fmt: skip
"""A trait's keys in the order GCS writes them (those an export writes)."""
EQUIPMENT_KEYS: Final = (
    "id", "description", "reference", "local_notes", "tech_level", "legality_class", "tags",
    "base_value", "base_weight", "weapons", "features", "quantity", "equipped", "calc",
)  # fmt: skip
"""An equipment item's keys in GCS's order."""
SKILL_KEYS: Final = (
    "id", "name", "reference", "local_notes", "tags", "specialization", "difficulty", "defaults",
    "tech_level", "weapons", "features", "points", "calc",
)  # fmt: skip
"""A skill's keys in GCS's order."""
WEAPON_KEYS: Final = (
    "id", "sv", "damage", "strength", "usage", "usage_notes", "reach", "parry", "block", "accuracy",
    "range", "rate_of_fire", "shots", "bulk", "recoil", "defaults", "hide", "calc",
)  # fmt: skip
"""A weapon's keys in GCS's order."""
WEAPON_CALC_KEYS: Final = (
    "level", "damage", "parry", "block", "accuracy", "reach", "range", "rate_of_fire", "shots",
    "bulk", "recoil", "strength",
)  # fmt: skip
"""A weapon's ``calc`` keys in GCS's order."""
DAMAGE_KEYS: Final = ("type", "st", "leveled", "st_mul", "base", "base_leveled", "armor_divisor")
"""A weapon damage's keys in GCS's order."""
TOP_CALC_KEYS: Final = (
    "swing", "thrust", "basic_lift", "lifting_st_bonus", "striking_st_bonus", "throwing_st_bonus",
    "dodge_bonus", "parry_bonus", "block_bonus", "move", "dodge",
)  # fmt: skip
"""The top-level ``calc`` keys in GCS's order."""


def number(value: object, default: float = 0) -> float:
    """A JSON number as a number (not a boolean), else ``default``."""
    kind = type(value)
    if kind is int or kind is float:
        return value  # type: ignore[return-value]
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return value


def plain(value: float) -> int | float:
    """A number as GCS writes it: whole numbers as integers, others to 4 decimals."""
    if type(value) is int:
        return value
    rounded = round(value, 4)
    return int(rounded) if float(rounded).is_integer() else rounded


def fxp_text(value: float) -> str:
    """A GCS number as text, with thousands separators (``1,234.5``), as GCS writes weights."""
    kind = type(value)
    if kind is int:
        if -1000 < value < 1000:
            return str(value)
    elif kind is float and -1000 < value < 1000 and value.is_integer():
        return str(int(value))
    shown = plain(value)
    if type(shown) is int:
        return f"{shown:,}"
    return f"{shown:,.4f}".rstrip("0")  # not whole: a fraction is left


def signed(value: int) -> str:
    """A whole number with its sign (``+3``, ``-1``, ``+0``)."""
    return f"{value:+d}"


def dice_text(count: int, adds: int, multiplier: int = 1) -> str:
    """Dice as GCS writes them: ``1d-2``, ``2d``, ``6dx2``."""
    if count <= 0:
        return str(adds) if adds else "0"
    if multiplier == 1:  # each text made by one format
        return f"{count}d{adds:+d}" if adds else f"{count}d"
    return f"{count}d{adds:+d}x{multiplier}" if adds else f"{count}dx{multiplier}"


def as_written(text: str) -> str:
    """Text as the file will hold it (lone surrogates as U+FFFD, see :mod:`..format.json_text`)."""
    return text if text.isascii() else _LONE_SURROGATE.sub("\ufffd", text)


def text_of(value: object) -> str:
    """``value`` when it is text, else ``""``."""
    return value if type(value) is str or isinstance(value, str) else ""


def signed_number(value: float) -> str:
    """A number as GCS writes it, with its sign."""
    shown = plain(value)
    return f"+{shown}" if shown >= 0 else str(shown)


def member(document: Mapping[str, Any], pointer: str) -> Mapping[str, Any]:
    """The object at a simple pointer of the document (``/defenses/dodge``), or an empty one."""
    node: Any = document
    for token in pointer.strip("/").split("/"):
        node = node.get(token, {}) if type(node) is dict or isinstance(node, Mapping) else {}
    return node if type(node) is dict or isinstance(node, Mapping) else {}


def leading_int(text: str) -> int | None:
    """The whole number a text starts with (``"-1F"`` gives -1), or None."""
    match = _LEADING_INT.match(text)
    return int(match.group(1)) if match else None


def reordered(node: dict[str, Any], order: Sequence[str]) -> dict[str, Any]:
    """A node with its keys in ``order`` (keys not listed there are left out)."""
    return {key: node[key] for key in order if key in node}


def put_in_order(node: dict[str, Any], order: Sequence[str]) -> None:
    """Puts a node's keys in ``order``, in place (for keys set after it was made)."""
    ordered = reordered(node, order)
    node.clear()
    node.update(ordered)


def order_damage(damage: dict[str, Any]) -> None:
    """Puts a weapon damage's keys in GCS's order, in place."""
    put_in_order(damage, DAMAGE_KEYS)


def finished(node: dict[str, Any]) -> dict[str, Any]:
    """A node in GCS's key order, without the empty lists and blocks GCS leaves out."""
    skill = "difficulty" in node
    rank = _SKILL_RANK if skill else _EQUIPMENT_RANK if "description" in node else _TRAIT_RANK
    out = {
        key: value
        for key, value in node.items()
        if key in rank and (value or not (key in _LEFT_OUT_EMPTY or (key == "calc" and skill)))
    }  # GCS leaves out what is empty or 0; the node's keys are in GCS's order (see put_in_order)
    weapons = out.get("weapons")
    if weapons:
        out["weapons"] = [reordered(weapon, WEAPON_KEYS) for weapon in weapons]
    return out


_TRAIT_RANK: Final = {key: rank for rank, key in enumerate(TRAIT_KEYS)}
_EQUIPMENT_RANK: Final = {key: rank for rank, key in enumerate(EQUIPMENT_KEYS)}
_SKILL_RANK: Final = {key: rank for rank, key in enumerate(SKILL_KEYS)}
_LEFT_OUT_EMPTY: Final = frozenset(
    ("weapons", "features", "modifiers", "tags", "base_points", "points_per_level")
)
"""The keys GCS leaves out of a node when they are empty or 0."""


_ADJUSTMENTS_ADDED: Final = (
    f"The GCS file has a trait '{ADJUSTMENTS}' (0 points unless noted) that holds the GCS "
    "features giving the document's numbers where no trait or item of the document can; "
    "its notes list them."
)


class Stack(NamedTuple):
    """An item written as a stack: its description, quantity, and one's cost and pounds."""

    description: str
    quantity: int | float
    cost: float
    pounds: float


def trait_node(
    ident: str, name: str, notes: str | None, tags: list[str], points: int | float
) -> dict[str, Any]:
    """A trait's node of the usual shape, made at once with its keys in GCS's order
    (:data:`TRAIT_KEYS`): a fixed cost, empty lists for what is added later, its notes and tags
    left out when it has none (the other keys keep their order)."""
    node: dict[str, Any] = {
        "id": ident,
        "name": name,
        "local_notes": notes,
        "tags": tags,
        "modifiers": [],
        "base_points": points,
        "weapons": [],
        "features": [],
        "calc": {"points": points},
    }
    if not notes:
        del node["local_notes"]
    if not tags:
        del node["tags"]
    return node


class Derived:
    """GCS's derived values for the file written (``calc`` at the top level and more)."""

    def __init__(self) -> None:
        self.progression = "basic_set"
        self.striking = 0
        self.thrust: tuple[int, int] = (1, 0)
        self.swing: tuple[int, int] = (1, 0)
        self.shift: dict[str, tuple[int, int]] = {}
        self.lift_pounds: float = 0
        self.lift_kg: float = 0
        self.dodge_start: float = 0
        self.wanted_dodge = 0
        self.halving: list[tuple[str, str, tuple[str, ...]]] = []
        self.calc_bonuses: dict[str, int] = {}
        self.calc: dict[str, Any] = {}


class SheetBase:
    """The state of one export: the document, the GCS nodes made so far, the notes."""

    def __init__(self, document: Mapping[str, Any], now: datetime) -> None:
        self.doc = document
        self.now = now
        self.notes = NoteList()
        self._record_note = self.notes.recorder()
        # a valid document has its profile's name and its meta (a creation time, if any, as text)
        created = document["meta"].get("createdAt")
        self.ids = TidMaker(f"{document['profile']['name']}\x00{created or ''}\x00gcs")
        self.traits: list[dict[str, Any]] = []
        self.skills: list[dict[str, Any]] = []
        self.equipment: list[dict[str, Any]] = []
        self.trait_by_name: dict[str, dict[str, Any]] = {}
        self.item_by_name: dict[str, dict[str, Any]] = {}
        self.adjustments: dict[str, Any] | None = None
        self.adjustment_lines: list[str] = []
        self.deviations: dict[str, str] = {}
        integrity = document.get("integrity")
        if integrity:
            for item in integrity["deviations"]:
                if isinstance(item, Mapping) and isinstance(item.get("pointer"), str):
                    self.deviations.setdefault(item["pointer"], text_of(item.get("justification")))
        self.values: dict[str, float] = {}
        self.skill_names: list[str] = []
        self.skill_parts: dict[str, tuple[str, str | None, str | None]] = {}
        """The skills' names as GCS's name, specialization and tech level, by the whole name."""
        self.attribute_points: dict[str, float] = {}
        self.defense_bases: list[int] = []
        """GCS's parry and block with each weapon mode written, in order, before its modifier: 3 +
        half its level (toward zero), less the fencing penalty."""

    def encumbrance_level(self, lift_pounds: float) -> int:
        """The encumbrance level GCS gives the items carried with a Basic Lift of
        ``lift_pounds`` (the stats' part works it out)."""
        raise NotImplementedError

    def note(self, source: str, kind: ExportNoteKind, message: str) -> None:
        """Records a note on the document's ``source``."""
        self._record_note((source, kind, message), None)  # self.notes.add(source, kind, message)

    def bounded(self, value: object, pointer: str, what: str) -> float:
        """A document number within :data:`LIMIT` (noted when it was not)."""
        kind = type(value)
        amount: float = value if kind is int or kind is float else number(value)  # type: ignore[assignment]
        if -LIMIT <= amount <= LIMIT:
            return amount
        kept = LIMIT if amount > 0 else -LIMIT
        self.note(
            pointer,
            "differs",
            f"{what} {amount:g} is beyond what a GCS file holds: written as {kept:g}.",
        )
        return kept

    def cost_and_weight(self, holder: Mapping[str, Any], pointer: str) -> tuple[float, float]:
        """An item's or weapon's ``cost`` and ``weight`` within :data:`LIMIT` (noted when they
        were not; ``pointer`` is the holder's)."""
        cost = holder.get("cost", 0)  # none is 0, as bounded() reads it
        if (type(cost) is not int and type(cost) is not float) or not -LIMIT <= cost <= LIMIT:
            cost = self.bounded(cost, f"{pointer}/cost", "Cost")
        weight = holder.get("weight", 0)
        if (type(weight) is not int and type(weight) is not float) or not -LIMIT <= weight <= LIMIT:
            weight = self.bounded(weight, f"{pointer}/weight", "Weight")
        return cost, weight

    def name(self, raw: object, pointer: str, what: str) -> str:
        """A name as GCS keeps it: without the spaces around it (noted when it had some)."""
        if type(raw) is str:
            name = raw.strip()
            if name == raw:
                return name
        text = text_of(raw)
        name = text.strip()
        if name != text:
            if name:
                self.note(
                    pointer,
                    "approximated",
                    f"The {what} '{name[:60]}' is written without the spaces around its name.",
                )
            else:
                self.note(pointer, "differs", f"A {what} whose name is only spaces has no name in GCS.")
        return name

    def why(self, pointer: str) -> str:
        """The document's own justification of a deviation at ``pointer``, as a clause."""
        reason = self.deviations.get(pointer)
        return f" (the document: {reason.strip().rstrip('.')[:200]})" if reason and reason.strip() else ""

    def new_trait(self, name: str, points: float, tags: Sequence[str], notes: str = "") -> dict[str, Any]:
        """A new trait of the file at ``points`` (its features and weapons added later)."""
        shown = points if type(points) is int else plain(points)
        node = trait_node(self.ids.new("trait"), name, notes, list(tags), shown)
        self.traits.append(node)
        self.trait_by_name.setdefault(name, node)
        return node

    def adjustments_trait(self) -> dict[str, Any]:
        """The trait that holds the features nothing else of the document names (made once)."""
        if self.adjustments is None:
            # its notes, listing the features, are written when they are all in (their key in place)
            self.adjustments = self.new_trait(ADJUSTMENTS, 0, ["Advantage"], "(the features listed)")
            self.note("", "added", _ADJUSTMENTS_ADDED)
        return self.adjustments

    def adjust(self, feature: dict[str, Any], line: str) -> None:
        """Adds a feature to the adjustments trait, with the line its notes give for it."""
        node = self.adjustments
        (self.adjustments_trait() if node is None else node)["features"].append(feature)
        self.adjustment_lines.append(line)

    def holder(self, name: str, pointer: str) -> dict[str, Any]:
        """The trait or item named ``name`` (a new 0-point trait when there is none), to hold a
        feature the document gives that name."""
        found = self.trait_by_name.get(name) or self.item_by_name.get(name)
        if found is not None:
            return found
        node = self.new_trait(name, 0, ["Advantage"])
        self.note(
            pointer,
            "added",
            f"The GCS file has a 0-point trait '{name[:80]}' to hold the GCS feature the document names "
            "after it (GCS gives bonuses and cost reductions through traits).",
        )
        return node

    def new_item(
        self, name: str, cost: float, weight: float, notes: str, stack: Stack | None = None
    ) -> dict[str, Any]:
        """A new equipped item of the file (cost in $, weight in kg, written in pounds): one, or
        the ``stack`` its name ends with."""
        pounds = weight * 2
        weight_text = fxp_text(pounds) + " lb"
        quantity: int | float
        if stack is None:
            description, quantity, unit_cost, unit_text = name, 1, cost, weight_text
            unit_pounds = pounds
        else:
            description, quantity, unit_cost, unit_pounds = stack
            unit_text = fxp_text(unit_pounds) + " lb"
        calc = {
            "value": unit_cost if type(unit_cost) is int else plain(unit_cost),
            "extended_value": cost if type(cost) is int else plain(cost),
            "weight": unit_text,
            "extended_weight": weight_text,
        }
        node: dict[str, Any]
        if notes and unit_cost and unit_pounds:  # the usual item, made at once in GCS's order
            node = {
                "id": self.ids.new("equipment"),
                "description": description,
                "local_notes": notes,
                "base_value": fxp_text(unit_cost).replace(",", ""),
                "base_weight": unit_text,
                "weapons": [],
                "features": [],
                "quantity": quantity,
                "equipped": True,
                "calc": calc,
            }
        else:
            node = {"id": self.ids.new("equipment"), "description": description}
            if notes:
                node["local_notes"] = notes
            if unit_cost:
                node["base_value"] = fxp_text(unit_cost).replace(",", "")
            if unit_pounds:
                node["base_weight"] = unit_text
            node["weapons"] = []
            node["features"] = []
            node["quantity"] = quantity
            node["equipped"] = True
            node["calc"] = calc
        self.equipment.append(node)
        self.item_by_name.setdefault(name, node)
        return node
