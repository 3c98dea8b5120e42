"""Tests for the checks of the reading against the bytes (decision.checks.readings)."""

from __future__ import annotations

from typing import Any

import pytest

from encoding_core.decision.checks import readings
from encoding_core.decision.decode import what_checks_read
from tests.decision.checks.casework import CASES, given, kinds, params_of


@pytest.mark.parametrize("case", params_of(readings))
def test_reading_checks(case: dict[str, Any]) -> None:
    """Each case's check, run alone, reports the kinds the case expects, in order."""
    assert kinds(readings, case) == case["expect_kinds"]


def _case(label: str) -> dict[str, Any]:
    return next(case for case in CASES if case["label"] == label)


def test_implausible_text_defers_to_utf8_under_legacy() -> None:
    """A body already found to be UTF-8 is not also called implausible."""
    koi8 = given(_case("implausible-koi8-under-latin1"))
    (reading,) = readings.implausible_text(koi8, ())
    utf8 = readings.utf8_under_legacy(given(_case("utf8-under-windows-1252")), ())
    assert readings.implausible_text(koi8, utf8) == ()
    assert reading.kind == "implausible-reading"


def test_ascii_label_escapes_defers_to_an_implausible_reading() -> None:
    """ISO-2022-JP escapes are not reported twice as an implausible reading."""
    escaped = given(_case("iso-2022-jp-under-utf-8"))
    (found,) = readings.ascii_label_escapes(escaped, ())
    assert readings.ascii_label_escapes(escaped, (found,)) == ()


def test_wide_text_is_left_to_the_nul_pattern() -> None:
    """UTF-16 text read as windows-1252 is reported by without_bom, not as binary or
    implausible: its NULs are the finding."""
    wide = given(_case("utf16le-no-bom-under-windows-1252"))
    assert wide.wide
    assert readings.binary_body(wide, ()) == () and readings.implausible_text(wide, ()) == ()
    (nul,) = readings.without_bom(wide, ())
    assert nul.severity == "error" and nul.suggested_encoding == "utf-16le"


def test_utf8_under_legacy_counts_the_sequences() -> None:
    """The count of valid multi-byte sequences is the mojibake an override removes."""
    (found,) = readings.utf8_under_legacy(
        what_checks_read("café ’".encode(), "text/html; charset=iso-8859-1"), ())
    assert found.mojibake_removed == 2 and "'iso-8859-1' (windows-1252)" in found.message
