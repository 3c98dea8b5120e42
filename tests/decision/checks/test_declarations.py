"""Tests for the checks of what was declared (encoding_core.decision.checks.declarations)."""

from __future__ import annotations

from typing import Any

import pytest

from encoding_core.decision.checks import declarations
from encoding_core.decision.decode import what_checks_read
from tests.decision.checks.casework import kinds, params_of


@pytest.mark.parametrize("case", params_of(declarations))
def test_declaration_checks(case: dict[str, Any]) -> None:
    """Each case's check, run alone, reports the kinds the case expects, in order."""
    assert kinds(declarations, case) == case["expect_kinds"]


def test_late_declaration() -> None:
    """A <meta> past the prescan's 1024 bytes that decided is reported with its offset."""
    body = (b"<html><head>" + b"<!-- padding -->" * 70
            + b'<meta charset="windows-1251"></head><p>' + "Привет".encode("cp1251"))
    (late,) = declarations.late_declaration(what_checks_read(body), ())
    assert late.kind == "late-declaration" and str(body.index(b"<meta")) in late.message
    early = what_checks_read(b'<meta charset="windows-1251"><p>' + "Привет".encode("cp1251"))
    assert declarations.late_declaration(early, ()) == ()


def test_a_failed_declaration_suggests_the_fallback_unless_lossy() -> None:
    """The fallback's encoding is suggested; after a lossy reading nothing is."""
    fell = what_checks_read(b"<p>caf\xe9</p>", "text/html; charset=utf-8", detector=None)
    (failed,) = declarations.declaration_fails_strict(fell, ())
    assert failed.suggested_encoding == "windows-1252" and "(fallback)" in failed.advice
    body = "<p>Café – naïve – crème</p>".encode() + b"<p>it\x92s</p>"
    lossy = what_checks_read(body, "text/html; charset=utf-8", detector=None)
    (failed,) = declarations.declaration_fails_strict(lossy, ())
    assert failed.suggested_encoding is None and "see the lossy finding" in failed.advice
