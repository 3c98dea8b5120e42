"""Regression cases: exported decisions run as tests, and the export format itself."""

from __future__ import annotations

import json

import pytest

from encoding_core.decision.decode import decode
from encoding_core.views.cases import MAX_CASE_BYTES, cases_json, check_case, regression_case
from tests.conformance import case_params, load_cases

REGRESSIONS = load_cases("regressions.json")


@pytest.mark.parametrize("case", case_params(REGRESSIONS))
def test_regression_case(case):
    """Each exported case still decodes as it expects."""
    ok, got = check_case(case)
    assert ok, f"expected {case['expect_encoding']}, got {got}"


def test_export_pins_todays_decision_and_round_trips():
    """A case pins the decision; written as a case file it reads back and passes."""
    body, header = "Grüße".encode(), "text/html; charset=iso-8859-1"
    case = regression_case(body, header, decode(body, header), label="Grüße aus Köln!")
    assert case["label"] == "gr-e-aus-k-ln"
    assert (case["expect_encoding"], case["expect"]) == ("windows-1252", "pass")
    assert "utf8-under-legacy" in case["comment"]
    (back,) = json.loads(cases_json([case]))
    assert back == case and check_case(back) == (True, "windows-1252")


def test_export_of_a_correction_is_a_known_failure():
    """Expecting another encoding than today's decision gives an `expect: fail` case."""
    body, header = "Grüße".encode(), "text/html; charset=iso-8859-1"
    case = regression_case(body, header, decode(body, header), label="liar",
                           expect_encoding="utf-8")
    assert (case["expect"], case["expect_encoding"]) == ("fail", "utf-8")
    assert "expected utf-8" in case["reason"]
    assert check_case(case) == (False, "windows-1252")


def test_large_bodies_are_refused():
    """A case must stay small enough to review."""
    body = b"x" * (MAX_CASE_BYTES + 1)
    with pytest.raises(ValueError, match="at most"):
        regression_case(body, None, decode(body), label="big")
