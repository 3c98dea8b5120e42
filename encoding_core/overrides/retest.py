"""Overrides meet decode: the trace for a host, the evidence for a proposal, the re-test.

Re-test design (seed 000: "re-test it on that date by attempting the normal resolution
path against a fresh sample"). The body is decoded twice, without the override (the normal
path) and with it, and each text is measured: U+FFFD replacements, mojibake sequences
(``ftfy.badness.badness``) and, for the normal path, warning and error conflicts.

* **harmful**: the override's text is more damaged (replacements + mojibake) than the
  normal path's;
* **unneeded**: the normal path is clean (no replacements, mojibake or conflicts) and gives
  the same text, or the override is never consulted (a byte-order mark decides);
* **still needed**: otherwise: the normal path still shows damage or conflicts, or it differs
  from the override's text with neither showing damage (a reviewer compares them).

It errs towards "still needed": an approved decision is only called unneeded when the
normal path demonstrably gives the same clean text, and harmful only on measured damage.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from ftfy.badness import badness

from ..decision.decode import decode
from ..decision.models import Decoded, Severity, Source
from ..decision.overridden import decode_overridden
from ..wording import plural
from .model import OverrideEvidence, OverrideStatus, SiteOverride, host_overrides

__all__ = [
    "RetestResult",
    "Verdict",
    "decode_with_overrides",
    "evidence_from_body",
    "mojibake_count",
    "override_problem",
    "retest",
]


_DECLARED = frozenset({Source.HTTP_HEADER, Source.META, Source.XML_DECLARATION})
_SOURCES = frozenset(s.value for s in Source)


class Verdict(StrEnum):
    """What a re-test concludes about an override."""

    STILL_NEEDED = "still-needed"
    UNNEEDED = "unneeded"
    HARMFUL = "harmful"


def mojibake_count(text: str) -> int:
    """Mojibake sequences in ``text`` (ftfy's badness: 0 for clean text).

    >>> mojibake_count("café ’"), mojibake_count("cafÃ© â€™")
    (0, 2)
    """
    return int(badness(text))


def _serious(decoded: Decoded) -> int:
    return sum(1 for c in decoded.conflicts if c.severity != Severity.INFO)


@dataclass(frozen=True, slots=True)
class RetestResult:
    """The normal path and the override side by side on one sample, and the verdict."""

    entry_id: str
    verdict: Verdict
    explanation: str
    sha256: str
    body_length: int
    override_encoding: str
    override_used: bool
    normal_encoding: str
    normal_source: str
    normal_replacements: int
    normal_mojibake: int
    normal_conflicts: int
    override_source: str
    override_replacements: int
    override_mojibake: int
    override_conflicts: int
    texts_agree: bool
    tested_at: datetime        # when the re-test was run (UTC): a renewal needs a recent one

    def summary(self) -> str:
        """One sentence with the numbers, usable as the reason of a renewal or retirement."""
        return (f"Re-test on sample {self.sha256[:12]} ({plural(self.body_length, 'byte')}) "
                f"says {self.verdict}: without the override {self.normal_encoding} from "
                f"{self.normal_source} gives {self.normal_mojibake} mojibake, "
                f"{plural(self.normal_replacements, 'replacement')} and "
                f"{plural(self.normal_conflicts, 'conflict')}; with {self.override_encoding} "
                f"{self.override_mojibake} mojibake and "
                f"{plural(self.override_replacements, 'replacement')}.")


def retest(entry: SiteOverride, body: bytes, content_type: str | None,
           *, site_default: str | None = None, tested_at: datetime | None = None
           ) -> RetestResult:
    """Decode ``body`` with and without ``entry``'s encoding and say whether it is still needed.

    ``tested_at`` is when the sample was tested (default: now, UTC).

    >>> from datetime import date, datetime, UTC
    >>> from encoding_core.overrides.model import Status
    >>> entry = SiteOverride("ov-1", "shop.example", "utf-8", "why", datetime.now(UTC), "a",
    ...                      date.max, Status.APPROVED)
    >>> retest(entry, "café ’".encode(), "text/html; charset=iso-8859-1").verdict
    <Verdict.STILL_NEEDED: 'still-needed'>
    >>> retest(entry, "café ’".encode(), "text/html; charset=utf-8").verdict
    <Verdict.UNNEEDED: 'unneeded'>
    """
    normal = decode(body, content_type, site_default=site_default)
    forced = decode(body, content_type, override=entry.encoding, site_default=site_default)
    used = forced.source is Source.OVERRIDE and not forced.lossy
    n_bad, o_bad = mojibake_count(normal.text), mojibake_count(forced.text)
    n_conf = _serious(normal)
    agree = normal.text == forced.text
    n_damage, o_damage = normal.replacements + n_bad, forced.replacements + o_bad
    clean = n_damage == 0 and n_conf == 0
    if not used and forced.source is Source.BOM:
        verdict, why = Verdict.UNNEEDED, "a byte-order mark decides; the override is never used"
    elif o_damage > n_damage:
        verdict, why = Verdict.HARMFUL, (f"the override's text is more damaged ({o_damage} "
                                         f"against {n_damage} on the normal path)")
    elif clean and agree:
        verdict, why = Verdict.UNNEEDED, "the normal path is clean and gives the same text"
    elif clean:
        verdict, why = Verdict.STILL_NEEDED, ("the normal path is clean but its text differs "
                                              "from the override's: compare them")
    else:
        verdict, why = Verdict.STILL_NEEDED, (f"the normal path still shows {n_bad} mojibake, "
                                              f"{plural(normal.replacements, 'replacement')} "
                                              f"and {plural(n_conf, 'conflict')}")
    if not used and forced.source is not Source.BOM:
        why += (f"; note: {entry.encoding} no longer decodes this body strictly, so the "
                "override is skipped and fixes nothing")
    return RetestResult(
        entry_id=entry.id, verdict=verdict, explanation=why,
        sha256=hashlib.sha256(body).hexdigest(), body_length=len(body),
        override_encoding=entry.encoding, override_used=used,
        normal_encoding=normal.encoding, normal_source=normal.decided_by,
        normal_replacements=normal.replacements, normal_mojibake=n_bad, normal_conflicts=n_conf,
        override_source=forced.decided_by, override_replacements=forced.replacements,
        override_mojibake=o_bad, override_conflicts=_serious(forced), texts_agree=agree,
        tested_at=tested_at or datetime.now(UTC).replace(microsecond=0))


def decode_with_overrides(body: bytes, content_type: str | None,
                          statuses: Sequence[OverrideStatus], *,
                          site_default: str | None = None) -> Decoded:
    """``decode`` with the host's applied override, every other matching entry in the trace.

    ``statuses`` is ``OverrideStore.status_for(host)``. The decision is
    ``decision.overridden.decode_overridden``'s, the one call the host report makes too
    (through ``ActiveOverrides.for_host``): the applied entry's encoding is passed to
    ``decode``; its trace row names the entry, and a row for each entry that matches but
    does not apply (expired, proposed, rejected, retired, shadowed) follows it.
    """
    return decode_overridden(body, content_type, host_overrides(statuses),
                             site_default=site_default)


def evidence_from_body(body: bytes, content_type: str | None, *, url: str | None = None,
                       capture: str | None = None, fetched_at: datetime | str | None = None
                       ) -> tuple[OverrideEvidence, str]:
    """The evidence block of a proposal from a sample, and the encoding to propose.

    - the encoding the conflicts suggest (``Decoded.suggested_encoding``);
    - else the decision's own: nothing says it is wrong, so a proposal starts from what
      the page decodes as now, never from a guess that may not decode the body at all.

    ``fetched_at`` is when the sample was fetched: a datetime, or ISO 8601 text as a
    capture records it (``2030-01-01T12:00:00Z``; text that is not a time is left out).
    """
    decoded = decode(body, content_type)
    suggested = decoded.suggested_encoding
    # What the override corrects: the first declaration that disagrees with the suggestion
    # (it failed strictly, or won with the wrong answer), else whatever source won.
    wrong = next((str(e.source) for e in decoded.evidence if suggested and e.encoding
                  and e.source in _DECLARED and e.encoding != suggested), None)
    source = wrong or decoded.source.value
    evidence = OverrideEvidence(
        url=url, fetched_at=_moment(fetched_at), sha256=hashlib.sha256(body).hexdigest(),
        corrects=source if source in _SOURCES else None,
        replacements=decoded.replacements, conflicts=_serious(decoded), capture=capture)
    return evidence, suggested or decoded.encoding


def override_problem(body: bytes, content_type: str | None, encoding: str) -> str | None:
    """Why forcing ``encoding`` would not take effect on ``body``, or None when it would.

    ``decode`` is asked with the override, so the answer is what the app would do:

    - ``encoding`` does not decode ``body`` strictly: the override is skipped (the first
      malformed byte and its offset are named) and the normal path decides, as without it;
    - a byte-order mark of another encoding decides first: the override is never consulted.

    A label ``decode`` does not know is left to ``check_encoding`` (None here).

    >>> override_problem(b"caf\\xe9", None, "windows-1252") is None
    True
    >>> print(override_problem(b"caf\\xe9", "text/html; charset=windows-1252", "utf-8"))
    utf-8 does not decode this body strictly: byte 0xE9 at offset 3 is not valid utf-8, so \
the override would be skipped: windows-1252 (http-header) decides, as it does without it
    """
    decoded = decode(body, content_type, override=encoding)
    row = next((e for e in decoded.evidence if e.source == Source.OVERRIDE), None)
    if row is None or row.used or row.encoding is None:
        return None
    if decoded.source is Source.BOM:
        if decoded.encoding == row.encoding:
            return None
        return (f"the body starts with a {decoded.encoding} byte-order mark, which decides "
                f"before any override: {row.encoding} would never be used for it")
    if row.strict_ok is not False or row.error_offset is None:
        return None
    offset = row.error_offset
    return (f"{row.encoding} does not decode this body strictly: byte 0x{body[offset]:02X} at "
            f"offset {offset} is not valid {row.encoding}, so the override would be skipped: "
            f"{decoded.encoding} ({decoded.decided_by}) decides, as it does without it")


def _moment(value: datetime | str | None) -> datetime | None:
    """A time in UTC, to the second, from a datetime or ISO 8601 text; None for anything else.

    >>> _moment("2030-01-01T12:00:00Z"), _moment("yesterday")
    (datetime.datetime(2030, 1, 1, 12, 0, tzinfo=datetime.timezone.utc), None)
    """
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    if value is None:
        return None
    value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value.replace(microsecond=0)
