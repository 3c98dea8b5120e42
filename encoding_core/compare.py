"""The same bytes decoded under every candidate, side by side, and where they differ.

Candidates are every encoding the decision's trace mentions, the decision itself, utf-8 and
windows-1252 (the two every page is most often confused between), and any the user adds.
The mojibake score of a column is ftfy's ``badness`` (the count of character sequences
that are unlikely outside mojibake), computed on at most the first 200,000 characters.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from ftfy.badness import badness

from .decode import DEFAULT_DETECTOR, Detector, decode, decode_as
from .labels import get_encoding_no_replacement
from .models import Decoded
from .resolve import UseDefault

__all__ = ["Column", "Comparison", "compare_candidates", "diff_spans"]

_SCORE_LIMIT = 200_000


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
                       ) -> Comparison:
    """Decide, then decode the body under every candidate encoding for a side-by-side view."""
    decision = decode(body, content_type, override=override, site_default=site_default,
                      detector=detector)
    sources: dict[str, list[str]] = {decision.encoding: []}
    for ev in decision.evidence:
        if ev.encoding and ev.encoding != "replacement":
            sources.setdefault(ev.encoding, []).append(str(ev.source))
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
                              replacements, badness(text[:_SCORE_LIMIT]),
                              encoding == decision.encoding))
    return Comparison(decision, tuple(columns), _differing_lines([c.text for c in columns]))


def _differing_lines(texts: list[str]) -> tuple[int, ...]:
    split = [t.splitlines() for t in texts]
    longest = max((len(s) for s in split), default=0)
    return tuple(i for i in range(longest)
                 if len({s[i] if i < len(s) else None for s in split}) > 1)


def diff_spans(reference: str, other: str) -> tuple[tuple[int, int], ...]:
    """Half-open character ranges of ``other`` that differ from ``reference``.

    >>> diff_spans("café", "cafÃ©")
    ((3, 5),)
    """
    matcher = difflib.SequenceMatcher(None, reference, other, autojunk=False)
    return tuple((j1, j2) for tag, _, _, j1, j2 in matcher.get_opcodes()
                 if tag != "equal" and j2 > j1)
