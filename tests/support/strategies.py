"""Generators of valid and hostile inputs, shared by the property tests and ``scripts/fuzz.py``.

Every generator takes a :class:`Chooser`, the one source of decisions. ``RandomChooser`` wraps
:class:`random.Random` (the fuzzer: fast, reproducible from a seed); ``HypothesisChooser`` wraps
hypothesis' ``draw`` (the tests: every decision is a draw, so failures shrink). The hypothesis
strategies at the end of the module are thin wrappers.

What is generated:

* :func:`valid_document`: a schema-valid character, built by walking the bundled schema (every
  keyword the schema uses: types, ``const``/``enum``, patterns, ``date-time``, lengths, bounds,
  ``multipleOf``, ``not``, required and optional properties, item counts, ``propertyNames``),
  with free data in ``extensions`` and, now and then, huge or fractional-but-integral numbers;
* :func:`hostile_value`: what untrusted input may hold (non-finite floats, huge integers,
  booleans, lone surrogates, Python objects with no JSON form, tuples, read-only mappings,
  non-text keys, cycles, deep nesting);
* :func:`mutate_document`: a document with a few values dropped, inserted or replaced;
* :func:`mutate_text`: JSON text with bytes and tokens inserted, deleted or cut off;
* :func:`random_formula`: formula text, mostly grammatical, sometimes not.
"""

from __future__ import annotations

import json
import math
import random
import struct
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

from gurps_character import SCHEMA
from gurps_character.formula import resolve_schema_ref
from tests.support.paths import REPOSITORY

__all__ = [
    "EXAMPLES",
    "YAML_JUNK",
    "Chooser",
    "HypothesisChooser",
    "RandomChooser",
    "ReadOnlyMapping",
    "deep_value",
    "documents",
    "example",
    "formulas",
    "hostile_documents",
    "hostile_value",
    "hostile_values",
    "json_value",
    "mutate_document",
    "mutate_text",
    "nested",
    "random_formula",
    "random_now",
    "shared_bomb",
    "snapshot",
    "valid_document",
    "valid_documents",
]

T = TypeVar("T")

EXAMPLES = REPOSITORY / "examples"


def example(name: str) -> dict[str, Any]:
    """A fresh copy of ``examples/<name>.json``."""
    document: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return document


# ---------------------------------------------------------------- the source of decisions


class Chooser(Protocol):
    """Where every random decision comes from."""

    def integer(self, low: int, high: int) -> int:
        """An integer in ``[low, high]``."""
        ...

    def real(self) -> float:
        """Any finite float."""
        ...


class RandomChooser:
    """Decisions from :class:`random.Random` (reproducible from its seed)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def real(self) -> float:
        kind = self.rng.randrange(4)
        if kind == 0:
            return round(self.rng.uniform(-100, 100), self.rng.randrange(4))
        if kind == 1:
            return self.rng.uniform(-1e6, 1e6)
        while True:  # any bit pattern: subnormals, huge exponents, -0.0
            value: float = struct.unpack("<d", self.rng.randbytes(8))[0]
            if math.isfinite(value):
                return value


class HypothesisChooser:
    """Decisions drawn by hypothesis (they shrink)."""

    def __init__(self, draw: Callable[[st.SearchStrategy[Any]], Any]) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        value: int = self.draw(st.integers(low, high))
        return value

    def real(self) -> float:
        value: float = self.draw(st.floats(allow_nan=False, allow_infinity=False))
        return value


def chance(chooser: Chooser, percent: int) -> bool:
    """True ``percent`` times in a hundred."""
    return chooser.integer(0, 99) < percent


def pick(chooser: Chooser, options: Sequence[T]) -> T:
    """One of ``options``."""
    return options[chooser.integer(0, len(options) - 1)]


# ---------------------------------------------------------------- text and numbers

_ALPHABETS: tuple[str, ...] = (
    "abcdefghijklmnopqrstuvwxyz",
    "ABCXYZ0123456789 -_.",
    "\"\\/'{}[]:,$",  # JSON and formula syntax
    "\x00\x01\x1f\x7f\t\n\r\u2028\u2029\u00a0\ufeff",  # controls, JavaScript line ends, BOM
    "éßøñ漢字Ωжش",
    "\U0001f600\U0001f4a5\U00010000",  # astral
    "\ud800\udbff\udc00\udfff",  # lone surrogates (or pairs, when adjacent)
)


def text(chooser: Chooser, max_size: int = 12, *, min_size: int = 0) -> str:
    """Short text from a mix of alphabets, hostile characters included."""
    size = chooser.integer(min_size, max_size)
    alphabet = pick(chooser, _ALPHABETS) if chance(chooser, 70) else "".join(_ALPHABETS)
    return "".join(pick(chooser, alphabet) for _ in range(size))


def small_int(chooser: Chooser) -> int:
    return chooser.integer(-20, 40)


def any_int(chooser: Chooser) -> int:
    """Mostly small; sometimes up to 2**53, or a double-sized integer."""
    kind = chooser.integer(0, 9)
    if kind < 6:
        return small_int(chooser)
    if kind < 9:
        return chooser.integer(-(2**53), 2**53)
    return int(pick(chooser, (1e300, -1e300, 2.0**60, 1.7976931348623157e308)))


_HUGE_INTS = (2**53 + 1, 2**63, 2**1023, 2**1024, -(2**1024), 10**400, -(10**400), 10**5000)
_ODD_FLOATS = (math.nan, math.inf, -math.inf, -0.0, 5e-324, 1.7976931348623157e308, -1e308, 0.1, 1e-7)


# ---------------------------------------------------------------- JSON data


def json_value(chooser: Chooser, depth: int = 3, *, wide: int = 4) -> Any:
    """Any JSON value (finite numbers, text keys), at most ``depth`` containers deep."""
    kind = chooser.integer(0, 9 if depth > 0 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return chance(chooser, 50)
    if kind == 2:
        return any_int(chooser)
    if kind == 3:
        return chooser.real()
    if kind <= 6:
        return text(chooser)
    if kind <= 8:
        return [json_value(chooser, depth - 1, wide=wide) for _ in range(chooser.integer(0, wide))]
    return {
        text(chooser, 6): json_value(chooser, depth - 1, wide=wide) for _ in range(chooser.integer(0, wide))
    }


def nested(depth: int, leaf: Any = 1, shape: str = "list") -> Any:
    """``leaf`` inside ``depth`` containers: lists, ``{"a": ...}`` dicts, tuples, read-only
    mappings, or lists and dicts alternating (``shape="mixed"``). Built without recursion."""
    value = leaf
    for level in range(depth):
        if shape == "list" or (shape == "mixed" and level % 2 == 0):
            value = [value]
        elif shape in ("dict", "mixed"):
            value = {"a": value}
        elif shape == "tuple":
            value = (value,)
        else:
            value = MappingProxyType({"a": value})
    return value


def shared_bomb(depth: int = 60) -> list[Any]:
    """A list holding the same list twice, ``depth`` times over: a few objects that stand for
    2**depth values (what a YAML file with aliases can make)."""
    value: list[Any] = []
    for _ in range(depth):
        value = [value, value]
    return value


def deep_value(chooser: Chooser, depth: int) -> Any:
    """Arrays and objects nested ``depth`` levels deep (built without recursion)."""
    leaf: Any = pick(chooser, (None, 1, "x", [], {}))
    return nested(depth, leaf, pick(chooser, ("list", "dict", "mixed")))


# ---------------------------------------------------------------- hostile values


class ReadOnlyMapping(Mapping[str, Any]):
    """A well-behaved mapping that is not a ``dict``."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = dict(data)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class _Opaque:
    """An object with no JSON form."""

    def __repr__(self) -> str:
        return "<opaque>"


class _StrSubclass(str):
    pass


class _IntSubclass(int):
    pass


def _python_objects(chooser: Chooser) -> Any:
    options: list[Callable[[], Any]] = [
        lambda: (1, "a", None),
        lambda: {1, 2},
        lambda: frozenset({"a"}),
        lambda: b'{"format": "gurps-character"}',
        lambda: bytearray(b"\xff\xfe"),
        lambda: _Opaque(),
        lambda: 1 + 2j,
        lambda: Decimal("1.5"),
        lambda: Decimal("NaN"),
        lambda: Fraction(1, 3),
        lambda: datetime(2020, 1, 1),
        lambda: object,
        lambda: len,
        lambda: MappingProxyType({"value": 3}),
        lambda: ReadOnlyMapping({"value": 3, "notation": "1d"}),
        lambda: {1: "a", 2: "b"},
        lambda: {None: 1},
        lambda: {("a",): 1},
        lambda: _StrSubclass("st"),
        lambda: _IntSubclass(7),
        lambda: range(3),
        lambda: iter([1, 2]),
        lambda: memoryview(b"abc"),
    ]
    return pick(chooser, options)()


def cyclic_value(chooser: Chooser) -> Any:
    """A list or dict that contains itself (directly or through a child)."""
    if chance(chooser, 50):
        items: list[Any] = [1, "a"]
        items.append(items if chance(chooser, 50) else {"back": items})
        return items
    mapping: dict[str, Any] = {"value": 1}
    mapping["self" if chance(chooser, 50) else "value"] = mapping if chance(chooser, 50) else [mapping]
    return mapping


def hostile_value(chooser: Chooser, *, deep: int = 2_000) -> Any:
    """A value untrusted input might hold where the schema expects something else."""
    kind = chooser.integer(0, 11)
    if kind == 0:
        return pick(chooser, _ODD_FLOATS)
    if kind == 1:
        return pick(chooser, _HUGE_INTS)
    if kind == 2:
        return chance(chooser, 50)
    if kind == 3:
        return text(chooser, 30)
    if kind == 4:
        return pick(chooser, ("", "1", "1e400", "NaN", "-Infinity", "3d+2", "st", "x" * 100_000))
    if kind == 5:
        return _python_objects(chooser)
    if kind == 6:
        return cyclic_value(chooser)
    if kind == 7:
        return deep_value(chooser, chooser.integer(1, deep))
    if kind == 8:
        return [hostile_value(chooser, deep=deep) for _ in range(chooser.integer(0, 3))]
    if kind == 9:
        return {text(chooser, 6): hostile_value(chooser, deep=deep) for _ in range(chooser.integer(0, 3))}
    return json_value(chooser)


# ---------------------------------------------------------------- valid documents, from the schema


_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _date_time(chooser: Chooser) -> str:
    year, month = chooser.integer(1, 9999), chooser.integer(1, 12)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    day = chooser.integer(1, 29 if month == 2 and leap else _MONTH_DAYS[month - 1])
    clock = f"{chooser.integer(0, 23):02d}:{chooser.integer(0, 59):02d}:{chooser.integer(0, 59):02d}"
    fraction = pick(chooser, ("", ".5", ".123", ".000"))
    zone = pick(chooser, ("Z", "z", "+00:00", "-05:30", "+14:00", "+0200", "-11"))
    separator = pick(chooser, ("T", "t", " "))
    return f"{year:04d}-{month:02d}-{day:02d}{separator}{clock}{fraction}{zone}"


def _digits(chooser: Chooser, most: int = 3) -> str:
    return str(chooser.integer(0, 10**most))


def _lower(chooser: Chooser, low: int, high: int, alphabet: str = "abcdefghijklmnopqrstuvwxyz") -> str:
    return "".join(pick(chooser, alphabet) for _ in range(chooser.integer(low, high)))


_PATTERNS: dict[str, Callable[[Chooser], str]] = {
    r"^1\.\d+\.\d+$": lambda c: f"1.{c.integer(0, 3)}.{_digits(c)}",
    r"^\d+d([+-]\d+)?$": lambda c: (
        f"{_digits(c, 2)}d" + pick(c, ("", f"+{_digits(c, 2)}", f"-{_digits(c, 1)}"))
    ),
    r"^[a-z]{2,3}(-[A-Z]{2})?$": lambda c: _lower(c, 2, 3) + pick(c, ("", "-" + _lower(c, 2, 2).upper())),
    r"^(/[^/]+)+$": lambda c: "".join(
        "/" + text(c, 6, min_size=1).replace("/", "~1") for _ in range(c.integer(1, 3))
    ),
    r"^[a-z0-9-]+(\.[a-z0-9-]+)+$": lambda c: ".".join(
        _lower(c, 1, 6, "abcxyz019-") for _ in range(c.integer(2, 4))
    ),
}
"""A generator for each pattern the bundled schema uses (a test checks that the list is complete)."""


class _SchemaWalker:
    def __init__(self, chooser: Chooser, schema: Mapping[str, Any], *, deep: int) -> None:
        self.chooser = chooser
        self.schema = schema
        self.deep = deep

    def value(self, raw: Mapping[str, Any], name: str = "") -> Any:
        node = resolve_schema_ref(self.schema, raw)
        chooser = self.chooser
        if "const" in node:
            return _plain(node["const"])
        if "enum" in node:
            return _plain(pick(chooser, tuple(node["enum"])))
        types = node.get("type")
        if types is None:
            return json_value(chooser)
        kind = types if isinstance(types, str) else pick(chooser, tuple(types))
        if kind == "null":
            return None
        if kind == "boolean":
            return chance(chooser, 50)
        if kind in ("integer", "number"):
            return self.number(node, kind)
        if kind == "string":
            return self.string(node)
        if kind == "array":
            low, high = node.get("minItems", 0), node.get("maxItems", 4)
            count = chooser.integer(low, min(high, max(low, 4)))
            return [self.value(node["items"]) for _ in range(count)]
        return self.object(node, name)

    def object(self, node: Mapping[str, Any], name: str) -> dict[str, Any]:
        chooser = self.chooser
        if "properties" not in node:  # extensions: free data under reverse-DNS names
            names = node.get("propertyNames", {}).get("pattern")
            free: dict[str, Any] = {}
            for _ in range(chooser.integer(0, 3)):
                key = _PATTERNS[names](chooser) if names else text(chooser)
                if chance(chooser, 10) and self.deep:
                    free[key] = deep_value(chooser, chooser.integer(1, self.deep))
                else:
                    free[key] = json_value(chooser, 4)
            return free
        required = set(node.get("required", ()))
        out: dict[str, Any] = {}
        for key, sub in node["properties"].items():
            if key in required or chance(chooser, 60):
                out[key] = self.value(sub, key)
        return out

    def number(self, node: Mapping[str, Any], kind: str) -> int | float:
        chooser = self.chooser
        low, high = node.get("minimum"), node.get("maximum")
        step = node.get("multipleOf")
        if step is not None:
            value: int | float = chooser.integer(-200, 200) * step
        elif chance(chooser, 5):  # valid, but far from what a sheet holds
            value = pick(chooser, (2**53, -(2**53), 10**300, 1e300, -1e300, 1e21))
        else:
            value = chooser.integer(-30, 60) if kind == "integer" else chooser.real()
        if low is not None and value < low:
            value = low + chooser.integer(0, 3)
        if high is not None and value > high:
            value = high - chooser.integer(0, 3) if low is None else chooser.integer(low, high)
        forbidden = node.get("not", {}).get("const")
        if forbidden is not None and value == forbidden:
            value = forbidden + 1
        if kind == "integer" and isinstance(value, float) and not value.is_integer():
            value = math.floor(value)
        if kind == "integer" and isinstance(value, int) and chance(chooser, 10) and abs(value) < 2**53:
            value = float(value)  # 3.0 is an integer in JSON
        return value

    def string(self, node: Mapping[str, Any]) -> str:
        chooser = self.chooser
        if node.get("format") == "date-time":
            return _date_time(chooser)
        pattern = node.get("pattern")
        if pattern is not None:
            return _PATTERNS[pattern](chooser)
        return text(chooser, 16, min_size=node.get("minLength", 0))


def _plain(value: Any) -> Any:
    """Schema constants are frozen (tuples, read-only mappings): as plain JSON."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def valid_document(chooser: Chooser, *, deep: int = 0) -> dict[str, Any]:
    """A schema-valid character built by walking the bundled schema. With ``deep``, an
    extension may hold data nested up to that many levels."""
    walker = _SchemaWalker(chooser, SCHEMA, deep=deep)
    document = walker.value(SCHEMA)
    assert isinstance(document, dict)
    return document


# ---------------------------------------------------------------- mutations


def _containers(document: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) slot of a JSON document (breadth first, no recursion)."""
    slots: list[tuple[Any, Any]] = []
    queue = [document]
    seen: set[int] = set()
    while queue:
        item = queue.pop(0)
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, dict):
            for key, child in item.items():
                slots.append((item, key))
                if isinstance(child, dict | list) and len(slots) < 20_000:
                    queue.append(child)
        elif isinstance(item, list):
            for index, child in enumerate(item):
                slots.append((item, index))
                if isinstance(child, dict | list) and len(slots) < 20_000:
                    queue.append(child)
    return slots


def mutate_document(chooser: Chooser, document: dict[str, Any], *, deep: int = 2_000) -> Any:
    """``document`` (changed in place and returned) with one to three hostile changes: a value
    dropped, replaced (wrong type, odd number, Python object, cycle, deep nesting) or inserted;
    sometimes the whole document is replaced."""
    if chance(chooser, 3):
        return hostile_value(chooser, deep=deep)
    for _ in range(chooser.integer(1, 3)):
        slots = _containers(document)
        if not slots:
            break
        container, key = pick(chooser, slots)
        action = chooser.integer(0, 9)
        if action == 0:
            del container[key]
        elif action == 1 and isinstance(container, dict):
            container[text(chooser, 8)] = json_value(chooser)
        elif action == 2:
            container[key] = cyclic_value(chooser) if chance(chooser, 30) else document
        elif action == 3 and isinstance(container, list):
            container.append(hostile_value(chooser, deep=deep))
        elif action == 4:
            container[key] = json_value(chooser)
        elif action == 5 and isinstance(container[key], int | float) and not isinstance(container[key], bool):
            container[key] = pick(chooser, (*_HUGE_INTS, *_ODD_FLOATS, True, False, -container[key]))
        else:
            container[key] = hostile_value(chooser, deep=deep)
    return document


_JUNK = (
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "-",
    "0x10",
    "01",
    "1." + "0" * 10,
    "9" * 5000,
    "'a'",
    "\ufeff",
    "\u00a0",
    "\\ud800",
    '"\\ud800"',
    '"\\u00"',
    "/* */",
    "undefined",
    "[" * 3000,
    "{" * 3000,
    '{"a":' * 2000,
    "]",
    "}",
    ",",
    ":",
    '"format": "gurps-sheet",',
    '"formatVersion": "2.0.0",',
    "\x00",
    "\t\n",
)


def mutate_text(chooser: Chooser, source: str) -> str | bytes:
    """JSON text with one to three changes: a token inserted, a range deleted or duplicated, the
    text cut off; sometimes encoded to bytes, possibly no longer UTF-8."""
    for _ in range(chooser.integer(1, 3)):
        at = chooser.integer(0, len(source))
        action = chooser.integer(0, 4)
        if action == 0:
            source = source[:at] + pick(chooser, _JUNK) + source[at:]
        elif action == 1:
            source = source[:at] + source[at + chooser.integer(1, 40) :]
        elif action == 2:
            source = source[:at]
        elif action == 3:
            source = source[:at] + text(chooser, 4) + source[at:]
        else:
            end = min(len(source), at + chooser.integer(1, 200))
            source = source[:end] + source[at:end] + source[end:]
    if chance(chooser, 30):
        raw = source.encode("utf-8", "surrogatepass")
        if chance(chooser, 50):
            at = chooser.integer(0, len(raw))
            raw = raw[:at] + pick(chooser, (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf")) + raw[at:]
        return raw
    return source


# ---------------------------------------------------------------- formulas

_PATHS = (
    "$.attributes.st.value",
    "$.secondary.hp.value",
    "value",
    "base",
    "$.skills.level",
    "$.skills[attribute=dx|iq].points",
    "$.traits[type!=quirk].points",
    "costModifiers.percent",
    "$.x.y.z",
    "$",
    "x",
    "$.profile.name.length",
    "$.skills.name",
    "$.skills[0=B].level",
    "$.skills['name'=Broadsword|02].level",
    "$.attributes[value=10]",
    "$.missing[a!=1]",
    "$.profile[name!=x]",
)
_FUNCTIONS = (
    "floor",
    "ceil",
    "abs",
    "round",
    "min",
    "max",
    "if",
    "sum",
    "coalesce",
    "lookup",
    "attr",
    "skillLevel",
)
_ATOMS = (
    "0",
    "1",
    "2.5",
    "10",
    "999999999999999999999",
    "1" + "0" * 400,
    "'st'",
    "'thrust'",
    "'swing'",
    "''",
    "'dx'",
    "' Broadsword '",
    "'undefined'",
    "'[object Object]'",
    "(1 == 1)",
    "(1 == 2)",
    "min()",
)
"""Numbers (an infinity among them), names of attributes, tables and skills, and values whose
text a name-taking function looks for (booleans, ``undefined``, an object's)."""


def random_formula(chooser: Chooser, depth: int = 4) -> str:
    """A formula: mostly grammatical (paths, numbers, strings, calls, operators, filters),
    sometimes with random text spliced in."""

    def expression(level: int) -> str:
        kind = chooser.integer(0, 6 if level > 0 else 1)
        if kind == 0:
            return pick(chooser, _ATOMS)
        if kind == 1:
            return pick(chooser, _PATHS)
        if kind == 2:
            return f"-{expression(level - 1)}"
        if kind == 3:
            return f"({expression(level - 1)})"
        if kind == 4:
            args = ", ".join(expression(level - 1) for _ in range(chooser.integer(0, 4)))
            return f"{pick(chooser, _FUNCTIONS)}({args})"
        operator = pick(chooser, ("+", "-", "*", "/", "==", "!=", "<", "<=", ">", ">="))
        return f"{expression(level - 1)} {operator} {expression(level - 1)}"

    formula = expression(depth)
    if chance(chooser, 15):
        at = chooser.integer(0, len(formula))
        formula = formula[:at] + text(chooser, 3) + formula[at:]
    if chance(chooser, 3):
        formula = pick(
            chooser, ("(" * 200 + "1" + ")" * 200, "-" * 300 + "1", "1" + "+1" * 4999, "x" * 10_001)
        )
    return formula


# ---------------------------------------------------------------- times


def random_now(chooser: Chooser) -> datetime | None:
    """A ``now`` argument: None, or an aware datetime anywhere in datetime's range (extreme
    instants and offsets included)."""
    kind = chooser.integer(0, 5)
    if kind == 0:
        return None
    zone = timezone(timedelta(minutes=chooser.integer(-23 * 60 - 59, 23 * 60 + 59)))
    if kind == 1:
        return datetime.min.replace(tzinfo=zone)
    if kind == 2:
        return datetime.max.replace(tzinfo=zone)
    if kind == 3:
        return datetime(chooser.integer(1, 999), 1, 1, tzinfo=zone)
    seconds = chooser.integer(0, 10**11)
    return datetime(1, 1, 1, tzinfo=UTC) + timedelta(
        seconds=seconds, microseconds=chooser.integer(0, 999_999)
    )


# ---------------------------------------------------------------- snapshots (to prove nothing changed)


def snapshot(value: Any) -> list[Any]:
    """A flat description of a value, containers and identities included, that changes whenever
    anything reachable from it changes (any depth, cycles allowed, NaN-safe)."""
    tokens: list[Any] = []
    stack: list[Any] = [value]
    seen: dict[int, int] = {}
    keep_alive: list[Any] = []  # ids stay unique while the values live
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str or kind is int or kind is bool or item is None:  # the usual scalars, quickly
            tokens.append((kind, item))
            continue
        if kind is dict or kind is list or isinstance(item, Mapping | list | tuple):
            if id(item) in seen:
                tokens.append(("ref", seen[id(item)]))
                continue
            seen[id(item)] = len(seen)
            keep_alive.append(item)
            if kind is dict or isinstance(item, Mapping):
                keys = list(item.keys())
                tokens.append((type(item), id(item), len(keys)))
                for key in reversed(keys):
                    stack.append(item[key])
                    stack.append(_Key(key))
            else:  # a tuple cannot change: its identity does not matter
                tokens.append((type(item), id(item) if isinstance(item, list) else None, len(item)))
                stack.extend(reversed(item))
        elif isinstance(item, _Key):
            key = item.key
            tokens.append(("key", type(key), repr(key) if type(key) is float else key))
        elif isinstance(item, float):
            tokens.append((float, repr(item)))
        elif item is None or isinstance(item, str | int | bool | bytes):
            tokens.append((type(item), item))
        else:
            tokens.append((type(item), id(item)))
    return tokens


class _Key:
    __slots__ = ("key",)

    def __init__(self, key: Any) -> None:
        self.key = key


# ---------------------------------------------------------------- hypothesis strategies


@st.composite
def valid_documents(draw: Callable[[st.SearchStrategy[Any]], Any], deep: int = 0) -> dict[str, Any]:
    """Schema-valid characters (see :func:`valid_document`)."""
    return valid_document(HypothesisChooser(draw), deep=deep)


@st.composite
def documents(draw: Callable[[st.SearchStrategy[Any]], Any]) -> dict[str, Any]:
    """A valid character: one of the examples, or one built from the schema."""
    chooser = HypothesisChooser(draw)
    if chance(chooser, 30):
        return example(pick(chooser, ("rurik", "jotun")))
    return valid_document(chooser)


@st.composite
def hostile_documents(draw: Callable[[st.SearchStrategy[Any]], Any], deep: int = 2_000) -> Any:
    """A valid character (example or generated) with hostile mutations."""
    chooser = HypothesisChooser(draw)
    base = example(pick(chooser, ("rurik", "jotun"))) if chance(chooser, 50) else valid_document(chooser)
    return mutate_document(chooser, base, deep=deep)


@st.composite
def hostile_values(draw: Callable[[st.SearchStrategy[Any]], Any], deep: int = 2_000) -> Any:
    """Any hostile value (see :func:`hostile_value`)."""
    return hostile_value(HypothesisChooser(draw), deep=deep)


@st.composite
def formulas(draw: Callable[[st.SearchStrategy[Any]], Any]) -> str:
    """Formula text (see :func:`random_formula`)."""
    return random_formula(HypothesisChooser(draw))


# ---------------------------------------------------------------- comparing and inspecting results


def json_equal(left: Any, right: Any) -> bool:
    """Equality of JSON data as the format means it: numbers as doubles (``3 == 3.0``), booleans
    never numbers, text as UTF-16 (a surrogate pair written as two Python characters is the
    character it encodes), objects regardless of key order (no recursion)."""
    stack = [(left, right)]
    while stack:
        a, b = stack.pop()
        if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
            if a is not b:
                return False
        elif isinstance(a, int | float) and isinstance(b, int | float):
            if float(a) != float(b):
                return False
        elif isinstance(a, str) or isinstance(b, str):
            if not (isinstance(a, str) and isinstance(b, str) and _utf16(a) == _utf16(b)):
                return False
        elif isinstance(a, Mapping) and isinstance(b, Mapping):
            left_keys = {_utf16(key): key for key in a}
            right_keys = {_utf16(key): key for key in b}
            if len(a) != len(b) or left_keys.keys() != right_keys.keys():
                return False
            stack.extend((a[key], b[right_keys[name]]) for name, key in left_keys.items())
        elif isinstance(a, list | tuple) and isinstance(b, list | tuple):
            if len(a) != len(b):
                return False
            stack.extend(zip(a, b, strict=True))
        else:
            return False
    return True


def _utf16(text: str) -> bytes | str:
    """Text as JavaScript holds it: two surrogates in a row are the character they encode."""
    return text if text.isascii() else text.encode("utf-16-le", "surrogatepass")


def mutable_ids(value: Any) -> set[int]:
    """The ids of every dict and list reachable from ``value`` (cycles allowed)."""
    found: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict or kind is list or (kind is not str and isinstance(item, Mapping | list | tuple)):
            if id(item) in found:
                continue
            found.add(id(item))  # read-only containers too: they are walked once
            stack.extend(item.values() if kind is dict or isinstance(item, Mapping) else item)
    return found


def shared_containers(result: Any, source: Any) -> bool:
    """Whether ``result`` holds a dict or list that is also reachable from ``source``."""
    theirs = mutable_ids(source)
    stack = [result]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if isinstance(item, dict | list):
            if id(item) in theirs:
                return True
            if id(item) in seen:
                continue
            seen.add(id(item))
            stack.extend(item.values() if isinstance(item, dict) else item)
    return False


YAML_JUNK: tuple[str, ...] = (
    "&a ",
    "*a",
    "*b",
    "!!python/object:os.system ",
    "!x ",
    "? ",
    "- ",
    ": ",
    "{",
    "}",
    "[",
    "]",
    "|",
    ">",
    "'",
    '"',
    "%YAML 1.1\n",
    "---\n",
    "...\n",
    "\t",
    "<<: *a\n",
    "!!binary ",
    ".inf",
    "~",
    "#",
    "\x00",
    "\ufeff",
    "\r\n",
    "\r",
    "\u2028",
    "\u2029",
    "\x85",
    "\x7f",
    "'\x9b'",
    "1e999",
    "0x" + "f" * 300,
    "  " * 60 + "x:\n",
    "[" * 150,
    "a: &b [*b]\n",
)
"""Pieces of YAML that break a document in the ways a reader must refuse or survive: anchors and
aliases (a self-referencing one too), tags, indicators, directives, tabs, odd line breaks (and
YAML 1.1's, ordinary characters in YAML 1.2), what YAML allows in quotes only, a BOM,
numbers no double holds, deep nesting."""
