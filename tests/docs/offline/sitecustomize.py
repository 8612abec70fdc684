"""No network in this interpreter: put this folder on ``PYTHONPATH`` to run a command offline.

``.ci/run`` and the workflow build the docs so, which proves the build needs nothing but the
installed packages (no intersphinx inventory, no theme asset fetched): a connection or a name
look-up raises ``OSError``, and the strict build fails on the warning that follows.
"""

from __future__ import annotations

import socket
from typing import Any, NoReturn


def _refuse(*args: Any, **kwargs: Any) -> NoReturn:
    raise OSError("the network is off for this build (tests/docs/offline)")


socket.socket.connect = _refuse  # type: ignore[method-assign]
socket.socket.connect_ex = _refuse  # type: ignore[method-assign]
socket.getaddrinfo = _refuse
socket.create_connection = _refuse
