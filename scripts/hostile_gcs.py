#!/usr/bin/env python3
"""Runs the hostile GCS property tests with many more examples than the suite does.

    python scripts/hostile_gcs.py --examples 5000 [--seed 1]

The suite runs ``tests/gcs/importing/test_hostile.py``'s properties on 40 examples each (every example
imports, validates and verifies a character); a rare failure needs thousands. This runs the same
checks (``import_checked``: a ``CharacterError`` of a stable code, or a valid, claim-consistent
document that shares nothing with the input, the input unchanged) on mappings and on text and
bytes, and prints hypothesis's shrunk example of the first failure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

from tests.gcs.importing.test_hostile import import_checked  # noqa: E402
from tests.support.gcs_strategies import gcs_documents, gcs_sources  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--examples", type=int, default=5000, help="examples per property (default 5000)")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis's seed (default: random)")
    options = parser.parse_args(argv)
    chosen = settings(
        max_examples=options.examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    failed = 0
    for name, strategy in (("mappings", gcs_documents()), ("text and bytes", gcs_sources())):

        def check(source: Any) -> None:
            import_checked(source)

        test = chosen(given(strategy)(check))
        if options.seed is not None:
            test = seed(options.seed)(test)
        print(f"hostile GCS {name}: {options.examples} examples", flush=True)
        try:
            test()
        except Exception as error:  # hypothesis has printed the shrunk example
            print(f"FAILED ({name}): {type(error).__name__}: {str(error)[:2000]}", flush=True)
            failed += 1
        else:
            print(f"ok ({name})", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
