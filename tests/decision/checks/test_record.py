"""Tests for the record the checks read (encoding_core.decision.checks.record)."""

from __future__ import annotations

import pytest

from encoding_core.decision.checks import CheckInput, check_input
from encoding_core.decision.conflicts import CHECKS, PLAIN_CHECKS, find_conflicts
from encoding_core.decision.decode import what_checks_read
from encoding_core.decision.models import Source
from encoding_core.decision.resolve import Opinions
from encoding_core.whatwg.content_type import http_content_type_charset

_UTF16 = "<p>Hello, wide world</p>".encode("utf-16-le")


def test_the_record_is_frozen_and_carries_the_walks_result() -> None:
    """Source and lossy are separate fields; the record cannot be changed by a check."""
    given = what_checks_read(b"<p>caf\xe9</p>", "text/html; charset=utf-8", detector=None)
    assert (given.encoding, given.source, given.lossy, given.browser) == (
        "windows-1252", Source.FALLBACK, False, "utf-8")
    assert [ev.source for ev in given.evidence][:2] == [Source.BOM, Source.HTTP_HEADER]
    with pytest.raises(AttributeError):
        given.encoding = "utf-8"  # type: ignore[misc]


def test_a_lossy_reading_is_its_source_and_a_flag() -> None:
    """A lossy UTF-8 reading under the header: Source.HTTP_HEADER, lossy, no mixed map."""
    body = "<p>Café – naïve – crème</p>".encode() + b"<p>it\x92s</p>"
    given = what_checks_read(body, "text/html; charset=utf-8", detector=None)
    assert (given.source, given.lossy, given.mixed) == (Source.HTTP_HEADER, True, None)
    assert given.utf8_errors == (body.index(b"\x92"),)


@pytest.mark.parametrize(("content_type", "wide"), [
    (None, True), ("text/html; charset=windows-1252", True), ("text/html; charset=utf-16le", False),
], ids=["decided-from-nuls", "contradicted", "declared"])
def test_wide(content_type: str | None, wide: bool) -> None:
    """Wide when decided from the NUL pattern or contradicted by it; not when declared so."""
    given = what_checks_read(_UTF16, content_type)
    assert given.pattern is not None and given.wide is wide


def test_said_names_the_source_and_the_label_used() -> None:
    """The label is named when it is not the encoding's own name."""
    assert what_checks_read(b"x\xe9", "text/html; charset=latin1").said() == (
        "The Content-Type header says 'latin1' (windows-1252)")
    assert what_checks_read(b"x\xe9", "text/html; charset=windows-1252").said() == (
        "The Content-Type header says windows-1252")


def test_check_input_fills_the_browsers_encoding() -> None:
    """Without ``browser`` the record says what a browser would use for the opinions."""
    opinions = Opinions(None, http_content_type_charset("text/html; charset=koi8-r"), None)
    given = check_input(b"x", opinions, "utf-8", Source.OVERRIDE, False, ())
    assert isinstance(given, CheckInput) and given.browser == "koi8-r"
    assert check_input(b"x", opinions, "utf-8", Source.OVERRIDE, False, (),
                       browser="utf-8").browser == "utf-8"


_META = b'<meta charset="%s"><p>caf\xc3\xa9</p>'
# Each case makes one of the checks left out of PLAIN_CHECKS fire (or none, the last two).
_PLAIN_CASES = [
    (b"<p>caf\xe9</p>", "text/html; charset=utf-8", False),             # fails strict
    (b"<p>cafe</p>", "text/html; charset=no-such", False),               # unknown label
    (b"<p>cafe</p>", "text/html; charset=iso-2022-kr", False),           # replacement label
    (b'<meta charset="nope"><meta charset="utf-8"><p>x</p>', "text/html", False),  # skipped label
    (_META % b"iso-8859-2", "text/html; charset=utf-8", False),          # header/meta differ
    (b"\xef\xbb\xbf<p>cafe</p>", "text/html; charset=iso-8859-2", False),  # BOM contradicts
    (b" " * 2000 + b'<meta charset="iso-8859-2"><p>caf\xe9</p>', "text/html", False),  # late <meta>
    (b"<p>cafe</p>", "text/html; charset=utf-8, text/html", False),    # repeated header
    (b"<p>caf\xc3\xa9 \x92</p>", "text/html; charset=utf-8", False),    # lossy
    (b"<p>caf\xc3\xa9</p>\xc3", "text/html; charset=utf-8", False),     # truncated
    (b"<p>caf\xe9</p>", "text/html; charset=windows-1252; x=", False),  # browser differs
    (b"\xff\xfe\x00\x00<\x00\x00\x00", "text/html", False),             # UTF-32 BOM: browser
    (_META % b"utf-8", "text/html; charset=utf-8", True),
    (b"\xef\xbb\xbf<p>caf\xc3\xa9</p>", "text/html", True),                # a BOM alone
    ("\ufeff<p>café</p>".encode("utf-16le"), "text/html", True),
    ("\ufeff<p>café</p>".encode("utf-16be"), "text/html", True),
    (b"<p>caf\xe9</p>", "text/html; charset=windows-1252", True),
]


@pytest.mark.parametrize(("body", "content_type", "plain"), _PLAIN_CASES)
def test_a_plain_record_gives_what_every_check_gives(body: bytes, content_type: str,
                                                     plain: bool) -> None:
    """``plain`` is the guard of ``PLAIN_CHECKS``: every check left out finds nothing in a
    plain record, and a record where one of them fires is not plain."""
    override = "iso-8859-2" if content_type.endswith("x=") else None
    given = what_checks_read(body, content_type, override=override)
    every = find_conflicts(given, tuple(list(CHECKS)))   # another tuple: no shortcut
    assert find_conflicts(given) == every
    left_out = [c for c in CHECKS if c not in PLAIN_CHECKS]
    fired = [c.__name__ for c in left_out if c(given, ())]
    assert given.plain is (not fired) is plain
