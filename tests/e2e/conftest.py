"""A real Streamlit server and a real headless Chromium (Debian's), for end-to-end tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import chromium_path

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def e2e_dirs(tmp_path_factory) -> dict[str, Path]:
    """Folders the app under test writes to (never the developer's own)."""
    base = tmp_path_factory.mktemp("e2e")
    dirs = {"data": base / "data", "landing": base / "landing", "artifacts":
            Path(os.environ.get("E2E_ARTIFACTS", base / "artifacts"))}
    for d in dirs.values():
        d.mkdir(parents=True, exist_ok=True)
    return dirs


@pytest.fixture(scope="session")
def app_url(e2e_dirs, tmp_path_factory) -> str:
    """Start `streamlit run app.py` on a free port; stop it at the end of the session."""
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    env = dict(os.environ,
               ENCODING_TRIAGE_DATA=str(e2e_dirs["data"]),
               ENCODING_TRIAGE_OVERRIDES=str(e2e_dirs["data"] / "overrides.yaml"),
               ENCODING_TRIAGE_LANDING=str(e2e_dirs["landing"]),
               ENCODING_TRIAGE_ALLOWED_NETWORKS="127.0.0.0/8")
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
           "--server.address", "127.0.0.1", "--server.port", str(port),
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            pytest.fail(f"streamlit exited early:\n{log.read_text(errors='replace')}")
        try:
            if httpx.get(f"{url}/_stcore/health", timeout=1).text == "ok":
                break
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail(f"streamlit did not become healthy:\n{log.read_text(errors='replace')}")
        time.sleep(0.2)
    yield url
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium through Playwright (never `playwright install`)."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, app_url):
    """A fresh browser context (a new Streamlit session) per test."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1400, "height": 1000}, base_url=app_url)
    context.set_default_timeout(30_000)
    expect.set_options(timeout=30_000)
    pg = context.new_page()
    yield pg
    context.close()


def wait_ready(pg) -> None:
    """Wait for the websocket and the first script run."""
    pg.locator('[data-testid="stApp"][data-test-connection-state="CONNECTED"]'
               '[data-test-script-state="notRunning"]').wait_for()


@pytest.fixture(scope="session")
def firefox(tmp_path_factory):
    """Debian's Firefox ESR over WebDriver BiDi (tests/e2e/firefox.py), launched once."""
    from tests.e2e.firefox import Firefox, firefox_path

    path = firefox_path()
    if path is None:
        if os.environ.get("E2E_REQUIRED") == "1":
            pytest.fail("E2E_REQUIRED=1 but no Firefox ESR found (apt-get install firefox-esr)")
        pytest.skip("no Firefox ESR on this machine (apt-get install firefox-esr)")
    with Firefox(path, tmp_path_factory.mktemp("firefox") / "profile") as ff:
        yield ff
