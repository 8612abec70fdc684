"""The GitHub Actions workflow: valid against GitHub's workflow schema (the copy check-jsonschema
vendors, so nothing is fetched), the same commands as ``.ci/run`` on every supported Python, and a
build job feeding a trusted-publishing release from version tags."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from importlib import resources
from typing import Any

import jsonschema  # type: ignore[import-untyped, unused-ignore]
import pytest
from hypothesis import settings

from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
CI_RUN = ROOT / ".ci" / "run"

pytest.importorskip("check_jsonschema", reason="check-jsonschema (test extras) vendors the workflow schema")
YAML = pytest.importorskip("ruamel.yaml", reason="ruamel.yaml (a check-jsonschema dependency) reads YAML 1.2")


@pytest.fixture(scope="module")
def workflow() -> dict[str, Any]:
    # YAML 1.2 (ruamel), as GitHub reads it: the key ``on`` stays a string (YAML 1.1 made it True).
    loaded = YAML.YAML(typ="safe", pure=True).load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    # Plain JSON data, as the schema sees it.
    return json.loads(json.dumps(loaded))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def _schema() -> dict[str, Any]:
    vendor = resources.files("check_jsonschema.builtin_schemas.vendor")
    return json.loads(vendor.joinpath("github-workflows.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _runs(job: dict[str, Any]) -> list[str]:
    """The shell lines of a job's ``run`` steps."""
    lines: list[str] = []
    for step in job["steps"]:
        lines.extend(line.strip() for line in str(step.get("run", "")).splitlines() if line.strip())
    return lines


def _uses(job: dict[str, Any]) -> list[str]:
    return [step["uses"] for step in job["steps"] if "uses" in step]


def _ci_run_all() -> list[str]:
    """What ``.ci/run`` runs once its virtual environment holds ``.[test,docs]``."""
    lines = [line.strip() for line in CI_RUN.read_text(encoding="utf-8").splitlines()]
    install = next(i for i, line in enumerate(lines) if ".[test" in line and "pip install" in line)
    return [line for line in lines[install + 1 :] if line and not line.startswith(("#", "echo "))]


def _ci_run_commands() -> list[str]:
    """The checks and tests ``.ci/run`` runs (the test job's share; the docs job builds the site)."""
    return [line for line in _ci_run_all() if " -m sphinx " not in line]


def _sphinx_options(command: str) -> list[str]:
    """A docs build's options and source folder: its output folder and ``-q`` set aside."""
    words = shlex.split(command)
    start = words.index("sphinx") + 1
    return [word for word in words[start:-1] if word != "-q"]


def _normalized(command: str) -> str:
    return shlex.join(shlex.split(command))


# ---------------------------------------------------------------- the schema


def test_workflow_is_valid_against_githubs_schema(workflow: dict[str, Any]) -> None:
    schema = _schema()
    assert schema["$id"] == "https://json.schemastore.org/github-workflow.json"
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    errors = sorted(validator_class(schema).iter_errors(workflow), key=lambda error: list(error.path))
    assert [f"{list(error.path)}: {error.message}" for error in errors] == []


def test_the_schema_check_has_teeth(workflow: dict[str, Any]) -> None:
    schema = _schema()
    validator = jsonschema.validators.validator_for(schema)(schema)
    for broken in (
        {**workflow, "jobs": {"test": {"steps": [{"run": "true"}]}}},  # no runs-on
        {**workflow, "on": {"push": {"tags": "v*", "branchez": ["main"]}}},
        {**workflow, "permissions": {"id-token": "sure"}},
    ):
        assert not validator.is_valid(broken)


# ---------------------------------------------------------------- the test job


def test_triggers(workflow: dict[str, Any]) -> None:
    on = workflow["on"]
    assert "pull_request" in on
    assert on["push"]["branches"] == ["main"]
    assert on["push"]["tags"] == ["v*"]


def test_test_job_runs_what_ci_run_runs(workflow: dict[str, Any]) -> None:
    commands = _ci_run_commands()
    assert "python -m pytest -q" in commands and "mypy --strict" in commands
    lines = [_normalized(line) for line in _runs(workflow["jobs"]["test"])]
    assert 'python -m pip install ".[test,docs]"' in _runs(workflow["jobs"]["test"])
    missing = [command for command in commands if _normalized(command) not in lines]
    assert missing == [], "ci.yml's test job lacks these .ci/run commands"
    assert {"actions/checkout", "actions/setup-python"} <= {
        use.split("@")[0] for use in _uses(workflow["jobs"]["test"])
    }


def test_test_matrix_covers_the_supported_pythons(
    workflow: dict[str, Any], pyproject: dict[str, Any]
) -> None:
    job = workflow["jobs"]["test"]
    assert job["runs-on"] == "${{ matrix.os }}"
    matrix = job["strategy"]["matrix"]
    assert job["strategy"]["fail-fast"] is False
    assert matrix["os"] == ["ubuntu-latest"]
    classifiers = pyproject["project"]["classifiers"]
    supported = [
        match.group(1)
        for text in classifiers
        if (match := re.fullmatch(r"Programming Language :: Python :: (3\.\d+)", text))
    ]
    assert matrix["python-version"] == supported == ["3.11", "3.12", "3.13", "3.14"]
    assert pyproject["project"]["requires-python"] == f">={supported[0]}"
    assert sorted((entry["os"], entry["python-version"]) for entry in matrix["include"]) == [
        ("macos-latest", "3.12"),
        ("windows-latest", "3.12"),
    ]
    setup = next(step for step in job["steps"] if step.get("uses", "").startswith("actions/setup-python@"))
    assert setup["with"]["python-version"] == "${{ matrix.python-version }}"


# ---------------------------------------------------------------- build and publish


def test_build_job_uploads_sdist_and_wheel(workflow: dict[str, Any]) -> None:
    job = workflow["jobs"]["build"]
    assert "python -m build" in _runs(job)
    upload = next(
        step for step in job["steps"] if step.get("uses", "").startswith("actions/upload-artifact@")
    )
    assert upload["with"]["name"] == "dist"
    assert upload["with"]["path"].rstrip("/") == "dist"
    assert upload["with"]["if-no-files-found"] == "error"


def test_publish_job_uses_trusted_publishing_from_version_tags(workflow: dict[str, Any]) -> None:
    job = workflow["jobs"]["publish"]
    assert "build" in job["needs"] and "test" in job["needs"]
    assert "startsWith(github.ref, 'refs/tags/v')" in job["if"]
    assert job["environment"]["name"] == "pypi"
    assert job["permissions"] == {"id-token": "write"}
    uses = _uses(job)
    assert uses[-1] == "pypa/gh-action-pypi-publish@release/v1"
    download = next(
        step for step in job["steps"] if step.get("uses", "").startswith("actions/download-artifact@")
    )
    assert download["with"] == {"name": "dist", "path": "dist/"}
    # Only the publishing jobs may mint an OIDC token; everything else reads the repository.
    assert workflow["permissions"] == {"contents": "read"}
    assert not [
        name
        for name, other in workflow["jobs"].items()
        if name not in ("publish", "pages") and "permissions" in other
    ]


# ---------------------------------------------------------------- the docs site


def test_docs_job_builds_as_ci_run_does(workflow: dict[str, Any]) -> None:
    job = workflow["jobs"]["docs"]
    ci_builds = [line for line in _ci_run_all() if " -m sphinx " in line]
    job_builds = [line for line in _runs(job) if " -m sphinx " in line]
    assert len(ci_builds) == len(job_builds) == 1
    assert _sphinx_options(job_builds[0]) == _sphinx_options(ci_builds[0])
    assert _sphinx_options(ci_builds[0])[:5] == ["-W", "--keep-going", "-n", "-b", "html"]
    assert job_builds[0].startswith("PYTHONPATH=tests/docs/offline ")  # built with no network
    assert 'python -m pip install ".[docs]"' in _runs(job)
    assert "if" not in job  # strict build on every push and pull request


def test_pages_job_publishes_the_docs_site_from_version_tags(workflow: dict[str, Any]) -> None:
    docs, pages = workflow["jobs"]["docs"], workflow["jobs"]["pages"]
    upload = next(
        step for step in docs["steps"] if step.get("uses", "").startswith("actions/upload-pages-artifact@")
    )
    built = next(line for line in _runs(docs) if " -m sphinx " in line)
    assert upload["with"]["path"].rstrip("/") == shlex.split(built)[-1]
    assert "startsWith(github.ref, 'refs/tags/v')" in upload["if"]
    assert "startsWith(github.ref, 'refs/tags/v')" in pages["if"]
    assert set(pages["needs"]) == {"test", "docs"}
    assert pages["permissions"] == {"pages": "write", "id-token": "write"}
    assert pages["environment"]["name"] == "github-pages"
    assert [use.split("@")[0] for use in _uses(pages)] == ["actions/deploy-pages"]


def test_hypothesis_runs_derandomized_in_ci() -> None:
    profile = settings.get_profile("ci")
    assert profile.derandomize is True and profile.database is None
    script = "import sys; sys.path.insert(0, 'tests'); import conftest; from hypothesis import settings; "
    script += "print(settings.default.derandomize)"
    for environment, expected in (({"CI": "true"}, "True"), ({}, "False")):
        env = {key: value for key, value in os.environ.items() if key != "CI"} | environment
        result = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=False
        )
        assert result.stdout.strip() == expected, result.stderr
    assert 'export CI="${CI:-1}"' in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
