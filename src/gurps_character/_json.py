"""JSON as the format means it: JavaScript's numbers, strict text, and any depth.

The reference library runs on JavaScript, whose ``JSON.parse`` and ``JSON.stringify`` differ from
Python's :mod:`json` in small ways that show in documents:

* numbers are IEEE doubles, so integer literals beyond 2**53 arrive rounded and ``1e400`` is
  ``Infinity`` (:func:`loads` refuses it with :class:`NumberOutOfRangeError`;
  :func:`loads_with_infinities` reads it as ``JSON.parse`` does, for the schema check that reports
  it);
* ``NaN`` and ``Infinity`` are not JSON;
* numbers print as JavaScript prints them (``1`` for ``1.0``, ``1e+21``, ``1e-7``);
* nesting depth is bounded only by memory, not by a recursion limit.

Everything here works without recursion on deep data, so a hostile file cannot exhaust the stack.

Why one module of this length: JSON as JavaScript reads and writes it is one concern (numbers,
strict text, copying, writing), and its reader and writer are unrolled for speed, since every
load and save goes through them.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal, NoReturn

from ._pointer import escape_token
from .formula._jsnum import js_number_text

__all__ = [
    "JsonTextError",
    "NotJsonError",
    "NumberOutOfRangeError",
    "copy_json",
    "decoder_for",
    "dumps",
    "js_number",
    "js_property_order",
    "loads",
    "loads_unrounded",
    "loads_with_infinities",
    "raw_decode",
    "unquoted_scalar",
    "utf8",
]

_MAX_SAFE_DIGITS = 15
"""Integer literals with at most this many digits are exact doubles; longer ones are rounded."""


class JsonTextError(ValueError):
    """Text that is not JSON. ``truncated`` when it ends early, else the 1-based line and column."""

    def __init__(self, reason: str, text: str, position: int, *, truncated: bool) -> None:
        self.reason = reason
        self.position = position
        self.truncated = truncated
        self.line = text.count("\n", 0, position) + 1
        self.column = position - (text.rfind("\n", 0, position) + 1) + 1
        super().__init__(reason)

    def details(self) -> dict[str, Any]:
        """The reference's details: ``{"truncated": True}`` or ``{"line", "column"}``."""
        if self.truncated:
            return {"truncated": True}
        return {"line": self.line, "column": self.column}


class NumberOutOfRangeError(JsonTextError):
    """Text that is JSON but holds a number no double can hold (``1e400``, 400 digits), which
    JavaScript's ``JSON.parse`` reads as ``Infinity``."""


class NotJsonError(ValueError):
    """A Python value that has no JSON form (a set, a NaN, a cycle, a non-text key ...)."""

    def __init__(self, pointer: str, reason: str, *, number: bool = False) -> None:
        self.pointer = pointer
        self.reason = reason
        self.number = number  # a number no double holds (NaN, an infinity, an integer too large)
        super().__init__(f"{pointer or '(root)'}: {reason}")


# ---------------------------------------------------------------- parsing


def _number_out_of_range(literal: str) -> NoReturn:
    raise _OutOfRange(literal)


class _OutOfRange(ValueError):
    def __init__(self, literal: str) -> None:
        super().__init__(literal)
        self.literal = literal


def _parse_int(literal: str) -> int:
    if len(literal.lstrip("-")) <= _MAX_SAFE_DIGITS:
        return int(literal)
    rounded = float(literal)  # what a JavaScript reader sees
    if math.isinf(rounded):
        _number_out_of_range(literal)
    return int(rounded)


def _parse_float(literal: str) -> float:
    value = float(literal)
    if math.isinf(value):
        _number_out_of_range(literal)
    return value


def _parse_int_or_infinity(literal: str) -> int | float:
    if len(literal.lstrip("-")) <= _MAX_SAFE_DIGITS:
        return int(literal)
    rounded = float(literal)  # what a JavaScript reader sees, infinities included
    return rounded if math.isinf(rounded) else int(rounded)


def _reject_constant(name: str) -> NoReturn:
    raise _NotJsonConstant(name)


class _NotJsonConstant(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


_DECODER = json.JSONDecoder(
    parse_int=_parse_int, parse_float=_parse_float, parse_constant=_reject_constant, strict=True
)


_FAST_DECODER = json.JSONDecoder(parse_float=_parse_float, parse_constant=_reject_constant, strict=True)
"""The decoder for text without long integer literals: integers are read in C, and only floats
(rare in documents) and the non-JSON constants call back into Python."""

_INFINITIES_DECODER = json.JSONDecoder(
    parse_int=_parse_int_or_infinity, parse_float=float, parse_constant=_reject_constant, strict=True
)
"""The decoder of :func:`loads_with_infinities`: numbers too large for a double are infinities."""

_LITERAL_STARTS = b" \t\n\r,:[-"
"""What may come right before the digits of an integer literal a JSON reader reads: the
separators and whitespace before a value, and a minus sign."""

_DIGIT_RUNS = bytes(
    ord("0") if b"0"[0] <= byte <= b"9"[0] else ord(" ") if byte in _LITERAL_STARTS else ord("a")
    for byte in range(256)
)
"""A byte table: digits become ``0``, what may come right before an integer literal a space, and
everything else (letters, quotes, a point or an exponent mark before digits) ``a``."""

_LONG_INTEGER = b" " + b"0" * (_MAX_SAFE_DIGITS + 1)


def _may_hold_long_integers(encoded: bytes) -> bool:
    """Whether the text has a run of more than 15 digits where an integer literal can start (at
    the start of the text, after a separator, whitespace or a minus sign): an integer literal
    JavaScript would round, or digits inside a string, which only cost the careful decoder. Digits
    after a letter (GCS's ids, ``A0000000000000001``), a point or an exponent mark start no
    integer literal. A few C passes over the bytes."""
    table = encoded.translate(_DIGIT_RUNS)
    digits = _LONG_INTEGER[1:]
    if digits not in table:  # the usual answer, and a fast search: digits are rare in documents
        return False
    return _LONG_INTEGER in table or table.startswith(digits)


def utf8(text: str) -> bytes:
    """The text's UTF-8 bytes, a lone surrogate (which JSON text may hold) as the three bytes it
    would take; text without one takes the strict encoder, which is quicker."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def decoder_for(text: str, encoded: bytes | None = None) -> json.JSONDecoder:
    """The :mod:`json` decoder :func:`loads` reads ``text`` with (integer literals beyond doubles
    rounded as JavaScript reads them; ``NaN``, ``Infinity`` and numbers beyond doubles refused with
    a ``ValueError``), for a caller that decodes the values of a text one by one."""
    if encoded is None:
        encoded = utf8(text)
    return _DECODER if _may_hold_long_integers(encoded) else _FAST_DECODER


def loads(text: str, encoded: bytes | None = None) -> Any:
    """Parses JSON text as JavaScript's ``JSON.parse`` would, at any nesting depth.

    Args:
        text: The JSON text.
        encoded: The same text in UTF-8, when the caller has it already.

    Raises:
        JsonTextError: the text is not JSON.
        NumberOutOfRangeError: it holds a number no double can represent (the first one).
    """
    if encoded is None:
        encoded = utf8(text)
    decoder = _DECODER if _may_hold_long_integers(encoded) else _FAST_DECODER
    try:
        return decoder.decode(text)
    except RecursionError:
        return _IterativeParser(text).parse()
    except json.JSONDecodeError as err:
        # Python's message positions are character offsets, like ours.
        raise JsonTextError(err.msg, text, err.pos, truncated=_ends_early(text, err.pos)) from None
    except (_OutOfRange, _NotJsonConstant):
        # The decoder's callbacks are not told where the literal is, and searching the text for
        # it can find the same word inside a string: the careful parser reads up to it instead.
        _IterativeParser(text).parse()
        raise AssertionError("the careful parser accepted what the decoder refused") from None


def raw_decode(text: str, at: int, decoder: json.JSONDecoder) -> tuple[Any, int]:
    """The JSON value that begins at ``at`` and where it ends, read by ``decoder`` (one of
    :func:`decoder_for`'s), or at any depth by a parser with its own stack when it nests too
    deeply for the decoder.

    Raises:
        ValueError: no JSON value begins there (or ``NaN``, or a number beyond doubles).
    """
    try:
        return decoder.raw_decode(text, at)
    except RecursionError:
        parser = _IterativeParser(text)
        parser.pos = at
        # The careful parser refuses what the decoders refuse, and reads integer literals beyond
        # doubles rounded as _DECODER does (the decoder _FAST_DECODER stands in for when a text
        # has none).
        value = parser.parse(whole=False)
        return value, parser.pos
    except (_OutOfRange, _NotJsonConstant) as err:
        raise ValueError(str(err)) from None


def loads_unrounded(text: str) -> Any:
    """JSON text read as :func:`loads` reads it, except that integer literals are taken exactly as
    written (JavaScript rounds those beyond 2**53): for a caller that walks the data anyway, finds
    such integers itself and reads the text again with :func:`loads` when there are any. Without
    the scan of the text for long digit runs that :func:`loads` makes first.

    Raises:
        ValueError: the text is not JSON, or holds a float no double can represent, ``NaN`` ...
            (:func:`loads` tells which, and where).
        RecursionError: it nests too deeply for :mod:`json` (:func:`loads` reads it).
    """
    return _FAST_DECODER.decode(text)


def _ends_early(text: str, position: int) -> bool:
    return position >= len(text.rstrip(" \t\n\r"))


def _shown_literal(literal: str) -> str:
    return literal if len(literal) <= 40 else f"{literal[:20]}...{literal[-10:]} ({len(literal)} characters)"


def loads_with_infinities(text: str) -> Any:
    """The value ``JSON.parse`` gives for JSON text, numbers too large for a double read as
    ``Infinity`` (``float("inf")``): for the checks that report where such a number sits. The
    result is never handed out as a document.

    Raises:
        JsonTextError: the text is not JSON.
    """
    try:
        return _INFINITIES_DECODER.decode(text)
    except RecursionError:
        return _IterativeParser(text, infinities=True).parse()
    except json.JSONDecodeError as err:
        raise JsonTextError(err.msg, text, err.pos, truncated=_ends_early(text, err.pos)) from None
    except _NotJsonConstant:
        _IterativeParser(text, infinities=True).parse()  # raises, where the word is
        raise AssertionError("the careful parser accepted what the decoder refused") from None


_WS = " \t\n\r"
_NOT_JSON_WORDS = ("NaN", "Infinity", "-Infinity")
"""What Python's decoder reads as numbers and JSON does not know."""
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_STRING_CHUNK = re.compile(r'[^"\\\x00-\x1f]*')


class _IterativeParser:
    """A JSON parser with an explicit stack, for text nested too deeply for :mod:`json`.

    Grammar (RFC 8259)::

        value  := object | array | string | number | 'true' | 'false' | 'null'
        object := '{' [string ':' value (',' string ':' value)*] '}'
        array  := '[' [value (',' value)*] ']'
    """

    def __init__(self, text: str, *, infinities: bool = False) -> None:
        self.text = text
        self.pos = 0
        self.infinities = infinities  # read numbers too large for a double as infinities

    def fail(self, reason: str) -> NoReturn:
        raise JsonTextError(reason, self.text, self.pos, truncated=self.pos >= len(self.text))

    def skip_ws(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in _WS:
            pos += 1
        self.pos = pos

    def parse(self, *, whole: bool = True) -> Any:
        """The value at ``pos`` (``whole``: the text's only value, else ``pos`` is left just after
        it)."""
        # Each frame is a container being filled: a list, or a dict with the key awaiting its value.
        stack: list[tuple[list[Any] | dict[str, Any], str | None]] = []
        while True:
            self.skip_ws()
            value, opened = self.scalar_or_open()
            if opened is not None:
                self.skip_ws()
                if self.peek() == ("]" if isinstance(opened, list) else "}"):
                    self.pos += 1
                    value = opened
                else:
                    key = self.object_key() if isinstance(opened, dict) else None
                    stack.append((opened, key))
                    continue
            # A complete value: attach it to its parent and close every container that ends here.
            while True:
                if not stack:
                    if not whole:
                        return value
                    self.skip_ws()
                    if self.pos != len(self.text):
                        self.fail("unexpected text after the document")
                    return value
                container, key = stack[-1]
                if isinstance(container, list):
                    container.append(value)
                else:
                    container[key] = value  # type: ignore[index]
                self.skip_ws()
                char = self.peek()
                if char == ",":
                    self.pos += 1
                    if isinstance(container, dict):
                        stack[-1] = (container, self.object_key())
                    break
                closer = "]" if isinstance(container, list) else "}"
                if char != closer:
                    self.fail(f"expected ',' or '{closer}'")
                self.pos += 1
                stack.pop()
                value = container

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def object_key(self) -> str:
        self.skip_ws()
        if self.peek() != '"':
            self.fail("expected a property name in double quotes")
        key = self.string()
        self.skip_ws()
        if self.peek() != ":":
            self.fail("expected ':'")
        self.pos += 1
        return key

    def scalar_or_open(self) -> tuple[Any, list[Any] | dict[str, Any] | None]:
        char = self.peek()
        if char == "[":
            self.pos += 1
            return None, []
        if char == "{":
            self.pos += 1
            return None, {}
        if char == '"':
            return self.string(), None
        for word, value in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return value, None
        for word in _NOT_JSON_WORDS:
            if self.text.startswith(word, self.pos):
                self.fail(f"{word} is not JSON")
        match = _NUMBER.match(self.text, self.pos)
        if match is None or not match.group():
            self.fail("expected a value")
        self.pos = match.end()
        literal = match.group()
        is_float = bool(match.group(1) or match.group(2))
        if self.infinities:
            return float(literal) if is_float else _parse_int_or_infinity(literal), None
        try:
            number = _parse_float(literal) if is_float else _parse_int(literal)
        except _OutOfRange:
            raise NumberOutOfRangeError(
                f"number {_shown_literal(literal)} is out of range", self.text, match.start(), truncated=False
            ) from None
        return number, None

    def string(self) -> str:
        # The standard decoder reads one string literal; strings never nest, so it cannot recurse.
        try:
            value, end = _DECODER.raw_decode(self.text, self.pos)
        except json.JSONDecodeError as err:
            self.pos = err.pos
            self.fail(err.msg)
        self.pos = end
        assert isinstance(value, str)
        return value


# ---------------------------------------------------------------- numbers as JavaScript prints them


js_number = js_number_text
"""``String(x)`` in JavaScript (``1.0`` → ``"1"``, ``1e+21``, ``Infinity``): the one formatter,
from :mod:`.formula._jsnum`, under the name the writers here and the command line use."""


# ---------------------------------------------------------------- JSON values in Python


def _check_key(key: object, path: tuple[Any, ...]) -> str:
    if not isinstance(key, str):
        try:
            shown = _SHORT.repr(key)  # a tuple key may be nested too deeply for repr()
        except Exception:
            shown = f"of type {type(key).__name__}"
        raise NotJsonError(_spell(path), f"property name {shown} is not text")
    return key


NumberMode = Literal["refuse", "infinity", "null"]
"""What :func:`copy_json` does with a number no double holds (NaN, the infinities, integers of
2**1024 and more, which JavaScript reads as Infinity): refuses it (``NotJsonError`` with
``number=True``), keeps it as a float (``inf``, ``-inf``, ``nan``: as ``JSON.parse`` would have
read it, for checks that report where it is), or writes ``None`` (as ``JSON.stringify`` does)."""


def copy_json(value: Any, numbers: NumberMode = "refuse") -> Any:
    """A deep copy of JSON data as plain dicts and lists, checking that it is JSON.

    Mappings become dicts and tuples lists. Non-text keys, cycles and other Python objects raise
    :class:`NotJsonError` with the JSON Pointer of the offending value; so do numbers no double
    holds, unless ``numbers`` says otherwise. A value shared by several containers is copied for
    each of them, up to a million values copied again in all (beyond, NotJsonError: a few shared
    lists nested in one another would otherwise stand for more data than any memory holds).
    """
    kind = type(value)
    if kind is dict or kind is list:
        try:
            return _copy_plain(value, [_FAST_CONTAINERS])
        except (_NotPlain, RecursionError):  # unusual data, too deep, too large, or a cycle
            pass
    return _copy_checked(value, numbers)


class _NotPlain(Exception):
    """Raised by the fast copy and writer for anything but dicts, lists and finite JSON scalars."""


_PLAIN_SCALARS = frozenset({str, bool, type(None)})
"""The JSON scalars json.loads produces that need no check (numbers must be finite doubles)."""

_INT_LIMIT = 2**1024 - 2**970
"""Integers at or beyond this magnitude round to an infinite double."""
_NEGATIVE_INT_LIMIT = -_INT_LIMIT


_FAST_CONTAINERS = 200_000
"""The fast copy and writer leave larger data to the careful ones: the data may be a few shared
lists standing for an exponential tree, which the careful copy weighs at once. A character
holds far fewer (one of 5,000 skills, 830 kB of text, about 30,000); a 2 MB text of nothing but
empty lists could hold 700,000, which the careful copy takes too, only slower."""


def _copy_plain(value: Any, budget: list[int]) -> Any:
    """The fast copy for what :func:`json.loads` makes: exact dicts and lists, text keys, JSON
    scalars. It checks as it copies and raises :class:`_NotPlain` on anything else, and after
    ``budget[0]`` containers."""
    kind = type(value)
    low, high = _NEGATIVE_INT_LIMIT, _INT_LIMIT
    if kind is dict:
        budget[0] -= 1
        if budget[0] < 0:
            raise _NotPlain
        copied = value.copy()  # then each container in it is replaced by its copy
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            item_kind = type(item)
            if item_kind is str:
                continue
            if item_kind is int:
                if low < item < high:
                    continue
                raise _NotPlain
            if item_kind in _PLAIN_SCALARS:
                continue
            if item_kind is float:
                if item - item != 0.0:  # inf or nan
                    raise _NotPlain
                continue
            copied[key] = _copy_plain(item, budget)
        return copied
    if kind is list:
        budget[0] -= 1
        if budget[0] < 0:
            raise _NotPlain
        return [
            item
            if type(item) in _PLAIN_SCALARS or (type(item) is int and low < item < high)
            else _copy_plain(item, budget)
            for item in value
        ]
    if kind is float and value - value == 0.0:  # finite
        return value
    if kind is int and low < value < high:
        return value
    raise _NotPlain


def _copy_checked(value: Any, numbers: NumberMode = "refuse") -> Any:
    """The slow, careful copy: any depth, mappings and tuples accepted, cycles found.

    Time and memory are linear in the size of the value, whatever its depth: the containers
    being copied are one set (each leaves it when its children are done), and a value's JSON
    Pointer is only spelled out for an error.
    """
    root: list[Any] = [None]
    open_ids: set[int] = set()  # the containers whose children are being copied
    seen: set[int] = set()  # every container met so far
    repeated = 0  # values copied again because a container is shared
    weights: dict[int, int] = {}  # a finished container's id → what copying it again repeats
    # frames: (source, target container, key in target, path); a path is (parent path, token),
    # () for the root. A frame whose source is _CLOSE ends the container with id ``slot``.
    stack: list[tuple[Any, Any, Any, tuple[Any, ...]]] = [(value, root, 0, ())]
    pop, push = stack.pop, stack.append
    while stack:
        source, target, slot, path = pop()
        kind = type(source)
        if kind is str or kind is bool or source is None:
            target[slot] = source
        elif source is _CLOSE:
            open_ids.discard(slot)
        elif kind is dict or kind is list or isinstance(source, Mapping | list | tuple):
            key = id(source)
            if key in open_ids:
                raise NotJsonError(_spell(path), "the value contains itself")
            if key in seen:  # a shared container: copied again, and so are all its parts
                # Its first copy is finished, so what copying it again repeats is known before
                # the copy: refused at once rather than after a million values
                if repeated + _expanded_weight(source, weights) > _MAX_REPEATED:
                    raise NotJsonError(
                        _spell(path),
                        f"its shared parts repeat more than {_MAX_REPEATED} values: the data is too large",
                    )
                repeated += len(source) + 1
            seen.add(key)
            open_ids.add(key)
            push((_CLOSE, None, key, path))  # popped after every child
            if isinstance(source, Mapping):
                copied: dict[str, Any] = {}
                target[slot] = copied
                entries = list(source.items())
                for name, _ in entries:  # the keys in their order; the values follow
                    copied[_check_key(name, path)] = None
                for name, child in reversed(entries):
                    push((child, copied, name, (path, name)))
            else:
                items: list[Any] = [None] * len(source)
                target[slot] = items
                for index in range(len(source) - 1, -1, -1):
                    push((source[index], items, index, (path, index)))
        elif isinstance(source, str | bool):
            target[slot] = str(source) if isinstance(source, str) else bool(source)
        elif isinstance(source, int | float):
            number: int | float = int(source) if isinstance(source, int) else float(source)
            if (not -_INT_LIMIT < number < _INT_LIMIT) if type(number) is int else number - number != 0.0:
                if numbers == "refuse":
                    reason = f"{_number_text(number)} is not a JSON number"
                    raise NotJsonError(_spell(path), reason, number=True)
                if numbers == "null":
                    number = None  # type: ignore[assignment]
                elif type(number) is int:
                    number = math.inf if number > 0 else -math.inf
            target[slot] = number
        else:
            raise NotJsonError(_spell(path), f"a {type(source).__name__} has no JSON form")
    return root[0]


def _expanded_weight(container: Any, weights: dict[int, int]) -> int:
    """What copying a container whose first copy is finished counts as repeated: its length plus
    one, and as much again for every container inside, once per place it stands (so a list that
    holds one list twice, 60 levels down, weighs about 2**61). Without recursion; each container
    is weighed once, in ``weights`` (its parts were copied once, so none contains itself)."""
    stack: list[tuple[Any, bool]] = [(container, False)]
    while stack:
        node, parts_weighed = stack.pop()
        key = id(node)
        if key in weights:
            continue
        parts = [
            part for part in (node.values() if isinstance(node, Mapping) else node) if _is_container(part)
        ]
        if parts_weighed:
            weights[key] = len(node) + 1 + sum(weights[id(part)] for part in parts)
        else:
            stack.append((node, True))
            stack.extend((part, False) for part in parts if id(part) not in weights)
    return weights[id(container)]


def _is_container(value: Any) -> bool:
    kind = type(value)
    return kind is dict or kind is list or (kind is not str and isinstance(value, Mapping | list | tuple))


def _number_text(number: int | float) -> str:
    if type(number) is int:  # JavaScript reads it as Infinity
        return f"{'minus ' if number < 0 else ''}an integer of {number.bit_length()} bits (beyond doubles)"
    return js_number(number)


_CLOSE: Any = object()
_MAX_REPEATED = 1_000_000
_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3


def _spell(path: tuple[Any, ...]) -> str:
    """The JSON Pointer of a ``(parent path, token)`` chain."""
    tokens = []
    while path:
        path, token = path
        tokens.append(escape_token(token) if isinstance(token, str) else str(token))
    return "".join("/" + token for token in reversed(tokens))


# ---------------------------------------------------------------- writing


_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\ud800-\udfff]')
_SURROGATE_PAIR = re.compile(r"[\ud800-\udbff][\udc00-\udfff]")


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _js_string(text: str) -> str:
    """A string literal as ``JSON.stringify`` writes it (lone surrogates escaped)."""
    if _NEEDS_ESCAPE.search(text) is None:
        return f'"{text}"'
    if max(text) >= "\ud800" and _SURROGATE_PAIR.search(text):
        # Two code points forming a UTF-16 pair are one character to JavaScript.
        text = _SURROGATE_PAIR.sub(
            lambda m: m.group().encode("utf-16", "surrogatepass").decode("utf-16"), text
        )
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, text) + '"'


def unquoted_scalar(value: Any) -> str:
    """A scalar written without quotes: ``null``, ``true``, ``false`` or a number, as JSON writes
    it (and YAML 1.2 reads it back the same)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return js_number(value)


def _scalar(value: Any) -> str:
    return _js_string(value) if isinstance(value, str) else unquoted_scalar(value)


_MAX_ARRAY_INDEX = 2**32 - 2


def _is_array_index(key: str) -> bool:
    """Whether JavaScript takes a property name for an array index: the canonical text of an
    integer from 0 to 2**32 - 2 (``"7"``, not ``"07"``, ``"-1"`` or ``"4294967295"``)."""
    return (
        0 < len(key) <= 10
        and key.isascii()
        and key.isdigit()
        and (key[0] != "0" or len(key) == 1)
        and int(key) <= _MAX_ARRAY_INDEX
    )


def js_property_order(value: Any) -> Any:
    """``value`` with its objects' properties in the order a JavaScript object keeps them:
    array-index names first, in numeric order, then the others as inserted. What
    ``JSON.stringify`` writes after ``JSON.parse``: ``{"10": 1, "2": 2, "b": 3}`` comes out as
    ``{"2": 2, "10": 1, "b": 3}``.

    Returns:
        ``value`` itself when no object has an array-index name (nothing moves), else a copy
        (see :func:`copy_json`) in that order.

    Raises:
        NotJsonError: a copy was needed and the value is not JSON data.
    """
    seen: set[int] = set()
    stack = [value]
    while stack:  # does any object have an array-index name?
        item = stack.pop()
        if not isinstance(item, Mapping | list | tuple) or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, Mapping):
            if any(type(key) is str and key[:1].isdigit() and _is_array_index(key) for key in item):
                break
            stack.extend(item.values())
        else:
            stack.extend(item)
    else:
        return value
    copied = copy_json(value)
    stack = [copied]
    while stack:  # a fresh copy, without cycles or shared parts: reordered in place
        item = stack.pop()
        if type(item) is dict:
            indices = sorted((key for key in item if _is_array_index(key)), key=int)
            if indices:
                entries = [(key, item.pop(key)) for key in indices] + list(item.items())
                item.clear()
                item.update(entries)
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
    return copied


def dumps(value: Any, indent: int | str = 2) -> str:
    """``JSON.stringify(value, null, indent)`` for JSON data (no trailing newline).

    ``indent`` follows JavaScript: a number gives that many spaces (at most 10; below 1, none),
    a string is used as it is (its first 10 characters).

    Raises:
        NotJsonError: the value holds something JSON cannot (a set, a NaN, a cycle ...).
    """
    unit = (" " * max(0, min(10, int(indent)))) if isinstance(indent, int) else indent[:10]
    try:
        text = _write_plain(value, unit)
    except (_NotPlain, RecursionError):
        text = None
    if text is None or not (text.isascii() or _without_surrogates(text)):
        # The careful path: checks every value, handles any depth, escapes lone surrogates.
        return "".join(_encode(copy_json(value), unit))
    return text


def _without_surrogates(text: str) -> bool:
    """Whether no character of ``text`` is a surrogate (UTF-8 refuses every one of them)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_encode_text = json.encoder.encode_basestring  # C: escapes like JavaScript, except lone surrogates
_SAFE_INT = 2**53


def _scalar_text(item: Any, kind: type) -> str:
    """The text of a JSON scalar other than a string, for the fast writer."""
    if kind is int:
        if -_SAFE_INT <= item <= _SAFE_INT:
            return str(item)
        if not -_INT_LIMIT < item < _INT_LIMIT:  # no double holds it: the careful path refuses it
            raise _NotPlain
        return js_number(item)
    if kind is float:
        if item - item != 0.0:  # inf or nan
            raise _NotPlain
        text = repr(item)
        return text if "e" not in text and not text.endswith(".0") else js_number(item)
    if item is None:
        return "null"
    if item is True:
        return "true"
    if item is False:
        return "false"
    raise _NotPlain


def _write_plain(value: Any, unit: str) -> str:
    """The fast writer for ordinary documents: plain containers, recursion, C string escaping.

    Strings and numbers are written in the loop over their container, so only containers cost
    a call; raises :class:`_NotPlain` for anything but exact dicts, lists and finite scalars.
    """
    parts: list[str] = []
    append = parts.append
    colon = ": " if unit else ":"
    encode = _encode_text
    scalar = _scalar_text

    remaining = _FAST_CONTAINERS

    def write(item: Any, newline: str) -> None:
        nonlocal remaining
        remaining -= 1
        if remaining < 0:  # too large for the fast writer: maybe shared lists (see copy_json)
            raise _NotPlain
        inner = newline + unit
        separator = "," + inner
        if type(item) is dict:
            append("{")
            prefix = inner
            for key, child in item.items():
                if type(key) is not str:
                    raise _NotPlain
                append(prefix)
                append(encode(key))
                append(colon)
                kind = type(child)
                if kind is str:
                    append(encode(child))
                elif kind is int and -_SAFE_INT <= child <= _SAFE_INT:
                    append(str(child))
                elif kind is dict or kind is list:
                    if child:
                        write(child, inner)
                    else:
                        append("{}" if kind is dict else "[]")
                else:
                    append(scalar(child, kind))
                prefix = separator
            append(newline + "}")
        else:
            append("[")
            prefix = inner
            for child in item:
                append(prefix)
                kind = type(child)
                if kind is str:
                    append(encode(child))
                elif kind is int and -_SAFE_INT <= child <= _SAFE_INT:
                    append(str(child))
                elif kind is dict or kind is list:
                    if child:
                        write(child, inner)
                    else:
                        append("{}" if kind is dict else "[]")
                else:
                    append(scalar(child, kind))
                prefix = separator
            append(newline + "]")

    kind = type(value)
    if kind is dict or kind is list:
        if not value:
            return "{}" if kind is dict else "[]"
        write(value, "\n" if unit else "")
        return "".join(parts)
    if kind is str:
        text: str = encode(value)
        return text
    return scalar(value, kind)


def _encode(value: Any, unit: str) -> Iterator[str]:
    separator = ": " if unit else ":"
    # Each frame: the iterator over a container's entries, whether it is an object, its depth.
    frames: list[tuple[Iterator[Any], bool, int]] = []
    pending: Any = value
    have_value = True
    first = True
    scalar: Callable[[Any], str] = _scalar
    while True:
        if have_value:
            item = pending
            if isinstance(item, dict) and item:
                depth = len(frames) + 1
                yield "{"
                frames.append((iter(item.items()), True, depth))
                first = True
            elif isinstance(item, list) and item:
                depth = len(frames) + 1
                yield "["
                frames.append((iter(item), False, depth))
                first = True
            elif isinstance(item, dict):
                yield "{}"
            elif isinstance(item, list):
                yield "[]"
            else:
                yield scalar(item)
            have_value = False
        if not frames:
            return
        entries, is_object, depth = frames[-1]
        entry: Any = next(entries, _END)
        if entry is _END:
            frames.pop()
            if unit:
                yield "\n" + unit * (depth - 1)
            yield "}" if is_object else "]"
            first = False
            continue
        prefix = "" if first else ","
        if unit:
            prefix += "\n" + unit * depth
        first = False
        if is_object:
            key, pending = entry
            yield prefix + _js_string(key) + separator
        else:
            pending = entry
            if prefix:
                yield prefix
        have_value = True


_END: Any = object()
