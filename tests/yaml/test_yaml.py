"""Characters in YAML (issue 14): YAML 1.2 as JSON data, refusals with positions, round trips."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from gurps_character import CharacterError, parse_character, serialize_character, verify_character
from gurps_character._yaml_read import MAX_REPEATED_TEXT, YamlDataError, read_yaml
from gurps_character._yaml_write import write_yaml
from gurps_character.yaml import dump_yaml_character, parse_yaml_character
from tests.support.paths import REPOSITORY
from tests.support.strategies import YAML_JUNK, HypothesisChooser, documents, json_equal, mutate_text, pick
from tests.support.yaml_strategies import (
    text_alias_bomb,
    with_line_break_text,
    with_line_ends,
    yaml_in_styles,
)

EXAMPLES = REPOSITORY / "examples"
ODILE = EXAMPLES / "odile.yaml"


def example(name: str) -> dict[str, Any]:
    document = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def with_extension(yaml_value: str) -> str:
    """The rurik example as YAML, with ``yaml_value`` written under ``extensions``."""
    text = dump_yaml_character(example("rurik.json"))
    # Lines end at "\n" only: textwrap.indent would also break at U+0085, U+2028 and U+2029.
    indented = "\n".join(f"    {line}" if line.strip() else line for line in yaml_value.split("\n"))
    return text + "extensions:\n  com.example.test:\n" + indented


def extension(yaml_value: str) -> Any:
    character, _ = parse_yaml_character(with_extension(yaml_value))
    return character["extensions"]["com.example.test"]


def refusal(source: str | bytes, **options: Any) -> CharacterError:
    with pytest.raises(CharacterError) as caught:
        parse_yaml_character(source, **options)
    return caught.value


# ---------------------------------------------------------------- YAML 1.2, not 1.1


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("no", "no"),
        ("yes", "yes"),
        ("on", "on"),
        ("Off", "Off"),
        ("y", "y"),
        ("1:30", "1:30"),
        ("0777", 777),
        ("2001-01-01", "2001-01-01"),
        ("~", None),
        ("", None),
        ("null", None),
        ("true", True),
        ("False", False),
        ("1_000", "1_000"),
        ("0o17", 15),
        ("0x1F", 31),
        ("+12", 12),
        ("-0.5e1", -5.0),
        (".5", 0.5),
        ("<<", "<<"),
        ("=", "="),
        ("'0777'", "0777"),
        ('"no"', "no"),
        ("!!str 12", "12"),
        ("!!float 3", 3.0),
        ("!!int '7'", 7),
        ("!!null ''", None),
        ("! 12", "12"),
        ("123456789012345678901", 123456789012345683968),  # rounded to a double, as in JSON
    ],
)
def test_scalars_read_as_yaml_1_2_core_schema_says(written: str, value: Any) -> None:
    read = extension(f"value: {written}\n")["value"]
    assert read == value
    assert type(read) is type(value)


def test_big_integers_read_as_json_text_reads_them() -> None:
    literal = "123456789012345678901"
    from_json = parse_character(
        serialize_character(example("rurik.json")).replace('"cost": 500', f'"cost": {literal}')
    )
    assert extension(f"value: {literal}\n")["value"] == from_json.character["weapons"]["melee"][0]["cost"]


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "1" * 400, "0x" + "f" * 300, "!!float 1e999"])
def test_numbers_no_double_holds_are_treated_as_in_json_text(literal: str) -> None:
    # In extensions (free data) the text is refused, with the number's position.
    text = with_extension(f"values: [1, {literal}]\n")
    error = refusal(text)
    line = len(text.splitlines())
    number = literal.removeprefix("!!float ")
    shown = number if len(number) <= 40 else number[:37] + "..."
    assert error.details == {"line": line, "column": 17}
    assert error.message == f"Invalid YAML (line {line}, column 17): the number {shown} is out of range."
    # Where a number belongs, it is the schema error JSON text gets (JavaScript reads Infinity).
    json_literal = "-1e400" if literal.startswith("-") else "1e400"
    json_text = serialize_character(example("rurik.json")).replace(
        '"budget": 150', f'"budget": {json_literal}'
    )
    yaml_text = dump_yaml_character(example("rurik.json")).replace(
        "  budget: 150\n", f"  budget: {literal}\n"
    )
    with pytest.raises(CharacterError) as from_json:
        parse_character(json_text)
    error = refusal(yaml_text)
    assert error.code == from_json.value.code == "schema"
    entries = error.details["errors"]
    assert [{key: entry[key] for key in entry if key not in ("line", "column")} for entry in entries] == (
        from_json.value.details["errors"]
    )
    assert (entries[0]["line"], entries[0]["column"]) == (
        yaml_text.splitlines().index(f"  budget: {literal}") + 1,
        11,
    )


def test_aliases_are_copied_where_they_stand() -> None:
    value = extension("first: &shared {a: [1, 2], b: text}\nsecond: *shared\n")
    assert value == {"first": {"a": [1, 2], "b": "text"}, "second": {"a": [1, 2], "b": "text"}}
    assert value["first"] is not value["second"]
    assert value["first"]["a"] is not value["second"]["a"]


# ---------------------------------------------------------------- refusals, with their positions


@pytest.mark.parametrize(
    ("source", "message", "line", "column"),
    [
        ("a: [1\n", "expected ',' or ']', but got '<stream end>'", 2, 1),
        ("a: b\n  c: d\n", "mapping values are not allowed here", 2, 4),
        ("a: 1\na: 2\n", "the key 'a' appears twice in this mapping", 2, 1),
        ("a: 1\n7: 2\n", "the key 7 is a number, not text (quote it)", 2, 1),
        ("a: 1\nnull: 2\n", "the key null is null, not text (quote it)", 2, 1),
        ("a: 1\n? [k]\n: 2\n", "the key is a sequence, not text (quote it)", 2, 3),
        ("a: !!python/object:os.system x\n", "the tag !!python/object:os.system is not JSON data", 1, 4),
        (
            "a: !!python/object/apply:os.system [ls]\n",
            "the tag !!python/object/apply:os.system is not JSON data",
            1,
            4,
        ),
        ("a: !custom x\n", "the tag !custom is not JSON data", 1, 4),
        ("a: !!binary aGVsbG8=\n", "the tag !!binary is not JSON data", 1, 4),
        ("a: !!timestamp 2001-01-01\n", "the tag !!timestamp is not JSON data", 1, 4),
        ("a: !!set {x}\n", "the tag !!set is not JSON data", 1, 4),
        ("a: !!omap [b: 1]\n", "the tag !!omap is not JSON data", 1, 4),
        ("a: !!int x\n", "'x' is not a valid !!int", 1, 4),
        ("a: .inf\n", ".inf is not a JSON number", 1, 4),
        ("a:\n  - -.Inf\n", "-.Inf is not a JSON number", 2, 5),
        ("a: .NaN\n", ".NaN is not a JSON number", 1, 4),
        ("a: 1\n---\nb: 2\n", "a second document: a character is one YAML document", 2, 1),
        ("%YAML 1.1\n---\na: 1\n", "%YAML 1.1: only YAML 1.2 is read", 2, 1),
        ("a: *nowhere\n", "the alias *nowhere has no anchor before it", 1, 4),
        ("a: &loop [1, *loop]\n", "the alias *loop is inside the value it names", 1, 14),
        ("", "the text holds no YAML document", 1, 1),
        ("# only a comment\n", "the text holds no YAML document", 2, 1),
        ("a: b\x07\n", "the character U+0007 is not allowed in YAML", 1, 5),
        (b"a: \xff\n", "the bytes are not UTF-8", 1, 4),
        ("a: " + "[" * 101 + "]" * 101 + "\n", "the data is nested more than 100 levels deep", 1, 103),
    ],
)
def test_what_is_not_json_data_is_refused_with_its_position(
    source: str | bytes, message: str, line: int, column: int
) -> None:
    error = refusal(source)
    assert error.code == "invalidYaml"
    assert error.details == {"line": line, "column": column}
    assert error.message == f"Invalid YAML (line {line}, column {column}): {message}."


def test_an_alias_bomb_is_refused_not_expanded() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 10):
        aliases = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{aliases}]")
    error = refusal("\n".join(lines) + "\n")
    assert error.code == "invalidYaml"
    assert error.message.endswith(": the aliases repeat more than 1000000 values: the data is too large.")
    assert error.details["line"] == 6  # a5 holds over a million values: its eighth alias is refused


def test_aliases_too_deep_once_expanded_are_refused() -> None:
    nested = "[" * 60 + "]" * 60
    error = refusal(f"a: &deep {nested}\nb: {'[' * 41}*deep{']' * 41}\n")
    assert error.message == "Invalid YAML (line 2, column 45): the data is nested more than 100 levels deep."


def test_the_size_is_counted_in_utf8_bytes_first() -> None:
    text = "a: é\n: broken"  # 13 characters, 14 bytes, and not YAML: the size is checked first
    error = refusal(text, max_bytes=13)
    assert (error.code, error.details) == ("tooLarge", {"size": 14, "limit": 13})
    assert refusal(text, max_bytes=14).code == "invalidYaml"


@pytest.mark.parametrize(
    ("source", "code"),
    [
        ("- a\n- b\n", "notAnObject"),
        ("format: gurps-sheet\n", "legacyFormat"),
        ("format: other\n", "wrongFormat"),
        ("format: gurps-character\nformatVersion: 2.0.0\n", "unsupportedVersion"),
        ("format: gurps-character\nformatVersion: 1.9.0\n", "newerVersion"),
        ("format: gurps-character\nformatVersion: 1.3.0\n", "schema"),
    ],
)
def test_after_the_yaml_come_the_same_checks_as_for_json(source: str, code: str) -> None:
    assert refusal(source).code == code
    assert refusal(source.encode()).code == code


def test_a_source_that_is_not_text_is_an_argument_error() -> None:
    error = refusal(example("rurik.json"))  # type: ignore[arg-type]
    assert error.code == "invalidArgument"
    assert error.details == {"name": "source"}
    assert refusal("a: 1\n", max_bytes=-1).code == "invalidArgument"


_CODES = {
    "invalidYaml",
    "tooLarge",
    "notAnObject",
    "legacyFormat",
    "wrongFormat",
    "unsupportedVersion",
    "newerVersion",
    "schema",
}


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mangled_yaml_is_read_or_refused_with_a_character_error(data: st.DataObject) -> None:
    chooser = HypothesisChooser(data.draw)
    source = ODILE.read_text(encoding="utf-8")
    for _ in range(chooser.integer(0, 3)):
        at = chooser.integer(0, len(source))
        source = source[:at] + pick(chooser, YAML_JUNK) + source[at:]
    mangled = mutate_text(chooser, source)
    try:
        character, _ = parse_yaml_character(mangled)
    except CharacterError as err:
        assert err.code in _CODES, err
        if err.code == "invalidYaml":
            assert set(err.details) == {"line", "column"}
            assert err.details["line"] >= 1 and err.details["column"] >= 1
            assert err.message.startswith(f"Invalid YAML (line {err.details['line']}, ")
        json.dumps(err.to_dict())  # JSON-ready
    else:
        assert json_equal(parse_yaml_character(dump_yaml_character(character)).character, character)


# ---------------------------------------------------------------- schema errors point at the YAML


def test_schema_errors_carry_the_line_and_column_of_the_offending_value() -> None:
    text = dump_yaml_character(example("rurik.json"))
    text = text.replace("  name: Tamsin Ashdown\n", "  name: 5\n  colour: green\n")
    text = text.replace("    - level: 2\n      id: medium\n", "    - level: 2\n      id: middling\n")
    lines = text.splitlines()
    error = refusal(text)
    assert error.code == "schema"
    entries = {entry["pointer"] + " " + entry["keyword"]: entry for entry in error.details["errors"]}
    name, colour = entries["/profile/name type"], entries["/profile additionalProperties"]
    assert (name["line"], name["column"]) == (lines.index("  name: 5") + 1, 9)
    assert (colour["line"], colour["column"]) == (lines.index("  colour: green") + 1, 3)  # at the key
    level = entries["/encumbrance/levels/2/id enum"]
    assert (level["line"], level["column"]) == (lines.index("      id: middling") + 1, 11)
    assert error.message == (
        "The document does not match the gurps-character schema (3 errors): "
        '/profile: unknown property "colour" (line 18, column 3); '
        "/profile/name: must be string (line 17, column 9); "
        "/encumbrance/levels/2/id: must be equal to one of the allowed values (line 89, column 11)."
    )


def test_a_bad_extensions_key_is_placed_at_the_key() -> None:
    text = dump_yaml_character(example("rurik.json")) + "extensions:\n  com.example.ok: 1\n  Bad Key: 2\n"
    error = refusal(text)
    [entry] = error.details["errors"]
    assert (entry["propertyName"], entry["line"], entry["column"]) == ("Bad Key", len(text.splitlines()), 3)


def test_schema_errors_inside_an_alias_point_at_the_alias() -> None:
    text = with_extension("x: 1\n").replace(
        '  swing:\n    notation: "1d+1"\n    dice: 1\n    adds: 1\n', "  swing: *thrust\n"
    )
    text = text.replace("  thrust:\n", "  thrust: &thrust\n", 1)
    text = text.replace('    notation: "1d-1"\n    dice: 1\n', '    notation: "1d-1"\n    dice: "one"\n', 1)
    lines = text.splitlines()
    error = refusal(text)
    places = {entry["pointer"]: (entry["line"], entry["column"]) for entry in error.details["errors"]}
    assert places["/damage/thrust/dice"] == (lines.index('    dice: "one"') + 1, 11)
    assert places["/damage/swing/dice"] == (lines.index("  swing: *thrust") + 1, 10)


def test_json_schema_errors_are_unchanged() -> None:
    text = serialize_character(example("rurik.json")).replace('"name": "Tamsin Ashdown"', '"name": 5')
    with pytest.raises(CharacterError) as caught:
        parse_character(text)
    assert caught.value.details["errors"] == [
        {
            "pointer": "/profile/name",
            "keyword": "type",
            "params": {"type": "string"},
            "message": "/profile/name: must be string",
        }
    ]
    assert caught.value.message == (
        "The document does not match the gurps-character schema (1 error): /profile/name: must be string."
    )


# ---------------------------------------------------------------- writing


def test_the_writer_quotes_what_a_yaml_reader_would_take_for_something_else() -> None:
    texts = [
        "no",
        "On",
        "YES",
        "y",
        "N",
        "null",
        "~",
        "1:30",
        "0777",
        "2001-01-01",
        "1e3",
        ".5",
        "-x",
        "a: b",
        "a #b",
        "end:",
        " padded",
        "",
        "tab\there",
        "line\nbreak",
        "\u2028",
        "é",
        "plain text",
        "$ref",
        "(x)",
    ]
    document = {**example("rurik.json"), "notes": texts}
    text = dump_yaml_character(document)
    written = text[text.index("notes:\n") :].splitlines()[1 : len(texts) + 1]
    assert written == [
        '  - "no"',
        '  - "On"',
        '  - "YES"',
        '  - "y"',
        '  - "N"',
        '  - "null"',
        '  - "~"',
        '  - "1:30"',
        '  - "0777"',
        '  - "2001-01-01"',
        '  - "1e3"',
        '  - ".5"',
        '  - "-x"',
        '  - "a: b"',
        '  - "a #b"',
        '  - "end:"',
        '  - " padded"',
        '  - ""',
        '  - "tab\\there"',
        '  - "line\\nbreak"',
        '  - "\\u2028"',
        "  - é",
        "  - plain text",
        "  - $ref",
        "  - (x)",
    ]
    assert parse_yaml_character(text).character["notes"] == texts


# Every implicit type of YAML 1.1 (as PyYAML resolves them), and 1.2's core schema: a string the
# writer leaves unquoted must match none of them.
_YAML_1_1_AND_1_2 = re.compile(
    r"""(?x)
    y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF
    |~|null|Null|NULL|<<|=
    |[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+
    |0o[0-7]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?
    |[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?
    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)
    |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?
      (?:(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?
         (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)?
    """
)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12) | st.sampled_from(["no", "On", "1:30", "0777", "2001-01-01", "~", "0x1F", "1_0"]))
def test_any_text_survives_and_plain_text_is_text_to_every_reader(value: str) -> None:
    # The writer and reader themselves, on small data: the whole document costs a validation.
    data = {"list": [value], value: {"key": value}}
    text = write_yaml(data)
    assert json_equal(read_yaml(text)[0], data)
    written = text.splitlines()[1].removeprefix("  - ")
    if not written.startswith('"'):
        assert written == value
        assert _YAML_1_1_AND_1_2.fullmatch(value) is None


def test_keys_longer_than_yaml_allows_for_implicit_keys_are_written_explicitly() -> None:
    key = "k" * 1500
    document = {**example("rurik.json"), "extensions": {"com.example.test": {key: [1, {key: {}}]}}}
    text = dump_yaml_character(document)
    assert f"? {key}\n" in text
    assert parse_yaml_character(text).character == document


def test_the_writer_refuses_what_serialize_refuses() -> None:
    document = example("rurik.json")
    with pytest.raises(CharacterError) as caught:
        dump_yaml_character({**document, "profile": {**document["profile"], "name": 5}})
    assert caught.value.code == "schema"
    with pytest.raises(CharacterError) as caught:
        dump_yaml_character({**document, "extensions": {"com.example.test": {1, 2}}})
    assert (caught.value.code, caught.value.details["pointer"]) == (
        "invalidJson",
        "/extensions/com.example.test",
    )
    with pytest.raises(CharacterError) as caught:
        dump_yaml_character({**document, "format": "other"})
    assert caught.value.code == "wrongFormat"
    with pytest.raises(CharacterError) as caught:  # valid (extensions are free), but no YAML number
        dump_yaml_character({**document, "extensions": {"com.example.test": [{"n": 10**400}]}})
    assert caught.value.to_dict() == {
        "code": "invalidJson",
        "message": "The document is not JSON data at /extensions/com.example.test/0/n: "
        "an integer of 1329 bits (beyond doubles) is not a JSON number.",
        "details": {
            "pointer": "/extensions/com.example.test/0/n",
            "reason": "an integer of 1329 bits (beyond doubles) is not a JSON number",
        },
    }


def test_the_writer_refuses_data_deeper_than_yaml_is_read() -> None:
    deep: Any = [1, []]
    for _ in range(96):
        deep = [deep]
    # 100 levels: the document, extensions, and 98 lists (the last one empty)
    document = {**example("rurik.json"), "extensions": {"com.example.test": deep}}
    assert parse_yaml_character(dump_yaml_character(document)).character == document
    document["extensions"] = {"com.example.test": [deep]}
    with pytest.raises(CharacterError) as caught:
        dump_yaml_character(document)
    assert caught.value.code == "tooLarge"
    assert caught.value.details == {
        "pointer": "/extensions/com.example.test" + "/0" * 97 + "/1",
        "limit": 100,
    }


# ---------------------------------------------------------------- round trips


def test_the_yaml_example_round_trips() -> None:
    character, report = parse_yaml_character(ODILE.read_text(encoding="utf-8"))
    text = dump_yaml_character(character)
    assert parse_yaml_character(text) == (character, report)


@pytest.mark.parametrize("name", ["rurik.json", "jotun.json"])
def test_the_json_examples_round_trip_through_yaml(name: str) -> None:
    document = example(name)
    text = dump_yaml_character(document)
    character, report = parse_yaml_character(text)
    assert character == document
    assert list(character) == list(document)  # key order kept
    assert report == verify_character(document)
    assert dump_yaml_character(character) == text


@settings(max_examples=40, deadline=None)
@given(documents())
def test_generated_documents_round_trip_through_yaml(document: dict[str, Any]) -> None:
    text = dump_yaml_character(document)
    character, _ = parse_yaml_character(text)
    assert json_equal(character, document)
    assert dump_yaml_character(character) == text


# ---------------------------------------------------------------- the YAML example


def test_the_yaml_example_is_a_valid_rules_compliant_character() -> None:
    text = ODILE.read_text(encoding="utf-8")
    assert text.isascii()
    assert "\n#" in text or text.startswith("#")  # hand-written, with comments
    character, report = parse_yaml_character(text)
    assert character["formatVersion"] == "1.3.0"
    assert character["profile"]["name"] == "Odile Farrow"
    assert report.rules_compliant
    assert report.declared_compliant
    assert report.claim_consistent
    assert report.deviations == () and report.inconsistencies == () and report.issues == ()
    points: dict[str, Any] = dict(character["points"])
    assert points["unspent"] == points["budget"] - points["spent"]
    # the same document as JSON: the same answer
    assert parse_character(serialize_character(character)) == (character, report)


def test_the_yaml_example_is_nobody_from_the_json_examples() -> None:
    character, _ = parse_yaml_character(ODILE.read_bytes())
    names = {example(name)["profile"]["name"] for name in ("rurik.json", "jotun.json")}
    assert character["profile"]["name"] not in names


# ---------------------------------------------------------------- the optional extra


def test_without_the_extra_reading_yaml_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name == "ruamel" or name.startswith("ruamel.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ruamel", None)  # None in sys.modules: the import fails
    with pytest.raises(CharacterError) as caught:
        parse_yaml_character(ODILE.read_text(encoding="utf-8"))
    assert caught.value.code == "missingExtra"
    assert caught.value.message == (
        'Reading YAML needs the optional ruamel.yaml library: pip install "gurps-character[yaml]"'
    )
    assert caught.value.details == {"extra": "yaml", "install": 'pip install "gurps-character[yaml]"'}
    # writing needs no library
    assert dump_yaml_character(example("rurik.json")).startswith("$schema: ")


def test_importing_the_package_never_imports_yaml() -> None:
    script = textwrap.dedent(
        f"""
        import sys
        import gurps_character
        from gurps_character import parse_character, serialize_character
        text = open({str(EXAMPLES / "rurik.json")!r}, encoding="utf-8").read()
        serialize_character(parse_character(text).character)
        import gurps_character.yaml
        gurps_character.yaml.dump_yaml_character(parse_character(text).character)
        print(sorted(name for name in sys.modules if name.split(".")[0] in ("ruamel", "yaml")))
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# ---------------------------------------------------------------- built to hurt (issue 22, items 5-7)


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\u2029"])
@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("a{c}b", "a{c}b"),  # plain
        ("{c}", "{c}"),
        ("x {c}y", "x {c}y"),
        ("'a{c}b'", "a{c}b"),
        ('"a{c}b"', "a{c}b"),
        ('"{c}"', "{c}"),
        ('"a {c} b"', "a {c} b"),
        ("|-\n    a{c}b\n    c", "a{c}b\nc"),
        ("a # a comment{c}with: more\n", "a"),
        ('"a" # {c}: b', "a"),
    ],
)
def test_yaml_1_1_line_breaks_are_ordinary_characters(char: str, written: str, value: str) -> None:
    # YAML 1.2 (and JSON) read U+0085, U+2028 and U+2029 as text: nothing folded, nothing ended.
    assert extension("value: " + written.replace("{c}", char) + "\n")["value"] == value.replace("{c}", char)


@pytest.mark.parametrize("char", ["\x7f", "\x80", "\x9f", "\ufffe", "\uffff"])
def test_what_json_allows_in_strings_yaml_allows_in_quoted_text(char: str) -> None:
    # YAML 1.2 takes every character but the C0 controls inside quotes, as JSON inside strings.
    document = example("rurik.json")
    document["profile"]["name"] = f"Rurik{char}"
    assert parse_yaml_character(serialize_character(document)).character == document
    assert extension(f'a: \'{char}\'\n"{char}": ["{char}"]\n') == {"a": char, char: [char]}
    for outside in (f"a: x{char}\n", f"a: 1 # {char}\n", f"a: |\n  x{char}\n", f"a: &x{char} 1\n"):
        error = refusal(outside)
        line, column = (2, 4) if "|" in outside else (1, outside.index(char) + 1)
        assert error.details == {"line": line, "column": column}
        assert error.message.endswith(
            f"the character U+{ord(char):04X} is allowed in YAML only inside quoted text."
        )


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\u2029"])
def test_yaml_1_1_line_breaks_in_keys_anchors_and_json_text(char: str) -> None:
    assert extension(f"a{char}b: 1\n'{char}': 2\n\"q{char}\": 3\n") == {
        f"a{char}b": 1,
        char: 2,
        f"q{char}": 3,
    }
    assert extension(f"a: &x{char}y [1]\nb: *x{char}y\n") == {"a": [1], "b": [1]}
    document = example("rurik.json")
    document["profile"]["name"] = f"Rurik{char}the {char}Red{char}"
    text = serialize_character(document)  # JSON.stringify writes them raw
    assert char in text
    assert parse_yaml_character(text).character == document
    assert parse_yaml_character(dump_yaml_character(document)).character == document


def test_a_comment_holding_a_line_separator_leaves_a_valid_file_valid() -> None:
    text = ODILE.read_text(encoding="utf-8")
    commented = text.replace("\n", " # and\u2028then: 1\n", 3)
    assert parse_yaml_character(commented) == parse_yaml_character(text)


def test_a_name_holding_next_line_is_read_as_written() -> None:
    text = dump_yaml_character(example("rurik.json")).replace(
        "name: Tamsin Ashdown", "name: Tamsin\x85 Ashdown"
    )
    assert parse_yaml_character(text).character["profile"]["name"] == "Tamsin\x85 Ashdown"
    quoted = text.replace("name: Tamsin\x85 Ashdown", 'name: "Tamsin\x85Ashdown"')
    assert parse_yaml_character(quoted).character["profile"]["name"] == "Tamsin\x85Ashdown"


def test_escapes_of_the_characters_standing_in_for_line_breaks_keep_their_meaning() -> None:
    # The reader replaces U+0085 by a character the text does not hold while ruamel.yaml reads
    # it; one written as an escape anywhere in the text must not be mistaken for it.
    escapes = "".join(f'"\\U{code:08X}{chr(0x85)}", ' for code in range(0xF0000, 0xF0004))
    value = extension(f"values: [{escapes}'\U000f0004\x85']\n")["values"]
    assert value == [f"{chr(code)}\x85" for code in range(0xF0000, 0xF0005)]


_BIG_DRAWS = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
"""A whole document written in chosen styles takes a draw per value."""


@settings(max_examples=100, deadline=None, suppress_health_check=_BIG_DRAWS)
@given(st.data())
def test_text_holding_old_line_breaks_reads_as_written_in_every_style(data: st.DataObject) -> None:
    # The reader and writer alone, on the parts of a document that hold such text.
    chooser = HypothesisChooser(data.draw)
    document = with_line_break_text(chooser, {"profile": {"name": "x"}})
    text = yaml_in_styles(chooser, document)  # our own writer: plain, quoted, literal, comments
    assert json_equal(read_yaml(text)[0], document)
    assert json_equal(read_yaml(json.dumps(document, ensure_ascii=False))[0], document)  # JSON text is YAML
    assert json_equal(read_yaml(write_yaml(document))[0], document)  # and the writer keeps it


@settings(max_examples=10, deadline=None, suppress_health_check=_BIG_DRAWS)
@given(documents(), st.data())
def test_generated_documents_with_old_line_breaks_survive_yaml(
    document: dict[str, Any], data: st.DataObject
) -> None:
    document = with_line_break_text(HypothesisChooser(data.draw), document)
    for text in (yaml_in_styles(HypothesisChooser(data.draw), document), serialize_character(document)):
        assert json_equal(parse_yaml_character(text).character, document)


@pytest.mark.parametrize("ends", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize(
    ("tail", "message", "column"),
    [
        ("c: b\x07", "the character U+0007 is not allowed in YAML", 5),
        ("c: !!set x", "the tag !!set is not JSON data", 4),
        ("a: 2", "the key 'a' appears twice in this mapping", 1),
        ("c: [1", "expected ',' or ']', but got '<stream end>'", 6),
        ("c: b\x85\x07", "the character U+0007 is not allowed in YAML", 6),
    ],
)
def test_errors_are_placed_whatever_the_line_ends(ends: str, tail: str, message: str, column: int) -> None:
    source = ends.join(["a: 1", "# x\u2028y", "b: [2,", "  3]", tail])
    line = 5
    if message.startswith("expected"):  # the end of the text, after the line
        source += ends
        line, column = 6, 1
    error = refusal(source)
    assert error.details == {"line": line, "column": column}
    assert error.message == f"Invalid YAML (line {line}, column {column}): {message}."


@pytest.mark.parametrize("ends", ["\n", "\r\n", "\r"])
def test_bytes_that_are_not_utf8_are_placed_whatever_the_line_ends(ends: str) -> None:
    source = ends.join(["a: 1", "b: é", "c: x\xff"]).encode("latin-1")
    source = source.replace("é".encode("latin-1"), "é".encode())
    assert refusal(source).details == {"line": 3, "column": 5}


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_text_reads_the_same_whatever_its_line_ends(data: st.DataObject) -> None:
    chooser = HypothesisChooser(data.draw)
    source = ODILE.read_text(encoding="utf-8")
    for _ in range(chooser.integer(0, 3)):
        at = chooser.integer(0, len(source))
        source = source[:at] + pick(chooser, YAML_JUNK) + source[at:]
    source = source.replace("\r", "")
    outcomes: list[tuple[str, Any]] = []
    ended = with_line_ends(chooser, source)
    note(f"source: {source!r}")
    note(f"ended: {ended!r}")
    for text in (source, ended):
        try:
            data, too_large = read_yaml(text)
        except YamlDataError as err:
            outcomes.append(("refused", (err.reason, err.line, err.column)))
        else:  # a number beyond doubles is read, and placed, whatever the line ends
            placed = None if too_large is None else (too_large.reason, too_large.line, too_large.column)
            outcomes.append(("read", (data, placed)))
    assert outcomes[0][0] == outcomes[1][0]
    if outcomes[0][0] == "read":
        assert json_equal(outcomes[0][1][0], outcomes[1][1][0])
        assert outcomes[0][1][1] == outcomes[1][1][1]
    else:
        assert outcomes[0] == outcomes[1]


def test_a_long_text_aliased_thousands_of_times_is_refused() -> None:
    # 100 kB of YAML that would be 500 MB of text written out (issue 22, item 6).
    long_text = "x" * 50_000
    aliases = ", ".join(["*text"] * 10_000)
    error = refusal(with_extension(f"note: &text {long_text}\nall: [{aliases}]\n"))
    assert error.code == "invalidYaml"
    too_large = "the aliases repeat more than 2000000 characters of text: the data is too large."
    assert error.message.endswith(": " + too_large)
    lines = with_extension("").count("\n")
    assert error.details["line"] == lines + 2
    # 40 aliases repeat exactly 2,000,000 characters, the limit: the 41st goes beyond it
    assert error.details["column"] == len("    all: [") + 1 + 40 * len("*text, ")


def _aliases(name: str, count: int) -> str:
    return "[" + ", ".join([f"*{name}"] * count) + "]"


@pytest.mark.parametrize(
    "source",
    [
        f"a: &k {{key{'k' * 900}: 1}}\nb: {_aliases('k', 3_000)}\n",
        f"a: &t '{'t' * 1_000}'\nb: &l {_aliases('t', 100)}\nc: {_aliases('l', 30)}\n",
        f"a: &t t\nb: {_aliases('t', 100)}\nc: &w |-\n  {'w' * 10_000}\nd: {_aliases('w', 300)}\n",
    ],
    ids=["keys", "nested", "literal"],
)
def test_aliases_count_the_text_they_repeat_keys_and_nesting_included(source: str) -> None:
    error = refusal(source)
    assert error.message.endswith("characters of text: the data is too large.")


def test_text_aliased_within_the_limit_is_read() -> None:
    value = extension("a: &t " + "t" * 1_000 + "\nb: [" + ", ".join(["*t"] * 1_999) + "]\n")
    assert len(value["b"]) == 1_999 and value["b"][0] == value["a"]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_text_alias_bombs_are_refused_beyond_the_limit(data: st.DataObject) -> None:
    text, repeated = text_alias_bomb(HypothesisChooser(data.draw), MAX_REPEATED_TEXT)
    try:
        read_yaml(text)
    except YamlDataError as err:
        assert repeated > MAX_REPEATED_TEXT
        assert err.reason == (
            f"the aliases repeat more than {MAX_REPEATED_TEXT} characters of text: the data is too large"
        )
    else:
        assert repeated <= MAX_REPEATED_TEXT


def test_json_keys_of_any_length_and_on_their_own_line_are_yaml() -> None:
    # YAML 1.2 limits implicit keys to a line and 1024 characters, but not a JSON-like key of a
    # flow mapping: JSON text with a long key, or a line break before its ':', is YAML
    document = example("rurik.json")
    key = "k" * 2_000
    document["extensions"] = {"com.example.test": {key: [1, {key: {}}], "short": 2}}
    text = serialize_character(document)
    assert parse_yaml_character(text).character == document
    assert parse_yaml_character(text.replace('": ', '"\n  : ')).character == document
    assert extension('value: [{"a"\n  : 1}]\n') == {"value": [{"a": 1}]}
    # elsewhere the limit stands: a plain key, or a quoted one in a block mapping
    assert refusal(with_extension("x" * 1_100 + ": 1\n")).code == "invalidYaml"
    assert refusal(with_extension('"' + "x" * 1_100 + '": 1\n')).code == "invalidYaml"


@pytest.mark.parametrize("ends", ["\r\n", "\r"])
def test_schema_errors_are_placed_whatever_the_line_ends(ends: str) -> None:
    text = dump_yaml_character(example("rurik.json"))
    text = text.replace("  name: Tamsin Ashdown\n", "  name: 5\n  colour: green\n")
    expected = refusal(text)
    assert expected.code == "schema"
    error = refusal(text.replace("\n", ends))
    assert error.details == expected.details
    assert error.message == expected.message
