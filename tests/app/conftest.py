"""AppTest helpers: the app file, and data folders kept out of the developer's own."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


@pytest.fixture(autouse=True)
def app_data(tmp_path, monkeypatch) -> Path:
    """Point the app's data (overrides file, landing zone) at a temporary folder."""
    monkeypatch.setenv("ENCODING_TRIAGE_DATA", str(tmp_path))
    monkeypatch.setenv("ENCODING_TRIAGE_OVERRIDES", str(tmp_path / "overrides.yaml"))
    monkeypatch.setenv("ENCODING_TRIAGE_LANDING", str(tmp_path / "landing"))
    return tmp_path
