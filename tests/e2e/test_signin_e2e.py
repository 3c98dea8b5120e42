"""Reviewers sign in for real: Streamlit's st.login against a real OpenID Connect provider.

The provider is panva's ``oidc-provider`` (npm, pinned in ``tests/e2e/oidc/package-lock.json``,
installed by ``npm ci`` into ``tests/e2e/oidc/node_modules``, git-ignored) with its development
login form, run by the machine's node on 127.0.0.1. The app runs with ``[auth]`` in a secrets
file of the test. In real Chromium: alice signs in and proposes, cannot approve her own
proposal, signs out; bob signs in and approves; the file records both verified identities
(issuer and subject). Skipped, saying why, without node or npm; E2E_REQUIRED=1 makes that a
failure (CI).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from encoding_core.overrides.store import OverrideStore, Status, Verified
from tests.e2e.conftest import ROOT, _free_port

READY = ('[data-testid="stApp"][data-test-connection-state="CONNECTED"]'
         '[data-test-script-state="notRunning"]')

pytestmark = pytest.mark.browser

OIDC = ROOT / "tests" / "e2e" / "oidc"
REASON = "The server sends charset=iso-8859-1 but the body is UTF-8, as the trace shows."


def _unavailable(why: str) -> None:
    if os.environ.get("E2E_REQUIRED") == "1":
        pytest.fail(f"E2E_REQUIRED=1 but {why}")
    pytest.skip(why)


def _provider_installed() -> Path:
    """node, with oidc-provider installed by ``npm ci`` from the lock file when missing."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        _unavailable("node and npm are needed to run the OpenID Connect provider "
                     "(apt-get install nodejs npm)")
    if not (OIDC / "node_modules" / "oidc-provider" / "package.json").exists():
        done = subprocess.run([str(npm), "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                              cwd=OIDC, capture_output=True, text=True, timeout=600,
                              check=False)
        if done.returncode != 0:
            _unavailable(f"npm ci in {OIDC} failed: {done.stderr[-2000:]}")
    return Path(str(node))


def _wait(url: str, proc: subprocess.Popen[bytes], log: Path, what: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            pytest.fail(f"{what} exited early:\n{log.read_text(errors='replace')}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not start:\n{log.read_text(errors='replace')}")
        time.sleep(0.2)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture
def signin_app(tmp_path):
    """The provider on 127.0.0.1 and the app with [auth] pointing at it: (app URL, issuer,
    overrides file). The app is opened as ``localhost``, the host of its redirect_uri (the
    session cookie that holds the login state is per host)."""
    node = _provider_installed()
    oidc_port, app_port = _free_port(), _free_port()
    issuer, app = f"http://127.0.0.1:{oidc_port}", f"http://localhost:{app_port}"
    secrets = tmp_path / "secrets.toml"
    secrets.write_text(
        "[auth]\n"
        f'redirect_uri = "{app}/oauth2callback"\n'
        'cookie_secret = "encoding-triage-e2e-cookie-secret"\n'
        'client_id = "encoding-triage"\n'
        'client_secret = "encoding-triage-test-secret"\n'
        f'server_metadata_url = "{issuer}/.well-known/openid-configuration"\n'
        # oidc-provider refuses Streamlit's default prompt=select_account
        'client_kwargs = { prompt = "login" }\n', encoding="utf-8")
    data = tmp_path / "data"
    env = dict(os.environ, OIDC_PORT=str(oidc_port), APP_URL=app,
               ENCODING_TRIAGE_DATA=str(data),
               ENCODING_TRIAGE_OVERRIDES=str(data / "overrides.yaml"),
               ENCODING_TRIAGE_LANDING=str(tmp_path / "landing"))
    procs = []
    try:
        logs = {"provider": tmp_path / "provider.log", "app": tmp_path / "streamlit.log"}
        with open(logs["provider"], "wb") as out:
            procs.append(subprocess.Popen([str(node), "provider.mjs"], cwd=OIDC, env=env,
                                          stdout=out, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL, start_new_session=True))
        with open(logs["app"], "wb") as out:
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                 "--server.address", "127.0.0.1", "--server.port", str(app_port),
                 "--secrets.files", str(secrets), "--browser.gatherUsageStats", "false",
                 "--server.fileWatcherType", "none"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True))
        _wait(f"{issuer}/.well-known/openid-configuration", procs[0], logs["provider"],
              "oidc-provider")
        _wait(f"http://127.0.0.1:{app_port}/_stcore/health", procs[1], logs["app"], "streamlit")
        yield app, issuer, data / "overrides.yaml"
    finally:
        for proc in procs:
            _stop(proc)


def wait_ready(page) -> None:
    """The websocket and the script run (generous: the first run of a page, a redirect back
    from the provider, on a busy machine)."""
    page.locator(READY).wait_for(timeout=120_000)


def _sign_in(page, app: str, issuer: str, login: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{app}/overrides")
    wait_ready(page)
    page.locator(".st-key-reviewer_login button").click()
    page.wait_for_url(f"{issuer}/interaction/**")
    page.locator("input[name=login]").fill(login)
    page.locator("input[name=password]").fill("any password: the dev form checks none")
    page.get_by_role("button", name="Sign-in").click()
    page.wait_for_url(re.compile(re.escape(app) + r"/.*"))
    wait_ready(page)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Overrides").click()
    signed = page.get_by_test_id("stSidebar").get_by_text(f"oidc: {issuer} sub={login}",
                                                          exact=False)
    expect(signed).to_be_visible()


def _sign_out(page, app: str, issuer: str) -> None:
    page.locator(".st-key-reviewer_logout button").click()
    page.wait_for_url(f"{issuer}/session/end**")
    page.get_by_role("button", name="Yes, sign me out").click()
    page.wait_for_url(re.compile(re.escape(app) + r"/.*"))  # Streamlit sends it home


def test_author_and_reviewer_sign_in_and_the_file_records_who(page, signin_app, e2e_dirs):
    """alice signs in and proposes; she cannot approve it; bob signs in and approves; the
    file records both as verified by the provider (issuer and subject)."""
    from playwright.sync_api import expect

    app, issuer, overrides = signin_app
    # generous waits: each page load runs the app's script, on a machine others share
    page.set_default_timeout(120_000)
    expect.set_options(timeout=120_000)
    _sign_in(page, app, issuer, "alice")
    expect(page.locator(".st-key-reviewer_name")).to_have_count(0)  # no name to type
    page.get_by_test_id("stTab").filter(has_text="Propose").click()
    page.locator(".st-key-overrides_propose_host input").fill("shop.example.com")
    page.locator(".st-key-overrides_propose_reason textarea").fill(REASON)
    page.locator(".st-key-overrides_propose_submit button").click()
    page.locator(".st-key-overrides_confirm button").click()
    expect(page.get_by_text("is proposed", exact=False).first).to_be_visible()
    page.get_by_test_id("stTab").filter(has_text="Overrides").first.click()
    page.locator(".st-key-overrides_approve button").click()
    expect(page.get_by_test_id("stAlertContentError").filter(
        has_text="never the author")).to_be_visible()
    _sign_out(page, app, issuer)

    _sign_in(page, app, issuer, "bob")
    page.locator(".st-key-overrides_approve button").click()
    page.locator(".st-key-overrides_confirm button").click()
    expect(page.get_by_text("is approved", exact=False).first).to_be_visible()
    page.screenshot(path=str(e2e_dirs["artifacts"] / "signin_approved.png"), full_page=True)

    store = OverrideStore(overrides)
    [entry] = store.entries()
    assert (entry.status, entry.created_by, entry.approved_by, entry.approved_via) == (
        Status.APPROVED, "alice@example.com", "bob@example.com", Verified.OIDC)
    propose, approve = store.history(entry.id)
    assert (propose.identity.issuer, propose.identity.subject) == (issuer, "alice")
    assert (approve.identity.issuer, approve.identity.subject) == (issuer, "bob")
    assert approve.at.date() == entry.approved_on  # who, verified how, and when
