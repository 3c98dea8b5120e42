"""Shared test configuration: the browser tests' switch, Hypothesis profiles."""

from __future__ import annotations

import os
import shutil

import pytest
from hypothesis import settings

# CI (``.ci/run`` sets HYPOTHESIS_PROFILE=ci) draws the same examples on every run, so a landing
# is never decided by which random inputs one run happened to try; a local run explores anew.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _isolated_app_data(tmp_path_factory, monkeypatch):
    """No test reads or writes the developer's own overrides file or landing zone."""
    base = tmp_path_factory.mktemp("app-data")
    monkeypatch.setenv("ENCODING_TRIAGE_DATA", str(base))
    monkeypatch.setenv("ENCODING_TRIAGE_OVERRIDES", str(base / "overrides.yaml"))
    monkeypatch.setenv("ENCODING_TRIAGE_LANDING", str(base / "landing"))


def chromium_path() -> str | None:
    """Debian's Chromium, or the one CHROMIUM_PATH names."""
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    return path if path and os.path.exists(path) else None


def pytest_collection_modifyitems(config, items):
    """Skip browser tests without Chromium, unless E2E_REQUIRED=1 (then fail loudly)."""
    if chromium_path() is not None:
        return
    if os.environ.get("E2E_REQUIRED") == "1":
        raise pytest.UsageError("E2E_REQUIRED=1 but no Chromium found (apt-get install chromium)")
    skip = pytest.mark.skip(reason="no Chromium on this machine (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)
