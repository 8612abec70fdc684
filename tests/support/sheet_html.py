"""A rendered sheet read back with the standard library's HTML parser: its sections, and each
table row's attributes and cells, so a test finds a value in its row and cell, not anywhere."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["Cell", "Row", "SheetPage", "read_sheet"]

_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


@dataclass
class Cell:
    """One ``td``: its classes and its text (white space collapsed)."""

    classes: tuple[str, ...]
    text: str = ""


@dataclass
class Row:
    """One ``tr`` with the id of the section it is in."""

    section: str
    attributes: dict[str, str]
    cells: list[Cell] = field(default_factory=list)

    def cell(self, name: str) -> str:
        """The text of the cell with class ``name`` (``c-level``)."""
        found = [cell.text for cell in self.cells if name in cell.classes]
        assert len(found) == 1, (name, self)
        return found[0]


@dataclass
class SheetPage:
    """The sections' ids, the rows, and the text of each element with an ``id`` or ``data-key``."""

    sections: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)

    def rows_of(self, section: str, **attributes: str) -> list[Row]:
        """The body rows (with cells) of a section whose attributes match (``data_key="st"``
        for ``data-key``)."""
        wanted = {name.replace("_", "-"): value for name, value in attributes.items()}
        return [
            row
            for row in self.rows
            if row.cells
            and row.section == section
            and all(row.attributes.get(k) == v for k, v in wanted.items())
        ]

    def row(self, section: str, **attributes: str) -> Row:
        """The one row of a section with those attributes."""
        found = self.rows_of(section, **attributes)
        assert len(found) == 1, (section, attributes, len(found))
        return found[0]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = SheetPage()
        self._section: list[str] = []
        self._stack: list[str] = []
        self._row: Row | None = None
        self._cell: Cell | None = None
        self._named: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag in _VOID:
            return
        self._stack.append(tag)
        if tag in ("section", "header") and "id" in values:
            self._section.append(values["id"])
            self.page.sections.append(values["id"])
        elif tag in ("section", "header"):
            self._section.append(self._section[-1] if self._section else "")
        if tag == "tr":
            self._row = Row(self._section[-1] if self._section else "", values)
            self.page.rows.append(self._row)
        elif tag == "td" and self._row is not None:
            self._cell = Cell(tuple(values.get("class", "").split()))
            self._row.cells.append(self._cell)
        key = values.get("id") or values.get("data-key")
        if key is not None and tag != "tr":
            self._named.append((key, len(self._stack), []))

    def handle_endtag(self, tag: str) -> None:
        depth = len(self._stack)
        while self._named and self._named[-1][1] >= depth:
            key, _, parts = self._named.pop()
            self.page.texts.setdefault(key, " ".join("".join(parts).split()))
        if tag in ("section", "header") and self._section:
            self._section.pop()
        if tag == "td" and self._cell is not None:
            self._cell.text = " ".join(self._cell.text.split())
            self._cell = None
        if tag == "tr":
            self._row = None
        if self._stack:
            self._stack.pop()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.text += data + (" " if self._stack[-1] == "div" else "")
        for _, _, parts in self._named:
            parts.append(data)


def read_sheet(html: str) -> SheetPage:
    """The sheet's sections, rows and named texts."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.page
