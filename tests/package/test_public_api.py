"""The public surface: ``__all__`` lists exactly the public names, each is documented (Google
style), ``__version__`` is the project's version, and the typed consumer uses every name."""

from __future__ import annotations

import ast
import builtins
import fnmatch
import importlib
import importlib.metadata
import inspect
import pkgutil
import re
import tomllib
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import gurps_character
import gurps_character.formula
import gurps_character.sheet
import gurps_character.yaml
from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
USAGE = ROOT / "tests" / "typing" / "usage.py"
PUBLIC_MODULES = (gurps_character, gurps_character.formula, gurps_character.sheet, gurps_character.yaml)

# Google style section headers (https://google.github.io/styleguide/pyguide.html#383-functions-and-methods).
SECTION = re.compile(
    r"(Args|Arguments|Attributes|Example|Examples|Note|Notes|Raises|Returns|Yields|Warning|See Also):"
)
ENTRY = re.compile(r"    (\*{0,2}[A-Za-z_][A-Za-z0-9_.]*)(?: \([^)]*\))?:(?: |$)")
ORDER = ("Args", "Returns", "Yields", "Raises")


def _public(module: types.ModuleType) -> list[tuple[str, Any]]:
    return [(name, getattr(module, name)) for name in module.__all__]


def _all_items() -> list[tuple[str, Any]]:
    return [(f"{module.__name__}.{name}", obj) for module in PUBLIC_MODULES for name, obj in _public(module)]


def _defined_in_package(obj: object) -> bool:
    if not (inspect.isclass(obj) or inspect.isfunction(obj)):
        return False
    return str(getattr(obj, "__module__", "")).split(".")[0] == "gurps_character"


def _package_modules() -> Iterator[types.ModuleType]:
    yield gurps_character
    for info in pkgutil.walk_packages(gurps_character.__path__, "gurps_character."):
        if info.name.rsplit(".", 1)[-1] != "__main__":
            yield importlib.import_module(info.name)


def _own_doc(obj: Any) -> str | None:
    """The docstring written for ``obj`` itself: not inherited, not a dataclass's generated one."""
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else obj.__doc__
    if not isinstance(doc, str) or not doc.strip():
        return None
    if inspect.isclass(obj) and doc.startswith(f"{obj.__name__}("):  # dataclass / NamedTuple default
        return None
    return inspect.cleandoc(doc)


def _sections(doc: str) -> dict[str, list[str]]:
    """Google-style sections of a cleaned docstring: header → its (indented) lines."""
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for line in doc.splitlines():
        match = SECTION.fullmatch(line)
        if match:
            assert match.group(1) not in sections, f"section {match.group(1)} appears twice"
            current = match.group(1)
            sections[current] = []
        elif current is not None:
            if line and not line.startswith(" "):
                current = None  # prose again
            else:
                sections[current].append(line)
    return sections


def _entries(name: str, section: str, lines: list[str]) -> list[str]:
    """The names an ``Args``/``Raises`` section documents; every line is an entry or indented more."""
    names = []
    for line in lines:
        if not line:
            continue
        match = ENTRY.match(line)
        if match:
            names.append(match.group(1))
        else:
            assert line.startswith(" " * 8), f"{name}: {section}: not an entry or a continuation: {line!r}"
    return names


def _functions() -> list[tuple[str, Callable[..., Any], types.ModuleType]]:
    return [
        (f"{module.__name__}.{name}", obj, module)
        for module in PUBLIC_MODULES
        for name, obj in _public(module)
        if inspect.isfunction(obj)
    ]


# ---------------------------------------------------------------- __all__


@pytest.mark.parametrize("module", PUBLIC_MODULES, ids=lambda module: module.__name__)
def test_every_name_in_all_exists_once(module: types.ModuleType) -> None:
    assert len(set(module.__all__)) == len(module.__all__), "a name is listed twice"
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert missing == []
    assert not [name for name, obj in _public(module) if isinstance(obj, types.ModuleType)], "a submodule"


@pytest.mark.parametrize("module", PUBLIC_MODULES, ids=lambda module: module.__name__)
def test_every_public_definition_is_in_all(module: types.ModuleType) -> None:
    """A function or class of the package that the module shows under a public name is in __all__."""
    shown = {
        name
        for name, obj in vars(module).items()
        if not name.startswith("_") and not isinstance(obj, types.ModuleType) and _defined_in_package(obj)
    }
    assert shown - set(module.__all__) == set()


def test_every_module_all_names_exist() -> None:
    """Inner modules' ``__all__`` (what ``from module import *`` takes) name real attributes."""
    for module in _package_modules():
        names = getattr(module, "__all__", ())
        assert [name for name in names if not hasattr(module, name)] == [], module.__name__


# ---------------------------------------------------------------- the version


def test_version_is_the_projects() -> None:
    with (ROOT / "pyproject.toml").open("rb") as file:
        version = tomllib.load(file)["project"]["version"]
    assert gurps_character.__version__ == version
    assert importlib.metadata.version("gurps-character") == version
    assert "__version__" in gurps_character.__all__


# ---------------------------------------------------------------- docstrings


@pytest.mark.parametrize("module", PUBLIC_MODULES, ids=lambda module: module.__name__)
def test_modules_have_docstrings(module: types.ModuleType) -> None:
    assert module.__doc__ and module.__doc__.strip()


@pytest.mark.parametrize(("name", "obj"), [item for item in _all_items() if _defined_in_package(item[1])])
def test_functions_and_classes_have_docstrings(name: str, obj: Any) -> None:
    doc = _own_doc(obj)
    assert doc, f"{name} has no docstring"
    summary = doc.split("\n\n", 1)[0]
    assert summary.rstrip().endswith((".", ":", "``")), f"{name}: the summary is not a sentence: {summary!r}"


@pytest.mark.parametrize(
    ("name", "cls"),
    [item for item in _all_items() if inspect.isclass(item[1]) and _defined_in_package(item[1])],
)
def test_public_methods_have_docstrings(name: str, cls: type) -> None:
    for attribute, member in vars(cls).items():
        if attribute.startswith("_"):
            continue
        function = member.fget if isinstance(member, property) else member
        if inspect.isfunction(function) and function.__qualname__.startswith(cls.__qualname__ + "."):
            assert _own_doc(function), f"{name}.{attribute} has no docstring"


def _attribute_docs() -> dict[str, str]:
    """Module-level ``NAME = ...`` followed by a string, in every module of the package."""
    docs: dict[str, str] = {}
    for module in _package_modules():
        if module.__file__ is None:
            continue
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node, after in zip(tree.body, tree.body[1:], strict=False):
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign):
                targets = [node.target]
            else:
                continue
            if (
                isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                for target in targets:
                    if isinstance(target, ast.Name):
                        docs.setdefault(target.id, after.value.value)
    return docs


def test_constants_and_type_aliases_are_documented() -> None:
    """Names that are neither functions nor classes carry an attribute docstring where defined."""
    docs = _attribute_docs()
    undocumented = [
        name
        for name, obj in _all_items()
        if not _defined_in_package(obj)
        and not name.endswith(".__version__")
        and not docs.get(name.rsplit(".", 1)[1], "").strip()
    ]
    assert undocumented == []


@pytest.mark.parametrize(("name", "function", "module"), _functions(), ids=[item[0] for item in _functions()])
def test_functions_follow_google_style(
    name: str, function: Callable[..., Any], module: types.ModuleType
) -> None:
    """Args names every parameter in order; Returns unless None; sections in the usual order."""
    doc = _own_doc(function)
    assert doc is not None
    sections = _sections(doc)
    present = [section for section in sections if section in ORDER]
    assert present == sorted(present, key=ORDER.index), f"{name}: sections out of order: {present}"
    signature = inspect.signature(function)
    parameters = [p for p in signature.parameters if p not in ("self", "cls")]
    if parameters:
        assert "Args" in sections, f"{name} takes {parameters} but has no Args section"
        documented = [entry.lstrip("*") for entry in _entries(name, "Args", sections["Args"])]  # **options
        assert documented == parameters, f"{name}: Args do not match"
    else:
        assert "Args" not in sections, f"{name} takes no argument"
    if signature.return_annotation not in (None, "None", inspect.Signature.empty):
        assert "Returns" in sections, f"{name} returns a value but has no Returns section"
        assert any(line.strip() for line in sections["Returns"]), f"{name}: empty Returns"
    if "Raises" in sections:
        for exception in _entries(name, "Raises", sections["Raises"]):
            # the module's own exceptions, the package's one (CharacterError), or a builtin
            found = getattr(
                module, exception, getattr(gurps_character, exception, getattr(builtins, exception, None))
            )
            assert inspect.isclass(found) and issubclass(found, BaseException), f"{name}: raises {exception}?"


@pytest.mark.parametrize(
    ("name", "function"),
    [(name, obj) for name, obj in _public(gurps_character) if inspect.isfunction(obj)],
)
def test_top_level_functions_document_what_they_raise(name: str, function: Callable[..., Any]) -> None:
    """Every engine-API function that takes input says what it raises (or that it never does)."""
    doc = _own_doc(function)
    assert doc is not None
    if not inspect.signature(function).parameters:
        return
    sections = _sections(doc)
    if "Raises" not in sections:
        assert "Never raises" in doc, f"{name} takes input but documents no Raises section"
    else:
        assert "CharacterError" in _entries(name, "Raises", sections["Raises"]), name


# ---------------------------------------------------------------- the typed consumer


def _imported_and_used(path: Path) -> tuple[dict[str, set[str]], set[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            imported.setdefault(node.module, set()).update(alias.name for alias in node.names)
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return imported, used


@pytest.mark.parametrize("module", PUBLIC_MODULES, ids=lambda module: module.__name__)
def test_typed_consumer_uses_every_public_name(module: types.ModuleType) -> None:
    imported, used = _imported_and_used(USAGE)
    names = imported.get(module.__name__, set())
    assert set(module.__all__) - names == set(), "tests/typing/usage.py does not import these"
    assert names - used == set(), "tests/typing/usage.py imports these but never uses them"


def test_typed_consumer_is_type_checked_but_not_collected(pytestconfig: pytest.Config) -> None:
    """usage.py is no test module, and the repository's mypy run covers it."""
    patterns = pytestconfig.getini("python_files")
    assert not any(fnmatch.fnmatch(USAGE.name, pattern) for pattern in patterns)
    with (ROOT / "pyproject.toml").open("rb") as file:
        files = tomllib.load(file)["tool"]["mypy"]["files"]
    assert any(USAGE.is_relative_to(ROOT / entry) for entry in files)


# ---------------------------------------------------------------- one vocabulary


def _public_module_names() -> list[types.ModuleType]:
    """Every module of the package whose dotted name has no private part (``gurps_character.gcs``
    and ``gurps_character.document`` included; ``gurps_character._yaml`` not)."""
    return [
        module
        for module in _package_modules()
        if not any(part.startswith("_") for part in module.__name__.split(".")[1:])
    ]


def _is_type(obj: object) -> bool:
    """A class, or a type alias such as ``Literal[...]``."""
    return inspect.isclass(obj) or type(obj).__module__ == "typing"


def test_no_two_public_types_share_a_name() -> None:
    """A name means one thing across the package: ``WeaponDamage`` is the resolved dice, and the
    document's entry is ``StoredWeaponDamage``. A class re-exported under its name is the same
    object; a type alias is the same when equal (``HitLocation`` in damage and locations)."""
    found: dict[str, list[tuple[str, object]]] = {}
    for module in _public_module_names():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not _is_type(obj):
                continue
            places = found.setdefault(name, [])
            if not any(other is obj or (not inspect.isclass(obj) and other == obj) for _, other in places):
                places.append((module.__name__, obj))
    shared = {name: [where for where, _ in places] for name, places in found.items() if len(places) > 1}
    assert shared == {}


def test_the_check_finds_a_name_used_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: the document's ``Dice`` beside the formula's ``Dice`` is caught."""
    from gurps_character import document

    monkeypatch.setitem(vars(document), "Dice", document.StoredDice)
    monkeypatch.setattr(document, "__all__", [*document.__all__, "Dice"])
    with pytest.raises(AssertionError, match="Dice"):
        test_no_two_public_types_share_a_name()


def test_renamed_document_types_keep_their_old_names_with_a_warning() -> None:
    from gurps_character import document

    for old in ("Attributes", "Deviation", "Dice", "EncumbranceLevel", "Issue", "SkillDefense"):
        with pytest.warns(DeprecationWarning, match=f"gurps_character.document.{old} is deprecated"):
            assert getattr(document, old) is getattr(document, f"Stored{old}")
        assert old not in document.__all__
    with pytest.warns(DeprecationWarning, match=r"\(gone in 0\.3\.0\): use StoredWeaponDamage"):
        from gurps_character.document import WeaponDamage  # noqa: F401
    with pytest.raises(AttributeError, match="has no attribute 'Nothing'"):
        document.Nothing  # type: ignore[attr-defined]  # noqa: B018


# ---------------------------------------------------------------- every exported name, with its kind

EXPORTED: dict[str, dict[str, str]] = {
    "gurps_character": {
        "FORMAT": "constant",
        "HIT_LOCATIONS": "constant",
        "LATEST_VERSION": "constant",
        "LOCATION_NAMES": "constant",
        "MAX_DOCUMENT_BYTES": "constant",
        "SCHEMA": "constant",
        "SUPPORTED_MINOR": "constant",
        "VOCABULARY": "constant",
        "AttackDirection": "type alias",
        "AttackManeuver": "type alias",
        "AttackOptions": "TypedDict",
        "AttackSkill": "class",
        "Attributes": "class",
        "Body": "class",
        "BodyLocation": "class",
        "CharacterAttack": "class",
        "CharacterDefense": "class",
        "CriticalEffect": "class",
        "CriticalTable": "type alias",
        "critical_effect": "function",
        "critical_table_for": "function",
        "Attack": "class",
        "FightEvent": "class",
        "Fighter": "class",
        "FightStep": "class",
        "OwedRoll": "class",
        "OwedRollKind": "type alias",
        "DbSource": "type alias",
        "DefenseChoice": "class",
        "NoDefenseWhy": "type alias",
        "CharacterError": "exception",
        "CharacterKind": "type alias",
        "CombatModifier": "type alias",
        "CombatStats": "class",
        "Condition": "class",
        "ConditionEffects": "class",
        "ContestResult": "class",
        "ContestWinner": "type alias",
        "DamageDice": "class",
        "DamageResistance": "class",
        "DamageType": "type alias",
        "DefenderManeuver": "type alias",
        "Defense": "class",
        "DefenseOptions": "TypedDict",
        "DefenseKind": "type alias",
        "Deviation": "class",
        "EncumbranceLevel": "class",
        "Envelope": "class",
        "ErrorCode": "type alias",
        "ExportNote": "class",
        "FollowUp": "class",
        "FollowUpKind": "type alias",
        "FpState": "type alias",
        "GcsExport": "class",
        "GcsImport": "class",
        "GurpsCharacter": "TypedDict",
        "Hit": "class",
        "HitLocation": "type alias",
        "HpState": "type alias",
        "ImportNote": "class",
        "Inconsistency": "class",
        "Issue": "class",
        "LoadedCharacter": "class",
        "LocationRole": "type alias",
        "MeleeWeaponStats": "class",
        "NoDefenseReason": "type alias",
        "PainThreshold": "type alias",
        "ParryStyle": "type alias",
        "Parsed": "class",
        "Pool": "class",
        "PoolChange": "class",
        "PoolName": "type alias",
        "PoolState": "class",
        "Posture": "type alias",
        "RangedWeaponStats": "class",
        "Roll": "class",
        "RollKind": "type alias",
        "RollResult": "class",
        "RolledLocation": "type alias",
        "SkillDefense": "class",
        "SkillStat": "class",
        "Threshold": "class",
        "UpdatableField": "class",
        "ValidationError": "class",
        "ValidationResult": "class",
        "VerificationReport": "class",
        "WeaponBlock": "class",
        "WeaponDamage": "class",
        "WeaponDamageLine": "class",
        "WeaponParry": "class",
        "Weapons": "class",
        "__version__": "constant",
        "apply_damage": "function",
        "apply_hit": "function",
        "attack_skill": "function",
        "block_score": "function",
        "body_of": "function",
        "can_attempt": "function",
        "change_pool": "function",
        "character_attack_skill": "function",
        "character_defense": "function",
        "character_defenses": "function",
        "best_defense": "function",
        "check_envelope": "function",
        "combat_stats": "function",
        "defense": "function",
        "dodge_score": "function",
        "export_gcs": "function",
        "feint_penalty": "function",
        "get_condition": "function",
        "get_pool": "function",
        "get_updatable_fields": "function",
        "heal": "function",
        "hit_location": "function",
        "hits_after_dodge": "function",
        "import_gcs": "function",
        "load_character": "function",
        "location_penalty": "function",
        "location_role": "function",
        "parry_score": "function",
        "parse_character": "function",
        "quick_contest": "function",
        "rapid_fire_bonus": "function",
        "rapid_fire_hits": "function",
        "recover_fatigue": "function",
        "regular_contest_round": "function",
        "resolve_damage_notation": "function",
        "resolve_hit": "function",
        "rule_location": "function",
        "serialize_character": "function",
        "size_modifier": "function",
        "speed_range_penalty": "function",
        "spend_fatigue": "function",
        "success_roll": "function",
        "roll_3d": "function",
        "update_character": "function",
        "validate_character": "function",
        "verify_character": "function",
    },
    "gurps_character.formula": {
        "Dice": "class",
        "FormulaError": "exception",
        "FormulaSyntaxError": "exception",
        "FormulaValue": "type alias",
        "Node": "type alias",
        "RecomputeResult": "class",
        "RuleDeviation": "class",
        "deviations": "function",
        "evaluate": "function",
        "parse_dice": "function",
        "parse_formula": "function",
        "plain_value": "function",
        "recompute": "function",
        "resolve_schema_ref": "function",
        "round_up": "function",
    },
    "gurps_character.sheet": {
        "render_card": "function",
        "render_sheet": "function",
    },
    "gurps_character.yaml": {
        "INSTALL_HINT": "constant",
        "MAX_YAML_DEPTH": "constant",
        "dump_yaml_character": "function",
        "load_yaml_document": "function",
        "parse_yaml_character": "function",
    },
}
"""Every name each public module exports, and what it is: a function, a class (an exception, a
``TypedDict``), a type alias or a constant. A name added or taken away changes this list (and the
API table of ``docs/guides/getting-started.md``, which lists the same names)."""


def _kind(name: str, obj: object) -> str:
    if inspect.isclass(obj):
        if issubclass(obj, BaseException):
            return "exception"
        return "TypedDict" if typing.is_typeddict(obj) else "class"
    if inspect.isfunction(obj):
        return "function"
    # a CamelCase name that is no class is a type alias (Literal[...], a union, or its text)
    return "type alias" if name[:1].isupper() and not name.isupper() else "constant"


@pytest.mark.parametrize("module", PUBLIC_MODULES, ids=lambda module: module.__name__)
def test_every_exported_name_is_listed_with_its_kind(module: types.ModuleType) -> None:
    assert {name: _kind(name, obj) for name, obj in _public(module)} == EXPORTED[module.__name__]


def test_the_api_at_a_glance_names_every_exported_name() -> None:
    """Each name the public modules export is in the getting-started guide's API table, in
    backticks (the table moved there from the README with issue 32)."""
    guide = (ROOT / "docs" / "guides" / "getting-started.md").read_text(encoding="utf-8")
    start = guide.index("## The API at a glance")
    end = guide.find("\n## ", start + 1)
    api = guide[start : end if end != -1 else len(guide)]
    missing = [name for module in PUBLIC_MODULES for name in module.__all__ if f"`{name}" not in api]
    assert missing == []
