"""Debian's Firefox ESR, headless, driven over WebDriver BiDi (no geckodriver, no download).

Firefox speaks BiDi itself when started with ``--remote-debugging-port``; this client sends its
JSON commands over one WebSocket (``session.new``, ``browsingContext.navigate`` with ``wait:
"complete"``, ``script.evaluate``). Every host name resolves to 127.0.0.1 (``network.dns
.forceResolve``), so a loopback page can be served under any top-level domain, and plain http
is never upgraded to https.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

PREFS = {
    "network.dns.forceResolve": "127.0.0.1",
    "dom.security.https_first": False,
    "dom.security.https_first_pbm": False,
    "dom.security.https_only_mode": False,
    "network.proxy.type": 0,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "app.update.enabled": False,
    "app.normandy.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "extensions.update.enabled": False,
}


def firefox_path() -> str | None:
    """Debian's Firefox ESR, or the one FIREFOX_PATH names."""
    path = os.environ.get("FIREFOX_PATH") or shutil.which("firefox-esr")
    return path if path and os.path.exists(path) else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Firefox:
    """One headless Firefox and one tab; ``goto`` then ``evaluate``."""

    def __init__(self, path: str, profile: Path, timeout: float = 60) -> None:
        profile.mkdir(parents=True, exist_ok=True)
        (profile / "user.js").write_text("".join(
            f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in PREFS.items()))
        port = _free_port()
        self._log = open(profile.parent / "firefox.log", "wb")  # noqa: SIM115 - closed in close()
        self._proc = subprocess.Popen(
            [path, "--headless", "--no-remote", "--profile", str(profile),
             f"--remote-debugging-port={port}", "about:blank"],
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, env=dict(os.environ, MOZ_HEADLESS="1"))
        self._ids = itertools.count(1)
        self._stack = contextlib.ExitStack()
        self._timeout = timeout
        deadline = time.monotonic() + timeout
        while True:
            try:
                # no keepalive pings: their thread draws each ping's payload from the global
                # random module every 20 s for the rest of the run (the session-scoped
                # browser stays open), which Hypothesis reports in any later property test
                # as "Do not use the random module inside strategies"
                self._ws: ClientConnection = self._stack.enter_context(
                    connect(f"ws://127.0.0.1:{port}/session", open_timeout=5, max_size=None,
                            ping_interval=None))
                break
            except OSError:
                if self._proc.poll() is not None or time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError("Firefox did not start: "
                                       + (profile.parent / "firefox.log").read_text(
                                           errors="replace")[-2000:]) from None
                time.sleep(0.2)
        self._loads = 0
        self._timeout = 120  # the first session takes seconds on a busy machine
        try:
            self.command("session.new", {"capabilities": {}})
            tree = self.command("browsingContext.getTree", {})
            self._context = tree["contexts"][0]["context"]
            self.command("session.subscribe", {"events": ["browsingContext.load"]})
            self._timeout = timeout
        except BaseException:
            self.close()
            raise

    def command(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one BiDi command and wait for its answer (load events in between are counted)."""
        ident = next(self._ids)
        self._ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = self._receive()
            if message.get("id") != ident:
                continue
            if message.get("type") == "error":
                raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
            result: dict[str, Any] = message["result"]
            return result

    def _receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self._ws.recv(timeout=self._timeout))
        if message.get("method") == "browsingContext.load":
            self._loads += 1
        return message

    def goto(self, url: str) -> None:
        """Load ``url`` and wait for its load event.

        When its detector changes its mind at the end of the page, Firefox loads the page again
        in the new encoding; the navigation then answers before any load event, so the load
        event is waited for as well (else the next page would read this one's reload).
        """
        self._loads = 0
        self.command("browsingContext.navigate",
                     {"context": self._context, "url": url, "wait": "complete"})
        while self._loads == 0:
            self._receive()

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the current page."""
        result = self.command("script.evaluate", {
            "expression": expression, "target": {"context": self._context},
            "awaitPromise": False})
        if result.get("type") == "exception":
            raise RuntimeError(f"{expression}: {result.get('exceptionDetails')}")
        return result["result"].get("value")

    def __enter__(self) -> Firefox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the session and the process group."""
        ws = getattr(self, "_ws", None)
        if ws is not None:
            self._timeout = 10
            with contextlib.suppress(Exception):  # closing anyway
                self.command("browser.close", {})
        self._stack.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc.wait(timeout=10)
        self._log.close()
