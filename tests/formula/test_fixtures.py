"""Data-driven tests of the formula language: tests/fixtures/formula/*.json.

Each file has a ``description``, an optional shared ``root`` and ``cases``. A case has a
``formula`` and either ``value`` (the expected result, as JSON) or ``error`` (the exception class
name, with ``message`` and, for syntax errors, ``position``). A case may bring its own ``root``,
``local`` (absent means "the root") and ``tables`` (absent means the bundled schema's tables).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from gurps_character import SCHEMA
from gurps_character.formula import Dice, FormulaError, FormulaSyntaxError, evaluate, parse_formula
from tests.support.paths import TESTS

FIXTURES = TESTS / "fixtures" / "formula"
TABLES = SCHEMA["x-gurps-tables"]


def _load() -> list[Any]:
    params = []
    for path in sorted(FIXTURES.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for index, case in enumerate(data["cases"]):
            case = {"root": data.get("root"), **case}
            params.append(pytest.param(case, id=f"{path.stem}-{index}:{case['formula']}"))
    return params


def canon(value: Any) -> Any:
    """JSON value equality: 3 == 3.0, but booleans are not numbers."""
    if isinstance(value, Dice):
        return canon(value.to_dict())
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        return ("number", float(value))
    if isinstance(value, dict):
        return ("object", sorted((key, canon(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("array", [canon(item) for item in value])
    return value


def _evaluate(case: dict[str, Any]) -> Any:
    kwargs: dict[str, Any] = {"tables": case.get("tables", TABLES)}
    if "local" in case:
        kwargs["local"] = case["local"]
    return evaluate(case["formula"], case["root"], **kwargs)


CASES = _load()


def test_fixtures_exist() -> None:
    assert len(CASES) > 250
    for name in ("grammar", "functions", "tables", "nulls", "errors"):
        assert (FIXTURES / f"{name}.json").is_file()


@pytest.mark.parametrize("case", CASES)
def test_case(case: dict[str, Any]) -> None:
    if "error" in case:
        expected = {"FormulaSyntaxError": FormulaSyntaxError, "FormulaError": FormulaError}[case["error"]]
        with pytest.raises(expected) as info:
            _evaluate(case)
        assert type(info.value) is expected
        assert str(info.value) == case["message"]
        if isinstance(info.value, FormulaSyntaxError):
            assert info.value.position == case["position"]
            assert info.value.source == case["formula"]
            with pytest.raises(FormulaSyntaxError):
                parse_formula(case["formula"])
    else:
        assert canon(_evaluate(case)) == canon(case["value"])


@pytest.mark.parametrize("case", [c for c in CASES if "error" not in c.values[0]])
def test_result_is_fresh_json(case: dict[str, Any]) -> None:
    """Results are plain JSON values (ints when whole) that share nothing with the input."""
    result = _evaluate(case)
    if isinstance(result, float):
        assert not result.is_integer()
    if isinstance(result, list | dict):
        json.dumps(result)
        assert not _container_ids(result) & _container_ids(case["root"])


def _container_ids(value: Any) -> set[int]:
    found: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.add(id(item))
            stack.extend(item.values())
        elif isinstance(item, list):
            found.add(id(item))
            stack.extend(item)
    return found
