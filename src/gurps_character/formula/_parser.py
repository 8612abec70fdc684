"""The formula grammar, one function per rule; each docstring holds the rule it implements.

Parsed trees are cached per source text (within a budget of characters, see :mod:`._cache`): the
schema's formulas are the same for every document.
"""

from __future__ import annotations

from typing import Final, NoReturn

from ._ast import Binary, Call, Compare, Field, Filter, Negate, Node, Number, Path, Step, String
from ._cache import SizedCache
from ._errors import FormulaError
from ._jsnum import js_number_text
from ._tokenizer import Tokenizer

__all__ = ["MAX_FORMULA_LENGTH", "MAX_NESTING", "parse_formula"]

MAX_FORMULA_LENGTH: Final = 10_000
"""Longest accepted formula, in characters (the schema's longest is under 300)."""

MAX_NESTING: Final = 64
"""Deepest accepted nesting of parentheses, calls and unary minus."""

_TOKEN_STARTS: Final = frozenset(
    "0123456789'$_=!<>+-*/(),.[]|abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
)


def parse_formula(source: str) -> Node:
    """Parses a formula into its syntax tree.

    Args:
        source: The formula, e.g. ``"floor($.secondary.basicSpeed.value) + 3"``.

    Returns:
        The root :data:`Node` of the tree (frozen dataclasses; the same object for the same text).

    Raises:
        FormulaSyntaxError: The text does not follow the grammar, is longer than
            10,000 characters or nests deeper than 64 levels.
            The message shows the source with a caret under the offending position.
        FormulaError: ``source`` is not a string.
    """
    if not isinstance(source, str):
        raise FormulaError(f"A formula must be a string, not {type(source).__name__}")
    text = str(source)
    return _PARSED.get_or_make(text, len(text), lambda: _parse(text))


_PARSED: Final[SizedCache[Node]] = SizedCache(100_000)
"""Trees by text, at most 100,000 characters of formulas in all (see :mod:`._cache`)."""


def _parse(source: str) -> Node:
    tokenizer = Tokenizer(source)
    if len(source) > MAX_FORMULA_LENGTH:
        tokenizer.raise_syntax_error(
            f"Formula is too long ({len(source)} characters; the limit is {MAX_FORMULA_LENGTH})",
            position=MAX_FORMULA_LENGTH,
        )
    return _parse_formula(tokenizer)


def _parse_formula(tokenizer: Tokenizer) -> Node:
    """formula := expr END"""
    node = _parse_expression(tokenizer, 0)
    if tokenizer.check("END"):
        return node
    if tokenizer.check("COMPARE"):
        tokenizer.raise_syntax_error("Comparisons cannot be chained; use parentheses")
    _raise_unexpected(tokenizer, "Expected an operator or the end of the formula")


def _raise_unexpected(tokenizer: Tokenizer, expected: str) -> NoReturn:
    """Raises ``expected``, or a more precise message for a character no token starts with."""
    position = tokenizer.next_position()
    char = tokenizer.source[position : position + 1]
    if char == "'":
        tokenizer.raise_syntax_error("Unterminated string")
    if char == '"':
        tokenizer.raise_syntax_error("Strings are written in single quotes: 'text'")
    if char and char not in _TOKEN_STARTS:
        tokenizer.raise_syntax_error(f"Unexpected character {char!r}")
    tokenizer.raise_syntax_error(expected)


def _parse_expression(tokenizer: Tokenizer, depth: int) -> Node:
    """expr := add (( '==' | '!=' | '<' | '<=' | '>' | '>=' ) add)?"""
    if depth > MAX_NESTING:
        tokenizer.raise_syntax_error(f"Formula is nested too deeply (the limit is {MAX_NESTING} levels)")
    left = _parse_additive(tokenizer, depth)
    if not tokenizer.check("COMPARE"):
        return left
    operator = tokenizer.read()
    right = _parse_additive(tokenizer, depth)
    return Compare(operator.text, left, right, left.position)  # type: ignore[arg-type]


def _parse_additive(tokenizer: Tokenizer, depth: int) -> Node:
    """add := mul (( '+' | '-' ) mul)*"""
    first = _parse_multiplicative(tokenizer, depth)
    rest = []
    while tokenizer.check("ADD"):
        operator = tokenizer.read().text
        rest.append((operator, _parse_multiplicative(tokenizer, depth)))
    return Binary(first, tuple(rest), first.position) if rest else first  # type: ignore[arg-type]


def _parse_multiplicative(tokenizer: Tokenizer, depth: int) -> Node:
    """mul := unary (( '*' | '/' ) unary)*"""
    first = _parse_unary(tokenizer, depth)
    rest = []
    while tokenizer.check("MUL"):
        operator = tokenizer.read().text
        rest.append((operator, _parse_unary(tokenizer, depth)))
    return Binary(first, tuple(rest), first.position) if rest else first  # type: ignore[arg-type]


def _parse_unary(tokenizer: Tokenizer, depth: int) -> Node:
    """unary := '-' unary | primary"""
    if depth > MAX_NESTING:
        tokenizer.raise_syntax_error(f"Formula is nested too deeply (the limit is {MAX_NESTING} levels)")
    if tokenizer.check("MINUS"):
        minus = tokenizer.read()
        return Negate(_parse_unary(tokenizer, depth + 1), minus.position)
    return _parse_primary(tokenizer, depth)


def _parse_primary(tokenizer: Tokenizer, depth: int) -> Node:
    """primary := number | 'string' | call | path | '(' expr ')'"""
    if tokenizer.check("NUMBER"):
        token = tokenizer.read()
        return Number(float(token.text), token.text, token.position)
    if tokenizer.check("STRING"):
        token = tokenizer.read()
        return String(token.text[1:-1], token.position)
    if tokenizer.check("LPAREN"):
        tokenizer.read()
        node = _parse_expression(tokenizer, depth + 1)
        tokenizer.expect("RPAREN", expected="')'")
        return node
    if tokenizer.check("NAME"):
        name = tokenizer.read()
        if tokenizer.check("LPAREN"):
            tokenizer.read()
            return Call(name.text, _parse_arguments(tokenizer, depth + 1), name.position)
        return _parse_path(tokenizer, name.text, name.position)
    if tokenizer.check("ROOT"):
        root = tokenizer.read()
        return _parse_path(tokenizer, root.text, root.position)
    _raise_unexpected(tokenizer, "Expected an expression")


def _parse_arguments(tokenizer: Tokenizer, depth: int) -> tuple[Node, ...]:
    """call := name '(' [expr (',' expr)*] ')'    (the name and '(' are already read)"""
    if tokenizer.check("RPAREN"):
        tokenizer.read()
        return ()
    args = [_parse_expression(tokenizer, depth)]
    while tokenizer.check("COMMA"):
        tokenizer.read()
        args.append(_parse_expression(tokenizer, depth))
    tokenizer.expect("RPAREN", expected="',' or ')'")
    return tuple(args)


def _parse_path(tokenizer: Tokenizer, root: str, position: int) -> Path:
    """path := ('$' | name) ( '.' name | filter )*    (the root is already read)"""
    steps: list[Step] = []
    while True:
        if tokenizer.check("DOT"):
            tokenizer.read()
            name = tokenizer.expect("NAME", expected="a property name after '.'")
            steps.append(Field(name.text, name.position))
        elif tokenizer.check("LBRACKET"):
            steps.append(_parse_filter(tokenizer))
        else:
            return Path(root, tuple(steps), position)


def _parse_filter(tokenizer: Tokenizer) -> Filter:
    """filter := '[' token ('=' | '!=') token ('|' token)* ']'

    As in the reference, the field and each value may be any one token: a name, a number (as
    JavaScript writes it: ``02`` and ``2.0`` are both "2"), a string's text, ``$`` or an operator
    (``[kind=(]`` looks for the text "(", ``['kind'=tool]`` filters on ``kind``)."""
    start = tokenizer.read().position
    field = _parse_filter_token(tokenizer, "a property name after '['")
    operator = tokenizer.expect("FILTER_OP", expected="'=' or '!=' after the property name")
    values = [_parse_filter_token(tokenizer, "a filter value")]
    while tokenizer.check("PIPE"):
        tokenizer.read()
        values.append(_parse_filter_token(tokenizer, "a filter value"))
    tokenizer.expect("RBRACKET", expected="'|' or ']'")
    return Filter(field, operator.text == "!=", tuple(values), start)


def _parse_filter_token(tokenizer: Tokenizer, expected: str) -> str:
    """Any one token, as the text a filter compares: what the reference's ``String(token)`` is."""
    if tokenizer.check("NUMBER"):
        return js_number_text(float(tokenizer.read().text))
    if tokenizer.check("STRING"):
        return tokenizer.read().text[1:-1]
    for kind in ("NAME", "ROOT", "OPERATOR"):
        if tokenizer.check(kind):
            return tokenizer.read().text
    tokenizer.raise_syntax_error(f"Expected {expected}")
