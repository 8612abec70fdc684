"""Evaluation: a syntax tree is compiled once into nested closures, which then run per document.

Values follow the reference implementation (JavaScript): numbers are doubles, a missing value is
``null`` and poisons arithmetic, division by zero is ``null``, comparisons of non-numbers are
``null``, ``==`` is strict equality and ``if`` uses JavaScript truthiness (a ``null`` condition
gives ``null``). Booleans are never numbers.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final, TypeAlias

from ._ast import Binary, Call, Compare, Field, Filter, Negate, Node, Number, Path, String
from ._errors import FormulaError
from ._jsnum import as_number
from ._jsvalue import js_strict_equal, js_string, js_trim, js_truthy
from ._parser import parse_formula
from ._tables import TableSet, prepare_tables
from ._values import MISSING, FormulaValue, output_value

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
    """The compiled closure for a formula (cached per text and per tree).

    Raises:
        FormulaSyntaxError: The text does not parse.
        FormulaError: Unknown function, wrong arity, or ``formula`` is neither text nor a tree.
    """
    if isinstance(formula, str):
        return _compile_text(str(formula))
    if isinstance(formula, _NODE_TYPES):
        try:
            return _compile_tree(formula)
        except TypeError:  # an unhashable hand-made tree
            return _compile(formula)
    raise FormulaError(f"A formula must be a string or a parsed Node, not {type(formula).__name__}")


@lru_cache(maxsize=1024)
def _compile_text(source: str) -> Compiled:
    return _compile(parse_formula(source))


@lru_cache(maxsize=256)
def _compile_tree(node: Node) -> Compiled:
    return _compile(node)


def _compile(node: Node) -> Compiled:
    if isinstance(node, Number):
        return _constant(float(node.value))
    if isinstance(node, String):
        return _constant(node.value)
    if isinstance(node, Path):
        return _compile_path(node)
    if isinstance(node, Call):
        return _compile_call(node)
    if isinstance(node, Negate):
        return _compile_negate(node)
    if isinstance(node, Binary):
        return _compile_binary(node)
    if isinstance(node, Compare):
        return _compile_compare(node)
    raise FormulaError(f"Not a formula node: {type(node).__name__}")


def _constant(value: Any) -> Compiled:
    def constant(root: Any, local: Any, tables: Any) -> Any:
        return value

    return constant


# ---------------------------------------------------------------------------------------- paths


def _compile_path(node: Path) -> Compiled:
    steps: list[Callable[[Any], Any]] = []
    for step in node.steps:
        if isinstance(step, Field):
            steps.append(_field_step(step.name))
        elif isinstance(step, Filter):
            steps.append(_filter_step(step.field, step.negate, frozenset(step.values)))
        else:
            raise FormulaError(f"Not a path step: {type(step).__name__}")
    first = node.root
    names = tuple(s.name for s in node.steps if isinstance(s, Field))
    if len(names) == len(steps) and first == "$":  # the common case: $.a.b.c

        def from_root(root: Any, local: Any, tables: Any) -> Any:
            value = root
            for name in names:
                value = value.get(name, MISSING) if type(value) is dict else get(value, name)
            return None if value is MISSING else value

        return from_root

    if len(names) == len(steps):  # a.b.c, starting in the local object

        def from_local(root: Any, local: Any, tables: Any) -> Any:
            value = local.get(first, MISSING) if type(local) is dict else get(local, first)
            for name in names:
                value = value.get(name, MISSING) if type(value) is dict else get(value, name)
            return None if value is MISSING else value

        return from_local

    def path(root: Any, local: Any, tables: Any) -> Any:
        value = root if first == "$" else get(local, first)
        for step in steps:
            value = step(value)
        return None if value is MISSING else value

    return path


def _field_step(name: str) -> Callable[[Any], Any]:
    def field(value: Any) -> Any:
        return get(value, name)

    return field


def _filter_step(field: str, negate: bool, values: frozenset[str]) -> Callable[[Any], Any]:
    def keep(value: Any) -> Any:
        if not isinstance(value, list | tuple):
            return MISSING
        kept = []
        for item in value:
            found = _own(item, field)
            text = found if type(found) is str else js_string(found)
            if (text in values) != negate:
                kept.append(item)
        return kept

    return keep


def get(value: Any, name: str) -> Any:
    """``value.name``: an object's own property, or over an array the projection of its items
    (nested arrays are walked, an item's array value is spread, missing values dropped)."""
    kind = type(value)
    if kind is dict:
        return value.get(name, MISSING)
    if kind is list or kind is tuple or isinstance(value, list | tuple):
        return _project(value, name)
    return _own(value, name)


def _own(value: Any, name: str) -> Any:
    """An object's own property ``name`` (``MISSING`` for anything that is not an object)."""
    if type(value) is dict:
        return value.get(name, MISSING)
    if isinstance(value, Mapping):
        return value.get(name, MISSING)
    return MISSING


def _is_array(value: Any) -> bool:
    kind = type(value)
    return kind is list or kind is tuple or isinstance(value, list | tuple)


def _project(items: Sequence[Any], name: str) -> list[Any]:
    # iterative, so neither deep nesting nor a list that contains itself can recurse forever
    out: list[Any] = []
    stack = [iter(items)]
    open_lists = [id(items)]
    while stack:
        for item in stack[-1]:
            if type(item) is dict:
                value = item.get(name, MISSING)
            elif _is_array(item):
                if id(item) in open_lists:
                    raise FormulaError("The document contains an array that contains itself")
                stack.append(iter(item))
                open_lists.append(id(item))
                break
            else:
                value = _own(item, name)
            if value is MISSING:
                continue
            if _is_array(value):
                out.extend(value)
            else:
                out.append(value)
        else:
            stack.pop()
            open_lists.pop()
    return out


# ------------------------------------------------------------------------------------ operators


_BIG: Final = 2**1023
"""Integers of smaller magnitude convert to a double without overflow."""


def _divide(left: float, right: float) -> float | None:
    return None if right == 0 else left / right


_ARITHMETIC: Final[dict[str, Callable[[float, float], float | None]]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": _divide,
}

_ORDER: Final[dict[str, Callable[[float, float], bool]]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _compile_binary(node: Binary) -> Compiled:
    first = _compile(node.first)
    rest: list[tuple[Callable[[float, float], float | None], Compiled]] = []
    for symbol, operand in node.rest:
        apply = _ARITHMETIC.get(symbol)
        if apply is None:
            raise FormulaError(f"Unknown operator '{symbol}'")
        rest.append((apply, _compile(operand)))
    if len(rest) == 1:
        ((apply, second),) = rest

        def pair(root: Any, local: Any, tables: Any) -> Any:
            left = first(root, local, tables)
            right = second(root, local, tables)
            # inline fast paths of as_number(): this is the hottest code of a recompute
            if type(left) is not float:
                left = float(left) if type(left) is int and -_BIG < left < _BIG else as_number(left)
            if type(right) is not float:
                right = float(right) if type(right) is int and -_BIG < right < _BIG else as_number(right)
            if left is None or right is None:
                return None
            return apply(left, right)

        return pair

    def chain(root: Any, local: Any, tables: Any) -> Any:
        total = first(root, local, tables)
        if type(total) is not float:
            total = float(total) if type(total) is int and -_BIG < total < _BIG else as_number(total)
        for apply, operand in rest:
            right = operand(root, local, tables)  # evaluated even after a null, as in JavaScript
            if type(right) is not float:
                right = float(right) if type(right) is int and -_BIG < right < _BIG else as_number(right)
            total = None if total is None or right is None else apply(total, right)
        return total

    return chain


def _compile_negate(node: Negate) -> Compiled:
    operand = _compile(node.operand)

    def negate(root: Any, local: Any, tables: Any) -> Any:
        value = as_number(operand(root, local, tables))
        return None if value is None else -value

    return negate


def _compile_compare(node: Compare) -> Compiled:
    left = _compile(node.left)
    right = _compile(node.right)
    if node.op in ("==", "!="):
        want = node.op == "=="

        def equality(root: Any, local: Any, tables: Any) -> Any:
            return js_strict_equal(left(root, local, tables), right(root, local, tables)) == want

        return equality
    order = _ORDER.get(node.op)
    if order is None:
        raise FormulaError(f"Unknown comparison '{node.op}'")

    def compare(root: Any, local: Any, tables: Any) -> Any:
        a = left(root, local, tables)
        b = right(root, local, tables)
        if type(a) is not float:
            a = as_number(a)
        if type(b) is not float:
            b = as_number(b)
        if a is None or b is None:
            return None
        return order(a, b)

    return compare


# ------------------------------------------------------------------------------------ functions


def _compile_call(node: Call) -> Compiled:
    spec = _FUNCTIONS.get(node.name)
    if spec is None:
        raise FormulaError(f"Unknown function '{node.name}'")
    low, high, make = spec
    count = len(node.args)
    if count < low or (high is not None and count > high):
        if high is None:
            wanted = f"at least {low} argument{'s' if low != 1 else ''}"
        elif low == high:
            wanted = f"{low} argument{'s' if low != 1 else ''}"
        else:
            wanted = f"{low} to {high} arguments"
        raise FormulaError(f"{node.name}() takes {wanted} ({count} given)")
    return make(tuple(_compile(arg) for arg in node.args))


def _unary_math(function: Callable[[float], float]) -> Callable[[tuple[Compiled, ...]], Compiled]:
    def make(args: tuple[Compiled, ...]) -> Compiled:
        (argument,) = args

        def call(root: Any, local: Any, tables: Any) -> Any:
            value = argument(root, local, tables)
            if type(value) is not float:
                value = as_number(value)
            return None if value is None else function(value)

        return call

    return make


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


def _js_divide(left: float, right: float) -> float:
    if right == 0:
        if left == 0 or left != left:
            return math.nan
        return math.copysign(math.inf, left) * math.copysign(1.0, right)
    return left / right


def _power_of_ten(digits: float) -> float:
    try:
        return math.pow(10.0, digits)
    except OverflowError:
        return math.inf


def _make_round(args: tuple[Compiled, ...]) -> Compiled:
    argument = args[0]
    digits_of = args[1] if len(args) > 1 else None

    def call(root: Any, local: Any, tables: Any) -> Any:
        value = as_number(argument(root, local, tables))
        if digits_of is None:
            return None if value is None else js_round(value)
        digits = as_number(digits_of(root, local, tables))
        if value is None or digits is None:
            return None
        factor = _power_of_ten(digits)  # half up after scaling, as Math.round(x * f) / f
        return _js_divide(js_round(value * factor), factor)

    return call


def _extreme(
    pick: Callable[[float, float], bool], empty: float
) -> Callable[[tuple[Compiled, ...]], Compiled]:
    def make(args: tuple[Compiled, ...]) -> Compiled:
        def call(root: Any, local: Any, tables: Any) -> Any:
            numbers = [as_number(arg(root, local, tables)) for arg in args]
            best = empty  # Math.min() is Infinity, Math.max() -Infinity
            for number in numbers:
                if number is None:
                    return None
                if number != number or pick(number, best):
                    best = number
            return math.nan if any(n != n for n in numbers) else best

        return call

    return make


def _make_sum(args: tuple[Compiled, ...]) -> Compiled:
    (argument,) = args

    def call(root: Any, local: Any, tables: Any) -> Any:
        value = argument(root, local, tables)
        if isinstance(value, list | tuple):
            total = 0.0
            for item in value:
                number = as_number(item)
                if number is not None:  # nulls, text and booleans do not count
                    total += number
            return total
        number = as_number(value)
        return 0.0 if number is None else number

    return call


def _make_coalesce(args: tuple[Compiled, ...]) -> Compiled:
    def call(root: Any, local: Any, tables: Any) -> Any:
        for arg in args:
            value = arg(root, local, tables)
            if value is not None and value is not MISSING:
                return value
        return None

    return call


def _make_if(args: tuple[Compiled, ...]) -> Compiled:
    condition, then, otherwise = args

    def call(root: Any, local: Any, tables: Any) -> Any:
        test = condition(root, local, tables)
        if test is None or test is MISSING:
            return None
        return then(root, local, tables) if js_truthy(test) else otherwise(root, local, tables)

    return call


def _make_lookup(args: tuple[Compiled, ...]) -> Compiled:
    table_of, key_of = args

    def call(root: Any, local: Any, tables: TableSet) -> Any:
        return tables.lookup(table_of(root, local, tables), key_of(root, local, tables))

    return call


_ATTRIBUTES: Final = {
    "st": "attributes",
    "dx": "attributes",
    "iq": "attributes",
    "ht": "attributes",
    "will": "secondary",
    "per": "secondary",
}


def _make_attr(args: tuple[Compiled, ...]) -> Compiled:
    (argument,) = args

    def call(root: Any, local: Any, tables: Any) -> Any:
        attribute = argument(root, local, tables)
        group = _ATTRIBUTES.get(attribute) if isinstance(attribute, str) else None
        if group is None:
            return None
        value = _own(_own(_own(root, group), attribute), "value")
        return None if value is MISSING else value

    return call


def _make_skill_level(args: tuple[Compiled, ...]) -> Compiled:
    (argument,) = args

    def call(root: Any, local: Any, tables: Any) -> Any:
        name = argument(root, local, tables)
        skills = _own(root, "skills")
        if not isinstance(name, str) or not isinstance(skills, list | tuple):
            return None
        wanted = js_trim(name).lower()
        for skill in skills:
            skill_name = _own(skill, "name")
            if isinstance(skill_name, str) and js_trim(skill_name).lower() == wanted:
                level = _own(skill, "level")
                return None if level is MISSING else level
        return None

    return call


_FUNCTIONS: Final[dict[str, tuple[int, int | None, Callable[[tuple[Compiled, ...]], Compiled]]]] = {
    "floor": (1, 1, _unary_math(_floor)),
    "ceil": (1, 1, _unary_math(_ceil)),
    "abs": (1, 1, _unary_math(abs)),
    "round": (1, 2, _make_round),
    "min": (0, None, _extreme(operator.lt, math.inf)),
    "max": (0, None, _extreme(operator.gt, -math.inf)),
    "if": (3, 3, _make_if),
    "sum": (1, 1, _make_sum),
    "coalesce": (0, None, _make_coalesce),
    "lookup": (2, 2, _make_lookup),
    "attr": (1, 1, _make_attr),
    "skillLevel": (1, 1, _make_skill_level),
}
"""Functions by name: (fewest arguments, most arguments or None, compiler)."""
