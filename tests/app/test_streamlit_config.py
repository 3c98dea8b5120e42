"""The app's .streamlit/config.toml: what users may see of errors, how long closed tabs last."""

from __future__ import annotations

import tomllib

from tests.app.conftest import ROOT


def _config() -> dict:
    return tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text("utf-8"))


def test_users_see_no_tracebacks():
    """An unexpected error shows a generic message: no traceback, no file paths, no
    exception text (Streamlit's default "full" shows all three)."""
    assert _config()["client"]["showErrorDetails"] == "none"


def test_a_closed_tab_is_dropped_soon_but_survives_a_blip():
    """A disconnected session is kept long enough to reconnect after a network blip, and
    well under Streamlit's default of 120 s."""
    assert 10 <= _config()["server"]["disconnectedSessionTTL"] <= 60
