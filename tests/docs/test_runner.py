"""The example runner itself (:mod:`tests.docs.runner`): what it runs, compares, refuses and skips,
on small pages written here, and the README's set-up commands being what ``.ci/run`` runs."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest
from sybil.example import SybilFailure

from tests.docs.runner import PageRun, install_problem, output_matches, parse_page, python_lines
from tests.support.paths import REPOSITORY

FENCE = "```"


def _page(tmp_path: Path, text: str) -> Path:
    page = tmp_path / "page.md"
    page.write_text(text.replace("'''", FENCE), encoding="utf-8")
    return page


def _run_all(page: Path, monkeypatch: pytest.MonkeyPatch) -> PageRun:
    run = PageRun(page)
    try:
        for index in range(len(run.examples)):
            run.run_through(index, monkeypatch)
    finally:
        run.close()
    return run


needs_posix = pytest.mark.skipif(sys.platform == "win32", reason="console examples are POSIX shell")


# ---------------------------------------------------------------- output matching


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ("a\nb", "a\nb\n"),
        ("a   \n\nb\n\n", "a\n\nb"),
        ("rurik.json: ... deviations", "rurik.json: 3 deviations"),
        ("first\n...\nlast", "first\nsecond\nthird\nlast"),
        ("...", "anything\nat all"),
    ],
)
def test_output_matches(expected: str, actual: str) -> None:
    assert output_matches(expected, actual)


@pytest.mark.parametrize(
    ("expected", "actual"),
    [("a\nb", "a\nc"), ("first\n...\nlast", "first\nsecond"), ("a.b", "aXb"), ("x", "x\ny")],
)
def test_output_mismatches(expected: str, actual: str) -> None:
    assert not output_matches(expected, actual)


# ---------------------------------------------------------------- python blocks


def test_python_blocks_share_a_namespace_in_a_folder_with_the_examples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page(
        tmp_path,
        "'''python\nfrom pathlib import Path\nsize = Path('Dai Blackthorn.gcs').stat().st_size\n'''\n"
        "text\n'''python\nassert size > 0 and Path('examples/rurik.json').is_file()\n"
        "Path('written.txt').write_text('x')\n>>> size > 0\nTrue\n>>> print('a b c')\na ... c\n'''\n",
    )
    run = _run_all(page, monkeypatch)
    assert len(run.examples) == 4  # two code parts, two doctests
    assert run.folder is not None and not run.folder.exists()  # written there, then removed
    assert run.document.namespace["size"] > 0


def test_a_wrong_doctest_output_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = _page(tmp_path, "'''python\n>>> 1 + 1\n3\n'''\n")
    with pytest.raises(SybilFailure, match="Expected:\n    3\nGot:\n    2"):
        _run_all(page, monkeypatch)


def test_code_after_a_doctest_output_fails_instead_of_being_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page(tmp_path, "'''python\n>>> 1 + 1\n2\n\nraise SystemExit('never run')\n'''\n")
    with pytest.raises(SybilFailure, match="neither a >>> line nor output"):
        _run_all(page, monkeypatch)


def test_an_example_after_a_failed_one_fails_without_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page(tmp_path, "'''python\nraise ValueError('boom')\n'''\n'''python\nopen('ran', 'w')\n'''\n")
    run = PageRun(page)
    try:
        with pytest.raises(ValueError, match="boom"):
            run.run_through(0, monkeypatch)
        with pytest.raises(pytest.fail.Exception, match=r"an earlier example of this page \(line 1\) failed"):
            run.run_through(1, monkeypatch)
        assert run.folder is not None and not (run.folder / "ran").exists()
    finally:
        run.close()


def test_python_lines_keep_the_page_line_numbers(tmp_path: Path) -> None:
    page = _page(tmp_path, "# Title\n\n'''python\nx = 1\n>>> x + 1\n2\n'''\n")
    assert python_lines(parse_page(page)).splitlines() == ["", "", "", "x = 1", "x + 1", "", "", ""]


# ---------------------------------------------------------------- console blocks


@needs_posix
def test_console_commands_run_and_their_output_is_compared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page(
        tmp_path,
        "'''console\n$ gurps-character check examples/rurik.json\n...rurik.json...\n"
        "$ python -c 'print(2 + 2)' \\\n  && ls 'Dai Blackthorn.gcs'\n4\nDai Blackthorn.gcs\n"
        "$ python -m pip install '.[yaml]' && python -c 'import sys'\n"
        "$ python -m pip install '.[test]' && python -m pytest\n'''\n",
    )
    run = _run_all(page, monkeypatch)
    assert len(run.examples) == 4


@needs_posix
@pytest.mark.parametrize(
    ("console", "message"),
    [
        ("$ python -c 'print(5)'\n4\n", "--- expected\n4\n--- got\n5"),
        ("$ python -c 'raise SystemExit(3)'\n", "exit status 3"),
        ("$ gurps-character check nowhere.json\n", "exit status [1-9]"),
        ("$ pip install '.[nonsense]'\n", "extras pyproject.toml does not define: nonsense"),
        ("$ pip install requests\n", "installs 'requests', not this project"),
        ("stray words\n$ true\n", "before its first '\\$ ' command"),
        ("$ python -m pytest --lf\n", "'python -m pytest --lf' is not what .ci/run runs"),
    ],
)
def test_console_failures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, console: str, message: str
) -> None:
    page = _page(tmp_path, f"'''console\n{console}'''\n")
    with pytest.raises(SybilFailure, match=message):
        _run_all(page, monkeypatch)


@needs_posix
def test_a_failing_command_passes_when_its_shown_output_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page(tmp_path, "'''console\n$ python -c 'import sys; sys.exit(\"refused\")'\nrefused\n'''\n")
    _run_all(page, monkeypatch)


def test_install_targets() -> None:
    assert install_problem(["python", "-m", "pip", "install", "--quiet", ".[test,yaml]"]) is None
    assert install_problem(["pip", "install", "gurps-character[yaml]"]) is None
    assert install_problem(["pip", "install", "-U"]) == "installs nothing"


# ---------------------------------------------------------------- what is not run


@pytest.mark.parametrize(
    "block",
    ["'''sh\ngurps-character check x\n'''\n", "'''\n$ gurps-character check x\n'''\n", "'''\n>>> 1\n'''\n"],
)
def test_blocks_that_look_runnable_but_are_not_run_are_skipped_with_a_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: str
) -> None:
    page = _page(tmp_path, block)
    with pytest.raises(pytest.skip.Exception, match=r"page.md:1: a .* block is not run"):
        _run_all(page, monkeypatch)


def test_text_blocks_and_pages_without_examples_have_no_examples(tmp_path: Path) -> None:
    page = _page(tmp_path, "# A page\n\n'''text\n$ not a command\n'''\n'''json\n{}\n'''\n")
    assert list(parse_page(page)) == []


# ---------------------------------------------------------------- the README's set-up commands


def _setup_commands() -> list[str]:
    readme = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^```\w*\n(.*?)^```$", readme, re.MULTILINE | re.DOTALL)
    assert block is not None
    return [line.removeprefix("$ ") for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_starts_with_the_two_set_up_commands_ci_runs() -> None:
    install, test = _setup_commands()
    assert install == "python -m pip install . && python -m gurps_character check examples/rurik.json"
    assert test == 'python -m pip install ".[test]" && python -m pytest'
    ci_run = [line.strip() for line in (REPOSITORY / ".ci/run").read_text(encoding="utf-8").splitlines()]
    installs = [shlex.split(line) for line in ci_run if line.startswith("python -m pip install")]
    assert any(
        word.startswith(".[") and "test" in word[2:-1].split(",") for words in installs for word in words
    )
    assert "python -m pytest -q" in ci_run
