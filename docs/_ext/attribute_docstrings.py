"""Google-style docstrings through napoleon, with attribute and property docstrings read as prose.

Napoleon reads the first line of an attribute's or a property's docstring as Google style's inline
form ``type: description``, so "Whether the fighter can act: conscious, alive..." became a type
named "Whether the fighter can act". The library's attributes and properties take their types from
their annotations (autodoc shows them), and their docstrings are sentences: this extension runs
napoleon's Google parser on them as on any other docstring, without the inline-type split.
"""

from __future__ import annotations

import inspect
from typing import Any, cast

from sphinx.application import Sphinx
from sphinx.ext import napoleon
from sphinx.ext.napoleon.docstring import GoogleDocstring
from sphinx.util.typing import ExtensionMetadata

__all__ = ["ProseAttributeDocstring", "process_docstring", "setup"]


class ProseAttributeDocstring(GoogleDocstring):
    """Napoleon's Google parser, reading an attribute's docstring as a description only."""

    def _parse_attribute_docstring(self) -> list[str]:
        return GoogleDocstring(self._consume_to_end(), self._config).lines()

    def _parse_attributes_section(self, section: str) -> list[str]:
        """An ``Attributes:`` entry that is also a property is described here but indexed once:
        the property's own entry (autodoc's ``:members:``) is the target references lead to."""
        lines = super()._parse_attributes_section(section)
        marked: list[str] = []
        for line in lines:
            marked.append(line)
            name = line.removeprefix(".. attribute:: ").strip()
            if line.startswith(".. attribute:: ") and isinstance(
                inspect.getattr_static(self._obj, name, None), property
            ):
                marked.append("   :no-index:")
        return marked


def process_docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Napoleon's docstring processing (Google style only), with the parser above."""
    lines[:] = ProseAttributeDocstring(lines, app.config, app, cast(Any, what), name, obj, options).lines()


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx.ext.napoleon")
    for listener in list(app.events.listeners["autodoc-process-docstring"]):
        if listener.handler is napoleon._process_docstring:
            app.disconnect(listener.id)
    app.connect("autodoc-process-docstring", process_docstring)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
