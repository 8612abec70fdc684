"""Every example of README.md and the docs site runs, one test per example (the convention is in
:mod:`tests.docs.runner`), and each page's Python type-checks under ``mypy --strict``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.docs.runner import PageRun, pages, parse_page, python_lines
from tests.support.paths import REPOSITORY

RUNS: dict[Path, PageRun] = {}
"""Each page's run, made when its first example's test starts (one module: one xdist worker)."""


def _relative(path: Path) -> str:
    return path.relative_to(REPOSITORY).as_posix()


def _cases() -> list[tuple[tuple[Path, int], str]]:
    """Each example as (page, index) with its id, ``docs/guides/damage.md:42``."""
    return [
        ((page, index), f"{_relative(page)}:{example.line}")
        for page in pages()
        for index, example in enumerate(parse_page(page))
    ]


CASES = _cases()


@pytest.fixture(scope="module", autouse=True)
def _clean_up() -> Iterator[None]:
    yield
    for run in RUNS.values():
        run.close()
    RUNS.clear()


@pytest.mark.parametrize("case", [case for case, _ in CASES], ids=[name for _, name in CASES])
def test_example(case: tuple[Path, int], monkeypatch: pytest.MonkeyPatch) -> None:
    page, index = case
    if page not in RUNS:
        RUNS[page] = PageRun(page)
    RUNS[page].run_through(index, monkeypatch)


TYPED_PAGES = [page for page in pages() if python_lines(parse_page(page)).strip()]


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """One ``mypy --strict`` run over every page's Python (a module per page), its errors by page."""
    mypy_api = pytest.importorskip("mypy.api", reason="mypy is a test tool (the test extra)")
    folder = tmp_path_factory.mktemp("pages")
    modules: dict[str, str] = {}
    for number, page in enumerate(TYPED_PAGES):
        module = f"page_{number}_{re.sub(r'[^0-9a-zA-Z]+', '_', page.stem)}"
        (folder / f"{module}.py").write_text(python_lines(parse_page(page)), encoding="utf-8")
        modules[module] = _relative(page)
    out, err, _ = mypy_api.run(
        [
            "--strict",
            "--no-error-summary",
            "--cache-dir",
            str(REPOSITORY / ".mypy_cache"),
            *sorted(str(folder / f"{module}.py") for module in modules),
        ]
    )
    errors: dict[str, list[str]] = {page: [] for page in modules.values()}
    for line in (out + err).splitlines():
        found = re.match(r"(?:.*[/\\])?(page_\d+_\w+)\.py:(.*)$", line)
        if found is None:
            errors.setdefault("(mypy)", []).append(line)
        else:
            errors[modules[found.group(1)]].append(f"{modules[found.group(1)]}:{found.group(2)}")
    return errors


@pytest.mark.parametrize("page", TYPED_PAGES, ids=_relative)
def test_page_type_checks(page: Path, mypy_errors: dict[str, list[str]]) -> None:
    assert mypy_errors.get("(mypy)", []) == []
    assert mypy_errors[_relative(page)] == []
