"""detect: name mapping, the strict-decode rule, ASCII and short text, clear-cut corpus pages."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from encoding_core import decode
from encoding_core.decision.detect import (
    _KINDS,
    _MARKUP,
    QUICK_SAMPLE,
    QUICK_WIDE,
    SAMPLE_HEAD,
    SAMPLE_TAIL,
    SHORT_TEXT,
    UNCLOSED_OPENERS,
    Detection,
    _sample,
    _strip_markup_linear,
    chardet_detector,
    charset_normalizer_detector,
    default_detector,
    resiliparse_detector,
    sample,
    strip_markup,
    whatwg_name,
)
from encoding_core.whatwg.decoders import decode_strict
from encoding_core.whatwg.labels import ENCODING_NAMES
from tests.conformance import case_body, case_params, load_cases
from tests.repomodules import repo_module

DETECTORS = [default_detector, chardet_detector, charset_normalizer_detector,
             resiliparse_detector]
DETECTOR_IDS = [d.__name__ for d in DETECTORS]
# Legacy encodings Python can also encode, to build plausible non-UTF-8 input.
LEGACY = ["windows-1252", "windows-1250", "windows-1251", "koi8-r", "iso-8859-7",
          "windows-1256", "gbk", "big5", "shift_jis", "euc-kr", "euc-jp"]
_PYTHON = {"windows-1252": "cp1252", "shift_jis": "cp932", "euc-kr": "cp949"}


def _strict_ok(data: bytes, encoding: str) -> bool:
    try:
        decode_strict(data, encoding)
    except UnicodeDecodeError:
        return False
    return True


def _check(found: Detection | None, data: bytes) -> None:
    if found is None:
        return
    assert found.encoding in ENCODING_NAMES
    assert found.encoding != "replacement"
    assert 0.0 <= found.confidence <= 1.0
    assert _strict_ok(data, found.encoding), found
    for _name, answer, confidence in found.votes:
        assert answer is None or answer in ENCODING_NAMES
        assert 0.0 <= confidence <= 1.0


@pytest.mark.parametrize("case", case_params(load_cases("detect_names.json")))
def test_whatwg_name(case):
    """Detectors' own names (Python codec, uchardet, chardet spellings) map to WHATWG names."""
    data = bytes.fromhex(case.get("body_hex", ""))
    assert whatwg_name(case["name"], data) == case["expect_encoding"]


@pytest.mark.parametrize("case", case_params(load_cases("detect_samples.json")))
def test_corpus_sample_detected(case):
    """A clear-cut undeclared corpus page is detected as an encoding giving the same text."""
    body = case_body(case)
    found = default_detector(body)
    assert found is not None
    assert decode_strict(body, found.encoding) == decode_strict(body, case["expect_encoding"])


@pytest.mark.parametrize("detector", DETECTORS, ids=DETECTOR_IDS)
@pytest.mark.parametrize("case", case_params(load_cases("detect_samples.json")[::6]))
def test_adapters_answer_whatwg_names(detector, case):
    """Every detector answers with a WHATWG name that decodes the body strictly, or None."""
    body = case_body(case)
    _check(detector(body), body)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x1b$B"]),
       st.binary(max_size=600))
def test_never_fails_strict_decode_on_bytes(start, rest):
    """On arbitrary bytes (after a BOM, an escape), no detector suggests what fails strictly."""
    data = start + rest
    for detector in DETECTORS:
        _check(detector(data), data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(min_size=1, max_size=200), st.sampled_from(LEGACY), st.binary(max_size=3))
def test_never_fails_strict_decode_on_legacy_text(text, encoding, noise):
    """Text in a legacy encoding, maybe with a stray byte: the answer still decodes strictly."""
    data = text.encode(_PYTHON.get(encoding, encoding), "ignore") + noise
    for detector in DETECTORS:
        _check(detector(data), data)


@pytest.mark.parametrize("data", [b"", b"plain ASCII text", b"<p>caf&eacute;</p>" * 300,
                                  b"\x1b(B only an ASCII escape"],
                         ids=["empty", "ascii", "entities", "ascii-escape"])
def test_ascii_is_no_answer(data):
    """Pure ASCII has nothing to detect: None (the walk's fallback decodes it)."""
    assert default_detector(data) is None


def test_iso_2022_jp_is_detected_though_7_bit():
    """ISO-2022-JP is ASCII bytes with escape sequences: detected by them."""
    data = "<p>日本語のページです。</p>".encode("iso2022_jp")
    found = default_detector(data)
    assert found is not None and found.encoding == "iso-2022-jp"


@pytest.mark.parametrize("data, encoding", [
    (b"\xef\xbb\xbf<p>x</p>", "utf-8"),
    (b"\xff\xfe<\x00p\x00", "utf-16le"),
    (b"\xfe\xff\x00<\x00p", "utf-16be"),
], ids=["utf-8", "utf-16le", "utf-16be"])
def test_bom_answers_with_certainty(data, encoding):
    """A byte-order mark names the encoding with confidence 1."""
    found = default_detector(data)
    assert found == Detection(encoding, 1.0, False, "byte-order mark")


def test_valid_utf8_is_utf8():
    """Valid UTF-8 with multi-byte sequences is utf-8, as chardetng decides."""
    found = default_detector("<p>Größe, naïve café, 東京</p>".encode())
    assert found is not None and found.encoding == "utf-8" and not found.needs_review


def test_mostly_utf8_is_no_answer():
    """Mostly UTF-8 with a malformed byte: utf-8 fails strictly, so no answer at all."""
    data = "<p>Größe, naïve café, über, Ärger</p>".encode() * 5 + b"\xff"
    assert default_detector(data) is None


@pytest.mark.parametrize("data", [
    "Zürich".encode("cp1252"),
    "Ж".encode("cp1251"),
    "<p>é</p>".encode("cp1252"),
    "ok ñ".encode("cp1252"),
], ids=["word", "one-cyrillic", "one-accent", "one-tilde"])
def test_short_text_is_none_or_needs_review(data):
    """A handful of non-ASCII bytes is too short to tell: None or needs_review."""
    found = default_detector(data)
    assert found is None or found.needs_review


@pytest.mark.parametrize("encoding", ["gbk", "shift_jis", "big5", "euc-kr", "windows-1251"],
                         ids=str)
def test_sample_is_bounded_and_cut_between_characters(encoding):
    """A long body's sample is bounded and still decodes strictly (cuts between characters)."""
    line = "<p>天気は晴れ、気温は二十度です。</p>\n" if encoding != "windows-1251" \
        else "<p>Погода ясная, температура двадцать градусов.</p>\n"
    if encoding in ("big5", "euc-kr"):
        line = "<p>天氣晴朗，氣溫二十度。</p>\n" if encoding == "big5" else "<p>날씨가 맑다.</p>\n"
    data = ("x" * 5000 + line * 20000).encode(_PYTHON.get(encoding, encoding))
    part = sample(data)
    assert len(part) <= SAMPLE_HEAD + SAMPLE_TAIL + 1
    assert _strict_ok(part, encoding)


def test_sample_keeps_text_found_only_in_markup():
    """Non-ASCII only inside a script is kept rather than stripped away."""
    data = "<script>var s = 'Größe';</script>".encode("cp1252")
    assert b"Gr\xf6\xdfe" in sample(data)


def test_detectors_have_names():
    """The adapters are named for what they wrap (the trace and the bench show the name)."""
    assert DETECTOR_IDS == ["default_detector", "chardet_detector",
                            "charset_normalizer_detector", "resiliparse_detector"]


def test_legacy_page_without_declaration_decodes_by_detector():
    """End to end: decode() takes the detector's answer for an undeclared legacy page."""
    from encoding_core.decision.decode import decode

    body = case_body(next(c for c in load_cases("detect_samples.json")
                          if c["expect_encoding"] == "shift_jis"))
    result = decode(body)
    assert result.source == "detector" and result.encoding == "shift_jis"


@pytest.mark.parametrize("text, encoding, wrong", [
    ("Le cœur a ses raisons que la raison ne connaît point.", "iso-8859-15", "windows-1252"),
    ("Съешь же ещё этих мягких французских булок.", "koi8-r", "windows-1251"),
    ("Съешь же ещё этих мягких французских булок.", "windows-1251", "koi8-r"),
    ("Zażółć gęślą jaźń.", "windows-1250", "iso-8859-2"),
    ("Zażółć gęślą jaźń.", "iso-8859-2", "windows-1250"),
    ("Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.", "windows-1253", "windows-1252"),
    ("Pijamalı hasta yağız şoföre çabucak güvendi.", "windows-1254", "windows-1252"),
], ids=["oe-as-half", "koi8-as-1251", "1251-as-koi8", "1250-as-8859-2", "8859-2-as-1250",
        "greek-as-latin", "turkish-as-latin"])
def test_wrong_reading_is_less_plausible(text, encoding, wrong):
    """The text a wrong single-byte decode makes scores as less plausible than the right one."""
    from encoding_core.decision._plausibility import implausibility

    data = text.encode(_PYTHON.get(encoding, encoding))
    right_bad, _ = implausibility(decode_strict(data, encoding))
    wrong_bad, _ = implausibility(decode_strict(data, wrong))
    assert right_bad == 0.0 and wrong_bad > 0.0


TEXTS = sorted((Path(__file__).parents[2] / "bench" / "texts").glob("*.txt"))


@pytest.mark.parametrize("path", TEXTS, ids=[p.stem for p in TEXTS])
def test_real_prose_is_plausible(path):
    """The corpus prose, as written and decomposed (as windows-1258 writes it), scores 0."""
    from encoding_core.decision._plausibility import implausibility

    text = "\n".join(line for line in path.read_text("utf-8").splitlines()
                     if not line.startswith("#"))
    assert implausibility(text)[0] == 0.0
    assert implausibility(unicodedata.normalize("NFD", text))[0] == 0.0


@pytest.mark.parametrize("text, codec, encoding", [
    ("<p>Größe, naïve café, 東京</p>", "utf-8", "utf-8"),
    ("<p>今天天气很好，我们去公园散步吧。</p>", "gbk", "gbk"),
    ("<p>今日は良い天気ですね。明日も晴れるでしょう。</p>", "cp932", "shift_jis"),
], ids=["utf-8", "gbk", "shift_jis"])
def test_truncated_tail_is_allowed_only_when_asked(text, codec, encoding):
    """A body cut inside its last character: no such answer by default; the encoding if allowed."""
    whole = text.replace("</p>", "").encode(codec)
    cut = whole[:-1]
    assert not _strict_ok(cut, encoding)
    found = default_detector(cut)
    assert found is None or found.encoding != encoding
    found = default_detector(cut, allow_truncated_tail=True)
    assert found is not None
    assert decode_strict(whole, found.encoding) == decode_strict(whole, encoding)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_truncated_tail_answers_decode_all_but_the_tail(data):
    """With allow_truncated_tail, the answer decodes the bytes but for at most 3 at the end."""
    found = default_detector(data, allow_truncated_tail=True)
    if found is not None:
        assert any(_strict_ok(data[:len(data) - cut], found.encoding) for cut in range(4))


CLOSE_CALLS = [
    # (answer, bytes' true encoding, text, expected): the web's common encoding when it
    # reads the bytes the same (or, for x-mac-cyrillic, more plausibly)
    ("koi8-u", "koi8-r", "Последние новости дня: погода в Москве.", "koi8-r"),
    ("koi8-u", "koi8-u", "Привіт, як справи? Їжак і ґанок.", "koi8-u"),
    ("iso-8859-15", "windows-1252", "Crème brûlée à la française, été.", "windows-1252"),
    ("iso-8859-15", "iso-8859-15", "Prix : 15 € le kilo, œuvre.", "iso-8859-15"),
    ("x-mac-cyrillic", "windows-1251", "ЖУРНАЛ: ЭКОНОМИКА И ОБЩЕСТВО, СЕГОДНЯ",
     "windows-1251"),
    # a real x-mac-cyrillic page reads as plausibly in windows-1251: the prior decides
    # (x-mac-cyrillic is all but gone from the web), and the answer needs review
    ("x-mac-cyrillic", "x-mac-cyrillic", "Москва и Санкт-Петербург. Новости России.",
     "windows-1251"),
    ("x-mac-cyrillic", "x-mac-cyrillic", "ЖУРНАЛ: ЭКОНОМИКА И ОБЩЕСТВО, СЕГОДНЯ",
     "x-mac-cyrillic"),
]


@pytest.mark.parametrize(("answer", "truth", "text", "expected"), CLOSE_CALLS,
                         ids=[f"{a}-on-{t}" for a, t, _, _ in CLOSE_CALLS])
def test_close_calls_prefer_the_webs_encoding(answer, truth, text, expected):
    """A detector's rare answer gives way to the web's common one only when it reads the
    bytes alike; the reason says so."""
    from encoding_core.decision.detect import Detection, _prefer_the_webs
    from encoding_core.whatwg.decoders import encode_strict

    data = encode_strict(text, truth)
    assert data is not None
    found = _prefer_the_webs(Detection(answer, 0.9, False, "voted"), data, data)
    assert found.encoding == expected
    assert ("browsers' prior" in found.reason) == (expected != answer)
    read_alike = decode_strict(data, answer) == decode_strict(data, expected)
    assert found.needs_review == (not read_alike)


def test_russian_koi8_r_is_answered_koi8_r():
    """The default detector names KOI8-R for Russian text (chardetng says koi8-u)."""
    text = ("Последние новости дня: погода в Москве. Правительство России объявило новые "
            "меры. Президент встретился с губернаторами регионов.")
    found = default_detector(text.encode("koi8-r"))
    assert found is not None and found.encoding == "koi8-r"


_LAZY_MARKUP = re.compile(rb"<script\b.*?</script>|<style\b.*?</style>|<!--.*?-->|<[^<>]*>",
                          re.DOTALL | re.IGNORECASE)
_MARKUP_PIECES = st.sampled_from([
    b"<", b">", b"-", b"--", b"-->", b"<!--", b"<script>", b"</script>", b"</SCRIPT>",
    b"<script src=x>", b"<scripts>", b"</script", b"<style>", b"</style>", b"<StYlE a>",
    b"</style >", b"<p>", b"</p>", b"<a href='>'>", b"x", b" ", b"\n", b"\xe9", b"/"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_MARKUP_PIECES, max_size=30).map(b"".join))
def test_markup_strip_matches_the_lazy_patterns(data):
    """The unrolled markup pattern strips exactly what the plain lazy one does."""
    assert _MARKUP.sub(b" ", data) == _LAZY_MARKUP.sub(b" ", data)


_OPENERS = st.sampled_from([b"<!--", b"<script", b"<SCRIPT a", b"<style", b"<script_", b"x", b"<",
                            b"-", b">", b"</script", b"--", b"\xe9", b"<!-->", b"<!--->"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_MARKUP_PIECES | _OPENERS, max_size=60).map(b"".join))
def test_the_linear_strip_matches_the_pattern(data):
    """``strip_markup`` and its linear search give what the pattern gives, closed or not."""
    wanted = _MARKUP.sub(b" ", data)
    assert strip_markup(data) == wanted
    assert _strip_markup_linear(data, data.lower()) == wanted


@pytest.mark.parametrize("unit", [b"<!--x", b"<script a", b"<StYlE ", b"<!--<script<style<"])
def test_unclosed_openers_take_the_linear_search(unit):
    """10 KB of openers that are never closed (the pattern reads to the end from each: 18 s
    for 100 KB of comments): more than ``UNCLOSED_OPENERS`` of them send ``strip_markup`` to
    the linear search, which strips what the pattern strips (``bench_hostile.py``'s
    ``unclosed-comments`` shape shows the time at 10 KB..10 MB)."""
    data = unit * (10_000 // len(unit))   # (past QUICK_SAMPLE: the count is asked)
    lower = data.lower()
    assert any(lower.count(opener, lower.rfind(closer) + 1) > UNCLOSED_OPENERS
               for opener, closer in _KINDS)
    assert strip_markup(data) == _strip_markup_linear(data, lower) == _MARKUP.sub(b" ", data)


def _baltic_news(encoding: str) -> bytes:
    realworld = repo_module("realworld", "bench")
    return next(p.body for p in realworld.pages() if p.family == "baltic" and p.shape == "news"
                and p.encoding == encoding and p.served == "undeclared")


@pytest.mark.parametrize("encoding", ["windows-1257", "iso-8859-13"])
def test_a_markup_heavy_head_is_read_again_from_a_wider_window(encoding):
    """The real-world Baltic news page: its first 2 KiB are navigation and script (a title of
    two non-ASCII bytes), which settled nothing and sent it to the ensemble, flagged; the
    wider window gives both detectors the whole page, which their answers read the same."""
    body = _baltic_news(encoding)
    quick, seen = _sample(body, QUICK_SAMPLE, 0)
    assert len(quick) - len(quick.translate(None, bytes(range(128, 256)))) < SHORT_TEXT
    assert seen < len(body) and QUICK_WIDE > QUICK_SAMPLE
    found = default_detector(body)
    assert found is not None and found.encoding == "windows-1257" and not found.needs_review
    assert found.reason.startswith("chardetng and uchardet agree"), found.reason
    assert decode_strict(body, found.encoding) == decode_strict(body, encoding)


@pytest.mark.parametrize("case", case_params(load_cases("wide_window.json")))
def test_sparse_pages_are_read_from_the_wider_window(case):
    """A newcomer review's sparse pages whose first window held too few non-ASCII bytes:
    the ensemble read three of them as windows-1252 (flagged); the wider window, right."""
    body = bytes.fromhex(case["body_hex"])
    decided = decode(body, case["content_type"])
    assert decided.text == decode_strict(body, case["truth"])


def test_a_wide_window_that_looks_binary_is_no_second_look():
    """A clean first window (a navigation list) and UTF-16LE text after it (more than 1% of
    its bytes controls): the second window is not asked, and the ensemble's own sample,
    binary too, gives no answer (the walk's fallback then flags the page), as before."""
    nav = "".join(f'<li><a href="/s/{i}">Section {i}</a></li>\n' for i in range(120))
    body = (f"<html><head><title>señor</title></head><body>\n{nav}".encode("cp1252")
            + ("<p>Grüße aus Köln, wir wünschen Ihnen schöne Tage.</p>\n" * 150)
            .encode("utf-16-le") + b"</body></html>")
    quick, seen = _sample(body, QUICK_SAMPLE, 0)
    assert seen < len(body) and not quick.isascii()
    assert default_detector(body) is None
    assert decode(body).needs_review
