"""The documentation's example runner: every example in README.md and ``docs/**/*.md`` runs.

The convention the pages follow (and this module implements, on Sybil's Markdown lexer and its
Python and doctest evaluators):

- **```python blocks** of one page run in order, in one namespace, in a temporary working folder
  holding a copy of ``examples/``, a file "Dai Blackthorn.gcs" (a copy of
  ``tests/fixtures/gcs/v5_fighter.gcs``) and ``benchmarks/`` (a link to the repository's).
  Lines from the first ``>>>`` of a block on are doctests whose shown output is checked
  (``...`` matches anything); the plain code before them runs as code. Text after a doctest's
  output that is neither a ``>>>`` line nor output fails: doctest would take it for prose and
  never run it.
- **```console blocks**: a line starting with ``$ `` is a command, run by ``bash`` (with
  ``pipefail``) in the page's folder, with ``python`` and ``gurps-character`` meaning the
  interpreter and library under test; a line ending in ``\\`` continues on the next. The lines
  after it, up to the next ``$ ``, are its expected output (stdout and stderr together, trailing
  spaces and blank lines ignored, ``...`` matching anything, across lines too). A command whose
  output is not shown must succeed; one that exits non-zero passes only if the page shows its
  output and the output matches. Install commands (``pip install``, ``python -m pip install``,
  one part of a ``&&`` chain) are not run — this interpreter has the project installed already —
  but checked: each installs this project (``.``, ``.[extras]``, ``gurps-character[extras]``)
  with extras pyproject.toml defines. The test suite's command (``python -m pytest``, as the
  README's set-up line runs it) is not run either — the suite would run itself — but checked: it
  is what ``.ci/run`` runs. Text in a console block before its first ``$ `` fails.
- **Nothing is skipped silently**: a block in a shell language (``sh``, ``bash``, ...) or a
  block without a language whose lines start with ``$ `` or ``>>>`` is not run, and shows up as a
  skipped example with its page, line and the reason; so do console examples on Windows (they
  are POSIX shell). A page with no examples has no tests.
- Each page's Python (its code and its doctests' source) is also type-checked by
  ``mypy --strict``, with the page's own line numbers.
"""

from __future__ import annotations

import contextlib
import doctest
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest
from sybil import Document, Example, Lexeme, Region, Sybil
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer
from sybil.parsers.myst import CodeBlockParser

from tests.support.cli_runner import child_environment
from tests.support.paths import EXAMPLES, FIXTURES, REPOSITORY

__all__ = [
    "DOCS",
    "Command",
    "ConsoleParser",
    "PageRun",
    "PythonParser",
    "UnrunParser",
    "install_problem",
    "output_matches",
    "pages",
    "parse_page",
    "python_lines",
]

DOCS: Final = REPOSITORY / "docs"
"""The documentation site's pages."""
GCS_SAMPLE: Final = FIXTURES / "gcs" / "v5_fighter.gcs"
"""The file that stands in for "Dai Blackthorn.gcs", the GCS character the pages read."""
SHELL_LANGUAGES: Final = frozenset({"sh", "bash", "shell", "zsh", "shell-session", "shellsession"})
"""Languages of blocks that look like commands to run but are not: a page writes ```console."""
PYTHON_PROMPT: Final = re.compile(r"^[ \t]*>>>( |$)", re.MULTILINE)
COMMAND_TIMEOUT: Final = 300
"""Seconds a console command may take before it counts as hung (a guard, not a measurement)."""


def pages() -> list[Path]:
    """README.md and every Markdown page of the docs site, in a stable order."""
    return [REPOSITORY / "README.md", *sorted(DOCS.rglob("*.md"))]


# ---------------------------------------------------------------- ```python blocks


@dataclass(frozen=True)
class _Stray:
    """Text inside a ```python block that would not run (after a doctest's output)."""

    text: str


def _fail_stray(example: Example) -> str:
    stray: _Stray = example.parsed
    return (
        "text after a doctest's output is neither a >>> line nor output, so doctest would not run it "
        f"(start a new ```python block, or prefix it with >>>):\n{stray.text}"
    )


class PythonParser:
    """```python blocks: plain code up to the first ``>>>`` line, doctests from there on."""

    def __init__(self) -> None:
        self._blocks = CodeBlockParser("python")  # the blocks only: each is split below
        self._code = PythonEvaluator()
        self._doctests = DocTestStringParser(DocTestEvaluator(doctest.ELLIPSIS))

    def __call__(self, document: Document) -> Iterable[Region]:
        for block in self._blocks(document):
            source: Lexeme = block.parsed
            base = block.start + source.offset  # where the block's source begins in the page
            prompt = PYTHON_PROMPT.search(source)
            split = len(source) if prompt is None else prompt.start()
            code = source[:split]
            if code.strip():
                yield Region(block.start, base + split, Lexeme(code, source.offset, 0), self._code)
            yield from self._doctest_regions(str(source), split, base, document)

    def _doctest_regions(self, source: str, split: int, base: int, document: Document) -> Iterator[Region]:
        covered = split
        for region in self._doctests(source[split:], document.path):
            start, end = split + region.start, split + region.end
            yield from _stray_region(source, covered, start, base)
            covered = end
            yield Region(base + start, base + end, region.parsed, region.evaluator)
        yield from _stray_region(source, covered, len(source), base)


def _stray_region(source: str, start: int, end: int, base: int) -> Iterator[Region]:
    text = source[start:end]
    if text.strip():
        offset = start + len(text) - len(text.lstrip())
        yield Region(base + offset, base + end, _Stray(text.strip()), _fail_stray)


# ---------------------------------------------------------------- ```console blocks


@dataclass(frozen=True)
class Command:
    """One ``$ `` command of a console block and the output the page shows after it."""

    command: str
    expected: str


def _console_lines(source: str) -> Iterator[tuple[int, int, str]]:
    """Each line of ``source`` with its start and end offsets (the end includes its newline)."""
    position = 0
    for line in source.splitlines(keepends=True):
        yield position, position + len(line), line.rstrip("\n")
        position += len(line)


class ConsoleParser:
    """```console blocks: one example per ``$ `` command, with the output shown after it."""

    def __init__(self) -> None:
        self._blocks = CodeBlockParser("console")  # the blocks only: each is split below

    def __call__(self, document: Document) -> Iterable[Region]:
        for block in self._blocks(document):
            source: Lexeme = block.parsed
            yield from _commands(str(source), block.start + source.offset)


def _commands(source: str, base: int) -> Iterator[Region]:
    start: int | None = None
    command: list[str] = []
    output: list[str] = []
    end = 0
    continued = False
    for line_start, line_end, line in _console_lines(source):
        if continued:
            command.append(line)
            continued = line.endswith("\\")
        elif line.startswith("$ "):
            if start is not None:
                yield _command_region(base, start, end, command, output)
            start, command, output = line_start, [line[2:]], []
            continued = line.endswith("\\")
        elif start is None:
            if line.strip():
                yield Region(base + line_start, base + line_end, _Stray(line), _fail_console_stray)
            continue
        else:
            output.append(line)
        end = line_end
    if start is not None:
        yield _command_region(base, start, end, command, output)


def _command_region(base: int, start: int, end: int, command: list[str], output: list[str]) -> Region:
    text = "\n".join(command)
    return Region(base + start, base + end, Command(text, "\n".join(output)), run_command)


def _fail_console_stray(example: Example) -> str:
    stray: _Stray = example.parsed
    return (
        f"a console block's text before its first '$ ' command is neither a command nor output: {stray.text}"
    )


def _normalized_output(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()).strip("\n")


def output_matches(expected: str, actual: str) -> bool:
    """Whether ``actual`` is the output ``expected`` shows, ``...`` standing for any text (lines
    too); trailing spaces and leading or trailing blank lines are ignored."""
    pieces = [re.escape(piece) for piece in _normalized_output(expected).split("...")]
    return re.fullmatch(".*?".join(pieces), _normalized_output(actual), re.DOTALL) is not None


INSTALLERS: Final = (
    ("pip", "install"),
    ("python", "-m", "pip", "install"),
    ("python3", "-m", "pip", "install"),
)


def _is_install(words: list[str]) -> bool:
    return any(tuple(words[: len(installer)]) == installer for installer in INSTALLERS)


def _extras() -> frozenset[str]:
    with (REPOSITORY / "pyproject.toml").open("rb") as file:
        return frozenset(tomllib.load(file)["project"]["optional-dependencies"])


def install_problem(words: list[str]) -> str | None:
    """What is wrong with an install command's targets (``None``: each installs this project, as
    ``.``, ``.[extras]`` or ``gurps-character[extras]``, with extras pyproject.toml defines)."""
    installer = next(installer for installer in INSTALLERS if tuple(words[: len(installer)]) == installer)
    targets = [word for word in words[len(installer) :] if not word.startswith("-")]
    if not targets:
        return "installs nothing"
    extras = _extras()
    for target in targets:
        found = re.fullmatch(r"(\.|gurps-character)(?:\[([\w,-]+)\])?", target)
        if found is None:
            return f"installs {target!r}, not this project"
        unknown = sorted(set((found.group(2) or "").split(",")) - extras - {""})
        if unknown:
            return f"installs extras pyproject.toml does not define: {', '.join(unknown)}"
    return None


def _ci_runs(words: list[str]) -> bool:
    """Whether ``.ci/run`` runs the test suite as ``words`` do (its own options, ``-q``, aside)."""
    ci_run = (REPOSITORY / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    runs = [
        shlex.split(line, comments=True) for line in ci_run if line.strip().startswith("python -m pytest")
    ]
    return any(run[:3] == words[:3] and set(words[3:]) <= set(run[3:]) for run in runs)


def _shims(folder: Path) -> Path:
    """A folder of ``python`` and ``gurps-character`` commands meaning this interpreter and the
    library the tests import (not whichever copy the shell's PATH finds first)."""
    bin_folder = folder / ".doc-bin"
    bin_folder.mkdir(exist_ok=True)
    python = shlex.quote(sys.executable)
    for name, body in (
        ("python", f'exec {python} "$@"\n'),
        ("python3", f'exec {python} "$@"\n'),
        ("gurps-character", f'exec {python} -m gurps_character "$@"\n'),
    ):
        script = bin_folder / name
        script.write_text(f"#!/bin/sh\n{body}", encoding="utf-8")
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return bin_folder


def run_command(example: Example) -> str | None:
    """Runs a console example's command (install and test-suite parts checked, not run) in the
    working folder and compares its output with what the page shows; returns a failure message or ``None``."""
    command: Command = example.parsed
    if sys.platform == "win32":
        pytest.skip("console examples are POSIX shell commands")
    parts = [part.strip() for part in command.command.replace("\\\n", " ").split("&&")]
    runnable: list[str] = []
    for part in parts:
        words = shlex.split(part, comments=True)
        if _is_install(words):
            problem = install_problem(words)
            if problem is not None:
                return f"{part!r} {problem}"
        elif words[:3] == ["python", "-m", "pytest"]:
            if not _ci_runs(words):
                return f"{part!r} is not what .ci/run runs"
        else:
            runnable.append(part)
    if not runnable:
        return None
    environment = child_environment()
    environment["PATH"] = os.pathsep.join([str(_shims(Path.cwd())), environment.get("PATH", "")])
    environment["COLUMNS"] = "80"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", " && ".join(runnable)],
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=COMMAND_TIMEOUT,
        check=False,
    )
    actual = done.stdout.decode("utf-8", "replace")
    shown = bool(command.expected.strip())
    if shown and output_matches(command.expected, actual):
        return None
    if not shown and done.returncode == 0:
        return None
    return (
        f"$ {command.command}\nexit status {done.returncode}\n"
        f"--- expected\n{command.expected}\n--- got\n{actual}"
    )


# ---------------------------------------------------------------- blocks that are not run


class UnrunParser:
    """Blocks that look like examples but are not run: a shell language instead of ```console, or
    no language with ``$ `` or ``>>>`` lines. Each becomes an example that skips with its reason."""

    def __init__(self) -> None:
        self._blocks = RawFencedCodeBlockLexer(re.compile(r"(?P<arguments>[^\n]*)$\n", re.MULTILINE))

    def __call__(self, document: Document) -> Iterable[Region]:
        for region in self._blocks(document):
            language = (str(region.lexemes["arguments"]).strip().split(" ") or [""])[0].lower()
            source = str(region.lexemes["source"])
            looks_runnable = any(line.startswith(("$ ", ">>> ")) for line in source.splitlines())
            if language in SHELL_LANGUAGES or (not language and looks_runnable):
                region.parsed = f"```{language}" if language else "``` (no language)"
                region.evaluator = _skip_unrun
                yield region


def _shown_path(path: Path) -> str:
    """The page's path from the repository's root (``docs/guides/cli.md``), or its name."""
    return path.relative_to(REPOSITORY).as_posix() if path.is_relative_to(REPOSITORY) else path.name


def _skip_unrun(example: Example) -> None:
    pytest.skip(
        f"{_shown_path(Path(example.path))}:{example.line}: a {example.parsed} block is not run "
        "(write commands as ```console with '$ ' lines, Python as ```python, output as ```text)"
    )


# ---------------------------------------------------------------- a page's run


def parse_page(path: Path) -> Document:
    """The page's examples, in page order."""
    return Sybil(parsers=[PythonParser(), ConsoleParser(), UnrunParser()], path=str(REPOSITORY)).parse(path)


def _working_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="gurps-docs-"))
    shutil.copytree(EXAMPLES, folder / "examples")
    shutil.copyfile(GCS_SAMPLE, folder / "Dai Blackthorn.gcs")
    with contextlib.suppress(OSError):  # Windows may refuse links; its console examples skip anyway
        # a link, not a copy: the benchmark script finds the repository (its test helpers) from
        # its own resolved path
        (folder / "benchmarks").symlink_to(REPOSITORY / "benchmarks", target_is_directory=True)
    return folder


class PageRun:
    """One page's examples run in order in one namespace and one working folder; an example's test
    first runs the examples before it, once, so any one example can be selected on its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.document = parse_page(path)
        self.examples = list(self.document)
        self.folder: Path | None = None
        self._done = 0
        self._failed: int | None = None

    def run_through(self, index: int, chdir: pytest.MonkeyPatch) -> None:
        """Runs the examples up to ``index`` (those before it once), failing if one before it failed."""
        if self.folder is None:
            self.folder = _working_folder()
            self.document.namespace["__name__"] = "__page__"
        chdir.chdir(self.folder)
        while self._done <= index:
            example = self.examples[self._done]
            self._done += 1
            if self._failed is not None:
                continue
            try:
                example.evaluate()
            except pytest.skip.Exception:
                if self._done - 1 == index:
                    raise
            except BaseException:
                self._failed = self._done - 1
                if self._done - 1 == index:
                    raise
        if self._failed is not None and self._failed < index:
            pytest.fail(f"an earlier example of this page (line {self.examples[self._failed].line}) failed")

    def close(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


# ---------------------------------------------------------------- type checking


def python_lines(document: Document) -> str:
    """The page's Python as one program with the page's line numbers: code as written, doctests'
    source without their prompts, every other line blank."""
    lines = [""] * (document.text.count("\n") + 1)
    for example in document:
        parsed = example.parsed
        if isinstance(parsed, Lexeme):
            first = document.text.count("\n", 0, example.region.start + parsed.offset) + 1
            for number, line in enumerate(str(parsed).splitlines(), start=first):
                lines[number - 1] = line
        elif isinstance(parsed, doctest.Example):
            for number, line in enumerate(parsed.source.splitlines(), start=example.line):
                lines[number - 1] = line
    return "\n".join(lines) + "\n"
