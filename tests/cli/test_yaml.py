"""The command line with YAML files (issue 14): every reading command takes ``.yaml``/``.yml``,
the writing commands keep a file's format, and ``convert`` turns JSON into YAML and back."""

from __future__ import annotations

import json
import shutil
import stat
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gurps_character import apply_damage, parse_character, serialize_character, update_character
from gurps_character.yaml import dump_yaml_character, parse_yaml_character
from tests.cli.test_cli import cli, cli_many, leftovers
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
NOW = "2026-10-05T10:00:00Z"
NOW_DT = datetime(2026, 10, 5, 10, tzinfo=UTC)


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """odile.yaml, the same character as odile.json and rurik as rurik.yml."""
    shutil.copyfile(EXAMPLES / "odile.yaml", tmp_path / "odile.yaml")
    odile = parse_yaml_character((EXAMPLES / "odile.yaml").read_bytes()).character
    (tmp_path / "odile.json").write_text(serialize_character(odile), "utf-8")
    rurik = json.loads((EXAMPLES / "rurik.json").read_text("utf-8"))
    (tmp_path / "rurik.yml").write_text(dump_yaml_character(rurik), "utf-8")
    return tmp_path


def test_reading_commands_take_yaml_and_answer_as_for_json(folder: Path) -> None:
    yaml_path, json_path = str(folder / "odile.yaml"), str(folder / "odile.json")
    commands = [
        [name, *options, path]
        for name, options in (
            ("check", ["--json"]),
            ("validate", ["--json"]),
            ("stats", []),
            ("recompute", []),
        )
        for path in (yaml_path, json_path)
    ]
    runs = cli_many(commands)
    for index in range(0, len(runs), 2):
        from_yaml, from_json = runs[index], runs[index + 1]
        assert from_yaml.status == from_json.status == 0, commands[index]
        assert from_yaml.out.replace(yaml_path, json_path) == from_json.out, commands[index]
    assert json.loads(runs[0].out)["report"]["rulesCompliant"] is True


def test_check_finds_yaml_files_in_folders(folder: Path) -> None:
    run = cli("check", "--json", str(folder))
    assert run.status == 0
    assert [Path(line["path"]).name for line in map(json.loads, run.out.splitlines())] == [
        "odile.json",
        "odile.yaml",
        "rurik.yml",
    ]


def test_yaml_errors_name_the_line_and_column(folder: Path) -> None:
    broken = folder / "broken.yaml"
    broken.write_text("format: gurps-character\nprofile: {name: x}\n  oops: 1\n", "utf-8")
    text = (folder / "odile.yaml").read_text("utf-8")
    invalid = folder / "invalid.yaml"
    invalid.write_text(text.replace("  name: Odile Farrow\n", "  name: 7\n"), "utf-8")
    line = text.splitlines().index("  name: Odile Farrow") + 1
    syntax, schema, schema_json = cli_many(
        [["validate", str(broken)], ["check", str(invalid)], ["validate", "--json", str(invalid)]]
    )
    assert syntax.status == 2
    assert syntax.out == ""  # errors go to stderr, as every command's do
    assert syntax.err == (
        f"error: {broken}: invalidYaml: Invalid YAML (line 3, column 3): "
        "expected <block end>, but found '<block mapping start>'.\n"
    )
    assert schema.status == 2
    assert schema.err.splitlines()[-1] == f"  /profile/name: must be string (line {line}, column 9)"
    error = json.loads(schema_json.out)["error"]
    assert error["details"]["errors"][0] | {"line": line, "column": 9} == error["details"]["errors"][0]


def test_pool_and_update_commands_keep_the_files_format(folder: Path) -> None:
    path = folder / "odile.yaml"
    original = parse_yaml_character(path.read_bytes()).character
    run = cli("damage", "--in-place", "--now", NOW, str(path), "3")
    assert run.status == 0, run.err
    assert not path.read_text("utf-8").lstrip().startswith("{")
    hurt = parse_yaml_character(path.read_bytes()).character
    assert hurt == apply_damage(original, 3, now=NOW_DT)
    assert path.read_text("utf-8") == dump_yaml_character(hurt)
    assert leftovers(folder) == []

    to_stdout, to_json = cli_many(
        [
            ["update", "--now", NOW, str(path), "/secondary/fp/current=4"],
            ["update", "--now", NOW, "-o", str(folder / "new.json"), str(path), "/secondary/fp/current=4"],
        ]
    )
    expected = update_character(hurt, {"/secondary/fp/current": 4}, now=NOW_DT)
    assert to_stdout.status == to_json.status == 0
    assert to_stdout.out == dump_yaml_character(expected)  # stdout: the input's format
    assert (folder / "new.json").read_text("utf-8") == serialize_character(expected)  # -o: its suffix


def test_convert_turns_json_into_yaml_and_back(folder: Path) -> None:
    source = EXAMPLES / "jotun.json"
    yaml_path, json_path = folder / "jotun.yaml", folder / "jotun.json"
    assert cli("convert", str(source), "-o", str(yaml_path)).status == 0
    assert yaml_path.read_text("utf-8") == dump_yaml_character(json.loads(source.read_text("utf-8")))
    assert cli("convert", str(yaml_path), "-o", str(json_path)).status == 0
    assert json_path.read_text("utf-8") == serialize_character(parse_character(source.read_bytes()).character)
    assert leftovers(folder) == []


def test_convert_refuses_to_replace_a_file_without_force(folder: Path) -> None:
    target = folder / "odile.json"
    before = target.read_bytes()
    source = str(folder / "odile.yaml")
    refused, unknown = cli_many(
        [["convert", source, "-o", str(target)], ["convert", source, "-o", "odile.txt"]]
    )
    assert refused.status == 2
    assert refused.err == f"error: {target}: outputExists: the file exists; add --force to replace it.\n"
    assert target.read_bytes() == before
    assert unknown.status == 2
    assert unknown.err == (
        "error: odile.txt: invalidArgument: cannot tell the format to write from the suffix of "
        "'odile.txt': use one of .json, .yaml, .yml.\n"
    )
    target.write_text("{}", "utf-8")
    assert cli("convert", "--force", source, "-o", str(target)).status == 0
    assert target.read_bytes() == before


def test_convert_and_in_place_yaml_replace_a_file_keeping_its_mode(folder: Path) -> None:
    # Both go through the command line's one writer: the file is replaced atomically, its
    # permissions kept, and no temporary file is left behind.
    target, path = folder / "odile.json", folder / "odile.yaml"
    target.write_text("{}", "utf-8")
    target.chmod(0o640)
    path.chmod(0o604)
    converted = cli("convert", "--force", str(path), "-o", str(target))
    damaged = cli("damage", "--in-place", "-q", "--now", NOW, str(path), "2")
    assert (converted.status, damaged.status) == (0, 0)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert stat.S_IMODE(path.stat().st_mode) == 0o604
    assert parse_character(target.read_bytes()).character["profile"]["name"] == "Odile Farrow"
    assert parse_yaml_character(path.read_bytes()).character == apply_damage(
        parse_character(target.read_bytes()).character, 2, now=NOW_DT
    )
    assert leftovers(folder) == []


def test_convert_refuses_an_invalid_document_and_writes_nothing(folder: Path) -> None:
    invalid = folder / "invalid.yaml"
    invalid.write_text("format: gurps-character\nformatVersion: 1.3.0\n", "utf-8")
    run = cli("convert", str(invalid), "-o", str(folder / "out.json"))
    assert run.status == 2
    assert run.err.startswith(f"error: {invalid}: schema: the document does not match the schema (")
    assert "(root): must have required property 'ruleset' (line 1, column 1)" in run.err
    assert not (folder / "out.json").exists()


def test_without_the_extra_the_command_line_says_what_to_install(folder: Path) -> None:
    script = (
        "import sys; sys.modules['ruamel'] = None\n"
        "from gurps_character.cli import main\n"
        f"sys.exit(main(['check', {str(folder / 'odile.yaml')!r}, {str(folder / 'odile.json')!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr == (
        f"error: {folder / 'odile.yaml'}: missingExtra: Reading YAML needs the optional ruamel.yaml "
        'library: pip install "gurps-character[yaml]"\n'
    )
    assert f"{folder / 'odile.json'}\n  valid: yes\n" in done.stdout  # JSON files are still read
