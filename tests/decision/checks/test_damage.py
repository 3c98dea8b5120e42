"""Tests for the checks of damage in the reading (encoding_core.decision.checks.damage)."""

from __future__ import annotations

from typing import Any

import pytest

from encoding_core.decision.checks import damage
from encoding_core.decision.decode import what_checks_read
from tests.decision.checks.casework import kinds, params_of


@pytest.mark.parametrize("case", params_of(damage))
def test_damage_checks(case: dict[str, Any]) -> None:
    """Each case's check, run alone, reports the kinds the case expects, in order."""
    assert kinds(damage, case) == case["expect_kinds"]


def test_truncated_body_says_how_many_bytes() -> None:
    """The incomplete last character's length and offset are in the message."""
    body = "<p>Grüße, café ’ crème ’</p> ’".encode()[:-1]
    (cut,) = damage.truncated_body(what_checks_read(body, "text/html; charset=utf-8"), ())
    assert f"The last 2 bytes (from offset {len(body) - 2})" in cut.message
