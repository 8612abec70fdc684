"""Sphinx configuration of the gurps_character documentation site.

Built strictly (``python -m sphinx -W --keep-going -n -b html docs OUT``): every warning, a broken
cross-reference included (``nitpicky``), fails the build. The build is offline: no intersphinx, so
references to the standard library's names are accepted unchecked (``nitpick_ignore_regex``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
# The pages document the checkout they sit in, not whichever copy is installed.
sys.path.insert(0, str(DOCS.parent / "src"))

import gurps_character  # noqa: E402

project = "gurps_character"
author = "gurps_character contributors"
copyright = "gurps_character contributors"
version = release = gurps_character.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "cli_reference",
    "public_names",
    "attribute_docstrings",
]

source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"

# MyST: Markdown pages; ``{func}`` roles and ``{autofunction}`` directives as in the convention.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# The API reference: Google-style docstrings, signatures with their types.
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# Defaults as the source writes them (a sentinel shows as its name, not as its repr).
autodoc_preserve_defaults = True
autodoc_default_options = {"exclude-members": "__init__, __new__"}

STANDARD_MODULES = (
    *("collections.abc", "typing", "typing_extensions", "pathlib", "random", "os", "io", "re"),
    *("enum", "types", "argparse", "json", "datetime", "decimal", "fractions"),
)
"""Modules of the standard library the signatures name."""

# Warnings are errors, and a reference that leads nowhere is a warning.
nitpicky = True
nitpick_ignore_regex = [
    # The standard library's names: with no intersphinx inventory offline, they cannot be linked.
    ("py:.*", "({})\\..*".format("|".join(re.escape(module) for module in STANDARD_MODULES))),
    ("py:.*", "(Path|Random|Mapping|Sequence|Iterable|Iterator|Callable|Literal|NoneType|TypeAlias)"),
]

# Command lines and option names keep their two hyphens and straight quotes.
smartquotes = False

html_theme = "furo"
html_title = f"gurps_character {release}"
