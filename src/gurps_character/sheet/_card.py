"""What a combat card shows: the numbers of this moment, from the combat view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..conditions import get_condition
from ..locations import HIT_LOCATIONS, body_of
from ..stats import ENCUMBRANCE_NAMES, CombatStats, combat_stats
from ._render import render
from ._text import number
from ._view import DrRow, PoolView, WeaponRow, dr_rows, effects, pool_thresholds, pool_view, weapon_rows

__all__ = ["CardView", "card_html", "card_of_document", "card_of_stats"]


@dataclass(frozen=True, slots=True)
class CardView:
    """Everything the card templates lay out."""

    name: str
    hp: PoolView
    fp: PoolView
    effects: tuple[str, ...]
    move: str
    dodge: str
    encumbrance: str
    parry: str
    block: str
    attacks: tuple[WeaponRow, ...]
    dr: tuple[tuple[str, str], ...]
    """``(location, DR)`` at the usual locations."""


def _pools_document(stats: CombatStats) -> dict[str, Any]:
    """What :func:`get_condition` reads, from the combat view (which keeps no document)."""
    return {
        "secondary": {
            "hp": {"value": stats.hp.max, "current": stats.hp.current},
            "fp": {"value": stats.fp.max, "current": stats.fp.current},
        },
        "attributes": {"st": {"value": stats.attributes.st}},
        "encumbrance": {
            "levels": [{"move": level.move, "dodge": level.dodge} for level in stats.encumbrance]
        },
    }


def _card(stats: CombatStats, dr: tuple[tuple[str, str], ...]) -> CardView:
    condition = get_condition(_pools_document(stats))
    melee, ranged = weapon_rows(stats)
    level = stats.current_encumbrance
    return CardView(
        name=stats.name,
        hp=pool_view("hp", condition.hp, pool_thresholds("hp", condition.hp)),
        fp=pool_view("fp", condition.fp, pool_thresholds("fp", condition.fp)),
        effects=effects(condition),
        move=number(stats.current_move),
        dodge=number(stats.current_dodge),
        encumbrance="Overloaded" if stats.overloaded else ENCUMBRANCE_NAMES.get(level.id, level.id),
        parry=number(stats.parry.value) if stats.parry.value is not None else "—",
        block=number(stats.block.value) if stats.block.value is not None else "—",
        attacks=melee + ranged,
        dr=dr,
    )


def _usual(rows: tuple[DrRow, ...]) -> tuple[tuple[str, str], ...]:
    """Each location's DR once (a body's left and right arm are one row), in table order."""
    seen: dict[str, str] = {}
    for row in rows:
        name = row.location
        for side in ("Right ", "Left "):
            name = name.removeprefix(side)
        text = row.dr + (f" ({row.extra})" if row.extra else "")
        seen.setdefault(name, text)
    return tuple(seen.items())


def card_of_document(document: Mapping[str, Any]) -> CardView:
    """The card of a schema-valid document: DR by its body (a GCS import's table, else the
    humanoid locations)."""
    stats = combat_stats(document)
    return _card(stats, _usual(dr_rows(document, body_of(document))))


def card_of_stats(stats: CombatStats) -> CardView:
    """The card of a combat view: DR as its table lists it (the view keeps no body table)."""
    order: dict[str, int] = {name: index for index, name in enumerate(HIT_LOCATIONS)}
    entries = sorted(stats.damage_resistance, key=lambda entry: order.get(entry.location.casefold(), 99))
    return _card(stats, tuple((entry.location, number(entry.dr)) for entry in entries))


def card_html(stats: CombatStats) -> str:
    """The card of a combat view as an HTML fragment (what a notebook shows).

    Raises:
        CharacterError: ``missingExtra`` when Jinja2 is not installed.
    """
    return render("card.html.j2", card=card_of_stats(stats), standalone=False)
