"""The rule evaluator: formulas, rule tables and the independent recomputation of a character.

Standard library only: importing this module imports no third-party package.

:func:`evaluate` computes a formula against a document (:func:`parse_formula` gives its syntax
tree, a :class:`Node`); :func:`recompute` works out every derived value of a character
(:class:`RecomputeResult`) and :func:`deviations` lists where the document differs
(:class:`RuleDeviation`). :func:`parse_dice` reads dice notation into :class:`Dice`. Bad
formulas raise :class:`FormulaError` (:class:`FormulaSyntaxError` when they do not parse).

>>> evaluate("floor($.secondary.basicSpeed.value) + 3", {"secondary": {"basicSpeed": {"value": 6.25}}})
9
"""

from __future__ import annotations

from ._ast import Node
from ._errors import FormulaError, FormulaSyntaxError
from ._evaluator import evaluate
from ._parser import parse_formula
from ._recompute import RecomputeResult, RuleDeviation, deviations, recompute, resolve_schema_ref
from ._values import Dice, FormulaValue, parse_dice, plain_value, round_up

__all__ = [
    "Dice",
    "FormulaError",
    "FormulaSyntaxError",
    "FormulaValue",
    "Node",
    "RecomputeResult",
    "RuleDeviation",
    "deviations",
    "evaluate",
    "parse_dice",
    "parse_formula",
    "plain_value",
    "recompute",
    "resolve_schema_ref",
    "round_up",
]
