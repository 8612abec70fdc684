"""ECMA-262 regular expressions (``u`` flag, as JSON Schema's ``pattern``) translated to Python.

JSON Schema patterns are ECMA-262 regular expressions, and the reference validator compiles them
with the ``u`` flag. Python's :mod:`re` reads most of the same syntax differently:

========================  ==========================================  ============================
ECMA-262 (``u`` flag)     means                                       Python spelling
========================  ==========================================  ============================
``$``                     end of the text only                        ``\\Z`` (``$`` also matches
                                                                      before a final newline)
``\\d`` ``\\w``           ASCII ``[0-9]``, ``[A-Za-z0-9_]``           explicit classes (Python's
                                                                      are Unicode-wide)
``\\s``                   WhiteSpace + LineTerminator                 explicit class
``\\b``                   boundary between ASCII word characters      lookarounds
``.``                     anything but ``\\n \\r \\u2028 \\u2029``    explicit class
``\\u{1F600}``            a code point                                the character
``\\k<name>``, ``\\1``    a group's text, or nothing if it has none   conditional backreference
========================  ==========================================  ============================

:func:`translate` parses the pattern by the grammar of ECMA-262 (Annex B's lenient forms do not
exist under the ``u`` flag) and writes an equivalent Python pattern; :func:`compile` caches the
compiled result. A pattern that ECMA-262 rejects raises :class:`EcmaPatternError`, and so do the few
constructs Python's engine cannot express (``\\p{...}`` property escapes, lookbehinds of
variable width). Flags other than ``u`` are not supported. Captures inside repeated groups are not
reset on each repetition as ECMA-262 resets them, which can matter only to backreferences.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import NoReturn

from ._datetime import JS_WHITESPACE

__all__ = ["EcmaPatternError", "compile", "translate"]


class EcmaPatternError(ValueError):
    """A pattern that is not a valid ECMA-262 ``u``-mode regular expression, or that Python can't run.

    Attributes:
        pattern: The ECMA-262 source.
        position: The offset in ``pattern`` where the problem was found.
        reason: What is wrong, without the position.
    """

    def __init__(self, reason: str, pattern: str, position: int) -> None:
        self.reason = reason
        self.pattern = pattern
        self.position = position
        super().__init__(f"{reason} at position {position}\n    {pattern}\n    {' ' * position}^")


_SYNTAX_CHARACTERS = frozenset("^$\\.*+?()[]{}|")
_IDENTITY_ESCAPES = _SYNTAX_CHARACTERS | {"/"}
_CONTROL_ESCAPES = {"f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_MAX_CODE_POINT = 0x10FFFF

# The sets behind the character class escapes, as (first, last) code point ranges.
_Ranges = tuple[tuple[int, int], ...]
_DIGIT: _Ranges = ((0x30, 0x39),)
_WORD: _Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_SPACE: _Ranges = tuple((ord(char), ord(char)) for char in JS_WHITESPACE)
_CLASS_ESCAPES: dict[str, tuple[_Ranges, bool]] = {
    "d": (_DIGIT, False),
    "D": (_DIGIT, True),
    "w": (_WORD, False),
    "W": (_WORD, True),
    "s": (_SPACE, False),
    "S": (_SPACE, True),
}
_LINE_TERMINATORS: _Ranges = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))


def _code(point: int) -> str:
    """One code point, written so that it means itself anywhere in a Python pattern."""
    char = chr(point)
    if char.isascii() and char.isalnum():
        return char
    if point <= 0xFF:
        return f"\\x{point:02x}"
    if point <= 0xFFFF:
        return f"\\u{point:04x}"
    return f"\\U{point:08x}"


def _ranges(ranges: _Ranges) -> str:
    """The inside of a Python character class holding ``ranges``."""
    return "".join(_code(a) if a == b else f"{_code(a)}-{_code(b)}" for a, b in ranges)


def _set(ranges: _Ranges, negated: bool) -> str:
    return f"[{'^' if negated else ''}{_ranges(ranges)}]"


_WORD_CLASS = _set(_WORD, False)
_WORD_BOUNDARY = f"(?:(?<={_WORD_CLASS})(?!{_WORD_CLASS})|(?<!{_WORD_CLASS})(?={_WORD_CLASS}))"
_NOT_WORD_BOUNDARY = f"(?:(?<={_WORD_CLASS})(?={_WORD_CLASS})|(?<!{_WORD_CLASS})(?!{_WORD_CLASS}))"
_ANY = f"[{_code(0)}-{_code(_MAX_CODE_POINT)}]"
_NOTHING = "(?!)"

_SINGLE = re.compile(r"\[[^\]]*\]|\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|\\U[0-9a-f]{8}|[A-Za-z0-9]")
"""A translated atom that a quantifier may follow directly: one set or one code point."""
_BRACES = re.compile(r"\{([0-9]+)(,([0-9]*))?\}")
_GROUP_NAME = re.compile(r"(?:[^\W\d]|\$)[\w$]*>")


@dataclass(slots=True)
class _ClassItems:
    """The members of a character class: plain ranges, and negated escapes (``\\D``, ``\\S``, ``\\W``)."""

    ranges: list[tuple[int, int]] = field(default_factory=list)
    complements: list[_Ranges] = field(default_factory=list)

    def render(self, negated: bool) -> str:
        plain = tuple(self.ranges)
        if not self.complements:
            if not plain:
                return _ANY if negated else _NOTHING
            return _set(plain, negated)
        if not negated:  # in the listed ranges, or outside one of the complemented sets
            options = ([_set(plain, False)] if plain else []) + [_set(c, True) for c in self.complements]
            return f"(?:{'|'.join(options)})"
        # in none of the listed ranges, and inside every complemented set
        guard = f"(?!{_set(plain, False)})" if plain else ""
        *others, last = self.complements
        return f"(?:{guard}{''.join(f'(?={_set(c, False)})' for c in others)}{_set(last, False)})"


class _Translator:
    """A recursive-descent reader of ECMA-262 ``u``-mode patterns that writes Python syntax.

    One class for the whole grammar, as a recursive-descent parser is: each method reads one rule
    (alternatives, terms, atoms, classes, escapes) and shares the position and group count.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.pos = 0
        self.groups = 0  # capturing groups seen so far
        self.total_groups = _count_groups(source)
        self.names: dict[str, int] = {}
        self.backreferences: list[tuple[str | int, int]] = []  # (name or number, position)

    # ------------------------------------------------------------ helpers

    def fail(self, reason: str, position: int | None = None) -> NoReturn:
        raise EcmaPatternError(reason, self.source, self.pos if position is None else position)

    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.source[index] if index < len(self.source) else ""

    def eat(self, text: str) -> bool:
        if self.source.startswith(text, self.pos):
            self.pos += len(text)
            return True
        return False

    def expect(self, text: str, reason: str) -> None:
        if not self.eat(text):
            self.fail(reason)

    # ------------------------------------------------------------ grammar

    def pattern(self) -> str:
        """Pattern :: Disjunction"""
        result = self.disjunction()
        if self.pos < len(self.source):
            self.fail("unmatched ')'" if self.peek() == ")" else f"unexpected {self.peek()!r}")
        for reference, position in self.backreferences:
            if isinstance(reference, str) and reference not in self.names:
                self.fail(f"no group named {reference!r}", position)
        return result

    def disjunction(self) -> str:
        """Disjunction :: Alternative ( '|' Alternative )*"""
        alternatives = [self.alternative()]
        while self.eat("|"):
            alternatives.append(self.alternative())
        return "|".join(alternatives)

    def alternative(self) -> str:
        """Alternative :: Term*"""
        terms: list[str] = []
        while self.pos < len(self.source) and self.peek() not in "|)":
            terms.append(self.term())
        return "".join(terms)

    def term(self) -> str:
        """Term :: Assertion | Atom Quantifier?

        Under the ``u`` flag no assertion, lookaround included, takes a quantifier.
        """
        start = self.pos
        assertion = self.assertion()
        if assertion is not None:
            if self.quantifier() is not None:
                self.fail("nothing to repeat", start)
            return assertion
        atom = self.atom()
        quantifier = self.quantifier()
        if quantifier is None:
            return atom
        repeated = self.pos
        if self.quantifier() is not None:
            self.fail("nothing to repeat", repeated)
        return f"{atom}{quantifier}" if _SINGLE.fullmatch(atom) else f"(?:{atom}){quantifier}"

    def assertion(self) -> str | None:
        """Assertion :: '^' | '$' | '\\b' | '\\B' | '(?=' D ')' | '(?!' D ')' | '(?<=' D ')' | '(?<!' D ')'"""
        if self.eat("^"):
            return "\\A"
        if self.eat("$"):
            return "\\Z"
        if self.eat("\\b"):
            return _WORD_BOUNDARY
        if self.eat("\\B"):
            return _NOT_WORD_BOUNDARY
        for opener in ("(?=", "(?!", "(?<=", "(?<!"):
            if self.eat(opener):
                inner = self.disjunction()
                self.expect(")", "missing ')'")
                return f"{opener}{inner})"
        return None

    def quantifier(self) -> str | None:
        """Quantifier :: ( '*' | '+' | '?' | '{' n '}' | '{' n ',}' | '{' n ',' m '}' ) '?'?"""
        char = self.peek()
        if char in ("*", "+", "?"):
            self.pos += 1
            prefix = char
        elif char == "{":
            match = _BRACES.match(self.source, self.pos)
            if match is None:
                self.fail("incomplete quantifier")
            low = int(match[1])
            high = None if match[2] is None else (int(match[3]) if match[3] else -1)
            if high is not None and high != -1 and high < low:
                self.fail("numbers out of order in {} quantifier")
            self.pos = match.end()
            prefix = f"{{{low}}}" if high is None else f"{{{low},}}" if high == -1 else f"{{{low},{high}}}"
        else:
            return None
        return prefix + ("?" if self.eat("?") else "")

    def atom(self) -> str:
        """Atom :: PatternCharacter | '.' | '\\' AtomEscape | CharacterClass | '(' Group ')'"""
        char = self.peek()
        if char == ".":
            self.pos += 1
            return _set(_LINE_TERMINATORS, True)
        if char == "\\":
            return self.atom_escape()
        if char == "[":
            return self.character_class()
        if char == "(":
            return self.group()
        if char in _SYNTAX_CHARACTERS:
            self.fail("nothing to repeat" if char in "*+?{" else f"lone {char!r}")
        point = ord(char)
        self.pos += 1
        return _code(point)

    def group(self) -> str:
        """'(' Disjunction ')' | '(?:' Disjunction ')' | '(?<' GroupName '>' Disjunction ')'"""
        start = self.pos
        if self.eat("(?:"):
            inner = self.disjunction()
            self.expect(")", "missing ')'")
            return f"(?:{inner})"
        self.pos += 1
        if self.eat("?<"):
            name = self.group_name(start)
            if name in self.names:
                self.fail(f"duplicate group name {name!r}", start)
            self.groups += 1
            self.names[name] = self.groups
        elif self.peek() == "?":
            self.fail("invalid group")
        else:
            self.groups += 1
        inner = self.disjunction()
        self.expect(")", "missing ')'")
        return f"({inner})"

    def group_name(self, start: int) -> str:
        """GroupName :: '<' RegExpIdentifierName '>' (the '<' already read)"""
        match = _GROUP_NAME.match(self.source, self.pos)
        if match is None:
            self.fail("invalid group name", start)
        self.pos = match.end()
        return match.group()[:-1]

    def atom_escape(self) -> str:
        """AtomEscape :: DecimalEscape | CharacterClassEscape | CharacterEscape | 'k' GroupName"""
        start = self.pos
        self.pos += 1  # the backslash
        char = self.peek()
        if char == "":
            self.fail("\\ at end of pattern", start)
        if char in "123456789":
            digits = re.compile("[0-9]+").match(self.source, self.pos)
            assert digits is not None
            number = int(digits.group())
            if number > self.total_groups:
                self.fail("invalid escape (no such group)", start)
            self.pos = digits.end()
            return self.backreference(number)
        if char == "k":
            self.pos += 1
            if not self.eat("<"):
                self.fail("invalid named reference", start)
            name = self.group_name(start)
            self.backreferences.append((name, start))
            return self.backreference(name)
        if char in _CLASS_ESCAPES:
            self.pos += 1
            ranges, negated = _CLASS_ESCAPES[char]
            return _set(ranges, negated)
        if char in "pP":
            self.fail("Unicode property escapes are not supported", start)
        return _code(self.character_escape(start))

    def backreference(self, reference: str | int) -> str:
        # A group that has not matched (yet) matches the empty text in ECMA-262.
        if isinstance(reference, str):
            return f"(?:(?({_Placeholder.name(reference)}){_Placeholder.ref(reference)}))"
        return f"(?:(?({reference})\\{reference}))"

    def character_escape(self, start: int) -> int:
        """CharacterEscape :: ControlEscape | 'c' Letter | '0' | HexEscape | UnicodeEscape | IdentityEscape

        The backslash has been read; returns the code point.
        """
        char = self.peek()
        self.pos += 1
        if char in _CONTROL_ESCAPES:
            return ord(_CONTROL_ESCAPES[char])
        if char == "c":
            letter = self.peek()
            if not (letter.isascii() and letter.isalpha()):
                self.fail("invalid control escape", start)
            self.pos += 1
            return ord(letter) % 32
        if char == "0":
            if self.peek().isdigit() and self.peek().isascii():
                self.fail("invalid decimal escape", start)
            return 0
        if char == "x":
            match = re.compile("[0-9A-Fa-f]{2}").match(self.source, self.pos)
            if match is None:
                self.fail("invalid hexadecimal escape", start)
            self.pos = match.end()
            return int(match.group(), 16)
        if char == "u":
            return self.unicode_escape(start)
        if char in _IDENTITY_ESCAPES:
            return ord(char)
        self.fail("invalid escape", start)

    def unicode_escape(self, start: int) -> int:
        """'u' Hex4 | 'u' LeadSurrogate '\\u' TrailSurrogate | 'u{' CodePoint '}' (the 'u' already read)"""
        if self.eat("{"):
            match = re.compile("([0-9A-Fa-f]+)}").match(self.source, self.pos)
            if match is None or int(match[1], 16) > _MAX_CODE_POINT:
                self.fail("invalid Unicode escape", start)
            self.pos = match.end()
            return int(match[1], 16)
        match = re.compile("[0-9A-Fa-f]{4}").match(self.source, self.pos)
        if match is None:
            self.fail("invalid Unicode escape", start)
        self.pos = match.end()
        point = int(match.group(), 16)
        if 0xD800 <= point <= 0xDBFF:
            trail = re.compile(r"\\u([dD][c-fC-F][0-9A-Fa-f]{2})").match(self.source, self.pos)
            if trail is not None:
                self.pos = trail.end()
                return 0x10000 + ((point - 0xD800) << 10) + (int(trail[1], 16) - 0xDC00)
        return point

    # ------------------------------------------------------------ character classes

    def character_class(self) -> str:
        """CharacterClass :: '[' '^'? ClassContents ']'"""
        start = self.pos
        self.pos += 1
        negated = self.eat("^")
        items = _ClassItems()
        while not self.eat("]"):
            if self.pos >= len(self.source):
                self.fail("missing ']'", start)
            low = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                dash = self.pos
                self.pos += 1
                high = self.class_atom()
                if not isinstance(low, int) or not isinstance(high, int):
                    self.fail("invalid character class range", dash)
                if high < low:
                    self.fail("range out of order in character class", dash)
                items.ranges.append((low, high))
            elif isinstance(low, int):
                items.ranges.append((low, low))
            else:
                ranges, complemented = low
                if complemented:
                    items.complements.append(ranges)
                else:
                    items.ranges.extend(ranges)
        return items.render(negated)

    def class_atom(self) -> int | tuple[_Ranges, bool]:
        """ClassAtom :: '-' | SourceCharacter but not '\\' or ']' | '\\' ClassEscape

        Returns a code point, or the ranges of a class escape and whether they are negated.
        """
        char = self.peek()
        if char != "\\":
            self.pos += 1
            return ord(char)
        start = self.pos
        self.pos += 1
        escape = self.peek()
        if escape == "b":
            self.pos += 1
            return 0x08
        if escape == "-":
            self.pos += 1
            return ord("-")
        if escape in _CLASS_ESCAPES:
            self.pos += 1
            return _CLASS_ESCAPES[escape]
        if escape in "pP" and escape:
            self.fail("Unicode property escapes are not supported", start)
        if escape == "":
            self.fail("\\ at end of pattern", start)
        if escape in "123456789":
            self.fail("invalid class escape", start)
        return self.character_escape(start)


class _Placeholder:
    """Named backreferences are written with the group's number once all groups are known."""

    @staticmethod
    def name(reference: str) -> str:
        return f"\x00N{reference}\x00"

    @staticmethod
    def ref(reference: str) -> str:
        return f"\x00R{reference}\x00"


_PLACEHOLDER = re.compile("\x00([NR])([^\x00]*)\x00")


def _count_groups(source: str) -> int:
    """The number of capturing groups, for telling backreferences from invalid escapes."""
    count, index, in_class = 0, 0, False
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(" and (
            not source.startswith("?", index + 1)
            or (source.startswith("?<", index + 1) and not source.startswith(("?<=", "?<!"), index + 1))
        ):
            count += 1
        index += 1
    return count


def translate(source: str) -> str:
    """The Python :mod:`re` pattern that matches what ECMA-262 ``new RegExp(source, "u")`` matches.

    The result is meant for :func:`re.compile` without flags and :meth:`re.Pattern.search`, which
    finds a match anywhere in the text as ``RegExp.prototype.test`` does.

    Raises:
        EcmaPatternError: ``source`` is not a valid ``u``-mode pattern, or uses what Python's engine
            lacks (Unicode property escapes).
    """
    translator = _Translator(source)
    result = translator.pattern()
    names = translator.names
    return _PLACEHOLDER.sub(lambda match: ("" if match[1] == "N" else "\\") + str(names[match[2]]), result)


@functools.lru_cache(maxsize=256)
def compile(source: str) -> re.Pattern[str]:
    """The compiled translation of an ECMA-262 ``u``-mode pattern (cached).

    Raises:
        EcmaPatternError: as :func:`translate`, and for lookbehinds Python cannot run (variable width).
    """
    translated = translate(source)
    try:
        return re.compile(translated)
    except re.error as err:
        raise EcmaPatternError(f"not supported by Python's re: {err.msg}", source, 0) from None
