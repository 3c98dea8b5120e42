"""The same bytes decoded under every candidate, side by side, and where they differ.

Candidates are every encoding the decision's trace mentions, the decision itself, every
encoding a conflict suggests (the detector's reading of an implausible page), utf-8 and
windows-1252 (the two every page is most often confused between), and any the user adds.
The mojibake score of a column is ftfy's ``badness`` (the count of character sequences
that are unlikely outside mojibake) plus the decision's own count of characters that do not
belong in text (``conflicts_text.implausible_characters``: box drawing, symbols inside words,
case turns, words mixing alphabets), computed on at most the first 200,000 characters.
ftfy's alone scores a KOI8-R reading of UTF-8 text (``Mц╪ller, Straц÷e``) 0, like the right
one; the sum ranks it below (issue 21).

``diff_spans`` marks where a column's line differs from the decision's. Text decoded under two
encodings differs only around non-ASCII bytes, so it trims the common ends and cuts both texts
into runs of ASCII and of non-ASCII characters. When the ASCII runs are the same, one for one
(ASCII-compatible encodings), the runs pair up in one pass; otherwise difflib aligns the runs.
Each changed pair is then diffed character by character when short, else trimmed to what
differs. The cost is bounded: past ``MAX_DIFF_WORK`` run pairs for difflib, the whole changed
middle is one span, coarse rather than slow. ``shown_lines`` cuts lines to ``max_chars``
for display before diffing them.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ftfy.badness import badness

from ..decision.conflicts_text import implausible_characters
from ..decision.decode import DEFAULT_DETECTOR, Detector, decode, decode_as
from ..decision.detect import default_detector
from ..decision.models import Decoded
from ..decision.resolve import UseDefault
from ..decision.segments import segment_map
from ..whatwg.labels import get_encoding_no_replacement

__all__ = ["MAX_DIFF_WORK", "SEGMENTS", "Column", "Comparison", "ShownLine",
           "compare_candidates", "diff_spans", "line_count", "shown_lines"]

#: The ``encoding`` of the column of a page that mixes encodings, read segment by segment
#: (``segment_map``): a fixed key, not an encoding name; the column's ``mixed_with`` names the
#: encoding read beside UTF-8.
SEGMENTS = "segments"

_SCORE_LIMIT = 200_000
#: Run pairs (runs of one side times the other's) difflib may align; past it, one span.
MAX_DIFF_WORK = 40_000
#: Characters of one changed pair times the other's diffed one by one; past it, one span.
MAX_CHAR_WORK = 40_000
_RUN = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")


@dataclass(frozen=True, slots=True)
class Column:
    """The body under one encoding: text, whether it decoded strictly, and its damage."""

    encoding: str
    sources: tuple[str, ...]
    text: str
    strict_ok: bool
    replacements: int
    mojibake: int
    is_decision: bool
    #: On the column read segment by segment (``encoding == SEGMENTS``): the encoding of the
    #: segments that are not UTF-8. None on every other column.
    mixed_with: str | None = None


@dataclass(frozen=True, slots=True)
class Comparison:
    """The decision and every column; ``differing_lines`` are 0-based line numbers."""

    decision: Decoded
    columns: tuple[Column, ...]
    differing_lines: tuple[int, ...]


def compare_candidates(body: bytes, content_type: str | None = None, *,
                       extra: Iterable[str] = (), override: str | None = None,
                       site_default: str | None = None,
                       detector: Detector | UseDefault | None = DEFAULT_DETECTOR,
                       decision: Decoded | None = None) -> Comparison:
    """Decide, then decode the body under every candidate encoding for a side-by-side view.

    ``decision`` is the body's decision when the caller made it (``decode_with_overrides``,
    with the host's overrides in its trace); else ``decode`` makes it with ``override`` and
    ``site_default``.
    """
    extra = tuple(extra)   # read twice below: a generator would be empty the second time
    if decision is None:
        decision = decode(body, content_type, override=override, site_default=site_default,
                          detector=detector)
    sources: dict[str, list[str]] = {decision.encoding: []}
    for ev in decision.evidence:
        if ev.encoding and ev.encoding != "replacement":
            sources.setdefault(ev.encoding, []).append(str(ev.source))
    for conflict in decision.conflicts:  # what the evidence says an override would give
        if conflict.suggested_encoding:
            sources.setdefault(conflict.suggested_encoding, []).append(conflict.kind)
    for label in (*extra, "utf-8", "windows-1252"):
        encoding = get_encoding_no_replacement(label)
        if encoding is not None:
            sources.setdefault(encoding, ["added" if label in extra else "reference"])
    columns = []
    for encoding, found_by in sources.items():
        if encoding == decision.encoding:
            text, strict_ok, replacements = (decision.text, not decision.lossy,
                                             decision.replacements)
        else:
            attempt = decode_as(body, encoding)
            text, strict_ok, replacements = attempt.text, attempt.strict_ok, attempt.replacements
        columns.append(Column(encoding, tuple(dict.fromkeys(found_by)), text, strict_ok,
                              replacements, _score(text), encoding == decision.encoding))
    if any(c.kind == "mixed-encoding" for c in decision.conflicts):
        # a page that mixes encodings: its text read segment by segment, as a column
        segmented = segment_map(body, default_detector if detector is not None else None)
        if segmented is not None:
            text = segmented.text
            columns.append(Column(SEGMENTS, ("mixed-encoding",), text, True, 0,
                                  _score(text), False, segmented.legacy))
    return Comparison(decision, tuple(columns), _differing_lines([c.text for c in columns]))


def _score(text: str) -> int:
    """A column's mojibake score: ftfy's badness plus the implausible characters."""
    head = text[:_SCORE_LIMIT]
    return int(badness(head)) + implausible_characters(head)


def _differing_lines(texts: list[str]) -> tuple[int, ...]:
    split = [t.splitlines() for t in texts]
    longest = max((len(s) for s in split), default=0)
    return tuple(i for i in range(longest)
                 if len({s[i] if i < len(s) else None for s in split}) > 1)


def _common_ends(a: str, b: str) -> tuple[int, int]:
    """The lengths of the common prefix and of the common suffix after it.

    Slices are compared in C, the step halving on a difference: linear in the shorter text.

    >>> _common_ends("abXcd", "abYYcd")
    (2, 2)
    """
    n = min(len(a), len(b))
    head, step = 0, n
    while step:
        if a[head:head + step] == b[head:head + step]:
            head += step
            step = min(step, n - head)
        else:
            step //= 2
    tail, step = 0, n - head
    while step:
        if a[len(a) - tail - step:len(a) - tail] == b[len(b) - tail - step:len(b) - tail]:
            tail += step
            step = min(step, n - head - tail)
        else:
            step //= 2
    return head, tail


def diff_spans(reference: str, other: str) -> tuple[tuple[int, int], ...]:
    """Half-open character ranges of ``other`` that differ from ``reference``.

    Pure deletions leave no span in ``other``. Bounded cost (see the module docstring).

    >>> diff_spans("café", "cafÃ©")
    ((3, 5),)
    """
    head, tail = _common_ends(reference, other)
    a, b = reference[head:len(reference) - tail], other[head:len(other) - tail]
    if not b:
        return ()
    if not a:
        return ((head, head + len(b)),)
    found_a, found_b = list(_RUN.finditer(a)), list(_RUN.finditer(b))
    runs_a, runs_b = [m.group() for m in found_a], [m.group() for m in found_b]
    starts_a = [m.start() for m in found_a] + [len(a)]
    starts_b = [m.start() for m in found_b] + [len(b)]
    if _same_ascii_runs(runs_a, runs_b):  # the usual case: pair the runs one to one
        pairs = [(i, i + 1, i, i + 1) for i, (x, y) in enumerate(zip(runs_a, runs_b, strict=True))
                 if x != y]
    elif len(runs_a) * len(runs_b) <= MAX_DIFF_WORK:
        matcher = difflib.SequenceMatcher(None, runs_a, runs_b, autojunk=False)
        pairs = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
                 if tag != "equal"]
    else:
        return ((head, head + len(b)),)
    return tuple(span for i1, i2, j1, j2 in pairs for span in _refine(
        a[starts_a[i1]:starts_a[i2]], b[starts_b[j1]:starts_b[j2]], head + starts_b[j1]))


def _refine(old: str, new: str, offset: int) -> list[tuple[int, int]]:
    """The spans of ``new`` (at ``offset``) that differ from ``old``: character by character
    when both are short (``MAX_CHAR_WORK``), else all but their common ends."""
    lead, trail = _common_ends(old, new)
    old, new = old[lead:len(old) - trail], new[lead:len(new) - trail]
    offset += lead
    if not new:
        return []
    if len(old) * len(new) > MAX_CHAR_WORK:
        return [(offset, offset + len(new))]
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [(offset + j1, offset + j2) for tag, _, _, j1, j2 in matcher.get_opcodes()
            if tag != "equal" and j2 > j1]


def _same_ascii_runs(runs_a: list[str], runs_b: list[str]) -> bool:
    """As many runs, of the same kinds, and every ASCII run the same."""
    return len(runs_a) == len(runs_b) and all(
        x.isascii() == y.isascii() and (x == y or not x.isascii())
        for x, y in zip(runs_a, runs_b, strict=True))


@dataclass(frozen=True, slots=True)
class ShownLine:
    """One line of a column as shown: cut for display, with the spans that differ."""

    number: int                        # 1-based
    text: str
    spans: tuple[tuple[int, int], ...]  # against the decision's line
    cut: int                           # characters not shown

    def numbered(self) -> tuple[str, tuple[tuple[int, int], ...]]:
        """The line as displayed, its number in front and what was cut behind, with the spans
        moved past the number (as wide as it is: line 10,000 takes one more character).

        >>> ShownLine(10_000, "café", ((3, 4),), 0).numbered()
        ('10000  café', ((10, 11),))
        """
        prefix = f"{self.number:>4}  "
        more = f" … ({self.cut:,} more characters)" if self.cut else ""
        shift = len(prefix)
        return (prefix + self.text + more,
                tuple((start + shift, end + shift) for start, end in self.spans))


def line_count(comparison: Comparison, *, only_differing: bool) -> int:
    """How many lines ``shown_lines`` pages through: the differing ones, or every line of
    the longest column."""
    if only_differing:
        return len(comparison.differing_lines)
    return max((len(c.text.splitlines()) for c in comparison.columns), default=0)


def shown_lines(comparison: Comparison, column: Column, *, only_differing: bool,
                max_lines: int = 200, max_chars: int = 2_000, first: int = 0,
                ) -> tuple[ShownLine, ...]:
    """The lines of ``column`` to show (the differing ones, or all), from the ``first``-th
    (0-based) on, at most ``max_lines`` of at most ``max_chars`` characters, each diffed
    against the decision."""
    lines = column.text.splitlines()
    reference = next(c for c in comparison.columns if c.is_decision).text.splitlines()
    numbers = comparison.differing_lines if only_differing else range(
        line_count(comparison, only_differing=False))
    shown = []
    for n in numbers[first:first + max_lines]:
        line = lines[n] if n < len(lines) else ""
        text = line[:max_chars]
        spans = () if column.is_decision else diff_spans(
            reference[n][:max_chars] if n < len(reference) else "", text)
        shown.append(ShownLine(n + 1, text, spans, len(line) - len(text)))
    return tuple(shown)
