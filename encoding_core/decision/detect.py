"""Statistical encoding detection: a last resort, sampled, and honest about doubt.

``decode`` consults a detector only when no declaration decodes strictly. A detector is any
``Callable[[bytes], Detection | None]`` passed in by the caller (as httpx's
``default_encoding`` and w3lib's ``auto_detect_fun``). The third-party libraries are
imported lazily (``_voters.py``): a missing one is no vote, not an ImportError.

Design of ``default_detector``, cheapest and surest first:

1. a byte-order mark: the encoding it names (it cannot be wrong);
2. pure ASCII: no answer (nothing to detect; the walk's fallback decodes it), except
   ISO-2022-JP, which is 7-bit and announces itself with escape sequences;
3. valid UTF-8 with multi-byte sequences: utf-8, as chardetng and Firefox decide (legacy text
   is practically never valid UTF-8 by accident). *Mostly* valid UTF-8 (four valid multi-byte
   sequences or more per malformed one; legacy text manages one at most): no answer, since
   the one right reading, utf-8, fails a strict decode. Binary-looking bytes: no answer;
4. the quick path (``_agreement.py``): chardetng (Firefox's detector) asked about a 2 KiB
   sample, and its reading when it is sure of a non-Latin script in plenty of text (rule 0);
   else uchardet too, and their reading when they agree, or when only one of them reads
   plausibly, unless a sibling encoding reads some byte of the body differently and as
   plausibly. A sample of fewer than ``SHORT_TEXT`` non-ASCII bytes that settles nothing is
   taken again from a 16 KiB window (``QUICK_WIDE``). Nine legacy pages in ten stop here,
   in a tenth of the ensemble's time;
5. otherwise, the ensemble (``_ensemble.py``): chardet, uchardet and charset-normalizer
   vote on a sample, each voted encoding brings its single-byte siblings, and every reading
   that decodes the whole body strictly is scored by its support minus its implausible
   characters (``_plausibility.py``: C1 controls, ``c½ur``, ``пЕУЛБ``).

Sampling (``sample``): at most 64 KiB from the line of the first non-ASCII byte (an ASCII
prefix says nothing) plus the last 16 KiB, each cut at a ``<``, ``>`` or newline, bytes that
are never inside a character in an ASCII-compatible web encoding. Tags, scripts, styles and
comments are stripped so the statistics see prose, unless that leaves no non-ASCII byte.

Which way it errs: towards no answer, then towards the votes. A confidence under
``MIN_CONFIDENCE`` (on the dev split, about a coin toss) is ``None``, and the walk falls back
to the site default, utf-8 and windows-1252, saying so. ``needs_review`` is set when a
detector's top answer reads differently from the winner, the sample has fewer than
``SHORT_TEXT`` non-ASCII bytes, the ensemble's winner was put first by no voter of weight
(``_ensemble.MIN_BACKING``), or one detector alone read fewer than ``SHORT_TEXT`` characters
of a double-byte encoding (``_agreement``'s rule 2). It never suggests an encoding that
fails a strict decode of the bytes it was given: a body cut inside a character (a size cap,
a prefix) gets no answer for that encoding, unless the caller says the body may be cut
(``allow_truncated_tail``).

Known limits: readings made of ordinary letters of one alphabet are told apart by votes only
(Italian ``città`` as iso-8859-13 is ``cittą``); encodings that give a text the same letters
are indistinguishable (Romanian in iso-8859-16 and iso-8859-2 differ in comma-below versus
cedilla alone); a page with a few non-ASCII words among English is often a guess, flagged.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..whatwg.decoders import decode_replace, decode_strict
from ._agreement import QUICK_SAMPLE, QUICK_WORDS, Agreement, agreement
from ._ensemble import MIN_CONFIDENCE, SHORT_TEXT, elect, non_ascii_count, weigh
from ._plausibility import implausibility
from ._voters import BOMS, VOTERS, Vote, consult, whatwg_name
from .attempt import incomplete_tail
from .one_alphabet import foreign_letters
from .rare_latin import prefer_windows_1252
from .settled import settle
from .utf8profile import ascii_byte_count, first_non_ascii, may_be_mostly_utf8, utf8_profile
from .utf8scan import body_scan, is_ascii

__all__ = [
    "CONTROL_BYTES",
    "MIN_CONFIDENCE",
    "SAMPLE_HEAD",
    "SAMPLE_TAIL",
    "SHORT_TEXT",
    "Detection",
    "Detector",
    "chardet_detector",
    "charset_normalizer_detector",
    "default_detector",
    "resiliparse_detector",
    "sample",
    "whatwg_name",
]

#: Fewer non-ASCII bytes than this in the quick sample: too short even for two detectors that
#: agree on a flawless reading (bench_silent: no silent wrong added, 37 -> 20 noisy pages; the
#: Bytes view's caution on a ten-byte phrase, Новости дня, stays).
SHORT_UNANIMOUS = 12
#: The quick path's second window: when the first (``QUICK_SAMPLE`` bytes from the start, or
#: from the line of a first non-ASCII byte past 1 KiB) holds fewer than ``SHORT_TEXT``
#: non-ASCII bytes once its markup is stripped, more of the body follows, and the two
#: detectors found no answer in it, they are asked again about this much, before the
#: ensemble. A news page's first 2 KiB are mostly navigation and script: two Baltic pages of
#: the real-world set (3,436 bytes) gave the detectors a title of two non-ASCII bytes,
#: windows-1257 against iso-8859-13 (the same text there), and rule 4 then met the body's
#: later words, which a third sibling, iso-8859-4, reads otherwise: the ensemble, 1.2 ms
#: each, nearly half of the set's detection time, and a review asked for on the right text.
#: Given the whole page, the two detectors still name their two encodings, which now read
#: it the same (a unanimous reading), and nothing is left after the sample for rule 4.
#: Pages the first window decides are not asked twice; the window is bounded, so the cost
#: stays linear (about 1 ms more on a page both windows leave to the ensemble).
QUICK_WIDE = 8 * QUICK_SAMPLE
#: The sample: this much from the first non-ASCII line, and this much of the end.
SAMPLE_HEAD = 64 * 1024
SAMPLE_TAIL = 16 * 1024


@dataclass(frozen=True, slots=True)
class Detection:
    """A detector's answer: a WHATWG encoding name, how sure, and who said what.

    ``votes`` holds (detector, its top answer as a WHATWG name or None, its confidence) for
    every detector consulted.
    """

    encoding: str
    confidence: float
    needs_review: bool
    reason: str
    votes: tuple[Vote, ...] = ()


Detector = Callable[[bytes], Detection | None]

_SAFE_CUT = re.compile(rb"[<>\n]")
#: Bytes text never holds (NUL and C0 controls but tab, newlines, form feed and ESC, which
#: ISO-2022-JP uses): ``_binary`` here and ``textsample``'s count of a body's head.
CONTROL_BYTES = bytes([*range(0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])
# A script, a style, a comment or a tag. Each body is written as a loop over bytes that cannot
# start its end ("unrolled"), which matches what the lazy ``<script\b.*?</script>`` matches (up
# to the first end tag, a test compares them) four times as fast: the lazy form tries the end
# tag at every byte, and a page's head is mostly inline script.
_MARKUP = re.compile(rb"""<(?:script\b[^<]*(?:<(?!/script>)[^<]*)*</script>
                              |style\b[^<]*(?:<(?!/style>)[^<]*)*</style>
                              |!--(?:[^-]|-(?!->))*-->
                              |[^<>]*>)""", re.IGNORECASE | re.VERBOSE)


#: Openers (``<script``, ``<style``, ``<!--``) after the last closer of their kind that
#: ``_MARKUP`` may read past: each one it tries reads to the end of the data and fails.
UNCLOSED_OPENERS = 8
_KINDS = ((b"<script", b"</script>"), (b"<style", b"</style>"), (b"<!--", b"-->"))
# what ``\b`` takes for a word's bytes in a bytes pattern
_WORD_BYTES = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")


def strip_markup(data: bytes) -> bytes:
    """``_MARKUP.sub(b" ", data)``, in time linear in ``data`` whatever its shape.

    The expression tries each ``<`` in turn; at a ``<script``, ``<style`` or ``<!--`` that is
    never closed it reads to the end of the data and fails, so a body of unclosed comments
    took seconds (50 KB of ``<!--x``: 4.8 s, 100 KB 18 s; the ensemble's sample is 80 KB).
    An opener with a closer after it stops there and swallows every opener before it, so
    only openers after the last closer of their kind cost a pass each: with more than
    ``UNCLOSED_OPENERS`` of them, ``_strip_markup_linear`` finds the same matches (held
    equal by ``tests/decision/test_detect.py``), else the expression, 25 times as fast a tag.
    Up to ``QUICK_SAMPLE`` bytes (the quick path's windows) the expression is asked straight
    away: its worst there is 9 ms (2 KiB of ``<!--``), and counting costs 2.5 us a window,
    6% of the quick path's own time.
    """
    if len(data) <= QUICK_SAMPLE:
        return _MARKUP.sub(b" ", data)
    lower = data.lower()   # (ASCII only, as ``re.IGNORECASE`` on a bytes pattern)
    for opener, closer in _KINDS:
        if lower.count(opener, lower.rfind(closer) + 1) > UNCLOSED_OPENERS:
            return _strip_markup_linear(data, lower)
    return _MARKUP.sub(b" ", data)


def _strip_markup_linear(data: bytes, lower: bytes) -> bytes:
    """``_MARKUP.sub(b" ", data)`` found with ``bytes.find`` (``lower`` is ``data.lower()``):
    each closer, ``<`` and ``>`` searched for once from where its last search left off
    (positions only grow, so no byte is read twice for one kind): linear, and about a
    microsecond a ``<``."""
    size = len(data)
    found: dict[bytes, int] = {}   # a needle (a closer, < or >) -> its next place, or -1

    def first(needle: bytes, start: int, haystack: bytes = lower) -> int:
        known = found.get(needle, -2)
        if known == -1 or known >= start:   # (none left, or the next one is still ahead)
            return known
        found[needle] = haystack.find(needle, start)
        return found[needle]

    parts: list[bytes] = []
    last = 0
    at = data.find(b"<")
    while at != -1:
        end = -1
        if lower.startswith(b"script", at + 1) and (at + 7 >= size
                                                   or data[at + 7] not in _WORD_BYTES):
            close = first(b"</script>", at + 7)
            end = close + 9 if close != -1 else -1
        elif lower.startswith(b"style", at + 1) and (at + 6 >= size
                                                    or data[at + 6] not in _WORD_BYTES):
            close = first(b"</style>", at + 6)
            end = close + 8 if close != -1 else -1
        elif data.startswith(b"!--", at + 1):
            close = first(b"-->", at + 4, data)
            end = close + 3 if close != -1 else -1
        if end == -1:   # a tag: up to the next ">", unless a "<" comes first
            closing, opening = first(b">", at + 1, data), first(b"<", at + 1, data)
            if closing != -1 and (opening == -1 or closing < opening):
                end = closing + 1
        if end == -1:
            at = first(b"<", at + 1, data)
            continue
        parts += (data[last:at], b" ")
        last = end
        at = first(b"<", end, data)
    parts.append(data[last:])
    return b"".join(parts)


def sample(data: bytes, head: int = SAMPLE_HEAD, tail: int = SAMPLE_TAIL) -> bytes:
    """The part of a body detectors see: bounded, cut between characters, markup stripped.

    At most ``head`` bytes from the line of the first non-ASCII byte plus the last ``tail``.

    >>> sample(b"<p>caf\\xe9</p><script>var x;</script>")
    b' caf\\xe9  '
    """
    return _sample(data, head, tail)[0]


def _start(data: bytes) -> int:
    """Where a sample starts: the line of the first non-ASCII byte (0 when it is early)."""
    first = first_non_ascii(data)
    return 0 if first < 1024 else max(data.rfind(b"\n", 0, first), 0)


def sample_window(data: bytes, head: int = SAMPLE_HEAD) -> bytes:
    """The raw bytes a head-only ``sample(data, head, 0)`` is cut from, markup and all.

    The sample is this window cut shorter, with markup replaced by spaces: every pair of
    neighbouring characters in the sample (not around an inserted space) are neighbours here,
    so a byte test that looks for characters or neighbours finds in the window all it would
    find in the sample, at C speed and with no regular expression over the markup.
    """
    start = _start(data)
    return data[start:start + head]


_ANGLES = bytes(b for b in range(256) if b not in b"<>")   # (deleted: the angles stay)
_ANGLES_AS_SPACES = bytes.maketrans(b"<>", b"  ")


def sample_window_words(data: bytes, head: int = SAMPLE_HEAD) -> bytes | None:
    """``sample_window`` with ``<`` and ``>`` read as spaces, when its tags pair up; else None.

    When every ``<`` of the window is closed by a ``>`` before the next one (and it holds no
    ``>`` before its first ``<``), each part of the sample that markup does not touch lies
    between tags here, whole, and each markup removed from the sample (a tag, or a script,
    style or comment, which spans tags) ends on the near side of a space on both sides:
    every word of the sample is a word of this window, which also holds the tags' insides
    as words. So a byte test that looks at characters, or at neighbours within a word,
    finds here all it would find in the sample, and it no longer sees a tag's letters
    beside the text (``<title>Москва``) as one word. A last ``<`` left open is cut off as the
    sample cuts it; when the sample would keep it (a newline after it, the body's end, or
    nothing before it), None.
    """
    start = _start(data)
    window = data[start:start + head]
    angles = window.translate(None, _ANGLES)
    if angles:
        if angles[0] != 0x3C or b"<<" in angles or b">>" in angles:
            return None
        if angles[-1] == 0x3C:  # the sample is cut at the last "<" (see _sample)
            last = window.rfind(b"<")
            if last == 0 or len(data) - start <= head or window.rfind(b"\n") > last:
                return None   # (the sample keeps it: not cut there, or at a line after it)
            window = window[:last]
    return window.translate(_ANGLES_AS_SPACES)


def sample_text(data: bytes, head: int = SAMPLE_HEAD) -> bytes:
    """A head-only sample with its markup stripped, even when that leaves only ASCII (where
    ``sample`` gives the markup back, for a detector to see the non-ASCII bytes in it)."""
    return _sample(data, head, 0, markup_if_ascii=False)[0]


def _sample(data: bytes, head: int, tail: int, *,
            markup_if_ascii: bool = True) -> tuple[bytes, int]:
    """``sample``, and where its head ends in ``data`` (no non-ASCII byte comes before)."""
    start = _start(data)
    head_end = len(data)
    if len(data) - start > head + tail:
        part = data[start:start + head]
        cut = max(part.rfind(b"<"), part.rfind(b">") + 1, part.rfind(b"\n") + 1)
        part = part[:cut] if cut > 0 else part
        head_end = start + len(part)
        if tail:
            end = data[-tail:]
            found = _SAFE_CUT.search(end)
            part += b"\n" + (end[found.start():] if found else end)
        data = part
    elif start:
        data = data[start:]
    stripped = strip_markup(data)
    return (data if markup_if_ascii and stripped.isascii() else stripped), head_end


def _strict_ok(data: bytes, encoding: str, tail_ok: bool = False) -> bool:
    """Whether ``data`` decodes strictly; with ``tail_ok``, but for a character cut short
    at the very end (one that some bytes would complete).

    A long body is first tried on its first ``_PREFIX`` bytes: every decoder here reads in
    order and settles a malformed sequence within 4 bytes of where it starts, so one that
    starts more than 4 bytes before the cut is one in the whole body too. A body that fails
    early then costs a prefix, not a whole decode of many megabytes that keeps an offset for
    each of its malformed sequences.
    """
    if len(data) > 2 * _PREFIX:
        try:
            decode_strict(data[:_PREFIX], encoding)
        except UnicodeDecodeError as exc:
            if exc.start < _PREFIX - 4:
                return False
        except LookupError:
            return False
    try:
        decode_strict(data, encoding)
    except UnicodeDecodeError as exc:
        return tail_ok and incomplete_tail(data[exc.start:], encoding)
    except LookupError:
        return False
    return True


_PREFIX = 16 * 1024


class _StrictCache:
    """Whether ``data`` decodes strictly in an encoding, each asked once."""

    def __init__(self, data: bytes, tail_ok: bool) -> None:
        self.data, self.tail_ok = data, tail_ok
        self.known: dict[str, bool] = {}

    def __call__(self, encoding: str) -> bool:
        if encoding not in self.known:
            self.known[encoding] = _strict_ok(self.data, encoding, self.tail_ok)
        return self.known[encoding]


def _agreed(part: bytes, found: Agreement) -> Detection:
    """The quick path's answer (``_agreement.py``), weighed as the ensemble weighs its own."""
    non_ascii = non_ascii_count(part)
    confidence = weigh(0.95 if found.unanimous else 0.8, found.rate, non_ascii)
    # Issue 21's review noise: two detectors agreeing on a reading with no implausible
    # character need fewer non-ASCII bytes to be trusted (SHORT_UNANIMOUS) than one alone
    short = SHORT_UNANIMOUS if found.unanimous and not found.rate else SHORT_TEXT
    return Detection(found.encoding, round(confidence, 3), non_ascii < short or found.doubt,
                     f"{found.how} (sampled; {found.rate:.0%} of its non-ASCII characters "
                     "implausible)", found.votes)


# Close calls: pairs that read most text alike, the first far rarer on the web than the second
# (the prior browsers and the WHATWG table encode). KOI8-U differs from KOI8-R only in the
# Ukrainian letters; ISO-8859-15 from windows-1252 in eight characters; x-mac-cyrillic shares
# windows-1251's lower-case letters. When the common one reads the body the same, or (for
# x-mac-cyrillic, whose capitals differ) no less plausibly, it is the answer, and the reason
# says so; a different text chosen by the prior alone needs review.
_WEB_PRIOR = {"koi8-u": "koi8-r", "iso-8859-15": "windows-1252",
              "x-mac-cyrillic": "windows-1251"}
_PLAUSIBILITY_PRIOR = frozenset({"x-mac-cyrillic"})


def _prefer_the_webs(found: Detection, data: bytes, quick: bytes) -> Detection:
    """``found``, or the web's common encoding when it reads ``data`` the same (or, for
    x-mac-cyrillic, no less plausibly) and decodes it strictly; a rare Latin answer gives
    way to windows-1252 as ``rare_latin.prefer_windows_1252`` says."""
    western = prefer_windows_1252(
        found.encoding, data,
        chardetng_agrees=any(n == "chardetng" and e == found.encoding for n, e, _c in found.votes))
    if western is not None:
        how, differs = western
        return replace(found, encoding="windows-1252",
                       needs_review=found.needs_review or differs,
                       reason=f"{found.reason}; windows-1252 {how}, and the web uses it far "
                              "more (the browsers' prior)")
    preferred = _WEB_PRIOR.get(found.encoding)
    if preferred is None:
        return found
    try:
        theirs = decode_strict(data, preferred)
        same = theirs == decode_strict(data, found.encoding)
    except UnicodeDecodeError:
        return found
    if not same:
        if found.encoding not in _PLAUSIBILITY_PRIOR:
            return found
        readings = [decode_replace(quick, e)[0] for e in (preferred, found.encoding)]
        scores = [implausibility(text, QUICK_WORDS)[0] for text in readings]
        if scores[0] > scores[1]:
            return found
    # Different texts read as plausibly (capitals at a word's start are letters in both):
    # only the prior decides, so a person should look.
    how = (f"reads it the same as {found.encoding}" if same else
           f"reads it as plausibly as {found.encoding} (their capitals differ: check it)")
    return replace(found, encoding=preferred, needs_review=found.needs_review or not same,
                   reason=f"{found.reason}; {preferred} {how}, and the web uses it far more "
                          "(the browsers' prior)")


def _binary(part: bytes) -> bool:
    """More than 1% control bytes: binary, or UTF-16/32 without a BOM, not web text."""
    return len(part) - len(part.translate(None, CONTROL_BYTES)) > len(part) // 100


def _adapter(name: str) -> Detector:
    voters = tuple(v for v in VOTERS if v[0] == name)

    def detector(data: bytes) -> Detection | None:
        part = sample(data)
        votes, _support = consult(data, part, voters)
        if not votes or votes[0][1] is None or votes[0][2] < MIN_CONFIDENCE:
            return None
        encoding = votes[0][1]
        if not _strict_ok(data, encoding):
            return None
        short = non_ascii_count(part) < SHORT_TEXT
        return Detection(encoding, votes[0][2], short, f"{name} (sampled)", tuple(votes))

    detector.__name__ = detector.__qualname__ = f"{name.replace('-', '_')}_detector"
    detector.__doc__ = (f"Thin adapter: {name}'s answer for a sample as a WHATWG name; None "
                        "when unmapped, under MIN_CONFIDENCE or failing a strict decode.")
    return detector


chardet_detector = _adapter("chardet")
charset_normalizer_detector = _adapter("charset-normalizer")
resiliparse_detector = _adapter("resiliparse")


def _iso_2022_jp(data: bytes) -> Detection | None:
    if (b"\x1b$B" in data or b"\x1b$@" in data) and _strict_ok(data, "iso-2022-jp"):
        return Detection("iso-2022-jp", 0.95, False, "ISO-2022-JP escape sequences")
    return None


def _utf8(data: bytes, tail_ok: bool = False) -> Detection | bool:
    """utf-8 when ``data`` is valid UTF-8; else whether it is mostly UTF-8.

    The walk's scan of the body (``utf8scan.body_scan``, remembered) already says whether it
    is valid UTF-8 and how many multi-byte sequences it holds: with it, no decode (a legacy
    page's ASCII head, up to 120 KB in the generated corpus, was decoded to find its error).
    """
    scan = body_scan(data)
    if scan is not None and scan.first_error < 0:
        multi = scan.multibyte
    elif scan is not None and not tail_ok:
        return _mostly_utf8(data)
    else:
        try:
            text = decode_strict(data, "utf-8")
        except UnicodeDecodeError as exc:
            if tail_ok and not data[:exc.start].isascii() and _strict_ok(data, "utf-8", tail_ok):
                found = _utf8(data[:exc.start])
                return replace(found, reason=f"{found.reason}; the last one cut short") \
                    if isinstance(found, Detection) else found
            return _mostly_utf8(data)
        multi = len(text) - ascii_byte_count(data)
    return Detection("utf-8", 0.99 if multi >= 4 else 0.8 + 0.04 * multi, multi < 2,
                     f"valid UTF-8 with {multi} multi-byte sequences")


def _mostly_utf8(data: bytes) -> bool:
    """Whether ``data``, not valid UTF-8, is mostly UTF-8 (four valid sequences an error)."""
    # Counted as the walk's guard counts (utf8_profile, which remembers the body for it); a
    # U+FFFD already in the bytes counts here as an error, not a sequence. A body whose
    # bytes cannot be (a legacy page) is not counted at all.
    if not may_be_mostly_utf8(data, 4):
        return False
    profile, genuine = utf8_profile(data), data.count(b"\xef\xbf\xbd")
    return profile.multibyte - genuine >= 4 * (profile.invalid + genuine)


def default_detector(data: bytes, *, allow_truncated_tail: bool = False,
                     one_detector_when_sure: bool = True) -> Detection | None:
    """Detect the encoding of undeclared bytes; None when nothing confident can be said.

    - a byte-order mark names it (None when the bytes after it are malformed);
    - pure ASCII: None (ISO-2022-JP: by its escape sequences);
    - valid UTF-8 with multi-byte sequences: utf-8 (mostly valid UTF-8: None);
    - chardetng and uchardet, when they agree on a short sample (``_agreement.py``);
    - else the votes of chardet, uchardet and charset-normalizer on a sample, weighed
      against how plausible each candidate's text is (see the module docstring);
    - a doubt no other reading supports is lifted (``settled``); a Latin answer whose
      letters are no one language's, where another encoding's are the page's language's,
      is flagged (``one_alphabet``: two detectors can agree on such a reading).

    ``allow_truncated_tail``: the body may have been cut (a size cap, a prefix), so a
    character cut short at its very end does not rule an encoding out. Off by default: then
    every answer decodes ``data`` strictly, as the walk requires.

    ``one_detector_when_sure``: the quick path asks uchardet only when chardetng's answer is
    not sure (``_agreement``'s rule 0: a non-Latin script read plausibly from at least
    ``SURE_TEXT`` non-ASCII bytes, mostly small letters). On by default, and so in
    ``decode``'s walk; ``False`` asks both detectors on every page the quick path sees.

    >>> default_detector(b"plain ASCII") is None
    True
    >>> default_detector("Größe".encode("utf-8")).encoding
    'utf-8'
    """
    tail_ok = allow_truncated_tail
    for bom, encoding in BOMS:
        if data.startswith(bom):  # malformed after its BOM: the walk decodes it lossily
            return Detection(encoding, 1.0, False, "byte-order mark") \
                if _strict_ok(data, encoding, tail_ok) else None
    if is_ascii(data):
        return _iso_2022_jp(data)
    found = _utf8(data, tail_ok)
    if isinstance(found, Detection):
        return found
    if found:  # mostly UTF-8 with a few malformed bytes: no encoding decodes it as meant
        return None
    quick, seen = _sample(data, QUICK_SAMPLE, 0)
    if _binary(quick):
        return None
    strict = _StrictCache(data, tail_ok)
    agreed = agreement(data, quick, strict, seen, one_detector_when_sure=one_detector_when_sure)
    if agreed is None and seen < len(data) and non_ascii_count(quick) < SHORT_TEXT:
        # a second look before the ensemble, when the sample held too little to go on (a
        # wide sample that looks binary is no look: the ensemble weighs its own sample)
        wide, wide_seen = _sample(data, QUICK_WIDE, 0)
        if not _binary(wide):
            quick, seen = wide, wide_seen
            agreed = agreement(data, quick, strict, seen,
                               one_detector_when_sure=one_detector_when_sure)
    if agreed is not None:
        return _one_alphabet(
            settle(_prefer_the_webs(_agreed(quick, agreed), data, quick), quick, strict),
            quick, strict)
    part = sample(data)
    if _binary(part):
        return None
    votes, support = consult(data, part)
    if not any(support.values()):
        return None
    elected = elect(part, votes, support, strict)
    if elected is None:
        return None
    encoding, confidence, review, reason, weak = elected
    found = _prefer_the_webs(Detection(encoding, confidence, review, reason, tuple(votes)),
                             data, quick)
    # a reading no voter of weight put first keeps its review: on a newcomer review's pages,
    # ``settle`` found every rival reading worse for four such wrong readings (Ukrainian
    # words among Russian ones read as iso-8859-14 capitals, Arabic as Mac Roman), whose
    # right reading mixed two languages' letters
    return found if weak else _one_alphabet(settle(found, part, strict), part, strict)


def _one_alphabet(found: Detection, part: bytes, strict: Callable[[str], bool]) -> Detection:
    """``found``, for review when its Latin letters are no one language's and another
    encoding's are (``one_alphabet``: both detectors can agree on such a reading)."""
    if found.needs_review:
        return found
    reason = foreign_letters(part, found.encoding, strict)
    return found if reason is None else replace(
        found, needs_review=True, reason=f"{found.reason}; for review: {reason}")
