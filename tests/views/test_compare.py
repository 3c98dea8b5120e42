"""Tests for the side-by-side candidates (encoding_core.views.compare)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from encoding_core.views.compare import (
    Column,
    Comparison,
    ShownLine,
    compare_candidates,
    diff_spans,
    shown_lines,
)

LYING = "<p>José Müller – “quoted” café</p>\n<p>plain</p>\n<p>naïve</p>".encode()
LATIN1 = "text/html; charset=iso-8859-1"


def _by_encoding(comparison: Comparison) -> dict[str, Column]:
    return {c.encoding: c for c in comparison.columns}


def test_columns_include_decision_and_references() -> None:
    """The decision's column is marked; utf-8 and windows-1252 are always there."""
    comparison = compare_candidates(b"caf\xe9", "text/html; charset=utf-8", detector=None)
    assert comparison.decision.encoding == "windows-1252"
    columns = _by_encoding(comparison)
    assert set(columns) == {"windows-1252", "utf-8"}
    decision = columns["windows-1252"]
    assert (decision.is_decision, decision.text, decision.strict_ok) == (True, "café", True)
    utf8 = columns["utf-8"]
    assert (utf8.is_decision, utf8.strict_ok, utf8.replacements) == (False, False, 1)
    assert utf8.sources == ("http-header", "fallback")
    assert [c.is_decision for c in comparison.columns].count(True) == 1
    assert comparison.columns[0].is_decision


def test_references_on_an_ascii_page() -> None:
    """With no opinion anywhere, utf-8 decides and windows-1252 is a reference column."""
    comparison = compare_candidates(b"<p>hi</p>", detector=None)
    assert [(c.encoding, c.sources, c.is_decision) for c in comparison.columns] == [
        ("utf-8", ("fallback",), True), ("windows-1252", ("reference",), False)]
    assert comparison.differing_lines == ()


@pytest.mark.parametrize(("extra", "expected"), [
    (["koi8-r"], ["koi8-r"]),
    (["KOI8-R", "cskoi8r"], ["koi8-r"]),
    (["latin1", "cp1252"], []),
    (["utf8"], ["utf-8"]),
    (["no-such-encoding"], []),
    (["iso-2022-kr", "csiso2022kr"], []),
    (["shift_jis", "koi8-r"], ["shift_jis", "koi8-r"]),
], ids=["one", "two-labels-one-encoding", "decision-labels", "reference-asked-for", "unknown",
        "replacement", "two-extras"])
def test_user_extras(extra: list[str], expected: list[str]) -> None:
    """Extras are added once, by canonical name; unknown and replacement labels are ignored."""
    # koi8-r bytes under an iso-8859-1 header: windows-1252 decides, utf-8 is only a
    # reference column unless the user asks for it.
    comparison = compare_candidates("Привет".encode("koi8-r"), LATIN1, extra=extra)
    encodings = [c.encoding for c in comparison.columns]
    assert len(encodings) == len(set(encodings))
    assert "replacement" not in encodings
    added = [c.encoding for c in comparison.columns if c.sources == ("added",)]
    assert added == expected


def test_replacement_label_is_not_a_column() -> None:
    """A header naming the replacement encoding gives no replacement column."""
    comparison = compare_candidates("café".encode(), "text/html; charset=iso-2022-kr")
    encodings = [c.encoding for c in comparison.columns]
    assert "replacement" not in encodings
    assert set(encodings) == {"utf-8", "windows-1252"}


def test_mojibake_score_is_higher_for_the_wrong_column() -> None:
    """On UTF-8 served as iso-8859-1 the decided column scores mojibake, utf-8 does not."""
    comparison = compare_candidates(LYING, LATIN1)
    columns = _by_encoding(comparison)
    decided, utf8 = columns["windows-1252"], columns["utf-8"]
    assert decided.is_decision and decided.sources == ("http-header",)
    assert decided.mojibake > utf8.mojibake == 0
    assert utf8.text == LYING.decode() and utf8.strict_ok
    assert comparison.differing_lines == (0, 2)


def test_koi8_r_reading_of_utf8_scores_below_the_right_one() -> None:
    """Issue 21: ftfy's badness gives ``Mц╪ller, Straц÷e`` 0, like the right reading; box
    drawing and letters of two alphabets in one word count here."""
    body = "<p>Müller, Straße 5, Köln</p>".encode()
    columns = _by_encoding(compare_candidates(body, None, extra=["koi8-r"]))
    assert columns["utf-8"].mojibake == 0 < columns["koi8-r"].mojibake
    assert "╪" in columns["koi8-r"].text


def test_bom_page_columns() -> None:
    """The decision's column has the BOM stripped; another encoding shows it as mojibake."""
    comparison = compare_candidates(b"\xef\xbb\xbfcaf\xc3\xa9", None)
    columns = _by_encoding(comparison)
    assert columns["utf-8"].text == "café" and columns["utf-8"].sources[0] == "bom"
    assert columns["windows-1252"].text == "ï»¿cafÃ©"


def test_lossy_decision_column() -> None:
    """A lossy decision's column is not strict and counts its replacements."""
    body = "Café – crème".encode() + b" it\x92s"
    comparison = compare_candidates(body, "text/html; charset=utf-8", detector=None)
    decision = next(c for c in comparison.columns if c.is_decision)
    assert (decision.encoding, decision.strict_ok, decision.replacements) == ("utf-8", False, 1)


@pytest.mark.parametrize(("texts_body", "ctype", "lines"), [
    (b"a\nb\nc", None, ()),
    ("a\né\nc".encode(), "text/html; charset=utf-8", (1,)),
    ("é\nb\n’".encode(), "text/html; charset=utf-8", (0, 2)),
], ids=["ascii", "middle-line", "first-and-last"])
def test_differing_lines(texts_body: bytes, ctype: str | None, lines: tuple[int, ...]) -> None:
    """differing_lines are the 0-based lines where some column's text differs."""
    assert compare_candidates(texts_body, ctype).differing_lines == lines


@pytest.mark.parametrize(("reference", "other", "spans"), [
    ("café", "cafÃ©", ((3, 5),)),
    ("abc", "abc", ()),
    ("abc", "abXc", ((2, 3),)),
    ("abc", "ac", ()),
    ("", "xyz", ((0, 3),)),
    ("abc", "", ()),
    ("it’s", "itâ€™s", ((2, 5),)),
    ("a é b é", "a Ã© b Ã©", ((2, 4), (7, 9))),
], ids=["cafe", "equal", "insert", "delete-only", "from-empty", "to-empty", "quote", "two"])
def test_diff_spans(reference: str, other: str, spans: tuple[tuple[int, int], ...]) -> None:
    """Half-open ranges of other that differ; pure deletions leave no span in other."""
    assert diff_spans(reference, other) == spans


@pytest.mark.parametrize(("reference", "other", "spans"), [
    # Shift_JIS trail bytes can be ASCII: 83 5C is "ソ", and "ƒ\\" under windows-1252
    ("aソbソc", "aƒ\\bƒ\\c", ((1, 3), (4, 6))),
    ("x" * 50 + "é" + "y" * 50, "x" * 50 + "Ã©" + "y" * 50, ((50, 52),)),
    ("é" * 3000 + "a" * 10, "\ufffd" * 3000 + "b", ((0, 3001),)),
], ids=["ascii-trail-bytes", "long-ends", "one-run"])
def test_diff_spans_aligns_runs(reference: str, other: str,
                                spans: tuple[tuple[int, int], ...]) -> None:
    """Runs that are not paired one to one are aligned; long common ends are trimmed."""
    assert diff_spans(reference, other) == spans


def test_diff_spans_is_bounded_on_a_minified_page() -> None:
    """Past MAX_DIFF_WORK run pairs, the changed middle is one span (coarse, not slow)."""
    from encoding_core.views.compare import MAX_DIFF_WORK

    runs = int(MAX_DIFF_WORK ** 0.5) + 10
    reference = "".join(f"w{i}é" for i in range(runs))
    other = "".join(f"v{i}Ã©" for i in range(runs))  # no ASCII run in common
    assert diff_spans("<" + reference + ">", "<" + other + ">") == ((1, 1 + len(other)),)


@given(st.text(alphabet="ab é€Ã©\\ƒソ", max_size=40), st.text(alphabet="ab é€Ã©\\ƒソ", max_size=40))
def test_diff_spans_leaves_a_subsequence(reference: str, other: str) -> None:
    """What the spans leave of other is a subsequence of reference, in order; spans are
    sorted, disjoint and inside other."""
    spans = diff_spans(reference, other)
    kept, pos = [], 0
    for start, end in spans:
        assert pos <= start < end <= len(other)
        kept.append(other[pos:start])
        pos = end
    kept.append(other[pos:])
    left = iter(reference)
    assert all(ch in left for ch in "".join(kept))
    if reference == other:
        assert spans == ()


def test_shown_lines_cuts_long_lines() -> None:
    """A one-line page is shown cut to max_chars, with how much was not shown."""
    body = ("caf\u00e9 " * 10_000).encode("utf-8")
    comparison = compare_candidates(body, "text/html; charset=utf-8")
    latin = next(c for c in comparison.columns if c.encoding == "windows-1252")
    (line,) = shown_lines(comparison, latin, only_differing=True, max_chars=100)
    assert (line.number, len(line.text), line.cut) == (1, 100, 60_000 - 100)
    assert line.spans[0] == (3, 5)


def test_a_suggested_encoding_gets_a_column() -> None:
    """Shift_JIS under a wrong iso-8859-1: the detector's reading is a column, named by its
    conflict, and reads with no replacement."""
    body = "<p>日本語のテキストです。東京都の天気は晴れ。</p>".encode("shift_jis")
    comparison = compare_candidates(body, LATIN1)
    column = next(c for c in comparison.columns if c.encoding == "shift_jis")
    assert column.sources == ("implausible-reading",)
    assert column.strict_ok and "東京都" in column.text


def test_extras_from_a_generator_are_labelled_added() -> None:
    """``extra`` may be any iterable: a generator's encodings are "added", like a list's."""
    comparison = compare_candidates("Привет".encode("koi8-r"), LATIN1,
                                    extra=(label for label in ["koi8-r", "utf-8"]))
    assert {c.encoding: c.sources for c in comparison.columns if not c.is_decision} == {
        "koi8-r": ("added",), "utf-8": ("added",)}


def test_the_segment_column_names_its_other_encoding_as_data() -> None:
    """A page mixing UTF-8 and windows-1252: the column read segment by segment carries the
    other encoding in ``mixed_with``; no other column has one."""
    body = ("<p>José Müller — “ok”</p>\n".encode()
            + "<footer>© 2009 – it’s “old”</footer>".encode("cp1252"))
    comparison = compare_candidates(body, "text/html; charset=utf-8")
    mixed = [c for c in comparison.columns if c.mixed_with is not None]
    assert [(c.encoding, c.mixed_with) for c in mixed] == [("segments", "windows-1252")]
    assert "© 2009 – it’s “old”" in mixed[0].text


@pytest.mark.parametrize(("number", "cut", "expected"), [
    (7, 0, ("   7  café", ((9, 10),))),
    (9_999, 0, ("9999  café", ((9, 10),))),
    (10_000, 0, ("10000  café", ((10, 11),))),
    (123_456, 5, ("123456  café … (5 more characters)", ((11, 12),))),
], ids=["short-number", "last-four-digit", "five-digits", "six-digits-cut"])
def test_numbered_lines_keep_highlights_on_their_characters(
        number: int, cut: int, expected: tuple[str, tuple[tuple[int, int], ...]]) -> None:
    """The span over "é" still covers "é" once the line number is in front, however wide."""
    line = ShownLine(number, "café", ((3, 4),), cut)
    text, spans = line.numbered()
    assert (text, spans) == expected
    assert all(text[a:b] == "é" for a, b in spans)
