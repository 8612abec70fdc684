"""The README's Python examples run, and type-check under ``mypy --strict``, as a user would
write them (they once failed: ``character = apply_damage(character, 7)`` was a type error)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
EXAMPLE = ROOT / "examples" / "rurik.json"

PREAMBLE = f"""
from pathlib import Path

from gurps_character import GurpsCharacter, parse_character

text = Path({str(EXAMPLE)!r}).read_text(encoding="utf-8")  # the README's "text": a file's JSON
saved: list[str] = []
rurik: GurpsCharacter = parse_character(text).character  # the bundled examples, by name
jotun: GurpsCharacter = parse_character(Path({str(EXAMPLE.with_name("jotun.json"))!r}).read_bytes()).character


def save(serialized: str) -> None:  # the README's "save": wherever an engine keeps characters
    saved.append(serialized)

"""
"""The names the README's examples take as given."""


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
    # the GCS example reads "Dai Blackthorn.gcs" from the working directory: a fixture stands in
    (tmp_path / "Dai Blackthorn.gcs").write_bytes((ROOT / "tests/fixtures/gcs/v5_fighter.gcs").read_bytes())
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "readme"}
    exec(compile(program(), str(README), "exec"), namespace)
    assert len(namespace["saved"]) == 1 and namespace["saved"][0].startswith("{")
    assert namespace["condition"].hp.state in ("reeling", "collapse")


def test_the_readme_examples_type_check(tmp_path: Path) -> None:
    mypy_api = pytest.importorskip("mypy.api", reason="mypy is a test tool")
    source = tmp_path / "readme_examples.py"
    source.write_text(program(), encoding="utf-8")
    out, err, status = mypy_api.run(
        ["--strict", "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"), str(source)]
    )
    assert status == 0, out + err
