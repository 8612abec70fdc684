"""The text of an exported GCS file.

The export builds its traits, skills and items as dicts whose keys are GCS's, in GCS's order, some
of them empty where GCS leaves them out (:mod:`.export_sheet`). Here each node is
:func:`~.sheet.finished` (the empty keys left out, its weapons' keys in GCS's order) and the
file is written by the one writer of GCS's JSON text, :func:`~..format.json_text.gcs_text_checked`: its
escaping, number forms and key order live there and nowhere else. The export is a call a user makes
once per save: a change of GCS's format is made in one place, and writing every node through that
writer makes the whole export about 1.4 times what the per-shape writers it replaced cost, within
the export's budget of 20 times ``json.loads`` (``benchmarks/bench.py``).
"""

from __future__ import annotations

from typing import Any, Final

from ..format.json_text import gcs_text_checked
from .sheet import finished

__all__ = ["character_text"]

_NODE_LISTS: Final = frozenset(("traits", "skills", "equipment"))
"""The file's lists of nodes that the export builds unfinished."""


def character_text(data: dict[str, Any]) -> tuple[str, bool]:
    """The file's text for the export's data (its traits, skills and items not yet
    :func:`~.sheet.finished`), and whether lone surrogates were written as U+FFFD.

    Raises:
        GcsJsonError: the data holds something GCS's JSON cannot.
    """
    return gcs_text_checked(
        {
            key: [finished(node) for node in value] if key in _NODE_LISTS else value
            for key, value in data.items()
        }
    )
