"""The public docstrings meet the API reference's standard (issue 32, item 5).

``scripts/docstring_audit.py`` walks every public name and reports what the generated reference
would miss: a parameter without its ``Args`` entry, a value without ``Returns``, a function that
can raise :class:`~gurps_character.CharacterError` without ``Raises`` (or naming a code it never
raises, or no code at all), a result type's field without its entry, a public module whose
docstring names none of its names, a cross-reference the reference cannot resolve. This file
runs the audit (no gap may come back) and shows that each check finds what it is for.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import gurps_character
import gurps_character.formula
from gurps_character import CombatStats, Fighter, RollResult, WeaponDamageLine
from tests.support.paths import REPOSITORY

AUDIT_PATH = REPOSITORY / "scripts" / "docstring_audit.py"
HIT_LOCATION = inspect.unwrap(gurps_character.hit_location)
"""The function behind ``guarded``'s wrapper: the docstring the audit reads."""


@pytest.fixture(scope="module")
def audit() -> Iterator[ModuleType]:
    """scripts/docstring_audit.py, imported from its file (``scripts`` is not a package)."""
    name = "_gurps_character_docstring_audit"
    spec = importlib.util.spec_from_file_location(name, AUDIT_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[name]


def _gaps(audit: ModuleType, name: str) -> list[str]:
    return [str(gap) for gap in audit.audit(name) if gap.name == name]


# ---------------------------------------------------------------- no gap


def test_no_public_docstring_has_a_gap(audit: ModuleType) -> None:
    assert [str(gap) for gap in audit.audit()] == []


def test_the_script_reports_no_gap(audit: ModuleType) -> None:
    lines: list[str] = []
    assert audit.main([], out=lines.append) == 0
    assert lines == ["0 gaps"]


def test_the_audit_walks_every_public_module(audit: ModuleType) -> None:
    walked = {module.__name__ for module in audit.public_modules()}
    assert {"gurps_character", "gurps_character.formula", "gurps_character.yaml"} <= walked


# ---------------------------------------------------------------- what a function can raise


def test_codes_are_read_through_the_calls(audit: ModuleType) -> None:
    """update_character raises some codes itself and others in the helpers it calls."""
    codes = audit.reachable_codes(gurps_character.update_character)
    assert {"notAnObject", "invalidJson", "invalidArgument", "notUpdatable", "invalidValue"} <= codes
    assert codes <= set(audit._codes())
    assert "invalidDocument" not in audit.reachable_codes(gurps_character.roll_3d)  # guarded's net


def test_codes_of_an_optional_extra_imported_in_the_function_are_found(audit: ModuleType) -> None:
    """load_character imports the YAML reader inside its body (an optional extra)."""
    assert {"invalidYaml", "missingExtra"} <= audit.reachable_codes(gurps_character.load_character)


def test_an_error_caught_and_kept_is_not_raised(audit: ModuleType) -> None:
    """A damage line keeps why its dice cannot be resolved instead of raising it."""
    assert audit.reachable_codes(WeaponDamageLine.__dict__["to_dict"]) == frozenset()
    assert audit.reachable_codes(RollResult.__dict__["to_dict"]) == frozenset()


def test_codes_of_a_function_referred_to_count_as_named(audit: ModuleType) -> None:
    """best_defense says it raises "as character_defense", whose Raises names the codes."""
    named = audit.named_codes("gurps_character.best_defense", gurps_character.best_defense)
    assert {"notAnObject", "schema", "invalidArgument"} <= named


# ---------------------------------------------------------------- each check can fail


def _replace_doc(monkeypatch: pytest.MonkeyPatch, obj: Any, old: str, new: str) -> None:
    doc = obj.__doc__
    assert isinstance(doc, str) and old in doc
    monkeypatch.setattr(obj, "__doc__", doc.replace(old, new))


def test_a_parameter_left_out_of_args_is_a_gap(audit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    _replace_doc(monkeypatch, HIT_LOCATION, "roll:", "dice:")
    assert _gaps(audit, "gurps_character.hit_location") == [
        "args     gurps_character.hit_location: Args leaves out roll",
        "args     gurps_character.hit_location: Args names dice, which it does not take",
    ]


def test_no_args_section_is_a_gap(audit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HIT_LOCATION, "__doc__", "The location a 3d roll gives.")
    assert _gaps(audit, "gurps_character.hit_location") == [
        "args     gurps_character.hit_location: no Args section for roll",
        "returns  gurps_character.hit_location: no Returns section",
        "raises   gurps_character.hit_location: no Raises entry for CharacterError (invalidArgument)",
    ]


def test_a_method_without_returns_is_a_gap(audit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RollResult.to_dict, "__doc__", '``{"success", "critical", "margin", "roll"}``.')
    assert _gaps(audit, "gurps_character.RollResult.to_dict") == [
        "returns  gurps_character.RollResult.to_dict: no Returns section"
    ]


def test_a_code_the_function_never_raises_is_a_gap(
    audit: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    _replace_doc(monkeypatch, HIT_LOCATION, "``invalidArgument``", "``invalidArgument``, ``schema``")
    assert _gaps(audit, "gurps_character.hit_location") == [
        "raises   gurps_character.hit_location: Raises names schema, which the code never raises"
    ]


def test_a_code_that_does_not_exist_is_a_gap(audit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    _replace_doc(monkeypatch, HIT_LOCATION, "``invalidArgument``", "``badRoll``")
    assert _gaps(audit, "gurps_character.hit_location") == [
        "code     gurps_character.hit_location: Raises names badRoll, not codes of errors.ErrorCode"
    ]


def test_never_raises_must_be_said(audit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fighter.start_turn reads only its own document; its docstring says so."""
    _replace_doc(monkeypatch, Fighter.start_turn, "Never raises", "It does not fail")
    assert _gaps(audit, "gurps_character.Fighter.start_turn") == [
        "raises   gurps_character.Fighter.start_turn: no Raises entry for CharacterError "
        "(invalidArgument, notAnObject)"
    ]


def test_a_field_left_out_is_a_gap(audit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    _replace_doc(monkeypatch, CombatStats, "        will: Will.\n", "")
    assert _gaps(audit, "gurps_character.CombatStats") == [
        "fields   gurps_character.CombatStats: no Attributes entry (or docstring) for will"
    ]


def test_a_field_documented_twice_is_a_gap(audit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deviation.justification has its docstring where it is declared: an entry too would be
    a second description of one attribute in the reference."""
    _replace_doc(monkeypatch, gurps_character.Deviation, "        actual: What the document stores.\n",
                 "        actual: What the document stores.\n        justification: Why.\n")  # fmt: skip
    assert _gaps(audit, "gurps_character.Deviation") == [
        "fields   gurps_character.Deviation: justification documented twice (Attributes and docstring)"
    ]


def test_a_private_or_unknown_reference_is_a_gap(audit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    _replace_doc(monkeypatch, HIT_LOCATION, "roll:", "roll: (see :func:`._roll` and :data:`MAX_ROLL`)")
    assert _gaps(audit, "gurps_character.hit_location") == [
        "xref     gurps_character.hit_location: refers to the private path '._roll'",
        "xref     gurps_character.hit_location: refers to 'MAX_ROLL', which no public module documents",
    ]


def test_references_resolve_as_sphinx_finds_them(audit: ModuleType) -> None:
    """In the class, in the module, or by the full name; the standard library is intersphinx's."""
    assert (
        audit._resolve("from_dict", "gurps_character.Fighter.to_dict") == "gurps_character.Fighter.from_dict"
    )
    assert audit._resolve("FightStep", "gurps_character.Fighter.attack") == "gurps_character.FightStep"
    assert audit._resolve("Dice", "gurps_character.formula.parse_dice") == "gurps_character.formula.Dice"
    assert audit._resolve("parse_character", "gurps_character.yaml.parse_yaml_character") is None
    assert audit._resolves("random.Random", "gurps_character.roll_3d")
    assert not audit._resolves("gurps_character.locations.LOCATION_NAMES", "gurps_character.hit_location")


def test_a_module_docstring_naming_none_of_its_names_is_a_gap(
    audit: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gurps_character.formula, "__doc__", "The rule evaluator.")
    assert _gaps(audit, "gurps_character.formula") == [
        "module   gurps_character.formula: the docstring names 0 of its public names"
    ]


def test_the_script_lists_codes_to_judge(audit: ModuleType) -> None:
    """``--verbose`` shows codes the generous reading finds beyond those named, for a person."""
    lines: list[str] = []
    assert audit.main(["--verbose"], out=lines.append) == 0
    assert lines[-1] == "0 gaps"
    assert all(line.startswith("unlisted gurps_character.") for line in lines[:-1])


def test_a_colon_napoleon_reads_as_a_type_is_a_gap(
    audit: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Napoleon takes what stands before a first-line colon of a property's docstring, or of a
    Returns section, for a type: the reference would show "Whether the fighter can act" as one."""
    able = Fighter.__dict__["able"].fget
    monkeypatch.setattr(able, "__doc__", "Whether the fighter can act: alive and conscious.")
    _replace_doc(monkeypatch, RollResult.to_dict, '``{"success"', 'The roll: ``{"success"')
    assert _gaps(audit, "gurps_character.Fighter.able") == [
        "napoleon gurps_character.Fighter.able: "
        "the first line's colon makes 'Whether the fighter can act' its type"
    ]
    assert _gaps(audit, "gurps_character.RollResult.to_dict") == [
        "returns  gurps_character.RollResult.to_dict: the first line's colon makes 'The roll' the return type"
    ]
    assert audit._napoleon_type('A ``{"a": 1}`` and :func:`x` only') is None
    assert audit._napoleon_type("Ends with a colon:") is None


def test_a_property_listed_among_the_attributes_is_a_gap(
    audit: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """autodoc shows a property with its own docstring: an Attributes entry would be a second."""
    _replace_doc(
        monkeypatch, gurps_character.FightStep, "        hit:", "        change: The change.\n        hit:"
    )
    assert _gaps(audit, "gurps_character.FightStep") == [
        "fields   gurps_character.FightStep: "
        "change documented twice (Attributes and the property's docstring)"
    ]


def test_a_named_tuple_field_listed_among_the_attributes_is_a_gap(
    audit: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = "What parse_character returns.\n\nAttributes:\n    character: The document.\n"
    monkeypatch.setattr(gurps_character.Parsed, "__doc__", doc)
    assert _gaps(audit, "gurps_character.Parsed") == [
        "fields   gurps_character.Parsed: character documented twice (Attributes and docstring)",
        "fields   gurps_character.Parsed: character: a NamedTuple's fields take a docstring, not an entry",
    ]
