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


@pytest.mark.parametrize(("value", "expected"), [
    ("127.0.0.1/32", ("127.0.0.1/32",)),
    ("10.0.0.0/8, ::1", ("10.0.0.0/8", "::1")),
    (["127.0.0.1/32"], ("127.0.0.1/32",)),
], ids=["one-string", "comma-separated", "list"])
def test_a_string_of_networks_is_read_as_a_list(value, expected) -> None:
    """`allowed_networks = "127.0.0.1/32"` is one network, not the characters '1', '2', ..."""
    assert configured_settings({"allowed_networks": value}, {}).allowed_networks == expected


@pytest.mark.parametrize(("config", "kept", "problem"), [
    ({"allowed_networks": 5, "max_bytes": 7}, {"max_bytes": 7},
     'allowed_networks: 5 is not a list of networks; write allowed_networks = ["127.0.0.1/32"'),
    ({"allowed_networks": ["intranet"], "max_redirects": 2}, {"max_redirects": 2},
     "'intranet' is not a network"),
    ({"max_bytes": -1, "allowed_networks": ["::1"]}, {"allowed_networks": ("::1",)},
     "write max_bytes = 10485760"),
    ({"max_size": 1, "max_bytes": 9}, {"max_bytes": 9}, "unknown fetch setting(s): max_size"),
], ids=["networks-a-number", "networks-a-name", "negative-size", "unknown-key"])
def test_settings_and_problems_keeps_the_good_settings(config, kept, problem) -> None:
    """Each bad setting is named with the form expected and left at its default."""
    from encoding_core.fetch.settings import settings_and_problems

    settings, problems = settings_and_problems(config, {})
    assert {k: getattr(settings, k) for k in kept} == kept
    assert len(problems) == 1 and problem in problems[0]
