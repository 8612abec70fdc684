"""Headless Chromium driven over the DevTools protocol, with the standard library only.

Chromium is started with ``--remote-debugging-pipe``: it reads commands from its file descriptor
3 and writes answers and events to 4, each a JSON message ended by a NUL byte. No websocket, no
Playwright: two pipes, ``json`` and ``select``. Used by the sheet's browser test and by
``scripts/sheet_screenshots.py``.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import re
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

__all__ = ["A4", "LETTER", "Chromium", "Paper", "chromium_path", "page_count", "started"]

_FLAGS: Final = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)
_TIMEOUT: Final = 30.0
"""Seconds one command may take before the browser is taken as hung."""


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper size and the sheet's print margin (12 mm, its ``@page`` rule), in inches."""

    name: str
    width: float
    height: float
    margin: float = 12 / 25.4

    def css_pixels(self, printable: bool) -> int:
        """The paper's width in CSS pixels (96 per inch), or its printable width."""
        inches = self.width - 2 * self.margin if printable else self.width
        return int(inches * 96)


A4: Final = Paper("A4", 210 / 25.4, 297 / 25.4)
LETTER: Final = Paper("Letter", 8.5, 11.0)


def chromium_path() -> str | None:
    """Debian's ``chromium`` (or another on the PATH), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def page_count(pdf: bytes) -> int:
    """The pages of a PDF: its ``/Type /Page`` objects (not the ``/Pages`` tree nodes)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def _high(fd: int) -> int:
    """``fd`` moved to a number of 10 or more, so that putting the pipes at 3 and 4 in the child
    never overwrites one with the other."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class Chromium:
    """One headless browser and one page (a tab) in it."""

    def __init__(self, executable: str) -> None:
        self._profile = tempfile.mkdtemp(prefix="gurps-sheet-chromium-")
        to_browser_read, to_browser = (_high(fd) for fd in os.pipe())
        from_browser, from_browser_write = (_high(fd) for fd in os.pipe())

        def pipes_at_3_and_4() -> None:  # in the child, before Chromium starts
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self._process = subprocess.Popen(
            [executable, *_FLAGS, f"--user-data-dir={self._profile}"],
            pass_fds=(3, 4, to_browser_read, from_browser_write),  # kept open around the dup2s
            preexec_fn=pipes_at_3_and_4,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=None if os.environ.get("GURPS_CHROMIUM_LOG") else subprocess.DEVNULL,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._out = to_browser
        self._in = from_browser
        self._buffer = b""
        self._next = 0
        self._events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Page.enable")

    def close(self) -> None:
        """Ends the browser and removes its profile."""
        with suppress(OSError, RuntimeError):
            self.call("Browser.close")
        for fd in (self._out, self._in):
            os.close(fd)
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        shutil.rmtree(self._profile, ignore_errors=True)

    # ---------------------------------------------------------------- the protocol

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._in], [], [], max(left, 0))
            if not ready:
                raise RuntimeError("Chromium did not answer in time")
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        found: dict[str, Any] = json.loads(message)
        return found

    def call(self, method: str, *, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Sends a command and waits for its answer (events met on the way are kept)."""
        self._next += 1
        request: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session is not None:
            request["sessionId"] = session
        os.write(self._out, json.dumps(request).encode() + b"\0")
        deadline = time.monotonic() + _TIMEOUT
        while True:
            message = self._message(deadline)
            if message.get("id") == self._next:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            self._events.append(message)

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """A command to the page."""
        return self.call(method, session=self._session, **params)

    def _wait_for(self, event: str) -> None:
        deadline = time.monotonic() + _TIMEOUT
        while True:
            for index, message in enumerate(self._events):
                if message.get("method") == event:
                    del self._events[: index + 1]
                    return
            self._events.append(self._message(deadline))

    # ---------------------------------------------------------------- what the tests do

    def open(self, path: Path, *, width: int, height: int = 1100, media: str = "screen") -> None:
        """Loads a file at a viewport ``width`` CSS pixels wide, for ``screen`` or ``print``."""
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.send("Emulation.setDeviceMetricsOverride", **metrics)
        self.send("Emulation.setEmulatedMedia", media=media)
        self._events.clear()
        self.send("Page.navigate", url=path.resolve().as_uri())
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        answer = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in answer:
            raise RuntimeError(f"the page's script failed: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def pdf(self, paper: Paper) -> bytes:
        """The loaded page printed to PDF on ``paper`` (the viewport and media emulation of
        :meth:`open` cleared first: printing lays the page out for the paper alone)."""
        self.send("Emulation.clearDeviceMetricsOverride")
        self.send("Emulation.setEmulatedMedia", media="")
        answer = self.send(
            "Page.printToPDF",
            paperWidth=paper.width,
            paperHeight=paper.height,
            marginTop=paper.margin,
            marginBottom=paper.margin,
            marginLeft=paper.margin,
            marginRight=paper.margin,
            printBackground=True,
        )
        return base64.b64decode(answer["data"])

    def screenshot(self, selector: str | None = None) -> bytes:
        """A PNG of the viewport, or of the element ``selector`` finds."""
        params: dict[str, Any] = {"format": "png"}
        if selector is not None:
            box = self.evaluate(
                f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                " return [r.x, r.y, r.width, r.height]; })()"
            )
            params["clip"] = {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}
            params["captureBeyondViewport"] = True
        return base64.b64decode(self.send("Page.captureScreenshot", **params)["data"])


@contextmanager
def started(executable: str) -> Iterator[Chromium]:
    """A browser for the block, ended after it."""
    browser = Chromium(executable)
    try:
        yield browser
    finally:
        browser.close()
