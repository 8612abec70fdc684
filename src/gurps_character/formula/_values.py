"""Formula values: dice, the JSON shape of results and the helpers the rules share."""

from __future__ import annotations

import math
import random
import re
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, TypeAlias

from ._errors import FormulaError
from ._jsnum import MAX_SAFE_INTEGER, as_number, js_number_text, output_number

__all__ = [
    "MAX_ROLLED_DICE",
    "MISSING",
    "SYSTEM_RANDOM",
    "Dice",
    "FormulaValue",
    "dice_with_more",
    "make_dice",
    "output_value",
    "parse_dice",
    "plain_value",
    "roll_dice",
    "round_up",
]

_MAX_OUTPUT_DEPTH: Final = 256


@dataclass(frozen=True, slots=True)
class Dice:
    """A damage roll: ``dice`` six-sided dice plus ``adds`` (``notation`` like ``"2d-1"``).

    Counts are ``int``; a count that JavaScript would hold as no whole number (a rule table
    extrapolated to an infinite key gives ``Infinityd``) is the ``float`` it holds.

    Attributes:
        notation: The dice as text, such as ``"2d-1"``.
        dice: How many six-sided dice.
        adds: What is added to (or, negative, taken from) their total.
    """

    notation: str
    dice: int | float
    adds: int | float

    def to_dict(self) -> dict[str, Any]:
        """The dice as JSON data.

        Returns:
            ``{"notation", "dice", "adds"}``, as the format stores dice (and as ``JSON.stringify`` writes
            them: a count that is no finite number is ``None``).
        """
        return {"notation": self.notation, "dice": output_number(self.dice), "adds": output_number(self.adds)}

    def roll(self, rng: random.Random | None = None) -> int:
        """Rolls the dice: the sum of :attr:`dice` six-sided dice plus :attr:`adds`, at least 0.

        Negative adds never take a damage roll below 0 (B269); the minimum of 1 for damage other
        than crushing needs the damage type, which plain dice do not know:
        :meth:`gurps_character.WeaponDamage.roll` applies it.

        Args:
            rng: The random number generator (``random.Random(seed)`` for repeatable rolls);
                None uses the operating system's randomness.

        Returns:
            The total, a whole number of at least 0.

        Raises:
            FormulaError: ``rng`` is not a ``random.Random``, :attr:`dice` is not a whole number
                from 0 to 10,000, or :attr:`adds` is not a whole number.
        """
        generator = _generator(rng)
        count = self.dice
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_ROLLED_DICE:
            raise FormulaError(
                f"cannot roll {_shown(count)} dice: a whole number from 0 to {MAX_ROLLED_DICE} is needed"
            )
        adds = self.adds
        if isinstance(adds, bool) or not isinstance(adds, int):
            raise FormulaError(f"cannot roll dice with adds {_shown(adds)}: a whole number is needed")
        return max(0, roll_dice(count, generator) + adds)


MAX_ROLLED_DICE: Final = 10_000
"""The most dice one roll takes (far beyond any character's: ST 1,000 swings about 100d)."""

SYSTEM_RANDOM: Final = random.SystemRandom()
"""Rolls without an ``rng``: the operating system's randomness, which keeps no state here."""


def _generator(rng: object) -> random.Random:
    if rng is None:
        return SYSTEM_RANDOM
    if not isinstance(rng, random.Random):
        raise FormulaError(
            f"rng must be a random.Random (such as random.Random(42)) or None, not {_shown(rng)}"
        )
    return rng


def _shown(value: object) -> str:
    """A value for a message, shortened; never failing (a 5,000-digit int, a deep list)."""
    try:
        return reprlib.repr(value)
    except Exception:
        return f"a {type(value).__name__}"


def roll_dice(count: int, rng: random.Random) -> int:
    """The sum of ``count`` six-sided dice rolled with ``rng`` (one ``randint(1, 6)`` each, in
    order, so that a seeded generator repeats the roll on every Python version)."""
    randint = rng.randint
    return sum([randint(1, 6) for _ in range(count)])


FormulaValue: TypeAlias = (
    "int | float | str | bool | Dice | list[FormulaValue] | dict[str, FormulaValue] | None"
)
"""What a formula evaluates to. Documents' own objects come back as plain ``dict``/``list`` copies."""


class _Missing:
    """A path that leads nowhere (JavaScript's ``undefined``); results turn it into ``None``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()

_DICE: Final = re.compile(r"([0-9]+)d([+-][0-9]+)?")


def parse_dice(notation: object) -> Dice | None:
    """Reads dice notation such as ``"3d"``, ``"1d+2"`` or ``"2d-1"``, as the reference does.

    The text is ``String(notation)`` (``None`` is empty), without JavaScript's surrounding
    whitespace; its numbers are read as JavaScript reads them, and the notation is written anew
    from them: ``" 02d+0 "`` is ``2d``, ``"1d-0"`` is ``1d``.

    Args:
        notation: The text (other values are read as JavaScript's ``String()`` writes them).

    Returns:
        The :class:`Dice`, or ``None`` when the text is not ``<digits>d[+|-<digits>]``.
    """
    from ._jsvalue import js_string, js_trim  # (it imports this module)

    if notation is None or notation is MISSING:
        return None
    text = js_trim(notation if type(notation) is str else js_string(notation))
    return _parse_dice_cached(text) if len(text) <= _CACHED_LENGTH else _parse_dice_text(text)


_CACHED_LENGTH: Final = 40
"""Notations this short are cached (the tables' own are); longer ones are read each time."""


@lru_cache(maxsize=256)
def _parse_dice_cached(text: str) -> Dice | None:
    return _parse_dice_text(text)


def _parse_dice_text(text: str) -> Dice | None:
    match = _DICE.fullmatch(text)
    if match is None:
        return None
    return make_dice(float(match[1]), float(match[2]) if match[2] else 0.0)


def make_dice(dice: float, adds: float) -> Dice:
    """Dice of ``dice`` and ``adds`` with their notation written as JavaScript writes the numbers
    (``2d+1``; no ``+0``)."""
    tail = f"+{js_number_text(adds)}" if adds > 0 else js_number_text(adds) if adds < 0 else ""
    return Dice(f"{js_number_text(dice)}d{tail}", _count(dice), _count(adds))


def _count(number: float) -> int | float:
    return int(number) if number - number == 0 and float(number).is_integer() else number


def dice_with_more(base: Dice, more: float) -> Dice:
    """``base`` with ``more`` extra dice (table extrapolation): ``Infinityd`` for infinitely
    many, as in JavaScript."""
    return make_dice(base.dice + more, base.adds)


def round_up(x: float) -> int | float:
    """Ceiling that ignores float noise below 1e-9: ``round_up(40 * 0.8)`` is 32, not 33.

    Args:
        x: A number.

    Returns:
        The smallest integer not below ``x - 1e-9`` (an ``int``); infinities and NaN unchanged.
    """
    number = as_number(x)
    if number is None:
        raise FormulaError(f"round_up() needs a number, not {type(x).__name__}")
    if not math.isfinite(number):
        return number
    return math.ceil(number - 1e-9)


def plain_value(x: Any) -> Any:
    """A formula value as the rule check compares and reports it: dice as their notation,
    everything else as is.

    Dice are :class:`Dice` results as well as any object a document stores with a ``notation``
    (whatever that holds, as the reference's ``'notation' in x`` test finds it).

    Args:
        x: A formula value or a stored document value.

    Returns:
        ``x.notation`` for dice, otherwise ``x`` itself.
    """
    kind = type(x)
    if kind is float or kind is int or kind is str or x is None:
        return x
    if isinstance(x, Dice):
        return x.notation
    if isinstance(x, Mapping) and "notation" in x:
        return x["notation"]
    return x


def output_value(value: Any) -> Any:
    """An internal value as results carry it (what ``JSON.stringify`` would write, read back).

    Numbers that are whole come back as ``int`` and non-finite ones as ``None``; a path that led
    nowhere is ``None``; document containers are copied into plain ``dict``/``list`` (so results
    never share mutable objects with the input).

    Raises:
        FormulaError: The value contains itself, or nests deeper than JSON sensibly does.
    """
    kind = type(value)
    if kind is float:
        if value.is_integer() and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return int(value)
        return output_number(value)
    if kind is int:
        return output_number(value)
    if kind is str or kind is bool or value is None or kind is Dice:
        return value
    return _output_container(value, 0, set())


def _output_container(value: Any, depth: int, active: set[int]) -> Any:
    if value is MISSING or value is None:
        return None
    if isinstance(value, bool | Dice):
        return value
    if isinstance(value, str):
        return str.__add__("", value)  # a plain str, also for a subclass (whose methods may lie)
    number = as_number(value)
    if number is not None:
        if isinstance(value, int) and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return int(value)
        return output_number(number)
    if not isinstance(value, Mapping | list | tuple):
        return None  # not JSON data (a set, an object): no value JSON.stringify would write
    if depth >= _MAX_OUTPUT_DEPTH:
        raise FormulaError("The formula's value is nested too deeply to return")
    key = id(value)
    if key in active:
        raise FormulaError("The formula's value contains itself (a cycle)")
    active.add(key)
    try:
        if isinstance(value, Mapping):
            return {
                str(k): _output_container(v, depth + 1, active)
                for k, v in value.items()
                if isinstance(k, str)
            }
        return [_output_container(v, depth + 1, active) for v in value]
    finally:
        active.discard(key)
