"""``render_sheet`` and ``render_card``: the view of a document, through the templates."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..errors import CharacterError, guarded
from ._card import card_of_document
from ._render import render, require_jinja
from ._view import sheet_view

if TYPE_CHECKING:
    from ..gcs import ImportNote

__all__ = ["render_card", "render_sheet"]

_FORMATS = ("html", "svg")


def _check(document: object) -> Mapping[str, Any]:
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    return document


@guarded
def render_sheet(document: Mapping[str, Any], *, import_notes: Sequence[ImportNote] = ()) -> str:
    """The character's sheet: a complete, self-contained HTML page, ready to print (A4 or Letter).

    It shows the profile, the attributes and secondary characteristics with their points, the
    condition (HP and FP with their thresholds and effects), the encumbrance table with the
    current level marked, Dodge, Parry and Block, DR by hit location (by the body of a GCS
    import, else the humanoid's), reaction modifiers, traits, languages and cultures, skills,
    techniques and spells (level, relative level, points), melee and ranged weapons, equipment,
    notes, the point summary, and the document's deviations and issues and the import notes
    given.

    Args:
        document: A schema-valid character document (JSON, YAML or a GCS import's; never
            modified).
        import_notes: The notes of the import the document came from
            (:attr:`GcsImport.notes <gurps_character.GcsImport.notes>`), listed at the end.

    Returns:
        The HTML page.

    Raises:
        CharacterError: ``missingExtra`` when Jinja2 is not installed; ``notAnObject``,
            ``schema`` when the document does not match the schema.
    """
    require_jinja()
    view = sheet_view(_check(document), tuple(import_notes))
    return render("sheet.html.j2", sheet=view)


@guarded
def render_card(document: Mapping[str, Any], *, format: Literal["html", "svg"] = "html") -> str:
    """The combat card: what a bot posts or a GM keeps at the table.

    Name, condition now (HP and FP, their states and effects), current Move and Dodge, Parry and
    Block, each attack with its level, parry, block and damage for the wielder, and DR at each
    location.

    Args:
        document: A schema-valid character document (never modified).
        format: ``"html"`` (a self-contained page) or ``"svg"`` (a standalone SVG image, which
            any SVG rasterizer turns into a picture).

    Returns:
        The card's HTML or SVG text.

    Raises:
        CharacterError: ``missingExtra`` when Jinja2 is not installed; ``invalidArgument`` for
            another format; ``notAnObject``, ``schema`` when the document does not match the
            schema.
    """
    if format not in _FORMATS:
        raise CharacterError(
            "invalidArgument",
            f"format must be 'html' or 'svg', not {format!r}.",
            {"name": "format", "value": repr(format)[:100]},
        )
    require_jinja()
    card = card_of_document(_check(document))
    return render(f"card.{format}.j2", card=card, standalone=True)
