"""Tests for encoding_core.fetch.settings: validation and where the settings come from."""

from __future__ import annotations

import pytest

from encoding_core.fetch.settings import FetchSettings, configured_settings


def test_settings_validate_networks() -> None:
    """A malformed allowed network is refused when the settings are made."""
    with pytest.raises(ValueError, match="not a network"):
        FetchSettings(allowed_networks=("localhost",))


def test_configured_settings_precedence() -> None:
    """App config wins over $ENCODING_TRIAGE_ALLOWED_NETWORKS; unknown keys are refused."""
    env = {"ENCODING_TRIAGE_ALLOWED_NETWORKS": "10.0.0.0/8,127.0.0.2/32"}
    assert configured_settings({}, env).allowed_networks == ("10.0.0.0/8", "127.0.0.2/32")
    chosen = configured_settings({"allowed_networks": ["::1"], "max_bytes": 10}, env)
    assert (chosen.allowed_networks, chosen.max_bytes) == (("::1",), 10)
    assert configured_settings({}, {}).allowed_networks == ()
    with pytest.raises(ValueError, match="unknown fetch setting"):
        configured_settings({"max_size": 1}, {})
    with pytest.raises(ValueError, match="not a network"):
        configured_settings({"allowed_networks": ["intranet"]}, {})
