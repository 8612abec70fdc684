"""The README's Python examples run, and type-check under ``mypy --strict``, as a user would
write them (they once failed: ``character = apply_damage(character, 7)`` was a type error)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
README = ROOT / "README.md"
EXAMPLE = ROOT / "examples" / "rurik.json"

PREAMBLE = ""
"""Nothing: the README's examples define every name they use, and run from a folder laid out as the
repository's root (``examples/``) with a GCS file the GCS example names ("Dai Blackthorn.gcs")."""


def python_blocks() -> list[str]:
    """Every fenced ```python block of the README, in order."""
    return re.findall(r"^```python\n(.*?)^```$", README.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)


def program() -> str:
    return PREAMBLE + "\n".join(python_blocks())


def test_the_readme_has_python_examples() -> None:
    blocks = python_blocks()
    assert len(blocks) >= 2
    assert any("apply_damage(character, 7)" in block for block in blocks)


def test_the_readme_examples_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    # the GCS examples read "Dai Blackthorn.gcs" from the working directory: a fixture stands in
    (tmp_path / "Dai Blackthorn.gcs").write_bytes((ROOT / "tests/fixtures/gcs/v5_fighter.gcs").read_bytes())
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "readme"}
    exec(compile(program(), str(README), "exec"), namespace)
    saved = (tmp_path / "tamsin-after-the-fight.json").read_text(encoding="utf-8")
    assert saved.startswith("{") and '"current": 4' in saved  # HP 11 - 7 (the quick start's damage)
    assert namespace["condition"].hp.state in ("reeling", "collapse")
    # the bot: three formats loaded, a fight fought and kept, broken uploads told apart
    assert sorted(loaded.kind for loaded in namespace["party"].values()) == ["gcs", "json", "yaml"]
    fought = json.loads((tmp_path / "tamsin.json").read_text(encoding="utf-8"))
    assert fought["secondary"]["hp"]["current"] == 11 - namespace["blow"].injury
    printed = capsys.readouterr().out
    assert "Bridge-post club (Two-Handed Axe/Mace-11): 4d+6 cr; parry 8" in printed
    codes = [line.split(":")[0] for line in printed.splitlines()]
    refused = ["invalidJson", "legacyFormat", "unreadable", "invalidJson"]
    assert any(codes[start : start + 4] == refused for start in range(len(codes)))


def test_the_readme_examples_type_check(tmp_path: Path) -> None:
    mypy_api = pytest.importorskip("mypy.api", reason="mypy is a test tool")
    source = tmp_path / "readme_examples.py"
    source.write_text(program(), encoding="utf-8")
    out, err, status = mypy_api.run(
        ["--strict", "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"), str(source)]
    )
    assert status == 0, out + err
