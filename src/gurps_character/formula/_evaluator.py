"""Evaluation: a syntax tree is compiled once (by :mod:`._codegen`) into a Python function, which
then runs per document; this module holds the entry points and the runtime helpers it calls.

Values follow the reference implementation (JavaScript): numbers are doubles, a missing value is
``null`` and poisons arithmetic, division by zero is ``null``, comparisons of non-numbers are
``null``, ``==`` is strict equality and ``if`` uses JavaScript truthiness (a ``null`` condition
gives ``null``). Where the reference tests a type, a number is a finite double (``typeof x ===
"number" && Number.isFinite(x)``: booleans, infinities and NaN are none) for the operators, the
math functions, ``sum``, an attribute's value and a skill's level; where it hands a value to
JavaScript unchecked, JavaScript's coercions apply: ``Number(x)`` for ``round``'s digits and a
step table's key, ``String(x)`` for filters, map-table keys, table names, attribute ids and skill
names, property access for path steps (:mod:`._walk`). The README's "Formula semantics" tables
list every case.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeAlias

from ._ast import Binary, Call, Compare, Negate, Node, Number, Path, String
from ._cache import SizedCache
from ._codegen import generate
from ._errors import FormulaError
from ._interpret import interpret
from ._jsnum import finite_number, js_divide
from ._jsvalue import js_get, js_lower, js_strict_equal, js_string, js_to_number, js_trim, js_truthy
from ._parser import MAX_FORMULA_LENGTH, parse_formula
from ._tables import prepare_tables
from ._values import MISSING, FormulaValue, output_value
from ._walk import Walked, is_array, make_walker

__all__ = ["Compiled", "compile_formula", "evaluate"]

Compiled: TypeAlias = Callable[[Any, Any, Any], Any]
"""A compiled formula: ``(root, local, tables) -> internal value`` (see :func:`output_value`)."""

_NODE_TYPES: Final = (Number, String, Path, Call, Negate, Binary, Compare)


class _Default:
    """Marks ``local`` as not given (``None`` is a legitimate local object)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<root>"


_ROOT: Final = _Default()


def evaluate(
    formula: str | Node,
    root: Any,
    *,
    local: Any = _ROOT,
    tables: Mapping[str, Any] | None = None,
) -> FormulaValue:
    """Evaluates a formula against a document.

    Args:
        formula: The formula text, or a tree from :func:`parse_formula`.
        root: The document; ``$`` refers to it.
        local: The object that owns the formula; a bare name at the start of a path is one of
            its properties. Defaults to ``root``.
        tables: The rule tables (the schema's ``x-gurps-tables``) for ``lookup()``.

    Returns:
        A number (``int`` when whole), ``str``, ``bool``, ``None``, :class:`Dice`, or a ``list``
        (or ``dict``) copied out of the document.

    Raises:
        FormulaSyntaxError: The text does not parse.
        FormulaError: Unknown function or table, wrong number of arguments, or a value that
            cannot be returned (a cycle). Nothing else is raised, whatever ``root`` holds.
    """
    try:
        compiled = compile_formula(formula)
        prepared = prepare_tables(tables)
        return output_value(compiled(root, root if local is _ROOT else local, prepared))  # type: ignore[no-any-return]
    except FormulaError:
        raise
    except MemoryError:  # pragma: no cover
        raise
    except RecursionError:
        raise FormulaError("The formula or its data nest too deeply to evaluate") from None
    except Exception as exc:  # a hostile Mapping or sequence in the document
        raise FormulaError(f"The formula could not be evaluated: {type(exc).__name__}: {exc}") from exc


def compile_formula(formula: str | Node) -> Compiled:
    """The compiled function for a formula (cached per text and per tree, within
    :data:`CACHE_BUDGET`).

    Raises:
        FormulaSyntaxError: The text does not parse.
        FormulaError: Unknown function, wrong arity, or ``formula`` is neither text nor a tree.
    """
    if isinstance(formula, str):
        source = str(formula)
        return _BY_TEXT.get_or_make(source, len(source), lambda: _compile(parse_formula(source)))
    if isinstance(formula, _NODE_TYPES):
        size = _check_size(formula)
        try:
            return _BY_TREE.get_or_make(formula, size, lambda: _compile(formula, size))
        except TypeError:  # an unhashable hand-made tree
            return _compile(formula, size)
    raise FormulaError(f"A formula must be a string or a parsed Node, not {type(formula).__name__}")


COMPILE_LIMIT: Final = 200
"""Trees of up to this many nodes (and path steps) are compiled to Python code; larger ones are
evaluated through closures (:mod:`._interpret`): compiling them cost time and memory that grew
faster than the formula (a 10,000-character formula took a second and megabytes of code). The
schema's largest formula has 46."""

CACHE_BUDGET: Final = 100_000
"""What each formula cache holds at most, in characters of formula text (or nodes, for trees
given as such): at most ten formulas of the longest length, or a thousand of 100 characters."""

_BY_TEXT: Final[SizedCache[Compiled]] = SizedCache(CACHE_BUDGET)
_BY_TREE: Final[SizedCache[Compiled]] = SizedCache(CACHE_BUDGET)


def _compile(node: Node, size: int | None = None) -> Compiled:
    if size is None:
        size = _check_size(node)
    if size > COMPILE_LIMIT:
        return interpret(node, _HELPERS)
    return generate(node, _HELPERS)


def _check_size(node: Node) -> int:
    """The number of nodes and path steps of a tree. Refuses a tree with more than the longest
    formula text can give (a tree made by hand could be any size)."""
    count = 0
    stack: list[Any] = [node]
    while stack:
        item = stack.pop()
        count += 1
        if count > MAX_FORMULA_LENGTH:
            raise FormulaError(f"The formula is larger than any of {MAX_FORMULA_LENGTH} characters")
        if isinstance(item, Binary):
            stack.append(item.first)
            stack.extend(operand for _, operand in item.rest)
        elif isinstance(item, Compare):
            stack += (item.left, item.right)
        elif isinstance(item, Negate):
            stack.append(item.operand)
        elif isinstance(item, Call):
            stack.extend(item.args)
        elif isinstance(item, Path):
            count += len(item.steps)
    return count


# ------------------------------------------------------------------------------------ functions

_BIG: Final = 2**1023
"""Integers of smaller magnitude convert to a double without overflow."""


def _floor(value: float) -> float:
    return float(math.floor(value)) if math.isfinite(value) else value


def _ceil(value: float) -> float:
    # tolerant of float noise: 40 * 0.8 is 32.00000000000001, and its ceiling is 32
    return float(math.ceil(value - 1e-9)) if math.isfinite(value) else value


def js_round(value: float) -> float:
    """``Math.round``: to the nearest integer, halves towards +infinity (-2.5 gives -2)."""
    if not math.isfinite(value):
        return value
    floor = math.floor(value)
    return float(floor + 1 if value - floor >= 0.5 else floor)


def _power_of_ten(digits: float) -> float:
    try:
        return math.pow(10.0, digits)
    except OverflowError:
        return math.inf


def _round(root: Any, value: Any, digits: Any = 0.0) -> float | None:
    """``round(x, digits)``: half up after scaling, as ``Math.round(x * 10**d) / 10**d``.

    ``x`` must be a finite number (else null); ``digits`` goes to ``10 ** d`` through
    ``Number()``: null, false, ``''`` and ``[]`` are 0, true is 1, ``'2'`` is 2, and what reads
    as NaN (other text, objects) makes the result NaN, which is null.
    """
    number = finite_number(value)
    if number is None:
        return None
    places = digits if type(digits) is float else js_to_number(digits)
    if places == 0:
        return js_round(number)
    factor = _POWERS_OF_TEN.get(places) or _power_of_ten(places)
    return js_divide(js_round(number * factor), factor)


_V8_POWERS_OF_TEN: Final = {
    -21: 1.0000000000000001e-21,
    -20: 1.0000000000000001e-20,
    -17: 9.999999999999999e-18,
    -5: 9.999999999999999e-06,
    -4: 9.999999999999999e-05,
}
"""Where V8's ``10 ** d`` (the reference's engine, Node 20) is not the double nearest to 10**d,
for whole d in -22..22: its pow is its own, and 1 ulp off there (so ``round(45678, -4)`` is
50000.00000000001 in the reference)."""

_POWERS_OF_TEN: Final = {
    float(d): _V8_POWERS_OF_TEN.get(d, float(10**d) if d >= 0 else 1 / 10**-d) for d in range(-22, 23)
}
"""10 ** d for whole digits as JavaScript computes it. Other digits (a fraction, or beyond ±22)
use C's pow, which may differ from V8's in the last bit."""


def _numbers(values: tuple[Any, ...]) -> list[float] | None:
    numbers = []
    for value in values:
        number = finite_number(value)
        if number is None:
            return None
        numbers.append(number)
    return numbers


def _min(root: Any, *values: Any) -> float | None:
    """``min(a, b, ...)``: null if any is not a finite number; ``min()`` is Infinity, as
    Math.min()."""
    numbers = _numbers(values)
    if numbers is None:
        return None
    return min(numbers, default=math.inf)


def _max(root: Any, *values: Any) -> float | None:
    """``max(a, b, ...)``: null if any is not a finite number; ``max()`` is -Infinity, as
    Math.max()."""
    numbers = _numbers(values)
    if numbers is None:
        return None
    return max(numbers, default=-math.inf)


def _sum(root: Any, value: Any) -> float:
    """``sum(x)``: the finite numbers of an array (nulls, text, booleans, infinities do not
    count), a finite number itself, 0 for anything else."""
    total = 0.0
    for item in value if type(value) is list or is_array(value) else (value,):
        if type(item) is float:
            if item - item == 0:
                total += item
        else:
            number = finite_number(item)
            if number is not None:
                total += number
    return total


_ATTRIBUTES: Final = {
    "st": "attributes",
    "dx": "attributes",
    "iq": "attributes",
    "ht": "attributes",
    "will": "secondary",
    "per": "secondary",
}


def _text(value: Any) -> str:
    """``String(value)``, quick for text."""
    return value if type(value) is str else js_string(value)


def _attr(root: Any, attribute: Any) -> float | None:
    """``attr(id)``: the value of st, dx, iq, ht (``attributes``) or will, per (``secondary``)
    when it is a finite number, else null. The id is ``String(id)`` (``['dx']`` is dx, ``1``
    and ``true`` are no attribute)."""
    name = _text(attribute)
    group = _ATTRIBUTES.get(name)
    if group is None:
        return None
    if type(root) is dict:  # the usual document: plain dicts all the way
        holder = root.get(group)
        if type(holder) is dict:
            entry = holder.get(name)
            if type(entry) is dict:
                return finite_number(entry.get("value"))
    return finite_number(js_get(js_get(js_get(root, group), name), "value"))


def _skillLevel(root: Any, name: Any) -> float | None:
    """``skillLevel(name)``: the level of the first skill whose name matches, when it is a
    finite number (else null).

    Both sides are compared as ``String(x).trim().toLowerCase()``: a number or boolean is looked
    for as its text (``skillLevel(3)`` finds a skill named ``3`` or ``"3"``), a skill without a
    name is called ``undefined``; a name of null or nothing but space finds nothing. A
    ``skills`` that is not an array gives null (the reference throws).
    """
    wanted = "" if name is None or name is MISSING else js_lower(js_trim(_text(name)))
    skills = js_get(root, "skills")
    if not wanted or not is_array(skills):
        return None
    for skill in skills:
        skill_name = skill.get("name", MISSING) if type(skill) is dict else js_get(skill, "name")
        if js_lower(js_trim(_text(skill_name))) == wanted:
            return finite_number(skill.get("level") if type(skill) is dict else js_get(skill, "level"))
    return None


_HELPERS: Final[dict[str, Any]] = {
    "_M": MISSING,
    "_BIG": _BIG,
    "_num": finite_number,
    "_get": js_get,
    "_Walked": Walked,
    "_make_walker": make_walker,
    "_equal": js_strict_equal,
    "_truthy": js_truthy,
    "_floor": _floor,
    "_ceil": _ceil,
    "_abs": abs,
    "_round": _round,
    "_min": _min,
    "_max": _max,
    "_sum": _sum,
    "_attr": _attr,
    "_skillLevel": _skillLevel,
}
"""What the generated code calls (see :mod:`._codegen`)."""
