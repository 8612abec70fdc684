"""Characters in YAML 1.2: hand-written sheets, checked exactly like JSON ones.

YAML 1.2 is a superset of JSON, so a character written in YAML is the same document and the
same schema checks it. Reading needs the optional extra ``pip install "gurps-character[yaml]"``
(ruamel.yaml, a YAML 1.2 parser), imported only when YAML is read; writing needs nothing.

Only JSON data is accepted: mappings with text keys, sequences, text, finite numbers, booleans
and null. Everything else (a tag that builds an object, a duplicate key, ``.inf``, a second
document, nesting deeper than :data:`MAX_YAML_DEPTH`) is an ``invalidYaml`` error with the
1-based ``line`` and ``column``. Schema errors of a YAML source carry the line and column of the
offending value too.

:func:`parse_yaml_character` loads and checks a character, as
:func:`~gurps_character.parse_character` does JSON; :func:`load_yaml_document` reads the
document only; :func:`dump_yaml_character` writes one. Without the extra, reading raises
``missingExtra`` with :data:`INSTALL_HINT`.
"""

from __future__ import annotations

from ._yaml import dump_yaml_character, load_yaml_document, parse_yaml_character
from ._yaml_read import INSTALL_HINT, MAX_YAML_DEPTH

__all__ = [
    "INSTALL_HINT",
    "MAX_YAML_DEPTH",
    "dump_yaml_character",
    "load_yaml_document",
    "parse_yaml_character",
]
