"""The docs site's machinery: every public name has a reference entry, the CLI reference walks every
command and option of the parser, and the offline switch the strict build runs under works.

The strict build itself (``python -m sphinx -W --keep-going -n``) runs in ``.ci/run`` and in the
workflow's docs job, not here: it takes half a minute, and its warnings are the test.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from gurps_character.cli import build_parser
from tests.support.paths import REPOSITORY

REFERENCE = REPOSITORY / "docs" / "reference"
PUBLIC_MODULES = (
    "gurps_character",
    "gurps_character.formula",
    "gurps_character.yaml",
    "gurps_character.sheet",
)
DOCUMENT_TYPES = "gurps_character.document"
"""The document's TypedDicts (all on one page; ``GurpsCharacter`` under its public name)."""
DIRECTIVE = re.compile(r"^\.\. auto(?:function|class|exception|data|attribute)::\s+(\S+)", re.MULTILINE)


def _documented() -> list[str]:
    """The names the reference pages' autodoc directives document, page by page."""
    return [
        name for page in sorted(REFERENCE.glob("*.md")) for name in DIRECTIVE.findall(page.read_text("utf-8"))
    ]


def _public() -> set[str]:
    return {
        f"{module}.{name}" for module in PUBLIC_MODULES for name in importlib.import_module(module).__all__
    }


def _document_types() -> set[str]:
    names = importlib.import_module(DOCUMENT_TYPES).__all__
    return {f"{DOCUMENT_TYPES}.{name}" for name in names if f"gurps_character.{name}" not in _public()}


def test_every_public_name_has_one_reference_entry() -> None:
    documented = _documented()
    assert sorted(_public() - set(documented)) == []
    assert sorted(name for name in set(documented) if documented.count(name) > 1) == []


def test_every_document_type_has_a_reference_entry() -> None:
    assert sorted(_document_types() - set(_documented())) == []


def test_the_reference_documents_only_public_names_and_document_types() -> None:
    assert sorted(set(_documented()) - _public() - _document_types()) == []


def test_every_reference_page_is_in_the_reference_toctree() -> None:
    index = (REFERENCE / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^([\w-]+)$", index, re.MULTILINE))
    assert {page.stem for page in REFERENCE.glob("*.md")} - {"index"} <= listed


# ---------------------------------------------------------------- the CLI reference


def _extension(name: str) -> ModuleType:
    pytest.importorskip("sphinx", reason="the docs extensions need Sphinx (the docs extra)")
    sys.path.insert(0, str(REPOSITORY / "docs" / "_ext"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(REPOSITORY / "docs" / "_ext"))


def _all_parsers(parser: argparse.ArgumentParser, walk: ModuleType) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for _, subparser in walk._subcommands(parser):
        yield from _all_parsers(subparser, walk)


def test_the_cli_reference_walks_every_command() -> None:
    cli = _extension("cli_reference")
    parser = build_parser()
    names = [name for name, _ in cli._subcommands(parser)]
    assert names[:3] == ["check", "validate", "stats"] and {"import", "export", "hit", "roll"} <= set(names)
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(names) == set(commands.choices)


def test_the_cli_reference_writes_every_option_with_its_default_and_help() -> None:
    cli = _extension("cli_reference")
    parser = build_parser()
    for each in _all_parsers(parser, cli):
        for action in cli._documented(each):
            signature = cli._signature(action)
            assert all(option in signature for option in action.option_strings)
            assert "%(" not in cli._help(action, each), (each.prog, signature)
    check = dict(cli._subcommands(parser))["check"]
    jobs = next(action for action in check._actions if "--jobs" in action.option_strings)
    assert cli._signature(jobs) == "-j N, --jobs N"
    assert cli._default(jobs) == "1"
    json_flag = next(action for action in check._actions if "--json" in action.option_strings)
    assert cli._signature(json_flag) == "--json" and cli._default(json_flag) is None
    assert cli._usage(check).startswith("gurps-character check [-h]")


def test_public_names_resolves_a_defining_module_to_the_public_name() -> None:
    names = _extension("public_names")
    assert names._public_target("gurps_character.stats.CombatStats") == "gurps_character.CombatStats"
    assert names._public_target("CombatStats") == "gurps_character.CombatStats"
    assert names._public_target("gurps_character.stats.NoSuchThing") is None
    assert names._shown_unlinked("gurps_character.formula._ast.Binary")
    assert not names._shown_unlinked("gurps_character.NoSuchThing")


# ---------------------------------------------------------------- offline


def test_the_offline_switch_refuses_the_network(tmp_path: Path) -> None:
    program = (
        "import socket\n"
        "try:\n"
        "    socket.create_connection(('example.com', 80), timeout=5)\n"
        "except OSError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        env={**os.environ, "PYTHONPATH": str(REPOSITORY / "tests" / "docs" / "offline")},
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "the network is off for this build (tests/docs/offline)"


def test_ci_builds_the_docs_strictly_and_offline() -> None:
    ci_run = (REPOSITORY / ".ci" / "run").read_text(encoding="utf-8")
    assert 'python -m pip install --quiet ".[test,docs]"' in ci_run
    build = re.search(r"^PYTHONPATH=tests/docs/offline python -m sphinx (.*)$", ci_run, re.MULTILINE)
    assert build is not None
    assert build.group(1).split()[:5] == ["-W", "--keep-going", "-n", "-b", "html"]
