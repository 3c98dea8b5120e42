"""What is read of a body before any walk (``front``): the compiled reader against its
reference, and the recalled page decided there against a fresh walk."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from encoding_core.decision import decode as decode_module
from encoding_core.decision import front
from encoding_core.decision.decode import decode
from encoding_core.decision.models import Decoded
from encoding_core.decision.tracememo import TraceMemo
from encoding_core.decision.utf8scan import NUL_WINDOW
from encoding_core.speedups import compiled
from tests.repomodules import repo_module

_C = compiled("encoding_core.decision._front_c")
needs_compiled = pytest.mark.skipif(_C is None, reason="_front_c not built (or pure)")
#: One reader for every comparison, so that its per-encoding cache is asked warm too.
_READER = None if _C is None else _C.FrontReader(front.Front, NUL_WINDOW)

#: Headers a page is read under: none, a charset of each kind, an unknown label, two
#: charsets, and one too long to be remembered (``tracememo.MAX_HEADER``).
HEADERS = [None, "text/html", "text/html; charset=utf-8", "text/html; charset=windows-1252",
           "text/html; charset=iso-8859-2", "text/html; charset=koi8-r",
           "text/html; charset=shift_jis", "text/html; charset=gbk", "text/html;charset=bogus",
           "text/html; charset=gbk, text/html", "text/html; charset=utf-16le",
           "text/html; charset=utf-8; x=" + "y" * 200]
#: What a body may start with: declarations (early, late, unknown), BOMs, a NUL head.
PREFIXES = [b"", b'<meta charset="utf-8">', b"<meta charset=windows-1251>",
            b'<?xml version="1.0" encoding="latin1"?>', b"<meta charset=nonsense>",
            b"<!-- x -->" * 120 + b'<meta charset="euc-jp">', b"\xef\xbb\xbf",
            b"\xef\xbb\xbf<meta charset=gbk>", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00",
            b"<\x00p\x00>\x00"]
# pieces that read differently, or fail, under different encodings; an ESC, control bytes
# and the tell bytes of other languages, which the clearance must not pass
PIECES = [b"plain ", "café".encode(), "café".encode("cp1252"), "中文".encode("gbk"),
          "日本".encode("shift_jis"), b"\xff", b"\x81", "Жж".encode("koi8-r"), b"\xe2\x80",
          b"\x1b$B", b"\x01\x02\x03", "Ελλάδα".encode("cp1253"), "Łódź".encode("cp1250"),
          "ñandú".encode("cp1252"), b"\x00"]
TEXTS = st.one_of(st.lists(st.sampled_from(PIECES), max_size=8).map(b"".join),
                  st.binary(max_size=40))


def _both(body: bytes, header: str | None, override: str | None,
          memo: TraceMemo) -> Decoded | front.Front:
    """The compiled reader's answer, asserted equal to the reference's (same memo)."""
    assert _READER is not None
    built = _READER(body, header, override, memo)
    reference = front.decided_or_front(body, header, override, memo)
    assert type(built) is type(reference)
    assert built == reference
    return reference


@needs_compiled
def test_the_compiled_reader_is_the_one_decode_calls() -> None:
    """Where built, ``decode`` reads every page's front through the compiled reader."""
    assert isinstance(front.DECIDED_OR_FRONT, _C.FrontReader)


def _corpus_pages() -> list[tuple[bytes, str | None]]:
    """Every page of the real-world-shaped set, with its header, and of the quick corpus."""
    real, generated = repo_module("realworld", "bench"), repo_module("corpus", "bench")
    return ([(page.body, page.content_type) for page in real.pages()]
            + [(sample.body, None) for sample in generated.build_corpus(quick=True)])


@needs_compiled
def test_the_compiled_reader_is_the_reference_on_both_corpora(monkeypatch) -> None:
    """Every page of both corpora, under its own header and others, fresh and recalled:
    the compiled reader answers what the reference answers, and a recalled page it decides
    is the page a fresh walk decides."""
    pages = _corpus_pages()
    for header_of in (lambda own: own, lambda own: "text/html; charset=utf-8",
                      lambda own: "text/html; charset=windows-1252"):
        memo = TraceMemo()
        monkeypatch.setattr(decode_module, "_TRACES", memo)
        decided = 0
        for body, own in pages:
            header = header_of(own)
            _both(body, header, None, memo)
            fresh = decode(body, header)      # (may remember its decision)
            again = _both(body, header, None, memo)
            if isinstance(again, Decoded):
                decided += 1
                assert again == fresh
        assert decided > 100   # (the test reaches the decided path)


@needs_compiled
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.sampled_from(HEADERS), st.sampled_from(PREFIXES), st.sampled_from([None, "koi8-r"]),
       TEXTS, TEXTS)
def test_the_compiled_reader_is_the_reference_on_random_pages(monkeypatch, header, prefix,
                                                              override, first, second):
    """A body read after another with the same opinions was decided (so that it may be
    recalled, or fail its recall): the compiled reader is the reference, and what it
    decides is the fresh walk's decision."""
    memo = TraceMemo()
    monkeypatch.setattr(decode_module, "_TRACES", TraceMemo())
    fresh = decode(prefix + second, header, override=override)
    monkeypatch.setattr(decode_module, "_TRACES", memo)
    decode(prefix + first, header, override=override)   # may remember its decision
    found = _both(prefix + second, header, override, memo)
    if isinstance(found, Decoded):
        assert found == fresh


@needs_compiled   # (pure, the walk's own passes peak at 3.2x: the reader is not its peak)
def test_a_failed_recall_holds_one_copy_of_a_long_body(monkeypatch) -> None:
    """A remembered UTF-8 decision whose next body fails its strict decode (one bad byte): the
    failure's error holds a copy of the bytes, and is let go of before the walk goes on, so
    the peak stays as a fresh walk's (2.64x the text in ``bench_memory.py``; 3.5x when the
    reader held it while the memo decoded the body a second time)."""
    import tracemalloc

    header = "text/html; charset=utf-8"
    monkeypatch.setattr(decode_module, "_TRACES", TraceMemo())
    decode("<p>Жж</p>".encode(), header)                  # remembers the header's decision
    half = "<p>Москва</p>".encode() * 100_000
    body = half + b"\xff" + half                          # 3.8 MB, one bad byte in the middle
    tracemalloc.start()
    try:
        decided = decode(body, header)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert decided.encoding == "utf-8" and decided.replacements == 1
    # (two bytes a character, Cyrillic: 2.2x the text here; 2.9x with the copy held twice)
    assert peak < 2.5 * len(decided.text) * 2
