"""Reading the bundled schema files.

The files live in ``schema/`` at the top of the repository. A built wheel carries them inside the
package (``gurps_character/schema/``), where :mod:`importlib.resources` finds them; a source
checkout or an editable install reads them from the repository instead.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["SCHEMA_FILE", "VOCABULARY_FILE", "read_json_resource", "resource_text"]

SCHEMA_FILE = "gurps-character.schema.json"
VOCABULARY_FILE = "x-gurps-vocabulary.schema.json"


def resource_text(name: str) -> str:
    """The text of a bundled schema file, from the installed package or the source tree."""
    packaged = resources.files("gurps_character").joinpath("schema", name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[2] / "schema" / name
    return checkout.read_text(encoding="utf-8")


def read_json_resource(name: str) -> Any:
    """A bundled schema file, parsed."""
    return json.loads(resource_text(name))
