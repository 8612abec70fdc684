"""The formula module's public API: parsing, limits, evaluation against hostile data, helpers."""

from __future__ import annotations

import contextlib
import math
import pickle
import subprocess
import sys
import textwrap
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gurps_character.formula as formula
from gurps_character.formula import (
    Dice,
    FormulaError,
    FormulaSyntaxError,
    evaluate,
    parse_dice,
    parse_formula,
    plain_value,
    round_up,
)
from gurps_character.formula._ast import Binary, Call, Compare, Field, Filter, Negate, Number, Path, String
from gurps_character.formula._cache import SizedCache
from gurps_character.formula._codegen import generate
from gurps_character.formula._evaluator import (
    _BY_TEXT,
    _HELPERS,
    CACHE_BUDGET,
    COMPILE_LIMIT,
    compile_formula,
)
from gurps_character.formula._interpret import interpret
from gurps_character.formula._jsnum import js_number_text
from gurps_character.formula._parser import _PARSED, MAX_FORMULA_LENGTH, MAX_NESTING
from gurps_character.formula._tables import prepare_tables
from gurps_character.formula._values import output_value


def test_public_names() -> None:
    assert set(formula.__all__) == {
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
    }
    assert issubclass(FormulaSyntaxError, FormulaError)
    assert issubclass(FormulaError, ValueError)


def test_import_uses_the_standard_library_only() -> None:
    script = textwrap.dedent(
        """
        import sys
        sys.modules["jsonschema"] = None
        sys.modules["referencing"] = None
        before = set(sys.modules)
        import gurps_character.formula as f
        assert f.evaluate("1 + 1", {}) == 2
        stdlib = sys.stdlib_module_names
        third_party = sorted(
            name for name in set(sys.modules) - before
            if sys.modules[name] is not None
            and name.partition(".")[0] not in stdlib
            and name.partition(".")[0] != "gurps_character"
        )
        assert not third_party, third_party
        assert sys.modules["jsonschema"] is None and sys.modules["referencing"] is None
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


# ---------------------------------------------------------------------------------- parsing


def test_parse_tree_shape() -> None:
    tree = parse_formula("floor($.items[kind=tool|weapon].cost / 2) + -x * 3 >= 'a'")
    assert tree == Compare(
        op=">=",
        left=Binary(
            first=Call(
                name="floor",
                args=(
                    Binary(
                        first=Path(
                            root="$",
                            steps=(
                                Field("items", 8),
                                Filter("kind", False, ("tool", "weapon"), 13),
                                Field("cost", 32),
                            ),
                            position=6,
                        ),
                        rest=(("/", Number(2.0, "2", 39)),),
                        position=6,
                    ),
                ),
                position=0,
            ),
            rest=(("+", Binary(Negate(Path("x", (), 45), 44), (("*", Number(3.0, "3", 49)),), 44)),),
            position=0,
        ),
        right=String("a", 54),
        position=0,
    )


def test_operator_chains_are_flat() -> None:
    source = " + ".join(["1"] * 2000)  # a long sum is one node, not a 2000-deep tree
    tree = parse_formula(source)
    assert isinstance(tree, Binary) and len(tree.rest) == 1999
    assert evaluate(source, {}) == 2000


def test_parse_is_cached_per_text() -> None:
    assert parse_formula("1 + value") is parse_formula("1 + value")


def test_evaluate_accepts_a_tree() -> None:
    tree = parse_formula("value * 2")
    assert evaluate(tree, {"value": 21}) == 42
    assert evaluate(Number(1.5, "1.5", 0), None) == 1.5


@pytest.mark.parametrize("source", [None, 42, b"1 + 1", ["1"]])
def test_parse_rejects_non_text(source: Any) -> None:
    with pytest.raises(FormulaError):
        parse_formula(source)
    with pytest.raises(FormulaError):
        evaluate(source, {})


def test_syntax_error_attributes_and_message() -> None:
    with pytest.raises(FormulaSyntaxError) as info:
        parse_formula("2 * (3 + ")
    error = info.value
    assert (error.source, error.position, error.message) == ("2 * (3 + ", 9, "Expected an expression")
    assert str(error) == "Expected an expression\n    2 * (3 + \n             ^"
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.position) == (FormulaSyntaxError, str(error), 9)


def test_syntax_error_caret_stays_aligned_with_control_characters() -> None:
    with pytest.raises(FormulaSyntaxError) as info:
        parse_formula("1 +\n\t#")
    assert str(info.value) == "Unexpected character '#'\n    1 +  #\n         ^"


def test_nesting_limit() -> None:
    deepest = "(" * MAX_NESTING + "1" + ")" * MAX_NESTING
    assert evaluate(deepest, {}) == 1
    with pytest.raises(FormulaSyntaxError) as info:
        parse_formula("(" + deepest + ")")
    assert info.value.message == "Formula is nested too deeply (the limit is 64 levels)"
    assert info.value.position == MAX_NESTING + 1
    for source in ("-" * 1000 + "1", "floor(" * 1000 + "1" + ")" * 1000, "(" * 5000):
        with pytest.raises(FormulaSyntaxError, match="nested too deeply"):
            parse_formula(source)


def test_length_limit() -> None:
    longest = "1" + " + 1" * ((MAX_FORMULA_LENGTH - 1) // 4)
    assert len(longest) <= MAX_FORMULA_LENGTH
    assert evaluate(longest, {}) == (MAX_FORMULA_LENGTH - 1) // 4 + 1
    too_long = "1" + " " * MAX_FORMULA_LENGTH
    with pytest.raises(FormulaSyntaxError) as info:
        parse_formula(too_long)
    assert info.value.message == "Formula is too long (10001 characters; the limit is 10000)"
    assert info.value.position == MAX_FORMULA_LENGTH
    assert len(str(info.value)) < 300  # the message shows an excerpt, not the whole text


# ---------------------------------------------------------------------------------- evaluation


def test_local_defaults_to_root_but_none_is_a_local() -> None:
    assert evaluate("value", {"value": 1}) == 1
    assert evaluate("value", {"value": 1}, local={"value": 2}) == 2
    assert evaluate("value", {"value": 1}, local=None) is None


def test_whole_numbers_come_back_as_int() -> None:
    assert type(evaluate("7 / 1", {})) is int
    assert type(evaluate("$.x", {"x": 3.0})) is int
    assert type(evaluate("7 / 2", {})) is float
    assert evaluate("$.x", {"x": [1.0, 2.5]}) == [1, 2.5]
    assert type(evaluate("$.x", {"x": [1.0]})[0]) is int  # type: ignore[index]


def test_dice_results() -> None:
    tables = {"t": {"mode": "step", "valueType": "dice", "entries": [[1, "1d-1"]]}}
    result = evaluate("lookup('t', 5)", {}, tables=tables)
    assert result == Dice("1d-1", 1, -1)
    assert isinstance(result, Dice) and result.to_dict() == {"notation": "1d-1", "dice": 1, "adds": -1}


class Hostile(Mapping[str, Any]):
    """A mapping that fails on every read."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("no")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("no")

    def __len__(self) -> int:
        return 1

    def get(self, key: str, default: Any = None) -> Any:
        raise RuntimeError("no")


def test_hostile_roots_raise_only_formula_errors() -> None:
    cyclic: dict[str, Any] = {"n": 1}
    cyclic["self"] = cyclic
    assert evaluate("$.self.self.self.n + 1", cyclic) == 2
    with pytest.raises(FormulaError, match="contains itself"):
        evaluate("$.self", cyclic)
    looping: list[Any] = [{"a": 1}]
    looping.append(looping)
    with pytest.raises(FormulaError, match="contains itself"):
        evaluate("$.a", {"a": looping})
    with pytest.raises(FormulaError):
        evaluate("$.x.y", {"x": Hostile()})
    deep: list[Any] = []
    for _ in range(10_000):
        deep = [deep]
    assert evaluate("sum($.d.x)", {"d": deep}) == 0
    with pytest.raises(FormulaError):
        evaluate("$.d", {"d": deep})


@pytest.mark.parametrize(
    ("source", "root", "expected"),
    [
        ("$.x + 1", {"x": 10**400}, None),  # JSON.parse would read Infinity
        ("$.x > 0", {"x": 10**400}, None),  # and Infinity is no number to compare
        ("$.x", {"x": 10**400}, None),
        ("$.x - 1", {"x": 2**53 + 2}, 2**53),  # 2**53 + 1 is no double: as in JavaScript
        ("$.x + 1", {"x": math.inf}, None),
        ("$.x + 1", {"x": math.nan}, None),
        ("if($.x, 1, 2)", {"x": math.nan}, 2),
        ("$.x == $.x", {"x": math.nan}, False),
        ("$.x + 1", {"x": True}, None),
        ("sum($.x)", {"x": (1, 2.5, True, None, "4")}, 3.5),
        ("$.x.y", {"x": ({"y": 1}, {"y": 2})}, [1, 2]),
        ("$.x.y", MappingProxyType({"x": MappingProxyType({"y": (1,)})}), [1]),
        ("$.x.y", {"x": object()}, None),
        ("$.x[k=1].y", {"x": [object(), 1, None, "s", {"k": 1, "y": 2}]}, [2]),
        ("skillLevel('a')", {"skills": ({"name": "A", "level": 4},)}, 4),
        ("attr('st')", MappingProxyType({"attributes": {"st": {"value": 9}}}), 9),
        ("$.x", {"x": {1: "non-text key", "k": 2}}, {"k": 2}),
    ],
)
def test_unusual_data(source: str, root: Any, expected: Any) -> None:
    assert evaluate(source, root) == expected


def test_tables_must_be_a_mapping() -> None:
    tables: Any
    for tables in (None, [], "thrust", {"thrust": 1}):
        with pytest.raises(FormulaError, match="Unknown table 'thrust'"):
            evaluate("lookup('thrust', 10)", {}, tables=tables)


# ---------------------------------------------------------------------------------- helpers


@pytest.mark.parametrize(
    ("notation", "expected"),
    [
        ("3d", Dice("3d", 3, 0)),
        ("1d+2", Dice("1d+2", 1, 2)),
        ("2d-1", Dice("2d-1", 2, -1)),
        ("0d+0", Dice("0d", 0, 0)),  # the notation written anew, as the reference writes it
        ("02d-01", Dice("2d-1", 2, -1)),
        ("1d-0", Dice("1d", 1, 0)),
        (" 2d+1\u3000", Dice("2d+1", 2, 1)),  # JavaScript's trim()
        (["1d+1"], Dice("1d+1", 1, 1)),  # String(['1d+1'])
        ("d6", None),
        ("3D", None),
        ("1d+", None),
        ("1d 2", None),
        ("3d\n", Dice("3d", 3, 0)),
        ("3d\x85", None),  # not JavaScript whitespace
        ("\uff13d", None),  # a full-width digit is not [0-9]
        ("", None),
        (None, None),
        (3, None),
        ("9" * 5000 + "d", Dice("Infinityd", math.inf, 0)),  # Number() of 5000 nines
    ],
)
def test_parse_dice(notation: Any, expected: Dice | None) -> None:
    assert parse_dice(notation) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [(32.00000000000001, 32), (2.000000002, 3), (2.1, 3), (-0.5, 0), (5, 5), (-2.5, -2), (1e-10, 0)],
)
def test_round_up(value: float, expected: int) -> None:
    assert round_up(value) == expected
    assert type(round_up(value)) is int


def test_round_up_edges() -> None:
    assert round_up(math.inf) == math.inf
    assert math.isnan(round_up(math.nan))
    with pytest.raises(FormulaError):
        round_up("3")  # type: ignore[arg-type]
    with pytest.raises(FormulaError):
        round_up(True)


def test_plain_value() -> None:
    assert plain_value(Dice("2d-1", 2, -1)) == "2d-1"
    assert plain_value({"notation": "1d", "dice": 1, "adds": 0}) == "1d"
    assert plain_value({"notation": 1}) == 1  # the reference's 'notation' in x: whatever it holds
    assert plain_value({"notation": None, "dice": 1}) is None
    assert plain_value({"dice": 1}) == {"dice": 1}
    for value in (3, 2.5, "x", None, True, [1]):
        assert plain_value(value) == value


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (3, "3"),
        (3.0, "3"),
        (-0.0, "0"),
        (1.5, "1.5"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (123456789012345680000.0, "123456789012345680000"),
        (1.5e-7, "1.5e-7"),
        (0.000001, "0.000001"),
        (2**60, "1152921504606847000"),
        (5e-324, "5e-324"),
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (math.nan, "NaN"),
    ],
)
def test_number_text_is_javascripts(number: float, text: str) -> None:
    assert js_number_text(number) == text


# ---------------------------------------------------------------------------------- properties

_ATOMS = [
    "1",
    "0",
    "2.5",
    "1" + "0" * 400,  # an infinity
    "'a'",
    "'st'",
    "$",
    "$.x",
    "x",
    "y.z",
    "$.list",
    "$.list.v",
    "$.list[v=1|2].v",
    "$.nil",
    "$.nil[v=1]",
    "$.x.length",
    "$.list.length",
    "$.list[0=1]",
    "$.list['v'=02|(]",
    "(1 == 1)",
]
_FUNCTIONS = [
    "floor",
    "ceil",
    "round",
    "abs",
    "min",
    "max",
    "if",
    "sum",
    "coalesce",
    "lookup",
    "attr",
    "skillLevel",
]
_ROOT = {"x": 3, "y": {"z": [1, 2]}, "list": [{"v": 1}, {"v": "2"}, {"v": None}, [{"v": 4}]], "nil": None}


def _expressions() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "==", "!=", "<", ">=", " "]), inner).map(
                lambda t: f"{t[0]} {t[1]} {t[2]}"
            ),
            inner.map(lambda s: f"-{s}"),
            inner.map(lambda s: f"({s})"),
            st.tuples(st.sampled_from(_FUNCTIONS), st.lists(inner, max_size=4)).map(
                lambda t: f"{t[0]}({', '.join(t[1])})"
            ),
        )

    return st.recursive(st.sampled_from(_ATOMS), extend, max_leaves=12)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["x", "v", "z", "list"]), inner)
    ),
    max_leaves=20,
)


def _check(value: Any) -> None:
    if isinstance(value, float):
        assert math.isfinite(value)
    elif isinstance(value, list):
        for item in value:
            _check(item)
    elif isinstance(value, dict):
        for item in value.values():
            _check(item)
    else:
        assert value is None or isinstance(value, bool | int | str | Dice)


@settings(max_examples=300, deadline=None)
@given(_expressions())
def test_random_formulas_give_a_value_or_a_formula_error(source: str) -> None:
    try:
        value = evaluate(source, _ROOT, tables={"t": {"mode": "step", "entries": [[0, 1]]}})
    except FormulaError:
        return
    _check(value)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="1.$x()[]=!|,'+-*/<> ", max_size=20))
def test_random_text_gives_a_value_or_a_formula_error(source: str) -> None:
    with contextlib.suppress(FormulaError):
        _check(evaluate(source, _ROOT))


@settings(max_examples=200, deadline=None)
@given(_JSON)
def test_any_json_root_gives_a_value(root: Any) -> None:
    for source in (
        "x + v * 2",
        "sum($.list.v) + sum($.z)",
        "$.list[v=1|true|null].x",
        "min($.x, 1) == x",
        "if(x, v, z)",
    ):
        _check(evaluate(source, root))


# ---------------------------------------------------------------- large formulas: closures, not code

_TABLES = {"t": {"mode": "step", "entries": [[0, 1], [5, "x"]]}, "m": {"mode": "map", "entries": {"1": 2}}}


def _outcome(run: Any, root: Any) -> Any:
    """A compiled formula's value on ``root`` as a result carries it, or the exception's type."""
    try:
        value = output_value(run(root, root, prepare_tables(_TABLES)))
    except Exception as error:
        return type(error)
    return repr(value)  # tells 1 from 1.0 and -0.0 from 0.0


@settings(max_examples=300, deadline=None)
@given(_expressions(), _JSON)
def test_closures_give_what_the_generated_code_gives(source: str, root: Any) -> None:
    # a formula too large to compile is evaluated through closures: the same values, step for step
    try:
        node = parse_formula(source)
        compiled = generate(node, _HELPERS)
    except FormulaError as error:
        with pytest.raises(FormulaError) as caught:
            interpret(parse_formula(source), _HELPERS)
        assert str(caught.value) == str(error)
        return
    interpreted = interpret(node, _HELPERS)
    shapes = ({"x": root, "v": [root, 2], "list": [{"v": 1, "x": root}]}, {"list": root, "x": None})
    for value in (root, _ROOT, *shapes):  # filters of arrays, of non-arrays and of missing values
        assert _outcome(interpreted, value) == _outcome(compiled, value)


def test_large_formulas_are_interpreted_and_small_ones_compiled() -> None:
    small = " + ".join(["x"] * 10)
    large = " + ".join(["x"] * (COMPILE_LIMIT + 1))
    assert compile_formula(small).__name__ == "_formula"  # generated code
    assert compile_formula(large).__name__ != "_formula"  # closures
    assert evaluate(large, {"x": 2}) == 2 * (COMPILE_LIMIT + 1)


def test_formula_caches_are_bounded_by_size() -> None:
    # 1,024 entries of 10,000-character formulas would have been gigabytes
    cache: SizedCache[str] = SizedCache(100)
    for index in range(50):
        cache.get_or_make(f"key {index}", 30, lambda: "value")
    assert (len(cache), cache.weight) == (3, 90)
    assert cache.get_or_make("heavy", 101, lambda: "made") == "made"
    assert "heavy" not in [key for key in cache._entries]  # heavier than the whole budget: not kept
    for index in range(30):
        evaluate(" + ".join(["x"] * 2_000) + f" + {index}", {"x": 1})
    assert _BY_TEXT.weight <= CACHE_BUDGET and _PARSED.weight <= CACHE_BUDGET


@pytest.mark.parametrize("size", ["compiled", "interpreted"])
def test_coalesce_evaluates_every_argument_first(size: str) -> None:
    """As the reference: a call's arguments are all evaluated before the function runs, so a
    later argument's error is the call's error, even after a value that is not null."""
    padding = " + 0" * (COMPILE_LIMIT + 1 if size == "interpreted" else 0)
    with pytest.raises(FormulaError, match="nope"):
        evaluate(f"coalesce(1, lookup('nope', 1)){padding}", {})
    assert evaluate(f"coalesce($.a, 2, 3){padding}", {"a": None}) == 2
