"""GCS's skill levels from points (B170): the relative level a difficulty gives for the points
spent, which reading a file and writing a new one both work out."""

from __future__ import annotations

import math
from typing import Final

__all__ = ["BASE_RELATIVE", "points_level"]

BASE_RELATIVE: Final = {"e": 0, "a": -1, "h": -2, "vh": -3}
"""The relative level one point buys at each difficulty (Easy, Average, Hard, Very Hard)."""


def points_level(difficulty: str, points: float) -> int:
    """GCS's relative level for points in a skill of a difficulty (B170; wildcards priced per 3)."""
    base = BASE_RELATIVE.get(difficulty, -3)
    if difficulty == "w":
        points /= 3
    if points < 1:
        return base - 1 if points > 0 else base - 10
    if points < 2:
        return base
    if points < 4:
        return base + 1
    return base + 1 + math.floor(points / 4)
