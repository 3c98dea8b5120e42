"""Tests for the evidence from the text itself (encoding_core.decision.conflicts_text)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from encoding_core import decode
from encoding_core.decision.conflicts_text import binary_body, implausible_reading
from encoding_core.decision.detect import Detection, default_detector

SHIFT_JIS = "<p>日本語のテキストです。東京都の天気は晴れ。ソフトウェア表示</p>".encode("shift_jis")
SAID = "The Content-Type header says 'iso-8859-1' (windows-1252)"


def _says(encoding: str | None, *, unsure: bool = False
          ) -> Callable[[bytes], Detection | None]:
    def detector(body: bytes) -> Detection | None:
        return None if encoding is None else Detection(encoding, 0.5 if unsure else 0.95,
                                                       unsure, "test detector")
    return detector


def _fails(body: bytes) -> Detection | None:
    raise RuntimeError("a third-party detector broke")


def test_implausible_reading_names_the_override() -> None:
    """Shift_JIS read as windows-1252: an error, with examples and the override to make."""
    found = implausible_reading(SHIFT_JIS, "windows-1252", SAID, default_detector)
    assert found is not None
    assert (found.kind, str(found.severity), found.suggested_encoding) == (
        "implausible-reading", "error", "shift_jis")
    assert found.message.startswith(SAID) and "out of place" in found.message


@pytest.mark.parametrize(("detector", "why"), [
    (None, "no detector configured"),
    (_says(None), "the detector has no answer"),
    (_says("windows-1252"), "the detector agrees with the decision"),
    (_says("iso-8859-1"), "a label of the decision's own encoding"),
    (_says("windows-1250"), "a reading no better than the decision's"),
    (_says("bogus"), "not an encoding label"),
    (_fails, "the detector raises"),
], ids=["none", "no-answer", "agrees", "same-by-label", "no-better", "bogus", "raises"])
def test_implausible_reading_stays_silent(detector: Callable[[bytes], Detection | None] | None,
                                         why: str) -> None:
    """No override proposed when the detector cannot offer a clearly better reading; but
    Shift_JIS read as windows-1252 is no reading (issue 21): still an error, saying so."""
    found = implausible_reading(SHIFT_JIS, "windows-1252", SAID, detector)
    if detector is None:
        assert found is None, why
    else:
        assert found is not None and found.suggested_encoding is None, why
        assert str(found.severity) == "error" and "implausible characters" in found.message


def test_iso_2022_jp_under_a_legacy_declaration() -> None:
    """ISO-2022-JP is all 7-bit bytes: its escapes give it away under windows-1252."""
    body = "<p>日本語のテキストです。東京都の天気は晴れ。</p>".encode("iso-2022-jp")
    found = implausible_reading(body, "windows-1252", SAID, default_detector)
    assert found is not None and found.suggested_encoding == "iso-2022-jp"
    assert "escape characters" in found.message
    assert implausible_reading(b"<p>plain ASCII</p>", "windows-1252", SAID, _fails) is None


def test_unsure_detector_is_no_evidence() -> None:
    """An answer the detector itself flags for review proposes no override; the implausible
    reading is flagged all the same, naming the unsure guess (issue 21)."""
    found = implausible_reading(SHIFT_JIS, "windows-1252", SAID, _says("shift_jis", unsure=True))
    assert found is not None and found.suggested_encoding is None
    assert "unsure guess is shift_jis" in found.message


@pytest.mark.parametrize("text", [
    "x² + y² = z²; ±5%; 3×4; ½; ¼; µ; °; ¬a; ¦",
    "El 1º de mayo, la 2ª edición; Nº 5.",
    "¥100 £5 ¢3 ¤ §4 ¶",
    "The area is 25 m² and the volume 8 m³; angle 45° ± 0.1°; ratio ¾",
], ids=["math", "ordinals", "currency", "units"])
def test_symbols_beside_letters_are_text(text: str) -> None:
    """Right windows-1252 pages full of symbols are not flagged, whatever the detector says."""
    body = ("<p>" + text * 3 + "</p>").encode("windows-1252")
    assert implausible_reading(body, "windows-1252", SAID, default_detector) is None
    assert implausible_reading(body, "windows-1252", SAID, _says("shift_jis")) is None


def test_plausible_text_never_asks_the_detector() -> None:
    """A reading with no implausible character does not consult the detector at all."""
    body = "<p>Le cœur a ses raisons. Déjà vu.</p>".encode("windows-1252")
    assert implausible_reading(body, "windows-1252", SAID, _fails) is None


@pytest.mark.parametrize("encoding", ["windows-1251", "windows-1252", "macintosh"])
def test_text_after_an_ascii_first_sample_never_asks_the_detector(encoding: str) -> None:
    """A minified page whose first 4 KiB line is ASCII markup: the sample holds no text to
    doubt, and the tells' window (``TELLS_WINDOW``, where a Western reading's letters are read
    too) none to read, so no detector is asked and no conflict found, in a non-Latin script
    too."""
    body = b"aN" * 2100 + "<p>Москва — столица</p>".encode("cp1251")
    asked: list[bytes] = []

    def detector(part: bytes) -> Detection | None:
        asked.append(part)
        return Detection("utf-16le", 0.99, False, "reads anything as UTF-16")

    assert implausible_reading(body, encoding, SAID, detector) is None
    decided = decode(body, f"text/html; charset={encoding}", detector=detector)
    assert (decided.conflicts, decided.needs_review, asked) == ((), False, [])


def test_non_ascii_only_in_markup_is_no_text_to_doubt() -> None:
    """KOI8-R bytes under windows-1251: doubted where they are text, not where they are only
    in attributes and scripts (the detectors' sample would give the markup back)."""
    words = "Москва - столица России, крупнейший город страны"
    in_text = f"<html><p>{words}</p></html>".encode("koi8-r")
    found = implausible_reading(in_text, "windows-1251", SAID, default_detector)
    assert found is not None and found.suggested_encoding == "koi8-r"
    in_markup = (f"<html><img alt='{words}'><script>var s='{words}';</script>"
                 "<p>ASCII only</p></html>").encode("koi8-r")
    assert implausible_reading(in_markup, "windows-1251", SAID, _fails) is None


@pytest.mark.parametrize(("body", "encoding", "binary"), [
    (bytes.fromhex("89504e470d0a1a0a0000000d49484452") * 4, "windows-1252", True),
    (bytes(range(32)) * 8, "utf-8", True),
    ("<p>wide text</p>".encode("utf-16le"), "utf-16le", False),
    (b"<p>tabs\tand\r\nnewlines\x0c</p>", "utf-8", False),
    ("<p>\x1b$B$3$s$K$A$O\x1b(B</p>".encode("latin-1"), "iso-2022-jp", False),
    (b"", "utf-8", False),
], ids=["png", "controls", "utf-16", "whitespace", "iso-2022-jp-escapes", "empty"])
def test_binary_body(body: bytes, encoding: str, binary: bool) -> None:
    """Control bytes beyond 1% of the head are binary; UTF-16 NULs and ESC are text."""
    assert (binary_body(body, encoding) is not None) == binary


def test_implausible_words_are_shown_as_text_not_escapes() -> None:
    """The words quoted in the message show a C1 control as <U+0081>, never as Python's \\x81."""
    body = ("<p>東京の天気は晴れです。日本語のページ、ソフトウェアのダウンロード</p>"
            .encode("shift_jis"))
    found = decode(body, "text/html; charset=iso-8859-1")
    (conflict,) = [c for c in found.conflicts if c.kind == "implausible-reading"]
    assert "\\x" not in conflict.message
    assert "<U+0081>" in conflict.message or "<U+0090>" in conflict.message
    assert "1 of its words holds" in conflict.message
