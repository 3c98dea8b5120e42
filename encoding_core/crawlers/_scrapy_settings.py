"""The middleware's Scrapy settings, read once, and the names of its crawler stats.

================================== ========= ===============================================
setting                            default   what
================================== ========= ===============================================
ENCODING_TRIAGE_ENABLED            True      off: the middleware is not loaded (NotConfigured)
ENCODING_TRIAGE_TEXT               True      off: the response is left as Scrapy decodes it
                                             (the decision still lands in meta and stats)
ENCODING_TRIAGE_META               True      off: no ``response.meta["encoding_triage"]``
ENCODING_TRIAGE_META_TEXT          False     on: the meta dict holds the text too
ENCODING_TRIAGE_STATS              True      off: no ``encoding_triage/`` crawler stats
ENCODING_TRIAGE_OVERRIDES          None      the overrides YAML file (must exist); None: the
                                             app's file (``$ENCODING_TRIAGE_OVERRIDES``,
                                             else ``overrides.yaml`` in the data folder)
                                             when it exists
ENCODING_TRIAGE_OVERRIDES_ENABLED  True      off: no site overrides, not even the app's
ENCODING_TRIAGE_SITE_DEFAULT       None      ``decode``'s site default (a WHATWG label)
ENCODING_TRIAGE_PROMETHEUS         False     on: ``record_decode`` counts every decision in
                                             prometheus_client's global registry
ENCODING_TRIAGE_QUARANTINE         None      the quarantine log (JSON lines) of pages past
                                             20 replacements
ENCODING_TRIAGE_LANDING            None      a landing-zone folder: every text response is
                                             kept there as WARC for re-decoding
ENCODING_TRIAGE_RETENTION_DAYS     7         how long the landing zone keeps a response
ENCODING_TRIAGE_LANDING_FLAGGED    False     on: keep only lossy, needs-review or warned
                                             responses
================================== ========= ===============================================
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..warc.landing import LandingZone
from ..whatwg.labels import get_encoding

__all__ = ["STATS", "StatNames", "TriageSettings"]


@dataclass(frozen=True, slots=True)
class StatNames:
    """The crawler stats keys (``source``, ``encoding`` and ``conflicts`` take a suffix)."""

    prefix: str = "encoding_triage/"
    decisions: str = "encoding_triage/decisions"
    source: str = "encoding_triage/source/"
    encoding: str = "encoding_triage/encoding/"
    replacements: str = "encoding_triage/replacements"
    lossy: str = "encoding_triage/lossy"
    conflicts: str = "encoding_triage/conflicts/"
    needs_review: str = "encoding_triage/needs_review"
    quarantined: str = "encoding_triage/quarantined"
    overrides_applied: str = "encoding_triage/overrides_applied"
    overrides_file_errors: str = "encoding_triage/overrides_file_errors"
    landed: str = "encoding_triage/landed"
    landing_errors: str = "encoding_triage/landing_errors"


STATS = StatNames()


@dataclass(frozen=True, slots=True)
class TriageSettings:
    """The ``ENCODING_TRIAGE_*`` settings (see the module docstring)."""

    enabled: bool = True
    text: bool = True
    meta: bool = True
    meta_text: bool = False
    stats: bool = True
    overrides: Path | None = None
    overrides_enabled: bool = True
    site_default: str | None = None
    prometheus: bool = False
    quarantine: Path | None = None
    landing: LandingZone | None = None
    landing_flagged_only: bool = False

    @classmethod
    def from_settings(cls, settings: Any) -> TriageSettings:
        """From Scrapy ``Settings`` (``getbool``, ``get``); ``ValueError`` on a bad value."""
        def path(name: str) -> Path | None:
            value = settings.get(name)
            return Path(str(value)).expanduser() if value not in (None, "") else None

        site_default = settings.get("ENCODING_TRIAGE_SITE_DEFAULT") or None
        if site_default is not None and get_encoding(str(site_default)) is None:
            raise ValueError(f"ENCODING_TRIAGE_SITE_DEFAULT: {site_default!r} is not an "
                             "encoding label")
        folder = path("ENCODING_TRIAGE_LANDING")
        landing = None if folder is None else LandingZone(
            folder, settings.getfloat("ENCODING_TRIAGE_RETENTION_DAYS", 7.0))
        return cls(
            enabled=settings.getbool("ENCODING_TRIAGE_ENABLED", True),
            text=settings.getbool("ENCODING_TRIAGE_TEXT", True),
            meta=settings.getbool("ENCODING_TRIAGE_META", True),
            meta_text=settings.getbool("ENCODING_TRIAGE_META_TEXT", False),
            stats=settings.getbool("ENCODING_TRIAGE_STATS", True),
            overrides=path("ENCODING_TRIAGE_OVERRIDES"),
            overrides_enabled=settings.getbool("ENCODING_TRIAGE_OVERRIDES_ENABLED", True),
            site_default=None if site_default is None else str(site_default),
            prometheus=settings.getbool("ENCODING_TRIAGE_PROMETHEUS", False),
            quarantine=path("ENCODING_TRIAGE_QUARANTINE"),
            landing=landing,
            landing_flagged_only=settings.getbool("ENCODING_TRIAGE_LANDING_FLAGGED", False))
