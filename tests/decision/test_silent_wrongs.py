"""Issue 21: a wrong decision always says so (tests/cases/silent_wrongs.json)."""

from __future__ import annotations

import pytest

from encoding_core import decode
from tests.conformance import case_params, load_cases

CASES = load_cases("silent_wrongs.json")


@pytest.mark.parametrize("case", case_params(CASES))
def test_decision_is_right_or_flagged(case: dict) -> None:
    """The expected encoding, flag and conflict; no override that garbles a UTF-8 part."""
    decided = decode(bytes.fromhex(case["body_hex"]), case["content_type"])
    if "expect_encoding" in case:
        assert decided.encoding == case["expect_encoding"]
    assert decided.needs_review is case["expect_flagged"]
    kinds = [c.kind for c in decided.conflicts]
    if "expect_conflict" in case:
        assert case["expect_conflict"] in kinds
    if case.get("expect_no_suggestion"):
        assert all(c.suggested_encoding is None for c in decided.conflicts)
    if "expect_suggestion" in case:
        assert case["expect_suggestion"] in [c.suggested_encoding for c in decided.conflicts]
    if not case["expect_flagged"]:
        assert not [c for c in decided.conflicts if str(c.severity) == "error"]
