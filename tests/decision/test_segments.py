"""Tests for decision.segments: a page that mixes UTF-8 with one other encoding, mapped."""

from __future__ import annotations

import re
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core import decode
from encoding_core.decision import segments
from encoding_core.decision.detect import default_detector
from encoding_core.decision.segments import segment_map

# windows-1252 letters whose bytes are all >= 0xE0: a run of them is never valid UTF-8
LEGACY_LETTERS = "àáâãäåæçèéêëìíîïñòóôõöøùúûüý"
UTF8_LETTERS = "éüßœ—“”中日€"


def _piece(kind: str, letters: str):
    return st.builds(lambda first, middle, last: first + middle + last,
                     st.sampled_from(letters), st.text(alphabet="abc xyz" + letters, max_size=8),
                     st.sampled_from(letters)).map(lambda text: (kind, text))


@given(st.lists(st.tuples(_piece("utf-8", UTF8_LETTERS), _piece("windows-1252",
                                                                  LEGACY_LETTERS)),
                min_size=1, max_size=4),
       st.sampled_from([" and ", ", ", " = "]))
def test_alternating_runs_are_segmented_back_at_their_boundaries(pairs, spacer):
    """UTF-8 and windows-1252 pieces joined by ASCII: each segment starts where its piece's
    first non-ASCII byte is, in its piece's encoding, and the text reads as written."""
    pieces = [piece for pair in pairs for piece in pair]
    body, starts = b"", []
    for kind, text in pieces:
        if body:
            body += spacer.encode()
        starts.append(len(body))
        body += text.encode("utf-8" if kind == "utf-8" else "cp1252")
    found = segment_map(body)
    assert found is not None
    assert [s.encoding for s in found.segments] == [kind for kind, _ in pieces]
    assert [s.start for s in found.segments] == starts
    assert found.segments[-1].end == len(body)
    assert found.text == spacer.join(text for _, text in pieces)
    assert found.segments[0].sure and not any(s.sure for s in found.segments[1:])


@given(st.binary(max_size=400))
def test_segment_map_never_raises(body):
    """Any bytes: a map whose segments tile the body, or None."""
    found = segment_map(body)
    if found is not None:
        assert found.segments[0].start == 0 and found.segments[-1].end == len(body)
        assert all(a.end == b.start for a, b in pairwise(found.segments))


def test_one_encoding_is_no_mix():
    """All UTF-8, all windows-1252, or ASCII: no map."""
    assert segment_map("<p>José Müller — “ok”</p>".encode()) is None
    assert segment_map("<p>José Müller</p>".encode("cp1252")) is None
    assert segment_map(b"<p>plain</p>") is None


def test_decode_reports_the_mix_with_its_segments():
    """A UTF-8 page with a windows-1252 footer: a mixed-encoding conflict names the ranges."""
    head = "<html><body><p>José Müller, Straße 5 — “Bitte klingeln”.</p>\n".encode()
    foot = "<footer>© 2009 – it’s “old”</footer></body></html>".encode("cp1252")
    decided = decode(head + foot, "text/html; charset=utf-8")
    (mixed,) = [c for c in decided.conflicts if c.kind == "mixed-encoding"]
    assert f"bytes {len(head)}-{len(head + foot)}" in mixed.message
    assert "windows-1252" in mixed.message
    found = segment_map(head + foot, default_detector)
    assert found is not None and found.text.endswith("it’s “old”</footer></body></html>")



@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_piece("utf-8", UTF8_LETTERS * 4), _piece("windows-1252",
                                                                      LEGACY_LETTERS)),
                min_size=1, max_size=3),
       st.sampled_from([" and ", ",\n", "</p><p>"]), st.sampled_from(["", "\ufeff"]))
def test_decode_maps_a_lossy_page_from_its_own_reading(pairs, spacer, bom):
    """The lossy UTF-8 reading hands its error offsets to the map: the mixed-encoding
    conflict is the one a map made from the bytes alone gives (a BOM before it too)."""
    from encoding_core.decision.checks.damage import mixed_encoding as _mixed_encoding

    body = bom.encode() + spacer.encode().join(
        text.encode("utf-8" if kind == "utf-8" else "cp1252") for pair in pairs
        for kind, text in pair)
    decided = decode(body, "text/html; charset=utf-8")
    mixed = [c.message for c in decided.conflicts if c.kind == "mixed-encoding"]
    found = segment_map(body, default_detector)
    lossy = any(c.kind == "lossy" and "The page mixes encodings" in c.message
                for c in decided.conflicts)
    if not lossy and decided.encoding != "utf-8":  # a single-byte reading (issue 21): flagged
        assert all(m.startswith(f"The page was read as {decided.encoding}") for m in mixed)
        return
    assert mixed == ([_mixed_encoding(found).message] if lossy and found is not None else [])


def test_the_lossy_utf8_reading_hands_over_all_its_error_offsets_or_none():
    """What decode gives the map: a lossy UTF-8 attempt's offsets when it kept them all."""
    from encoding_core.decision.attempt import MAX_ERROR_OFFSETS, decode_as
    from encoding_core.decision.decode import _all_utf8_errors
    from encoding_core.whatwg.decoders import decode_replace

    mixed = "José ".encode() + b"\xe9 " + "“ok”".encode() + b"\xff"
    assert _all_utf8_errors(decode_as(mixed, "utf-8")) == tuple(decode_replace(mixed, "utf-8")[1]) \
        == (6, 16)
    assert _all_utf8_errors(decode_as("José".encode(), "utf-8")) is None        # strict
    assert _all_utf8_errors(decode_as(mixed, "windows-1252")) is None           # not UTF-8
    many = b"\xe9 " * (MAX_ERROR_OFFSETS + 1)
    assert _all_utf8_errors(decode_as(many, "utf-8")) is None                   # cut short


_UTF8_RUN = re.compile(rb"(?:[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]"
                       rb"|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
                       rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
                       rb"|\xf4[\x80-\x8f][\x80-\xbf]{2})+")


def _reference_stretches(body: bytes) -> list[tuple[int, int, bool]]:
    """The definition, step by step: each run of non-ASCII bytes is UTF-8 when it is made of
    valid UTF-8 sequences (Encoding Standard byte ranges), and runs of one kind are merged."""
    stretches: list[tuple[int, int, bool]] = []
    for match in re.finditer(rb"[\x80-\xff]+", body):
        utf8 = _UTF8_RUN.fullmatch(body, match.start(), match.end()) is not None
        if stretches and stretches[-1][2] == utf8:
            stretches[-1] = (stretches[-1][0], match.end(), utf8)
        else:
            stretches.append((match.start(), match.end(), utf8))
    return stretches


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=6), st.sampled_from(
    [b" ", b"\n", "é".encode(), "€".encode(), "😀".encode(), b"\xe9", b"\x93", b"\xed\xa0\x80",
     b"\xef\xbb\xbf", b"\xc3", b"\xf4\x90\x80\x80", "é".encode() * 40])), max_size=40))
def test_the_c_speed_runs_are_the_definitions_runs(pieces):
    """The stretches found from the decoder's error offsets equal the run-by-run definition."""
    body = b"".join(pieces)
    legacy = segments._legacy_runs(body)
    expected = _reference_stretches(body)
    assert legacy == [(a, b) for a, b, utf8 in [
        (m.start(), m.end(), _UTF8_RUN.fullmatch(body, m.start(), m.end()) is not None)
        for m in re.finditer(rb"[\x80-\xff]+", body)] if not utf8]
    if legacy:
        assert segments._stretches(body, legacy) == expected


def test_a_long_run_is_found_whole():
    """A run longer than the short walk back (CJK text has no ASCII for pages) is found from
    its first byte, by the match in the reversed body."""
    body = b"<p>" + "東京".encode() * 500 + b"\xff" + "都".encode() * 10 + b"</p>"
    assert segments._legacy_runs(body) == [(3, len(body) - 4)]


# --- a page that switches encodings every few bytes (issue 28) ---------------------------------

HOSTILE_UNIT = "é".encode() + b"x\xe9y"   # UTF-8 then windows-1252, five bytes


def test_past_the_cap_of_runs_no_map_is_made():
    """A page of more runs than MAX_MIXED_RUNS gets no map (and stops looking at the cap); one
    at the cap still gets its map, segment by segment."""
    from encoding_core.decision.limits import MAX_MIXED_RUNS

    at_cap = segment_map(HOSTILE_UNIT * MAX_MIXED_RUNS)
    assert at_cap is not None and len(at_cap.byte_ranges("windows-1252")) == MAX_MIXED_RUNS
    assert segment_map(HOSTILE_UNIT * (MAX_MIXED_RUNS + 1)) is None
    assert segments._legacy_runs(HOSTILE_UNIT * 10 * MAX_MIXED_RUNS) is None


def test_decode_of_a_page_switching_every_few_bytes_is_linear_and_small():
    """``decode`` of ``("é".encode() + b"x\\xe9y") * N`` (48 s and 140 bytes of memory per
    input byte at 10 MB before): peak memory a small multiple of the input at 1 and 4 MB, the
    same multiple at both sizes, each decode under a generous limit; still lossy UTF-8."""
    import tracemalloc

    from tests.budget import within

    decode(HOSTILE_UNIT * 30_000)   # tables built once per process are not the page's memory
    per_byte = {}
    for size in (1_000_000, 4_000_000):
        body = HOSTILE_UNIT * (size // len(HOSTILE_UNIT))
        tracemalloc.start()
        try:
            with within(120, f"decode of a {size:,}-byte page switching encodings"):
                decided = decode(body)
            per_byte[size] = tracemalloc.get_traced_memory()[1] / len(body)
        finally:
            tracemalloc.stop()
        assert (decided.encoding, decided.decided_by) == ("utf-8", "fallback-lossy")
        assert "lossy" in [c.kind for c in decided.conflicts]
    assert max(per_byte.values()) < 16, per_byte
    assert per_byte[4_000_000] < 1.25 * per_byte[1_000_000], per_byte
