"""Tests for the conflicts a decision reports (encoding_core.decision.conflicts), through decode.

Most cases are data in tests/cases/conflicts.json; tests/decision/test_decode.py has the seed cases.
"""

from __future__ import annotations

from typing import Any

import pytest

from encoding_core.decision.decode import DEFAULT_DETECTOR, decode, decode_as
from encoding_core.decision.models import Decoded
from encoding_core.decision.utf8profile import Utf8Profile, utf8_profile
from tests.conformance import case_body, case_params, load_cases

CASES = load_cases("conflicts.json")
KINDS = {"declaration-fails-strict", "unknown-label", "replacement-label", "utf8-under-legacy",
         "header-meta-disagree", "bom-contradicts-declaration", "late-declaration",
         "repeated-content-type", "lossy", "browser-differs", "truncated-body",
         "implausible-reading", "binary-body"}


def _decide(case: dict[str, Any]) -> Decoded:
    return decode(case_body(case), case.get("content_type"), override=case.get("override"),
                  site_default=case.get("site_default"),
                  detector=DEFAULT_DETECTOR if case.get("detector", True) else None)


@pytest.mark.parametrize("case", case_params(CASES))
def test_conflict_cases(case: dict[str, Any]) -> None:
    """Each case reports the conflicts it expects, with their severity, and not the absent ones."""
    result = _decide(case)
    kinds = [c.kind for c in result.conflicts]
    for expected in case["expect_conflicts"]:
        matching = [c for c in result.conflicts if c.kind == expected["kind"]]
        assert matching, f"no {expected['kind']} in {kinds}"
        assert {str(c.severity) for c in matching} == {expected["severity"]}
        if "suggested_encoding" in expected:
            assert [c.suggested_encoding for c in matching] == [expected["suggested_encoding"]]
    for absent in case.get("expect_absent", []):
        assert absent not in kinds
    if case.get("expect_exact"):
        assert sorted(kinds) == sorted(e["kind"] for e in case["expect_conflicts"])
    for conflict in result.conflicts:
        assert conflict.message and conflict.advice


def test_cases_cover_every_kind() -> None:
    """Every conflict kind is expected by at least one passing case (late-declaration below)."""
    covered = {e["kind"] for case in CASES if case.get("expect", "pass") == "pass"
               for e in case["expect_conflicts"]}
    assert covered | {"late-declaration"} == KINDS


@pytest.mark.parametrize(("encoding", "label", "text"), [
    ("windows-1251", "windows-1251", "Привет, мир"),
    ("euc-kr", "EUC-KR", "안녕하세요"),
], ids=["windows-1251", "euc-kr"])
def test_late_declaration(encoding: str, label: str, text: str) -> None:
    """A <meta> past the first 1024 bytes decides and is reported as a late-declaration warning."""
    body = (b"<html><head><title>x</title>" + b"<!-- padding -->" * 70
            + f'<meta charset="{label}"></head><p>'.encode() + text.encode(encoding))
    assert body.index(b"<meta") > 1024
    result = decode(body, None)
    assert (result.encoding, result.source, result.text.endswith(text)) == (
        encoding, "meta-tag", True)
    (late,) = [c for c in result.conflicts if c.kind == "late-declaration"]
    assert str(late.severity) == "warning"
    assert encoding in late.message and str(body.index(b"<meta")) in late.message


def test_declaration_failing_twice_is_one_conflict() -> None:
    """A header and a <meta> naming the same failing encoding give one conflict naming both."""
    body = b'<meta charset="utf-8"><p>caf\xe9</p>'
    result = decode(body, "text/html; charset=utf-8", detector=None)
    (failed,) = [c for c in result.conflicts if c.kind == "declaration-fails-strict"]
    assert "Content-Type header ('utf-8')" in failed.message
    assert "<meta> declaration ('utf-8')" in failed.message
    assert "0xE9 at offset 28" in failed.message and body[28] == 0xE9


def test_utf8_under_legacy_counts_and_names_the_label() -> None:
    """utf8-under-legacy says which source lied, and removes one sequence per character."""
    body = '<meta charset="latin1"><p>naïve – “x”</p>'.encode()
    result = decode(body, None)
    (conflict,) = [c for c in result.conflicts if c.kind == "utf8-under-legacy"]
    assert conflict.mojibake_removed == 4
    assert "<meta> declaration says 'latin1' (windows-1252)" in conflict.message


def test_repeated_content_type_lists_the_values() -> None:
    """The repeated-content-type message quotes every value the server sent."""
    result = decode(b"abc", "text/html; charset=koi8-r, text/plain")
    (conflict,) = [c for c in result.conflicts if c.kind == "repeated-content-type"]
    assert "2 Content-Type values" in conflict.message
    assert "'text/html; charset=koi8-r'" in conflict.message and "'text/plain'" in conflict.message


@pytest.mark.parametrize(("body", "multibyte", "invalid", "valid", "mostly"), [
    (b"", 0, 0, True, False),
    (b"plain ascii", 0, 0, True, False),
    ("café ’".encode(), 2, 0, True, True),
    ("😀".encode(), 1, 0, True, True),
    (b"caf\xe9 \xc3\xa9", 1, 1, False, True),
    (b"\xef\xbf\xbd", 1, 0, True, True),
    (b"\xef\xbf\xbd\xff", 1, 1, False, True),
    (b"\xe2\x80", 0, 1, False, False),
    (b"\xf0\x9f\x98", 0, 1, False, False),
    ("é".encode() * 3 + b"\xff" * 5, 3, 5, False, False),
    (b"\xe9\xe8\xe0", 0, 3, False, False),
], ids=["empty", "ascii", "two", "astral", "one-each", "real-fffd", "fffd-and-bad",
        "cut-three-byte", "cut-four-byte", "more-invalid", "latin1"])
def test_utf8_profile(body: bytes, multibyte: int, invalid: int, valid: bool,
                      mostly: bool) -> None:
    """Valid multi-byte sequences, malformed ones (one per U+FFFD); the same from an attempt."""
    profile = utf8_profile(body)
    assert profile == Utf8Profile(multibyte, invalid)
    assert (profile.valid, profile.mostly_utf8) == (valid, mostly)
    assert utf8_profile(body, decode_as(body, "utf-8")) == profile


def test_utf8_profile_ignores_a_foreign_attempt() -> None:
    """An attempt without text and replacements is not trusted; the body is decoded again."""
    assert utf8_profile("café".encode(), object()) == Utf8Profile(1, 0)


def test_every_check_has_a_case_that_fires_and_one_that_does_not() -> None:
    """A new check in CHECKS needs its cases in tests/cases/checks.json."""
    from encoding_core.decision.conflicts import CHECKS
    from tests.decision.checks.casework import CASES as CHECK_CASES

    names = {check.__name__ for check in CHECKS}
    assert len(names) == len(CHECKS)
    assert {c["check"] for c in CHECK_CASES if c["expect_kinds"]} == names
    assert {c["check"] for c in CHECK_CASES if not c["expect_kinds"]} == names


def test_find_conflicts_is_the_checks_in_turn() -> None:
    """find_conflicts gives decode's conflicts; an added check reports after the others and
    sees what they found."""
    from encoding_core.decision.checks import CheckInput, Found
    from encoding_core.decision.conflicts import CHECKS, find_conflicts
    from encoding_core.decision.decode import what_checks_read
    from encoding_core.decision.models import Conflict, Severity

    body, content_type = "café ’".encode(), "text/html; charset=iso-8859-1"
    given = what_checks_read(body, content_type)
    assert find_conflicts(given) == decode(body, content_type).conflicts
    seen: list[Found] = []

    def counted(given: CheckInput, found: Found) -> Found:
        seen.append(found)
        return (Conflict("counted", Severity.INFO, f"{len(found)} before", "none"),)

    found = find_conflicts(given, (*CHECKS, counted))
    assert found[:-1] == find_conflicts(given) and found[-1].message == f"{len(seen[0])} before"
    assert find_conflicts(given, ()) == ()
