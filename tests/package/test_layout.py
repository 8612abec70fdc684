"""The package's layout is its architecture: data flows down, and these tests hold it so.

The core (errors, loading, validation, verification, updates, the formula language) imports no
format and no rule layer; the GCS wings (:mod:`gurps_character.gcs.importing`,
:mod:`gurps_character.gcs.exporting`) use :mod:`gurps_character.gcs.format` and the core, never
each other; nothing imports the command line. Imports are read from the source text, so a
violation fails here whether or not any test runs the offending line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.paths import REPOSITORY

PACKAGE = REPOSITORY / "src" / "gurps_character"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> Iterator[str]:
    """Every ``gurps_character`` module the file imports, relative imports resolved."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.startswith("gurps_character"):
                yield target
                for alias in node.names:  # "from . import gcs" imports the module gcs
                    yield f"{target}.{alias.name}"
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name.startswith("gurps_character"))


def _edges() -> list[tuple[str, str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    return [(_module_name(path), target) for path in paths for target in _imports(path)]


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


EDGES = _edges()


def test_the_import_graph_is_read() -> None:
    # the readers above must see the imports they judge, or every rule below holds vacuously
    assert ("gurps_character.gcs.exporting.writeback", "gurps_character.gcs.format.json_spans") in EDGES
    assert ("gurps_character.cli", "gurps_character.cli._export") in EDGES


@pytest.mark.parametrize(
    ("importer", "forbidden"),
    [
        ("gurps_character.gcs.format", "gurps_character.gcs.importing"),
        ("gurps_character.gcs.format", "gurps_character.gcs.exporting"),
        ("gurps_character.gcs.importing", "gurps_character.gcs.exporting"),
        ("gurps_character.gcs.exporting", "gurps_character.gcs.importing"),
        ("gurps_character.formula", "gurps_character.gcs"),
        ("gurps_character.validate", "gurps_character.gcs"),
        ("gurps_character.load", "gurps_character.gcs"),
        ("gurps_character.update", "gurps_character.gcs"),
        ("gurps_character.verify", "gurps_character.gcs"),
    ],
)
def test_a_layer_does_not_import_what_it_must_not(importer: str, forbidden: str) -> None:
    found = [(a, b) for a, b in EDGES if _within(a, importer) and _within(b, forbidden)]
    assert found == []


def test_nothing_but_the_command_line_imports_it() -> None:
    entry_points = ("gurps_character.cli", "gurps_character.__main__")
    found = [(a, b) for a, b in EDGES if _within(b, "gurps_character.cli") and not a.startswith(entry_points)]
    assert found == []


def test_the_gcs_wings_are_what_the_folder_says() -> None:
    gcs = PACKAGE / "gcs"
    loose = sorted(path.name for path in gcs.glob("*.py") if path.name != "__init__.py")
    assert loose == []
    assert {path.name for path in gcs.iterdir() if path.is_dir() and not path.name.startswith("_")} >= {
        "importing",
        "exporting",
        "format",
    }
