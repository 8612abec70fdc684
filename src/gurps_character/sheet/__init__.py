"""Character sheets people look at: a printable HTML page (:func:`render_sheet`), and a combat
card in HTML or SVG (:func:`render_card`).

Every number on them is the library's own: the combat view (:func:`~gurps_character.combat_stats`:
weapons with their level, parry, block and damage resolved for the wielder, encumbrance, Move and
Dodge now), the condition (:func:`~gurps_character.get_condition`: HP and FP states, thresholds,
effects), the body's hit locations (:func:`~gurps_character.body_of`) and the DR there. For a
character imported from GCS, they are GCS's numbers, as the import keeps them.

The pages are self-contained (inline CSS, no script, no link to anything outside) and every text
from the document is escaped (Jinja2 autoescaping): a character named ``<script>`` is shown as
that text. Characters a page cannot carry (control characters, lone surrogates) are shown as
U+FFFD. Rendering needs the optional Jinja2 library (``pip install "gurps-character[sheet]"``),
imported only when a sheet is rendered.
"""

from __future__ import annotations

from ._api import render_card, render_sheet

__all__ = ["render_card", "render_sheet"]
