"""The package as an outside consumer gets it: the sdist and wheel built from this tree, the wheel
installed in a fresh virtual environment (no system site-packages), used from outside the source
tree, type-checked by ``mypy --strict`` through ``tests/typing/usage.py``.

Part of the normal run (``.ci/run``), about 10 s; ``pytest -m "not packaging"`` leaves it out. The
build needs no network when hatchling is importable (it is in the test extras): then it runs
without build isolation. Installing the wheel fetches jsonschema and referencing through pip's
usual configuration (index or local cache).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from email.parser import Parser
from importlib.util import find_spec
from pathlib import Path

import pytest

from tests.support.paths import REPOSITORY

pytestmark = pytest.mark.packaging

ROOT = REPOSITORY
USAGE = ROOT / "tests" / "typing" / "usage.py"
EXAMPLE = ROOT / "examples" / "rurik.json"
WINDOWS = sys.platform == "win32"
WHEEL_SCHEMA_FILES = (
    "gurps_character/schema/gurps-character.schema.json",
    "gurps_character/schema/x-gurps-vocabulary.schema.json",
)

with (ROOT / "pyproject.toml").open("rb") as _file:
    PROJECT = tomllib.load(_file)["project"]
VERSION: str = PROJECT["version"]


@dataclass(frozen=True)
class Dist:
    sdist: Path
    wheel: Path


@dataclass(frozen=True)
class Venv:
    root: Path
    python: Path
    work: Path
    """An empty directory outside the source tree, the working directory of every command."""

    def script(self, name: str) -> Path:
        scripts = self.root / ("Scripts" if WINDOWS else "bin")
        return scripts / (f"{name}.exe" if WINDOWS else name)


def _run(args: Sequence[str | Path], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Runs a command; the environment loses what would point Python or mypy at the source tree."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "MYPYPATH")}
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        check=False,
    )


def _ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"{result.args} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    """``python -m build``: the sdist, then the wheel built from the sdist (so the sdist is complete)."""
    out = tmp_path_factory.mktemp("dist")
    # With hatchling at hand, no isolated build environment (which pip would fill from the network).
    isolation = ["--no-isolation"] if find_spec("hatchling") is not None else []
    _ok(_run([sys.executable, "-m", "build", *isolation, "--outdir", out, ROOT], cwd=out, timeout=300))
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return Dist(sdist, wheel)


@pytest.fixture(scope="module")
def venv(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """A fresh virtual environment (no system site-packages) with the wheel and its dependencies."""
    root = tmp_path_factory.mktemp("venv") / "venv"
    work = tmp_path_factory.mktemp("consumer")
    _ok(_run([sys.executable, "-m", "venv", "--without-pip", root], cwd=work))
    python = root / ("Scripts/python.exe" if WINDOWS else "bin/python")
    # This environment's pip installs into the new one (--python), which then needs no pip of its own.
    _ok(
        _run(
            [sys.executable, "-m", "pip", "--python", python, "install", "--no-input", dist.wheel],
            cwd=work,
            timeout=300,
        )
    )
    return Venv(root, python, work)


# ---------------------------------------------------------------- what the archives hold


def test_wheel_holds_the_package_the_schema_and_the_typing_marker(dist: Dist) -> None:
    assert dist.wheel.name == f"gurps_character-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(dist.wheel) as wheel:
        names = set(wheel.namelist())
        info = f"gurps_character-{VERSION}.dist-info"
        metadata = Parser().parsestr(wheel.read(f"{info}/METADATA").decode("utf-8"))
        entry_points = wheel.read(f"{info}/entry_points.txt").decode("utf-8")
        for name in WHEEL_SCHEMA_FILES:
            assert json.loads(wheel.read(name))["$schema"].startswith("https://json-schema.org/")
            assert wheel.read(name) == (ROOT / "schema" / Path(name).name).read_bytes()
    assert "gurps_character/py.typed" in names
    assert {"gurps_character/__init__.py", "gurps_character/formula/__init__.py"} <= names
    templates = ROOT / "src" / "gurps_character" / "sheet" / "templates"
    assert {f"gurps_character/sheet/templates/{path.name}" for path in templates.iterdir()} <= names
    assert {name.split("/")[0] for name in names} == {"gurps_character", info}, "stray top-level files"
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
    assert (metadata["Name"], metadata["Version"]) == ("gurps-character", VERSION)
    assert metadata["Requires-Python"] == PROJECT["requires-python"]
    required = [req for req in metadata.get_all("Requires-Dist", []) if "extra ==" not in req]
    assert sorted(required) == sorted(PROJECT["dependencies"])
    assert "gurps-character = gurps_character.cli:main" in entry_points


def test_sdist_holds_the_sources_schema_and_examples(dist: Dist) -> None:
    assert dist.sdist.name == f"gurps_character-{VERSION}.tar.gz"
    prefix = f"gurps_character-{VERSION}/"
    with tarfile.open(dist.sdist) as sdist:
        names = {name.removeprefix(prefix) for name in sdist.getnames()}
    expected = {
        "pyproject.toml",
        "README.md",
        "schema/gurps-character.schema.json",
        "schema/x-gurps-vocabulary.schema.json",
        "examples/rurik.json",
        "examples/jotun.json",
        "examples/odile.yaml",
        "src/gurps_character/__init__.py",
        "src/gurps_character/py.typed",
        "src/gurps_character/formula/__init__.py",
        "tests/typing/usage.py",
        # the docs site's sources: mypy checks docs/, and tests/docs runs its pages' examples
        "docs/conf.py",
        "docs/reference/index.md",
    }
    assert expected - names == set()
    assert not [
        name for name in names if name.startswith((".venv", ".git/", "dist/")) or "__pycache__" in name
    ]


# ---------------------------------------------------------------- the installed wheel, from outside


CONSUMER = """
import json, sys
import gurps_character
from gurps_character import SCHEMA, parse_character, validate_character
from gurps_character.formula import evaluate

text = open(sys.argv[1], encoding="utf-8").read()
parsed = parse_character(text)
print(json.dumps({
    "file": gurps_character.__file__,
    "version": gurps_character.__version__,
    "id": SCHEMA["$id"],
    "name": parsed.character["profile"]["name"],
    "compliant": parsed.report.rules_compliant,
    "valid": validate_character(parsed.character).valid,
    "speed": evaluate("floor($.secondary.basicSpeed.value)", parsed.character),
    "path": sys.path,
}))
"""


def test_installed_wheel_works_outside_the_source_tree(venv: Venv) -> None:
    # -I: isolated mode (no PYTHON* variables, no user site-packages, no working directory on sys.path).
    result = json.loads(_ok(_run([venv.python, "-I", "-c", CONSUMER, EXAMPLE], cwd=venv.work)))
    installed = Path(result["file"]).resolve()
    assert installed.is_relative_to(venv.root.resolve()), installed
    assert not installed.is_relative_to(ROOT), "imported from the source tree"
    assert not [entry for entry in result["path"] if entry and Path(entry).resolve().is_relative_to(ROOT)]
    assert result["version"] == VERSION
    assert (
        result["id"]
        == json.loads((ROOT / "schema" / "gurps-character.schema.json").read_text("utf-8"))["$id"]
    )
    assert result["id"].startswith("urn:gurps-sheet:schema:gurps-character:")
    assert (result["compliant"], result["valid"]) == (True, True)
    assert result["name"] == json.loads(EXAMPLE.read_text("utf-8"))["profile"]["name"]
    assert isinstance(result["speed"], int)


def test_installed_wheel_has_only_its_declared_dependencies(venv: Venv) -> None:
    listing = _ok(_run([venv.python, "-I", "-c", FREEZE], cwd=venv.work))
    installed = set(json.loads(listing))
    assert {"gurps-character", "jsonschema", "referencing"} <= installed
    assert not installed & {"pytest", "mypy", "hypothesis", "ruff", "check-jsonschema"}


FREEZE = """
import json
from importlib.metadata import distributions
print(json.dumps(sorted({d.metadata["Name"].lower().replace("_", "-") for d in distributions()})))
"""


def test_console_script(venv: Venv) -> None:
    script = venv.script("gurps-character")
    assert script.is_file()
    assert _ok(_run([script, "--version"], cwd=venv.work)).strip() == f"gurps-character {VERSION}"
    checked = _ok(_run([script, "check", EXAMPLE], cwd=venv.work))
    assert "rules-compliant: yes" in checked
    module = _ok(_run([venv.python, "-I", "-m", "gurps_character", "--version"], cwd=venv.work))
    assert module.strip() == f"gurps-character {VERSION}"


# ---------------------------------------------------------------- the typed consumer


def test_typed_consumer_runs_against_the_wheel(venv: Venv) -> None:
    consumer = venv.work / "usage.py"
    shutil.copyfile(USAGE, consumer)
    assert _ok(_run([venv.python, "-I", consumer, EXAMPLE], cwd=venv.work)).strip() == "ok"


def test_typed_consumer_passes_mypy_strict_against_the_wheel(venv: Venv, tmp_path: Path) -> None:
    """mypy (from this environment) reads the package's inline types from the wheel's venv."""
    consumer = tmp_path / "usage.py"
    shutil.copyfile(USAGE, consumer)
    config = tmp_path / "mypy.ini"  # no user or repository configuration: --strict alone
    config.write_text("[mypy]\n", encoding="utf-8")
    args: list[str | Path] = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--python-executable",
        venv.python,
        "--cache-dir",
        tmp_path / ".mypy_cache",
        "--config-file",
        config,
    ]
    result = _run([*args, consumer], cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found in 1 source file" in result.stdout

    # The check has teeth: the same types, misused, fail (so the package's types were really read).
    broken = tmp_path / "broken.py"
    broken.write_text(
        "from gurps_character import VerificationReport, parse_character\n"
        'report: int = parse_character("{}").report\n'
        "def check(report: VerificationReport) -> str:\n"
        "    return report.rules_compliant\n",
        encoding="utf-8",
    )
    result = _run([*args, broken], cwd=tmp_path, timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'has type "VerificationReport", variable has type "int"' in result.stdout
    assert 'Incompatible return value type (got "bool", expected "str")' in result.stdout
