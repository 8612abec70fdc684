"""The formula language's JavaScript semantics, value type by value type (issues 12 and 22).

The reference evaluates formulas on JavaScript values. Where it tests a type (``typeof x ===
"number" && Number.isFinite(x)`` for operators, the math functions, ``sum``, an attribute's value
and a skill's level; ``Array.isArray`` for projections and filters) other values give null (or
``[]``, or 0); where it hands a value to JavaScript unchecked, JavaScript's coercions apply
(``Number(x)`` for ``round``'s digits and step-table keys, ``String(x)`` for map-table keys,
table names, attribute ids, skill names and filters, truthiness for ``if``, property access for
path steps).

``TABLE`` is the audit: one row per operator or function argument, one column per kind of
value; ``DOCUMENT_TABLE`` does the same for what a function reads in the document (an
attribute's value, a skill's level or name). The formula guide (docs/guides/formula.md) shows both
as rendered by :func:`render_table` (``test_the_formula_guide_shows_the_audit`` keeps them equal), and
every cell is a test here.
"""

from __future__ import annotations

import json
import math
import random
import re
import shutil
import subprocess
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gurps_character import SCHEMA
from gurps_character.formula import Dice, FormulaError, FormulaSyntaxError, evaluate
from gurps_character.formula._jsnum import js_number_text
from gurps_character.formula._jsvalue import js_string, js_to_number
from tests.support.paths import REPOSITORY

TABLES = SCHEMA["x-gurps-tables"]
GUIDE = REPOSITORY / "docs" / "guides" / "formula.md"

ROOT: dict[str, Any] = {
    "nil": None,
    "t": True,
    "f": False,
    "ns": "2",
    "s": "abc",
    "es": "",
    "num": 3,
    "arr": [2],
    "ea": [],
    "obj": {"a": 1},
    "skills": [
        {"name": "2", "level": 5},
        {"name": "abc", "level": "7"},  # a level that is text: no level
        {"name": 3, "level": 8},  # names are compared as String(name): 3 is '3'
        {"name": "TRUE", "level": 9},  # ... lower-cased: true finds it
        {"name": " false ", "level": 10},  # ... trimmed: false finds it
        {"name": "[object Object]", "level": 11},  # String({a: 1})
    ],
}
"""The document every cell runs against: one property per column, and skills whose names are the
texts the columns turn into."""

COLUMNS: tuple[tuple[str, str], ...] = (
    ("null", "$.nil"),
    ("missing", "$.missing"),
    ("true", "$.t"),
    ("false", "$.f"),
    ("'2'", "$.ns"),
    ("'abc'", "$.s"),
    ("''", "$.es"),
    ("3", "$.num"),
    ("[2]", "$.arr"),
    ("[]", "$.ea"),
    ("{a: 1}", "$.obj"),
)
"""Column heading (the value, as JavaScript would write it) and the path that reads it."""

ERROR = "error"
"""A cell whose formula raises FormulaError (the reference throws an Error)."""

N = None
ONLY_NUMBERS = (N, N, N, N, N, N, N)
"""The first seven columns of a row where only a number counts."""

TABLE: tuple[tuple[str, str, tuple[Any, ...]], ...] = (
    # formula (X is the value), the rule, then one expected result per column
    ("X + 1", "a finite number, else null", (*ONLY_NUMBERS, 4, N, N, N)),
    ("1 - X", "a finite number, else null", (*ONLY_NUMBERS, -2, N, N, N)),
    ("X * 2", "a finite number, else null", (*ONLY_NUMBERS, 6, N, N, N)),
    ("X / 2", "a finite number, else null; x / 0 is null", (*ONLY_NUMBERS, 1.5, N, N, N)),
    ("-X", "a finite number, else null", (*ONLY_NUMBERS, -3, N, N, N)),
    ("X < 4", "finite numbers on both sides, else null (also <=, >, >=)", (*ONLY_NUMBERS, True, N, N, N)),
    ("X == 3", "===: no coercion; null equals missing", (False,) * 7 + (True, False, False, False)),
    ("floor(X)", "a finite number, else null", (*ONLY_NUMBERS, 3, N, N, N)),
    ("ceil(X)", "a finite number, else null; noise below 1e-9 ignored", (*ONLY_NUMBERS, 3, N, N, N)),
    ("abs(X)", "a finite number, else null", (*ONLY_NUMBERS, 3, N, N, N)),
    ("round(X)", "a finite number, else null; halves up", (*ONLY_NUMBERS, 3, N, N, N)),
    (
        "round(1234.5678, X)",
        "Number(X) in 10 ** X; NaN gives null",
        (1235, 1235, 1234.6, 1235, 1234.57, N, 1235, 1234.568, 1234.57, 1235, N),
    ),
    ("min(X, 5)", "a finite number for every argument, else null (also max)", (*ONLY_NUMBERS, 3, N, N, N)),
    (
        "if(X, 'yes', 'no')",
        "null or missing gives null; else truthiness",
        (N, N, "yes", "no", "yes", "yes", "no", "yes", "yes", "yes", "yes"),
    ),
    ("sum(X)", "an array's finite numbers; a finite number; else 0", (0, 0, 0, 0, 0, 0, 0, 3, 2, 0, 0)),
    (
        "coalesce(X, 7)",
        "the first that is not null or missing",
        (7, 7, True, False, "2", "abc", "", 3, [2], [], {"a": 1}),
    ),
    (
        "lookup('encumbranceLoad', X)",
        "map table: the entry named String(X); null for null",
        (N, N, N, N, 3, N, N, 6, 3, N, N),
    ),
    (
        "lookup('skillCost', X)",
        "step table: Number(X) against the keys; null for null and NaN",
        (N, N, 4, 2, 8, N, 2, 12, 8, 2, N),
    ),
    ("lookup(X, 1)", "the table named String(X) (['thrust'] is thrust), else an error", (ERROR,) * 11),
    (
        "attr(X)",
        "String(X) is st, dx, iq, ht, will or per (['dx'] is dx), else null; see below for its value",
        (N,) * 11,
    ),
    (
        "skillLevel(X)",
        "the first skill whose String(name) matches String(X), trimmed and lower-cased; '' and null "
        "find none; its level if a finite number",
        (N, N, 9, 10, 5, N, N, 8, 5, N, 11),
    ),
    (
        "X.a",
        "an object's own property; over an array, its items' (projection); else null",
        (N,) * 8 + ([], [], 1),
    ),
    (
        "X.length",
        "JavaScript's property access: text's length in UTF-16 units (and a character by index); "
        "over an array, its items'",
        (N, N, N, N, 1, 3, 0, N, [], [], N),
    ),
    (
        "X[a=1]",
        "items of an array, or X itself, whose String(a) is '1'; of null or missing, null",
        (N, N, [], [], [], [], [], [], [], [], [{"a": 1}]),
    ),
    (
        "X[a!=1]",
        "the others: a value that is not an array is filtered as a list of itself",
        (N, N, [True], [False], ["2"], ["abc"], [""], [3], [2], [], []),
    ),
)


ABSENT = object()
"""The missing column's stored value: the property is left out."""

DOCUMENT_VALUES: tuple[Any, ...] = (None, ABSENT, True, False, "2", "abc", "", 3, [2], [], {"a": 1})
"""The value each column of ``DOCUMENT_TABLE`` stores."""

DOCUMENT_TABLE: tuple[tuple[str, str, str, tuple[Any, ...]], ...] = (
    # formula, where X is stored, the rule, then one expected result per column
    ("attr('st')", "st's value", "a finite number, else null", (*ONLY_NUMBERS, 3, N, N, N)),
    ("skillLevel('a')", "the level of skill a", "a finite number, else null", (*ONLY_NUMBERS, 3, N, N, N)),
    (
        "skillLevel('2')",
        "the name of the skill (level 1)",
        "String(name) matches: '2' and [2]",
        (N, N, N, N, 1, N, N, N, 1, N, N),
    ),
    ("sum($.a)", "an item of $.a, [X, 1]", "the finite numbers count", (1, 1, 1, 1, 1, 1, 1, 4, 1, 1, 1)),
)
"""What a function reads in the document, stored as each kind of value."""


def _stored(template: str, value: Any) -> dict[str, Any]:
    """The document of a ``DOCUMENT_TABLE`` row with ``value`` stored where the row says."""

    def holding(key: str, **others: Any) -> dict[str, Any]:
        return others if value is ABSENT else {**others, key: value}

    if template == "attr('st')":
        return {"attributes": {"st": holding("value")}}
    if template == "skillLevel('a')":
        return {"skills": [holding("level", name="a")]}
    if template == "skillLevel('2')":
        return {"skills": [holding("name", level=1)]}
    return {"a": [1] if value is ABSENT else [value, 1]}


DOCUMENT_CELLS = [
    pytest.param(template, value, expected, id=f"{template} with {where} {heading}")
    for template, where, _, row in DOCUMENT_TABLE
    for (heading, _), value, expected in zip(COLUMNS, DOCUMENT_VALUES, row, strict=True)
]


@pytest.mark.parametrize(("template", "value", "expected"), DOCUMENT_CELLS)
def test_document_cell(template: str, value: Any, expected: Any) -> None:
    got = _plain(evaluate(template, _stored(template, value), tables=TABLES))
    assert _same(got, expected), f"{template} with {value!r}: got {got!r}, want {expected!r}"


def _formula(template: str, path: str) -> str:
    return template.replace("X", path)


def _plain(value: Any) -> Any:
    return value.to_dict() if isinstance(value, Dice) else value


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, bool) or isinstance(got, bool) or want is None or got is None:
        return got is want
    if isinstance(want, int | float):
        return isinstance(got, int | float) and got == want
    return bool(got == want)


CELLS = [
    pytest.param(template, path, expected, id=f"{template} with {heading}")
    for template, _, row in TABLE
    for (heading, path), expected in zip(COLUMNS, row, strict=True)
]


@pytest.mark.parametrize(("template", "path", "expected"), CELLS)
def test_cell(template: str, path: str, expected: Any) -> None:
    formula = _formula(template, path)
    if expected is ERROR:
        with pytest.raises(FormulaError):
            evaluate(formula, ROOT, tables=TABLES)
        return
    got = _plain(evaluate(formula, ROOT, tables=TABLES))
    assert _same(got, expected), f"{formula}: got {got!r}, want {expected!r}"


# ---------------------------------------------------------------- the formula guide's table


def _cell_text(value: Any) -> str:
    if value is ERROR:
        return "error"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number_text(value)
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, list):
        return "[" + ", ".join(_cell_text(item) for item in value) + "]"
    return "{" + ", ".join(f"{key}: {_cell_text(item)}" for key, item in value.items()) + "}"


def render_table() -> str:
    """The audit as Markdown tables (the formula guide carries them verbatim): values given to the
    operators and functions, then values a function reads in the document."""
    headings = " | ".join(f"`{heading}`" for heading, _ in COLUMNS)
    rule = "|---|" + "---|" * len(COLUMNS) + "---|"
    rows = [
        f"| `{template}` | " + " | ".join(_cell_text(value) for value in row) + f" | {note} |"
        for template, note, row in TABLE
    ]
    stored = [
        f"| `{template}`, X is {where} | " + " | ".join(_cell_text(value) for value in row) + f" | {note} |"
        for template, where, note, row in DOCUMENT_TABLE
    ]
    return "\n".join(
        [
            f"| `X` is | {headings} | rule |",
            rule,
            *rows,
            "",
            f"| stored `X` is | {headings} | rule |",
            rule,
            *stored,
        ]
    )


def test_the_formula_guide_shows_the_audit() -> None:
    assert render_table() in GUIDE.read_text(encoding="utf-8")


# ---------------------------------------------------------------- rules beyond one value


OTHER_RULES: tuple[tuple[str, Any, Any], ...] = (
    ("7 / 0", {}, None),
    ("0 / 0", {}, None),
    ("'a' + 'b'", {}, None),
    ("'a' < 'b'", {}, None),
    ("1 == '1'", {}, False),
    ("$.t == 1", {"t": True}, False),
    ("$.nil == $.missing", {"nil": None}, True),
    ("$.a == $.a", {"a": [1]}, True),
    ("$.a.b == $.a.b", {"a": [{"b": 1}]}, False),
    ("lookup('thrust', 10) == lookup('thrust', 10)", {}, False),
    ("min()", {}, None),
    ("max()", {}, None),
    ("coalesce()", {}, None),
    ("if(0 / 0, 1, 2)", {}, None),
    ("if(round(1, 'x'), 1, 2)", {}, 2),
    ("if(1, 2, lookup('no such table', 1))", {}, 2),
    ("sum($.mixed)", {"mixed": [1, "2", True, None, [3], {"a": 4}, 0.5]}, 1.5),
    ("round(-2.5)", {}, -2),
    ("round(1.005, 2)", {}, 1),
    ("round(45678, -4)", {}, 50000.00000000001),
    ("round(12345, 0 - 5)", {}, 0),
    ("ceil(40 * 0.8)", {}, 32),
    ("round(2.5, $.nan)", {"nan": "x"}, None),
    ("round(2.5, $.inf)", {"inf": "Infinity"}, None),
    ("round(1234.5, $.d)", {"d": " -2 "}, 1200),
    ("round(1234.5, $.d)", {"d": "0x1"}, 1234.5),
    ("lookup('skillCost', $.k)", {"k": "\u00a03\u3000"}, 12),
    ("lookup('skillCost', $.k)", {"k": "1_0"}, None),
    ("lookup('skillCost', $.k)", {"k": [[3]]}, 12),
    ("lookup('thrust', $.st)", {"st": True}, {"notation": "1d-6", "dice": 1, "adds": -6}),
    ("lookup('difficultyOffset', $.d)", {"d": ["H"]}, 1),
    ("attr('st')", {"attributes": {"st": {"value": "12"}}}, None),
    ("attr('ST')", {"attributes": {"ST": {"value": 12}}}, None),
    ("attr($.id)", {"id": ["dx"], "attributes": {"dx": {"value": 12}}}, 12),
    ("attr($.id)", {"id": 1, "attributes": {"1": {"value": 12}}}, None),
    ("attr('will')", {"secondary": {"will": {"value": 1e308 * 10}}}, None),
    ("attr('per')", {"secondary": {"per": {"value": 11.5}}}, 11.5),
    ("skillLevel(5)", {"skills": [{"name": "5.0", "level": 1}, {"name": 5.0, "level": 2}]}, 2),
    ("skillLevel($.n)", {"n": 1e21, "skills": [{"name": "1e+21", "level": 3}]}, 3),
    ("skillLevel('undefined')", {"skills": [{"level": 4}]}, 4),
    ("skillLevel('null')", {"skills": [{"name": None, "level": 5}]}, 5),
    ("skillLevel($.nil)", {"nil": None, "skills": [{"name": "null", "level": 5}]}, None),
    ("skillLevel('a,b')", {"skills": [{"name": ["a", "b"], "level": 6}]}, 6),
    ("skillLevel('İ')", {"skills": [{"name": "i\u0307", "level": 7}]}, 7),
    ("lookup($.t, 13)", {"t": ["thrust"]}, {"notation": "1d", "dice": 1, "adds": 0}),
    ("skillLevel(' ABC ')", {"skills": [{"name": "abc", "level": 9}]}, 9),
    ("skillLevel('abc')", {"skills": [{"name": "ABC", "level": True}, {"name": "abc", "level": 9}]}, None),
    ("skillLevel('abc')", {"skills": [{"name": 1}, {"name": "abc", "level": 9}]}, 9),
    ("skillLevel('abc')", {"skills": {"name": "abc", "level": 9}}, None),
    (
        "$.items[v=2].n",
        {"items": [{"v": 2, "n": "a"}, {"v": "2", "n": "b"}, {"v": 2.0, "n": "c"}]},
        ["a", "b", "c"],
    ),
    (
        "$.items[v=true].n",
        {"items": [{"v": True, "n": "a"}, {"v": "true", "n": "b"}, {"v": 1, "n": "c"}]},
        ["a", "b"],
    ),
    ("$.items[v=null].n", {"items": [{"v": None, "n": "a"}, {"n": "b"}]}, ["a"]),
    ("$.items[v!=null].n", {"items": [{"v": None, "n": "a"}, {"n": "b"}]}, ["b"]),
    ("$.items[v=undefined].n", {"items": [{"v": None, "n": "a"}, {"n": "b"}]}, ["b"]),
    ("$.items[v=1].n", {"items": [{"v": [1], "n": "a"}, {"v": [1, 2], "n": "b"}]}, ["a"]),
    ("$.missing[v=1]", {}, None),
    ("$.a.b[v=1]", {"a": {}}, None),
    ("$.a.b[v=1]", {"a": []}, []),
    ("$.o[v=1]", {"o": {"v": "1"}}, [{"v": "1"}]),
    ("$.m[v!=1]", {"m": [[1, 2], [3]]}, [1, 2, 3]),
    ("$.m[0=1]", {"m": [[1, 2], [3], "1x"]}, [1, 2, "1x"]),
    ("$.s.length", {"s": "abc"}, 3),
    ("$.s.length", {"s": "a\U0001f600"}, 3),
    ("$.s.length", {"s": {"length": "own"}}, "own"),
    ("$.a.length", {"a": ["ab", [1, 2, 3], 4, {"x": 1}]}, [2, 3]),
    ("$.s.constructor", {"s": "abc"}, None),
    ("$.items['kind'=tool].n", {"items": [{"kind": "tool", "n": 1}, {"kind": "x", "n": 2}]}, [1]),
    (
        "$.items[v=02|2.50].n",
        {"items": [{"v": 2, "n": 1}, {"v": "2.5", "n": 2}, {"v": "02", "n": 3}]},
        [1, 2],
    ),
    ("$.items[v=(].n", {"items": [{"v": "(", "n": 1}]}, [1]),
    ("$.items[v=$].n", {"items": [{"v": "$", "n": 1}]}, [1]),
    ("1" + "0" * 400 + " > 1", {}, None),
    ("$.big * 10 > 1", {"big": 1e308}, None),
    ("if($.big * 10, 1, 2)", {"big": 1e308}, 1),
    ("coalesce(min(), 1)", {}, None),
    ("if(min(), 'an infinity is truthy', 'no')", {}, "an infinity is truthy"),
    ("min(" + "1" + "0" * 400 + ", 1)", {}, None),
    ("sum($.a)", {"a": [1e308 * 10, 1]}, 1),
    ("round(1, 0 - " + "1" + "0" * 400 + ")", {}, 1),
    ("2 / " + "1" + "0" * 400, {}, None),
    ("lookup('skillCost', " + "1" + "0" * 400 + ")", {}, None),
    ("lookup('thrust', min())", {}, {"notation": "Infinityd", "dice": None, "adds": 0}),
    # dice counted in doubles, as JavaScript counts them (1e29 is not one of them)
    (
        "lookup('swing', 1" + "0" * 30 + ")",
        {},
        {"notation": "1.0000000000000001e+29d", "dice": 1.0000000000000001e29, "adds": 0},
    ),
    ("$.g.m.v", {"g": [{"m": [{"v": 1}, {"v": None}, {}]}, {}, {"m": {"v": 2}}]}, [1, None, 2]),
)
"""Rules that one value does not show: formula, document, result."""


@pytest.mark.parametrize(("formula", "root", "expected"), OTHER_RULES, ids=[row[0] for row in OTHER_RULES])
def test_rule(formula: str, root: Any, expected: Any) -> None:
    got = _plain(evaluate(formula, root, tables=TABLES))
    assert got == expected if isinstance(expected, list | dict) else _same(got, expected)


# ---------------------------------------------------------------- the rules as properties, any value

_NAMES = ("st", "dx", " DX ", "per", "thrust", "skillCost", "Broadsword", "3", "true", "null", "a,b")
_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**25), 10**25)
    | st.floats()
    | st.sampled_from(_NAMES)
    | st.text(alphabet="ab 1.,e-+x\u00a0\u0130", max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "v"]), inner, max_size=2)
    ),
    max_leaves=6,
)
"""Values of every kind a document holds (and infinities and NaN, which Python data may hold),
biased towards the texts names are made of."""

_NAMED = {
    "attributes": {"st": {"value": 11}, "dx": {"value": 12}},
    "secondary": {"per": {"value": 13}},
    "skills": [
        {"name": name, "level": level}
        for level, name in enumerate(
            ("Broadsword", "3", "TRUE", "null", "a,b", "[object Object]", "1e+21"), 1
        )
    ],
}
"""A document with attributes, and skills named by the texts values turn into."""


def _outcome(formula: str, root: Any) -> Any:
    try:
        return ("value", _plain(evaluate(formula, root, tables=TABLES)))
    except FormulaError:
        return ("error", None)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_a_name_is_looked_up_as_javascript_writes_the_value(value: Any) -> None:
    # attr(), skillLevel() and lookup() compare String(value): given the value, or its text
    text = js_string(value)
    assume("'" not in text)
    root = {**_NAMED, "x": value}
    for template, written in (
        ("attr({})", text),
        ("skillLevel({})", "" if value is None else text),  # String(name ?? '')
        ("lookup({}, 3)", text),
    ):
        assert _outcome(template.format("$.x"), root) == _outcome(template.format(f"'{written}'"), root)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_digits_and_step_keys_are_javascripts_number_of_the_value(value: Any) -> None:
    assume(value is not None)  # a null key finds no step (its Number() is 0)
    root = {"x": value, "y": js_to_number(value)}
    for template in ("round(1234.5678, {})", "lookup('skillCost', {})", "lookup('thrust', {})"):
        assert _outcome(template.format("$.x"), root) == _outcome(template.format("$.y"), root)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_only_a_finite_number_is_a_number(value: Any) -> None:
    finite = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    root = {
        "x": value,
        "a": [value, 1],
        "attributes": {"st": {"value": value}},
        "skills": [{"name": "a", "level": value}],
    }
    number = float(value) if finite else None
    assert _outcome("$.x + 0", root) == ("value", number)
    assert _outcome("$.x <= $.x", root) == ("value", True if finite else None)
    assert _outcome("sum($.a)", root) == ("value", (number or 0) + 1)
    assert _outcome("attr('st')", root) == ("value", number)
    assert _outcome("skillLevel('a')", root) == ("value", number)
    assert _outcome("min($.x)", root) == ("value", number)


# ---------------------------------------------------------------- whitespace between tokens

JS_SPACES = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""JavaScript's ``\\s``: WhiteSpace and LineTerminator of ECMA-262 (listed here by hand, apart
from the library's own list)."""

NOT_SPACES = "\x1c\x1d\x1e\x1f\x85\u180e\u200b\u200c\u200d\u2060"
"""Characters Python's ``str.isspace()`` or common sense count as space that ``\\s`` does not."""


@pytest.mark.parametrize("space", JS_SPACES, ids=[f"U+{ord(c):04X}" for c in JS_SPACES])
def test_javascript_whitespace_separates_tokens(space: str) -> None:
    formula = f"{space}floor({space}$.a{space}.{space}b{space}){space}+{space}1{space}"
    assert evaluate(formula, {"a": {"b": 2.5}}) == 3
    assert evaluate(
        f"$.items[{space}k{space}={space}x{space}|{space}y{space}].n", {"items": [{"k": "y", "n": 1}]}
    ) == [1]


@pytest.mark.parametrize("char", NOT_SPACES, ids=[f"U+{ord(c):04X}" for c in NOT_SPACES])
def test_other_characters_are_not_whitespace(char: str) -> None:
    with pytest.raises(FormulaSyntaxError, match="Unexpected character"):
        evaluate(f"1 +{char}2", {})


def test_whitespace_inside_a_token_splits_it() -> None:
    with pytest.raises(FormulaSyntaxError):
        evaluate("1\u00a0 2", {})
    with pytest.raises(FormulaSyntaxError):
        evaluate("1.\u30005", {})


# ---------------------------------------------------------------- Number(x)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, 0.0),
        (True, 1.0),
        (False, 0.0),
        ("", 0.0),
        (" \n\u00a0", 0.0),
        ("12", 12.0),
        (" -1.5e2 ", -150.0),
        ("+.5", 0.5),
        ("5.", 5.0),
        ("0x1F", 31.0),
        ("0o17", 15.0),
        ("0b101", 5.0),
        ("-0x1F", math.nan),
        ("Infinity", math.inf),
        ("-Infinity", -math.inf),
        ("inf", math.nan),
        ("nan", math.nan),
        ("1_000", math.nan),
        ("1e400", math.inf),
        ("١٢", math.nan),
        ("12px", math.nan),
        ([], 0.0),
        ([7], 7.0),
        (["8"], 8.0),
        ([1, 2], math.nan),
        ([[None]], 0.0),
        ({"a": 1}, math.nan),
        (2**1100, math.inf),
    ],
)
def test_number_of_a_value(value: Any, expected: float) -> None:
    got = js_to_number(value)
    assert (got != got and expected != expected) or got == expected


def test_the_same_rules_hold_for_trees_and_texts() -> None:
    # compiled code is generated per tree; a tree built from the text must agree with the text
    from gurps_character.formula import parse_formula

    for template, _, row in TABLE:
        for (_, path), expected in zip(COLUMNS, row, strict=True):
            if expected is ERROR:
                continue
            formula = _formula(template, path)
            text_result = _plain(evaluate(formula, ROOT, tables=TABLES))
            tree_result = _plain(evaluate(parse_formula(formula), ROOT, tables=TABLES))
            assert text_result == tree_result or (_same(text_result, tree_result)), formula


def test_table_rows_are_distinct() -> None:
    templates = [template for template, _, _ in TABLE]
    assert len(set(templates)) == len(templates)
    assert all(re.search(r"\bX\b", template) for template in templates)


# ---------------------------------------------------------------- against JavaScript itself

NODE = shutil.which("node")


def _node(script: str, data: Any) -> Any:
    """Runs ``script`` (which reads ``data`` as JSON from stdin into ``input``) in Node.js."""
    assert NODE is not None
    program = f"const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n{script}"
    run = subprocess.run(
        [NODE, "-e", program], input=json.dumps(data), capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(run.stdout)


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_number_of_text_is_javascripts() -> None:
    """js_to_number against JavaScript's own Number() on text made of the characters that matter."""
    rng = random.Random(12)
    pieces = [
        *"0123456789+-.eExXoObBaAfF _\t\n\u00a0\u2028\ufeff\u200b\u0661",
        "Infinity",
        "0x",
        "0b",
        "1e",
        ".5",
    ]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 6))) for _ in range(3000)]
    answers = _node("console.log(JSON.stringify(input.map((t) => String(Number(t)))));", texts)
    for text, answer in zip(texts, answers, strict=True):
        assert js_number_text(js_to_number(text)) == answer, repr(text)


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_whitespace_is_javascripts() -> None:
    spaces = _node(
        "const s = []; for (let i = 0; i < 0x10000; i++) if (/\\s/.test(String.fromCharCode(i))) s.push(i);"
        "console.log(JSON.stringify(s));",
        None,
    )
    assert "".join(map(chr, spaces)) == "".join(sorted(JS_SPACES))


def _node_major() -> str:
    if NODE is None:
        return ""
    return subprocess.run([NODE, "--version"], capture_output=True, text=True, check=False).stdout.split(".")[
        0
    ]


@pytest.mark.skipif(_node_major() != "v20", reason="the reference runs on Node 20, whose pow is pinned here")
def test_round_divides_by_v8s_powers_of_ten() -> None:
    digits = list(range(-22, 23))
    want = _node(
        "console.log(JSON.stringify(input.map((d) => Math.round(45678.9 * 10 ** d) / 10 ** d)));", digits
    )
    for places, expected in zip(digits, want, strict=True):
        assert (
            evaluate(f"round(45678.9, 0 + {places})" if places >= 0 else f"round(45678.9, 0 - {-places})", {})
            == expected
        ), places
