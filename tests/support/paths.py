"""Where the tests find the repository's files, and the shared folder beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["EXAMPLES", "FIXTURES", "REPOSITORY", "SHARED", "TESTS"]

TESTS: Final = Path(__file__).resolve().parents[1]
"""The tests' folder."""
REPOSITORY: Final = TESTS.parent
"""The repository's root."""
EXAMPLES: Final = REPOSITORY / "examples"
"""The bundled example characters."""
FIXTURES: Final = TESTS / "fixtures"
"""The tests' own data files."""
SHARED: Final = REPOSITORY.parent / "shared"
"""The project's shared folder beside a developer's clone (absent in a user's clone)."""
