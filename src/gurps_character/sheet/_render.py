"""The templates: Jinja2, imported only when a sheet is rendered, and its environment, built once
per process.

Why Jinja2: a sheet is a page of nested tables whose every text comes from a file someone else
wrote. A template engine with autoescaping escapes each of them where it is written, so no text
can be written unescaped by forgetting to; Jinja2 is the maintained, typed, widely packaged one.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Final

from ..errors import CharacterError
from ._text import clean, fit, number, signed

if TYPE_CHECKING:
    import jinja2

__all__ = ["INSTALL_HINT", "jinja_available", "render", "require_jinja"]

INSTALL_HINT: Final = 'pip install "gurps-character[sheet]"'
"""The command that installs what rendering a sheet needs (shown by ``missingExtra``)."""


def jinja_available() -> bool:
    """Whether Jinja2, the optional template engine, can be imported."""
    try:
        import jinja2  # noqa: F401
    except ImportError:
        return False
    return True


def require_jinja() -> None:
    """Raises ``missingExtra`` when Jinja2 is not installed."""
    if not jinja_available():
        raise CharacterError(
            "missingExtra",
            f"Rendering a sheet needs the optional Jinja2 library: {INSTALL_HINT}",
            {"extra": "sheet", "install": INSTALL_HINT},
        )


@functools.cache
def _environment() -> jinja2.Environment:
    """The one environment: templates are compiled on first use and kept (built on the first
    render, never changed after)."""
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("gurps_character.sheet", "templates"),
        # Every {{ }} is escaped: a character named <script> is text, in HTML and in SVG.
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        # Runs before escaping: characters no page can carry (NUL, lone surrogates) are replaced.
        finalize=clean,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters["number"] = number
    environment.filters["signed"] = signed
    environment.filters["fit"] = fit
    return environment


def render(template: str, **context: Any) -> str:
    """``template`` rendered with ``context``.

    Raises:
        CharacterError: ``missingExtra`` when Jinja2 is not installed.
    """
    require_jinja()
    return _environment().get_template(template).render(**context)
