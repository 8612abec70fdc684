"""``python -m gurps_character``: the ``gurps-character`` command line (see :mod:`gurps_character.cli`)."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":  # not when a worker process of ``check --jobs`` imports this module
    raise SystemExit(main())
