"""Shared test settings: in CI (the environment variable ``CI`` set, as GitHub Actions and
``.ci/run`` do), Hypothesis runs derandomized, so a red run can be reproduced exactly."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
"""The same examples on every run: a failure in CI fails again on any machine."""

if os.environ.get("CI"):
    settings.load_profile("ci")
