"""The lexical grammar of formulas: a table of named regular expressions and a small tokenizer.

The tokenizer is driven by the parser: ``check(name)`` looks for a token of that kind at the
current position (after whitespace), ``read()`` takes it, ``expect(name, expected=...)`` does
both or raises a :class:`FormulaSyntaxError` that names what was expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, NoReturn

from ._errors import FormulaSyntaxError
from ._jsvalue import JS_WHITESPACE

__all__ = ["RULES", "Token", "Tokenizer"]

RULES: Final[dict[str, re.Pattern[str]]] = {
    name: re.compile(pattern)
    for name, pattern in {
        "NUMBER": r"[0-9]+(?:\.[0-9]+)?",
        "STRING": r"'[^']*'",
        "NAME": r"[A-Za-z_][A-Za-z0-9_]*",
        "ROOT": r"\$",
        "COMPARE": r"==|!=|<=|>=|<|>",
        "ADD": r"[+-]",
        "MUL": r"[*/]",
        "MINUS": r"-",
        "LPAREN": r"\(",
        "RPAREN": r"\)",
        "COMMA": r",",
        "DOT": r"\.",
        "LBRACKET": r"\[",
        "RBRACKET": r"\]",
        "FILTER_OP": r"!=|=(?!=)",
        "PIPE": r"\|",
        "OPERATOR": r"<=|>=|==|!=|[-+*/(),.<>\[\]=|]",  # any operator: a filter may compare with one
        "END": r"\Z",
    }.items()
}
"""Token kinds and what they match. Names are ASCII identifiers; strings have no escapes."""

_WHITESPACE: Final = re.compile(f"[{re.escape(JS_WHITESPACE)}]*")
"""Between tokens: what JavaScript's ``\\s`` matches, as in the reference (wider than ASCII:
no-break, Unicode and ideographic spaces, line and paragraph separators, the byte order mark)."""


@dataclass(frozen=True, slots=True)
class Token:
    """A piece of the source: its kind (a key of :data:`RULES`), its text and where it starts."""

    name: str
    text: str
    position: int


class Tokenizer:
    """Reads tokens from a formula on demand, skipping whitespace between them."""

    __slots__ = ("_next", "position", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self.position = 0
        self._next: Token | None = None

    def check(self, name: str) -> bool:
        """Whether a token of kind ``name`` comes next; if so, ``read()`` returns it."""
        start = _WHITESPACE.match(self.source, self.position)
        position = start.end() if start else self.position
        match = RULES[name].match(self.source, position)
        if match is None:
            self._next = None
            return False
        self._next = Token(name, match[0], position)
        return True

    def expect(self, name: str, *, expected: str) -> Token:
        """The next token, which must be of kind ``name``; otherwise "Expected <expected>"."""
        if not self.check(name):
            self.raise_syntax_error(f"Expected {expected}")
        return self.read()

    def read(self) -> Token:
        """The token found by the last successful ``check()``; moves past it."""
        token = self._next
        if token is None:  # pragma: no cover - a parser bug, not an input error
            raise AssertionError("read() without a successful check()")
        self.position = token.position + len(token.text)
        self._next = None
        return token

    def next_position(self) -> int:
        """Where the next token starts (after any whitespace)."""
        start = _WHITESPACE.match(self.source, self.position)
        return start.end() if start else self.position

    def raise_syntax_error(self, message: str, *, position: int | None = None) -> NoReturn:
        """Raises :class:`FormulaSyntaxError` at ``position`` (default: the next token)."""
        raise FormulaSyntaxError(
            message,
            source=self.source,
            position=self.next_position() if position is None else position,
        )
