"""The ensemble of ``detect.default_detector``: votes weighed against plausibility.

When the quick path (``_agreement.py``) has no answer, chardet, uchardet (resiliparse) and
charset-normalizer rank encodings for a sample (``_voters.py``), and each ranked encoding
brings its single-byte siblings. A candidate that fails a strict decode of the *whole* body
is dropped; candidates giving the same text are one *reading*. A reading scores its weighted
support minus ``PENALTY`` per implausible character (``_plausibility.py``); when even the
best voted reading is implausible, every legacy web encoding is scored. The best reading
wins, with a confidence from its lead over the next one, lowered for implausible text and for
a sample with fewer than four non-ASCII bytes.

Which way it errs: towards no answer. A confidence under ``MIN_CONFIDENCE`` (on the dev
split, about a coin toss) is None; a dissent whose own reading is plausible, a sample with
fewer than ``SHORT_TEXT`` non-ASCII bytes, or a reading that the voters weighing at least
``MIN_BACKING`` did not put first, sets ``needs_review``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..whatwg.decoders import decode_replace_text
from ._plausibility import MAX_IMPLAUSIBLE_RATE, implausibility
from ._voters import SIBLING_OF, VOTERS, Vote
from .utf8profile import ascii_byte_count

__all__ = ["MIN_BACKING", "MIN_CONFIDENCE", "PENALTY", "SHORT_TEXT", "Elected", "elect",
           "non_ascii_count", "weigh"]

#: Below this confidence an answer is no answer.
MIN_CONFIDENCE = 0.5
#: Fewer non-ASCII bytes than this in the sample: too short to tell (``needs_review``).
SHORT_TEXT = 24
#: Weight of one implausible character against a reading's support (at most 1).
PENALTY = 0.5
#: The least weight (``VOTERS``) of the voters whose first answer is the elected reading for
#: it to stand without review: below it, charset-normalizer alone, or no voter (the reading
#: won on plausibility over every first answer). On this project's corpora (both splits,
#: their 200- and 1000-byte prefixes, the real-world set) no election was so backed; on a
#: newcomer review's short pages (a few Cyrillic or Arabic words on an English page), 539
#: were, 443 of them wrong: koi8-u read as shift_jis half-width katakana, ibm866 as
#: macintosh symbols, 95 of them with no review before.
MIN_BACKING = 0.6

#: (encoding, confidence, needs_review, reason, weak): ``detect.Detection`` without the votes,
#: and whether the reading lacked ``MIN_BACKING`` (a doubt about who chose it, which no
#: comparison of readings lifts: ``settled.settle`` is not asked).
Elected = tuple[str, float, bool, str, bool]


def weigh(support: float, rate: float, non_ascii: int) -> float:
    """A reading's confidence: ``support`` lowered for implausible characters (``rate`` per
    non-ASCII one) and for a sample with fewer than four non-ASCII bytes.

    >>> weigh(1.0, 0.0, 10), weigh(1.0, 0.25, 4)
    (1.0, 0.5)
    """
    return max(0.0, support * (1.0 - 2 * rate) * (0.6 + 0.1 * min(4, non_ascii)))


def non_ascii_count(data: bytes) -> int:
    """How many bytes of ``data`` are not ASCII.

    >>> non_ascii_count(b"caf\\xe9")
    1
    """
    return len(data) - ascii_byte_count(data)


# each voter's weight of support (``VOTERS``)
_WEIGHTS: dict[str, float] = {name: weight for name, _r, weight in VOTERS}

#: Scored when no voted candidate reads plausibly: the ASCII-compatible legacy web encodings.
_ALL_LEGACY = ("windows-1252", "windows-1250", "windows-1251", "windows-1253", "windows-1254",
               "windows-1255", "windows-1256", "windows-1257", "windows-1258", "windows-874",
               "iso-8859-2", "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7",
               "iso-8859-8", "iso-8859-13", "iso-8859-15", "koi8-r", "koi8-u", "ibm866",
               "gbk", "big5", "shift_jis", "euc-jp", "euc-kr")


@dataclass(frozen=True, slots=True)
class _Reading:
    """Encodings giving a sample the same text; their support and implausibility."""

    encodings: tuple[str, ...]
    share: float
    bad: float
    rate: float

    @property
    def score(self) -> float:
        return self.share - PENALTY * self.bad


def _readings(part: bytes, candidates: list[str], support: dict[str, dict[str, float]],
              strict: Callable[[str], bool]) -> list[_Reading]:
    weights = _WEIGHTS
    total = sum(weights.get(name, 0.0) for name in support) or 1.0
    texts: dict[str, list[str]] = {}
    for encoding in candidates:
        if strict(encoding):
            texts.setdefault(decode_replace_text(part, encoding), []).append(encoding)
    readings = []
    for text, encodings in texts.items():
        mass = sum(weights.get(name, 0.0) * sum(ranking.get(e, 0.0) for e in encodings)
                   for name, ranking in support.items())
        bad, count = implausibility(text)
        readings.append(_Reading(tuple(encodings), mass / total, bad, bad / max(count, 1)))
    return sorted(readings, key=lambda r: -r.score)


def elect(part: bytes, votes: list[Vote], support: dict[str, dict[str, float]],
          strict: Callable[[str], bool]) -> Elected | None:
    """The best reading of ``part`` among the voted encodings and their siblings, or None.

    ``strict(encoding)`` says whether the whole body decodes strictly in ``encoding``.
    """
    candidates: list[str] = []
    for ranking in support.values():
        for encoding in ranking:
            candidates.extend(e for e in (encoding, *SIBLING_OF.get(encoding, ()))
                              if e not in candidates)
    readings = _readings(part, candidates, support, strict)
    if not readings or readings[0].rate > MAX_IMPLAUSIBLE_RATE / 2:
        more = [e for e in _ALL_LEGACY if e not in candidates]
        readings = _readings(part, candidates + more, support, strict)
    if not readings or readings[0].rate > MAX_IMPLAUSIBLE_RATE:
        return None
    best = readings[0]
    margin = best.score - readings[1].score if len(readings) > 1 else 1.0
    non_ascii = non_ascii_count(part)
    confidence = weigh(min(1.0, 0.5 + margin), best.rate, non_ascii)
    if confidence < MIN_CONFIDENCE:
        return None
    encoding = next((e for _n, e, _c in votes if e in best.encodings), best.encodings[0])
    # A dissent counts when the dissenter's reading is itself plausible text (a vote for an
    # encoding that fails the strict decode or reads as garbage is outvoted, not a doubt).
    plausible = {e for r in readings[1:] if r.rate < MAX_IMPLAUSIBLE_RATE / 5 for e in r.encodings}
    disagree = any(e in plausible for _n, e, _c in votes)
    backers = [n for n, e, _c in votes if e in best.encodings]
    weak = sum(_WEIGHTS.get(n, 0.0) for n in backers) < MIN_BACKING
    unbacked = f"; no voter of weight {MIN_BACKING:g} put it first" if weak else ""
    reason = (f"{', '.join(backers) or 'plausibility'} (sampled; support {best.share:.2f}, "
              f"{best.bad:g} implausible characters{unbacked})")
    return encoding, round(confidence, 3), disagree or weak or non_ascii < SHORT_TEXT, reason, weak
