"""Case-for-case agreement with the reference library, judged by the shared conformance corpus.

The corpus lives beside the repository (``../shared/conformance``) and is not part of the project;
a user's clone has none, and the test then skips.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.support.paths import REPOSITORY

CONFORMANCE = REPOSITORY.parent / "shared" / "conformance"


def test_every_case_matches_the_reference() -> None:
    checker = CONFORMANCE / "check.py"
    if not checker.is_file():
        pytest.skip(f"no conformance corpus at {CONFORMANCE} (it sits beside the repository in development)")
    run = subprocess.run(
        [sys.executable, str(checker), "--show", "20"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = run.stdout + run.stderr
    score = re.search(r"^conformance: (\d+)/(\d+) cases match", output, re.MULTILINE)
    messages = re.search(r"^messages identical in (\d+)/(\d+) cases", output, re.MULTILINE)
    assert score is not None, output
    assert messages is not None, output
    assert score.group(1) == score.group(2), output
    assert messages.group(1) == messages.group(2), output
    assert int(score.group(2)) > 0
    assert run.returncode == 0, output
