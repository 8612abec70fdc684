#!/usr/bin/env python3
"""Takes the screenshots the docs show: a bundled example's sheet (its top) and its combat card.

    python scripts/sheet_screenshots.py                     # docs/_static/sheet/{sheet,card}.png
    python scripts/sheet_screenshots.py --example jotun.json --out /tmp/shots

Renders with the library (``render_sheet``, ``render_card``) and photographs the pages in
headless Chromium over the DevTools pipe (``tests/support/chromium.py``). Needs Chromium
(``apt install chromium``) and the sheet extra (Jinja2).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from gurps_character import load_character  # noqa: E402
from gurps_character.sheet import render_card, render_sheet  # noqa: E402
from tests.support.chromium import chromium_path, started  # noqa: E402

_SHEET_WIDTH = 900
"""The sheet's window: the A4 column (186 mm) with a margin on either side."""
_SHEET_HEIGHT = 1000
"""How much of the sheet's top is shown: profile, attributes, condition, encumbrance."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--example", default="rurik.json", help="a file in examples/ (default rurik.json)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "_static" / "sheet", help="the folder")
    args = parser.parse_args(argv)
    executable = chromium_path()
    if executable is None:
        print("error: no Chromium on the PATH (apt install chromium)", file=sys.stderr)
        return 2
    document = dict(load_character(ROOT / "examples" / args.example).character)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, started(executable) as browser:
        sheet = Path(folder) / "sheet.html"
        sheet.write_text(render_sheet(document), encoding="utf-8")
        browser.open(sheet, width=_SHEET_WIDTH, height=_SHEET_HEIGHT)
        (args.out / "sheet.png").write_bytes(browser.screenshot())
        card = Path(folder) / "card.html"
        card.write_text(render_card(document), encoding="utf-8")
        browser.open(card, width=520, height=600)
        (args.out / "card.png").write_bytes(browser.screenshot("#card"))
    for name in ("sheet.png", "card.png"):
        print(args.out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
