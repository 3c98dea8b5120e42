"""Tests for datafolder: one data folder for the overrides file and the landing zone."""

from __future__ import annotations

from pathlib import Path

from encoding_core.datafolder import data_folder
from encoding_core.overrides.store import default_path
from encoding_core.warc.landing import configured_zone


def test_unset_means_data_in_the_working_directory(monkeypatch, tmp_path):
    """With nothing set, the overrides file and the captures both live under ./data."""
    for name in ("ENCODING_TRIAGE_DATA", "ENCODING_TRIAGE_OVERRIDES", "ENCODING_TRIAGE_LANDING"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    assert data_folder() == Path("data")
    assert default_path() == Path("data") / "overrides.yaml"
    assert configured_zone({}).folder == Path("data") / "landing"


def test_the_variable_moves_both(monkeypatch, tmp_path):
    """$ENCODING_TRIAGE_DATA moves the overrides file and the landing zone together."""
    monkeypatch.delenv("ENCODING_TRIAGE_OVERRIDES", raising=False)
    monkeypatch.delenv("ENCODING_TRIAGE_LANDING", raising=False)
    monkeypatch.setenv("ENCODING_TRIAGE_DATA", str(tmp_path / "triage"))
    assert default_path() == tmp_path / "triage" / "overrides.yaml"
    assert configured_zone({}).folder == tmp_path / "triage" / "landing"

