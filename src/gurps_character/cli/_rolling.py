"""The 3d roll of ``roll``, ``attack`` and ``defend``: given (``--roll N``), or rolled for the GM.

A roll not given is rolled with :func:`~gurps_character.roll_3d`: with ``random.Random(N)`` for
``--seed N`` (the same seed, the same roll), else with the operating system's randomness.
``attack`` and ``defend`` also take ``--no-roll``, for the arithmetic alone. ``hit --location
random`` rolls where a blow lands with :func:`random_location`.
"""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..combat import hit_location, roll_3d
from ..errors import CharacterError
from ..locations import LOCATION_NAMES, Body, body_of
from ._command import integer_text
from ._common import INVALID_ARGUMENT

__all__ = ["RandomLocation", "Roll3d", "add_roll_options", "asked_roll", "parse_seed", "random_location"]

_RANGE: Final = re.compile(r"\s*([0-9]{1,3})\s*(?:-\s*([0-9]{1,3})\s*)?")
"""A body row's roll range: ``5`` or ``3-4`` (``-`` alone: aimed blows only)."""


@dataclass(frozen=True, slots=True)
class Roll3d:
    """The 3d total a command judges, and whether it was rolled here (with which seed)."""

    total: int
    rolled: bool
    seed: int | None = None

    def text(self) -> str:
        """``roll 9`` (given), ``rolled 9`` or ``rolled 9 (seed 7)``: a reader sees which."""
        if not self.rolled:
            return f"roll {self.total}"
        return f"rolled {self.total}" + ("" if self.seed is None else f" (seed {self.seed})")

    def to_dict(self) -> dict[str, Any]:
        """``{"rolled": true, "seed"}`` for a roll made here; ``{}`` for one given (the report
        of a given roll keeps the keys it always had)."""
        return {"rolled": True, "seed": self.seed} if self.rolled else {}


def parse_seed(text: str | None) -> int | None:
    """``--seed``: a whole number (any sign), or None when not given."""
    if text is None:
        return None
    value = integer_text(text)
    if value is None:
        raise CharacterError(
            INVALID_ARGUMENT,
            f"--seed must be a whole number, not {text!r}.",
            {"name": "--seed", "value": text},
        )
    return value


def add_roll_options(parser: argparse.ArgumentParser, *, no_roll: bool) -> None:
    """``--roll N`` | ``--seed N`` (| ``--no-roll``): one of them at most."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--roll", metavar="N", help="the 3d total rolled at the table (default: rolled here)")
    group.add_argument("--seed", metavar="N", help="roll here with this seed: the same seed, the same roll")
    if no_roll:
        group.add_argument("--no-roll", action="store_true", help="no roll: the arithmetic alone")


def asked_roll(args: argparse.Namespace, name: str = "roll", *, allowed: bool = True) -> Roll3d | None:
    """The roll the command line asks for: ``--roll N`` as given (the caller's judge refuses a
    total outside 3-18); else, when a roll may be made (``allowed``) and ``--no-roll`` is not
    given, one rolled here. None otherwise.

    Args:
        args: The parsed arguments (``roll``, ``seed`` and, optionally, ``no_roll``).
        name: How a refusal of ``--roll``'s text names it.
        allowed: Whether the rules allow a roll at all (a skill under 3, no defense possible).

    Raises:
        CharacterError: ``invalidArgument`` for a ``--roll`` or ``--seed`` that is no whole number.
    """
    seed = parse_seed(args.seed)
    if args.roll is not None:
        total = integer_text(args.roll)
        if total is None:
            raise CharacterError(
                INVALID_ARGUMENT,
                f"{name} must be a whole number, not {args.roll!r}.",
                {"name": name, "value": args.roll},
            )
        return Roll3d(total, rolled=False)
    if not allowed or getattr(args, "no_roll", False):
        return None
    return Roll3d(roll_3d(None if seed is None else random.Random(seed)), rolled=True, seed=seed)


@dataclass(frozen=True, slots=True)
class RandomLocation:
    """Where a random hit lands: the 3d roll, the location as
    :func:`~gurps_character.resolve_hit` takes it, and the table read (B552 or the body's)."""

    roll: int
    location: str
    table: str
    row: str | None = None
    """The body table's row name (``Right Leg``, ``Hindleg``); None for B552's table."""

    def text(self) -> str:
        """``location: rolled 6 on B552's table: right leg``."""
        where = self.row if self.row is not None else self.location.replace("_", " ")
        return f"location: rolled {self.roll} on {self.table}: {where}"

    def to_dict(self) -> dict[str, Any]:
        """``{"roll", "location", "table", "row"}``."""
        return {"roll": self.roll, "location": self.location, "table": self.table, "row": self.row}


def _holds(text: str, roll: int) -> bool:
    found = _RANGE.fullmatch(text)
    if found is None:
        return False
    low = int(found.group(1))
    return low <= roll <= int(found.group(2) or low)


def _body_location(body: Body, roll: int) -> RandomLocation:
    """The row of the body's table that ``roll`` falls in: the first in table order (the table's
    own rows come before its sub-tables', which the importer lists after them). Its name keeps
    the side (``Right Leg`` is ``right_leg``) where the rule's names have one."""
    for row in body.locations:
        if _holds(row.roll_range, roll):
            sided = "_".join(row.table_name.lower().split())
            location = sided if LOCATION_NAMES.get(sided, None) == row.id else row.id
            table = f"the {body.name or 'body'} table"
            return RandomLocation(roll, location, table, row.table_name or row.id)
    raise CharacterError(
        INVALID_ARGUMENT,
        f"The {body.name or 'body'} table has no location for a roll of {roll}: give --location.",
        {"name": "location", "value": "random", "roll": roll},
    )


def random_location(character: Mapping[str, Any], rng: random.Random) -> RandomLocation:
    """A random hit location: 3d on the character's body table (an import from GCS keeps
    its body: a quadruped's, a winged one's...), else on the humanoid table (B552).

    Raises:
        CharacterError: ``invalidArgument`` when the body's table rolls other dice than 3d, or
            has no row for the roll.
    """
    body = body_of(character)
    if body is None:
        roll = roll_3d(rng)
        return RandomLocation(roll, hit_location(roll), "B552's table")
    if "".join(body.roll.split()).lower() != "3d":
        raise CharacterError(
            INVALID_ARGUMENT,
            f"The {body.name or 'body'} table rolls {body.roll!r}, not 3d: give --location.",
            {"name": "location", "value": "random", "roll": body.roll},
        )
    return _body_location(body, roll_3d(rng))
