"""YAML built to hurt, for the property tests and ``scripts/fuzz.py`` (issue 22, items 5-7).

Mutating a good file a little at a time does not find these; each generator builds a whole text
of one class that once broke the reader, with what the reader must make of it:

* :func:`line_break_text` and :func:`with_line_break_text`: text holding U+0085, U+2028 and
  U+2029 (line breaks to YAML 1.1, ordinary characters to YAML 1.2 and JSON) next to what gives
  line breaks meaning in YAML (comment and mapping indicators, quotes, spaces, real breaks), and
  characters that JSON allows in strings and YAML 1.2 only in quoted text (DEL, C1 controls);
* :func:`yaml_in_styles`: JSON data written as YAML by a writer of our own, independent of the
  library's: each text plain, single-quoted, double-quoted or as a literal block, where that
  style can carry it, with those characters left raw, and comments that hold the line breaks;
* :func:`with_line_ends`: the same text with ``\\r\\n``, ``\\r`` or a mix for its line ends
  (whatever YAML reads from one, it reads from the others, errors at the same line and column);
* :func:`text_alias_bomb`: a small text whose aliases repeat long text (values or keys, nested)
  far beyond what the reader allows.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from tests.support.strategies import Chooser, chance, pick

__all__ = [
    "OLD_LINE_BREAKS",
    "line_break_text",
    "text_alias_bomb",
    "with_line_break_text",
    "with_line_ends",
    "yaml_in_styles",
]

OLD_LINE_BREAKS = "\x85\u2028\u2029"
"""YAML 1.1's line breaks beyond ``\\n`` and ``\\r``: ordinary characters in YAML 1.2."""

_PIECES = (
    *OLD_LINE_BREAKS,
    "\x85\x85",
    "\u2028\u2029",
    " ",
    "  ",
    "# ",
    " #",
    "#",
    ": ",
    ":",
    "- ",
    "? ",
    "'",
    '"',
    "\\",
    "\\N",
    "\x7f",
    "\x9b",
    "\ufffe",
    "\t",
    "x",
    "name",
    "é",
    "\n",
    "\r",
    "\r\n",
    "&a",
    "*a",
    "!",
    "|",
    ">",
    "---",
    "...",
    "{",
    "[",
    ",",
)


def line_break_text(chooser: Chooser, parts: int = 6) -> str:
    """Text with at least one of U+0085, U+2028, U+2029, among YAML's meaningful characters."""
    pieces = [pick(chooser, _PIECES) for _ in range(chooser.integer(0, parts))]
    pieces.insert(chooser.integer(0, len(pieces)), pick(chooser, OLD_LINE_BREAKS))
    return "".join(pieces)


def _hurtful_data(chooser: Chooser, depth: int) -> Any:
    kind = chooser.integer(0, 9 if depth > 0 else 5)
    if kind < 4:
        return line_break_text(chooser)
    if kind == 4:
        return pick(chooser, (1, -2.5, True, None, "plain words"))
    if kind == 5:
        return pick(chooser, ([], {}))
    if kind < 8:
        return [_hurtful_data(chooser, depth - 1) for _ in range(chooser.integer(1, 3))]
    return {
        line_break_text(chooser, 3): _hurtful_data(chooser, depth - 1) for _ in range(chooser.integer(1, 3))
    }


def with_line_break_text(chooser: Chooser, document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (changed in place and returned) with such text in its free-text places: the
    profile's texts, and an extension of nested data whose keys and values hold it. Still valid."""
    profile = document["profile"]
    for name in ("name", "player", "height", "weight", "age", "appearance"):
        if name == "name" or chance(chooser, 30):
            profile[name] = line_break_text(chooser)
    if chance(chooser, 70):
        extensions = document.setdefault("extensions", {})
        extensions["com.example.line-breaks"] = {
            line_break_text(chooser, 3): _hurtful_data(chooser, 3) for _ in range(chooser.integer(1, 3))
        }
        if chance(chooser, 20):  # a key longer than YAML's implicit keys, which JSON text may hold
            long_key = line_break_text(chooser, 3) * 400
            extensions["com.example.line-breaks"][long_key[:1_500]] = 1
    return document


# ---------------------------------------------------------------- a YAML writer of our own

_RESERVED = re.compile(
    r"(?i:y|n|yes|no|on|off|true|false|null|~|<<|=)|[-+]?[0-9.].*|\.(?:inf|nan).*", re.DOTALL
)
_PLAIN = re.compile("[A-Za-z\x85\u2028\u2029][A-Za-z0-9_. \x85\u2028\u2029-]*")
_QUOTED_ONLY = "\x7f-\x84\x86-\x9f\ufffe\uffff"  # JSON's characters YAML 1.2 allows in quotes only
_NOT_IN_QUOTES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufeff]")
_NOT_PRINTABLE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_QUOTED_ONLY}\ud800-\udfff\ufeff]")
_DOUBLE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _double_quoted(text: str) -> str:
    """JSON-like escapes for what must be escaped; U+0085, U+2028, U+2029, DEL, the C1 controls
    and U+FFFE, U+FFFF stay raw."""

    def escape(match: re.Match[str]) -> str:
        char = match.group()
        return _DOUBLE_ESCAPES.get(char) or f"\\u{ord(char):04x}"

    return '"' + re.sub('["\\\\\n\r\t]|' + _NOT_IN_QUOTES.pattern, escape, text) + '"'


def _single_quoted(text: str) -> str | None:
    if "\n" in text or "\r" in text or "\t" in text or _NOT_IN_QUOTES.search(text):
        return None
    return "'" + text.replace("'", "''") + "'"


def _plain(text: str) -> str | None:
    if not _PLAIN.fullmatch(text) or _RESERVED.fullmatch(text) or text != text.rstrip(" "):
        return None
    return text


def _literal(text: str, indent: str) -> str | None:
    """A ``|-`` block: the text's lines, indented (only text a literal block carries exactly)."""
    lines = text.split("\n")
    if (
        not text
        or "\r" in text
        or "\t" in text
        or _NOT_PRINTABLE.search(text)
        or text.endswith(("\n", " "))
        or any(line[:1] == " " or (line and not line.strip(" ")) for line in lines)
    ):
        return None
    return "|-\n" + "\n".join(f"{indent}{line}" if line else "" for line in lines)


def _text(chooser: Chooser, text: str, indent: str, *, key: bool) -> str:
    styles = [_plain(text), _single_quoted(text)]
    if not key:
        styles.append(_literal(text, indent))
    possible = [written for written in styles if written is not None]
    if possible and chance(chooser, 70):
        return pick(chooser, possible)
    return _double_quoted(text)


def _value(chooser: Chooser, value: Any, indent: str) -> tuple[str, list[str]]:
    """A scalar or empty container: what follows ``key:`` or ``-`` on its line (a literal
    block's header), and the lines below it (a literal block's text, at ``indent``)."""
    if isinstance(value, str):
        written = _text(chooser, value, indent, key=False)
        if written.startswith("|-\n"):
            return "|-" + _comment(chooser), written.split("\n")[1:]
        return written + _comment(chooser), []
    if value == {} or value == []:
        written = "{}" if value == {} else "[]"
    elif isinstance(value, float) and math.isfinite(value):
        written = repr(value)
    else:
        written = json.dumps(value)
    return written + _comment(chooser), []


def _comment(chooser: Chooser) -> str:
    if not chance(chooser, 30):
        return ""
    # Line breaks would end the comment; the rest YAML allows in quoted text only.
    return " # " + re.sub(f"[\n\r{_QUOTED_ONLY}]", " ", line_break_text(chooser, 3))


def _block(chooser: Chooser, value: dict[str, Any] | list[Any], indent: str) -> list[str]:
    """The lines of a non-empty mapping or sequence, at ``indent``."""
    lines: list[str] = []
    heads: list[tuple[str, Any]]
    if isinstance(value, dict):
        heads = []
        for key, item in value.items():
            written = _text(chooser, key, indent, key=True)
            if len(written) > _LONGEST_IMPLICIT_KEY:  # "? key" then ": value", as YAML requires
                lines_before = f"{indent}? {written}\n"
                heads.append((f"{lines_before}{indent}:", item))
            else:
                heads.append((f"{indent}{written}:", item))
    else:
        heads = [(f"{indent}-", item) for item in value]
    child = indent + "  "
    for head, item in heads:
        if chance(chooser, 10):
            lines.append(indent + _comment(chooser).lstrip())
        if isinstance(item, dict | list) and item:
            lines.append(head + _comment(chooser))
            lines.extend(_block(chooser, item, child))
        else:
            first, below = _value(chooser, item, child)
            lines.append(f"{head} {first}")
            lines.extend(below)
    return lines


_LONGEST_IMPLICIT_KEY = 1000
"""Longer keys are written explicitly (YAML limits implicit ones to 1024 characters)."""


def yaml_in_styles(chooser: Chooser, data: Any) -> str:
    """JSON data (a non-empty mapping or sequence, nested a few levels) as block YAML, each text
    in a style chosen among those that carry it exactly, with comments now and then (holding the
    old line breaks too)."""
    return "\n".join(_block(chooser, data, "")) + "\n"


# ---------------------------------------------------------------- line ends


def with_line_ends(chooser: Chooser, text: str) -> str:
    """``text`` (which holds no ``\\r``) with its line feeds written as ``\\r\\n`` or ``\\r``,
    all alike or mixed line by line."""
    assert "\r" not in text
    style = chooser.integer(0, 2)
    if style < 2:
        return text.replace("\n", ("\r\n", "\r")[style])
    written: list[str] = []
    for part in re.split("(\n)", text):
        if part == "\n":
            part = pick(chooser, ("\n", "\r\n", "\r"))
            if part == "\n" and written and written[-1] == "\r":
                part = "\r\n"  # a lone "\r" then "\n" would be one line end, not two
        if part:
            written.append(part)
    return "".join(written)


# ---------------------------------------------------------------- alias bombs of text


def text_alias_bomb(chooser: Chooser, limit: int) -> tuple[str, int]:
    """A small YAML mapping whose aliases repeat long text: a value, or the key of a mapping,
    aliased many times directly or through levels of anchored sequences, each aliasing the level
    before. Returns the text and the characters of text its aliases repeat once expanded (what
    the reader counts against ``limit``): sized to go beyond it, or now and then to stay within."""
    length = pick(chooser, (1_000, 20_000, 200_000))
    piece = "".join(pick(chooser, ("x", "y", "é", " z", *OLD_LINE_BREAKS)) for _ in range(20))
    text = ("a" + piece * (length // len(piece) + 1))[: length - 1] + "b"
    double_quoted = text.replace("\x85", "\\N").replace("\u2028", "\\L").replace("\u2029", "\\P").join('""')
    if chance(chooser, 30):  # the text as a key: aliasing the mapping repeats the key
        lines = [f"holder: &s\n  ? {double_quoted}\n  : 1"]
    else:
        written = pick(chooser, (double_quoted, f"'{text}'", f"|-\n  {text}"))
        lines = [f"holder: &s {written}"]
    within = chance(chooser, 15)
    target = limit if within else limit * pick(chooser, (2, 10, 1_000))
    levels = chooser.integer(0, 3)
    fan = max(2, min(2_000, math.ceil((target / length) ** (1 / (levels + 1)))))
    repeated, unit, previous = 0, length, "s"  # text repeated so far; text of the last level
    for level in range(levels):
        name = f"l{level}"
        lines.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * fan)}]")
        repeated, unit, previous = repeated + unit * fan, unit * fan, name
    most = (limit - repeated) // unit  # aliases of the last level that stay within the limit
    count = max(0, most) if within else max(fan, most + 1)
    lines.append(f"bomb: [{', '.join([f'*{previous}'] * count)}]")
    return "\n".join(lines) + "\n", repeated + unit * count
