"""``EncodingTriageMiddleware``: a Scrapy downloader middleware that decides every text response.

Enable it between 580 and 590, where Scrapy's documentation places an encoding middleware
(after ``HttpCompressionMiddleware``, 590, has removed content codings; before anything that
reads ``response.text``)::

    DOWNLOADER_MIDDLEWARES = {"encoding_core.crawlers.scrapy.EncodingTriageMiddleware": 585}

For each ``TextResponse`` (HTML, XML, JSON, text; other responses pass untouched) it decides
the body with the core (``media.decide_body``: the site override for the URL's host, the
header, ``<meta>`` ..., seed 000's JSON and XML rules) and:

- returns the response as a ``Decided*`` response (``_scrapy_responses``): ``encoding`` set,
  ``text`` the decision's text exactly (a lossy decision keeps its U+FFFD), never decoded
  again by Scrapy;
- puts ``Decoded.to_dict(include_text=False)`` in ``response.meta["encoding_triage"]``
  (``encoding``, ``source``, ``replacements``, ``evidence``, ``conflicts``, ``needs_review``
  ...); ``encoding_triage_capture`` is the landing-zone id when the page was kept;
- counts in the crawler stats under ``encoding_triage/`` (``settings.STATS``);
- when configured, ``record_decode``'s Prometheus counters and quarantine log, and the raw
  response kept in the landing zone for re-decoding without a recrawl (seed 000).

The settings are in ``_scrapy_settings``; the README's "In a crawler" lists them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from http import HTTPStatus
from typing import TYPE_CHECKING

from prometheus_client import REGISTRY, CollectorRegistry
from scrapy.exceptions import NotConfigured
from scrapy.http import Request, Response, TextResponse

from ..decision.models import Decoded, Severity
from ..fetch.models import Capture, Exchange
from ..hosts import host_of
from ..warc.hostreport import QUARANTINE_THRESHOLD
from ..warc.instrument import record_decode
from ..warc.landing import keep
from ._scrapy_responses import decided_class, python_encoding
from ._scrapy_settings import STATS, TriageSettings
from .media import decide_body
from .siteoverrides import SiteOverrides

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

__all__ = ["META_CAPTURE", "META_KEY", "EncodingTriageMiddleware"]

#: ``response.meta`` key of the decision (a dict, ``Decoded.to_dict``'s shape).
META_KEY = "encoding_triage"
#: ``response.meta`` key of the landing-zone capture id, when the response was kept.
META_CAPTURE = "encoding_triage_capture"


class EncodingTriageMiddleware:
    """Decides every text response at the transport boundary (seed 000), observably."""

    def __init__(self, settings: TriageSettings, stats: StatsCollector | None,
                 overrides: SiteOverrides | None) -> None:
        self.settings = settings
        self.stats = stats if settings.stats else None
        self.overrides = overrides
        self._registry: CollectorRegistry | None = None
        if settings.prometheus:
            self._registry = REGISTRY
        elif settings.quarantine is not None:   # the log without exported counters
            self._registry = CollectorRegistry()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> EncodingTriageMiddleware:
        """Read the settings; a missing or broken overrides file stops the crawl now."""
        settings = TriageSettings.from_settings(crawler.settings)
        if not settings.enabled:
            raise NotConfigured("ENCODING_TRIAGE_ENABLED is off")
        overrides = SiteOverrides.configured(settings.overrides,
                                             enabled=settings.overrides_enabled)
        return cls(settings, crawler.stats, overrides)

    def process_response(self, request: Request, response: Response,
                         spider: object = None) -> Response:
        """The response with the decision's text, the decision in its meta, counted.

        ``spider`` is accepted for Scrapy before 2.13, which passes it; later ones do not.
        """
        if not isinstance(response, TextResponse):
            return response
        values = response.headers.getlist(b"Content-Type")
        content_type = (b", ".join(values).decode("latin-1") if values else None)
        host = host_of(response.url)
        statuses = self.overrides.statuses(host) if self.overrides is not None else ()
        decided = decide_body(response.body, content_type, statuses,
                              site_default=self.settings.site_default)
        if self.settings.meta:
            request.meta[META_KEY] = decided.to_dict(include_text=self.settings.meta_text)
        if self._registry is not None:
            record_decode(decided, host or "(no host)", registry=self._registry,
                          quarantine=self.settings.quarantine, url=response.url)
        if self.settings.landing is not None and (
                not self.settings.landing_flagged_only or _flagged(decided)):
            self._keep(request, response, content_type)
        self._count(decided, statuses_applied=any(s.applied for s in statuses))
        if not self.settings.text:
            return response
        # Not response.replace(): it reads every attribute of the old response first, and
        # its ``encoding`` runs Scrapy's own inference (charset-normalizer on an undeclared
        # page), the decode this middleware exists to replace.
        kept = {name: getattr(response, name) for name in response.attributes
                if name != "encoding"}
        return decided_class(response)(**kept, encoding=python_encoding(decided.encoding),
                                       decided_text=decided.text)

    def _count(self, decided: Decoded, *, statuses_applied: bool) -> None:
        stats = self.stats
        if stats is None:
            return
        stats.inc_value(STATS.decisions)
        stats.inc_value(f"{STATS.source}{decided.decided_by}")
        stats.inc_value(f"{STATS.encoding}{decided.encoding}")
        if decided.replacements:
            stats.inc_value(STATS.replacements, decided.replacements)
        if decided.lossy:
            stats.inc_value(STATS.lossy)
        for conflict in decided.conflicts:
            stats.inc_value(f"{STATS.conflicts}{conflict.kind}")
        if decided.needs_review:
            stats.inc_value(STATS.needs_review)
        if decided.replacements > QUARANTINE_THRESHOLD:
            stats.inc_value(STATS.quarantined)
        if statuses_applied:
            stats.inc_value(STATS.overrides_applied)
        if self.overrides is not None and self.overrides.problem is not None:
            stats.inc_value(STATS.overrides_file_errors)

    def _keep(self, request: Request, response: TextResponse, content_type: str | None) -> None:
        """Keep the raw response in the landing zone; a failure is counted, never raised."""
        zone = self.settings.landing
        assert zone is not None
        headers = tuple((name.decode("latin-1"), value.decode("latin-1"))
                        for name, values in response.headers.items() for value in values)
        reason = _reason(response.status)
        exchange = Exchange(response.url, response.status, reason,
                            response.protocol or "HTTP/1.1", headers)
        fetched = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        capture = Capture(request.url, (exchange,), response.body, fetched,
                          raw_length=len(response.body))
        try:
            kept = keep(capture, zone)
        except OSError:
            if self.stats is not None:
                self.stats.inc_value(STATS.landing_errors)
            return
        request.meta[META_CAPTURE] = kept.capture_id
        if self.stats is not None:
            self.stats.inc_value(STATS.landed)


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def _flagged(decided: Decoded) -> bool:
    """Worth keeping when only flagged pages are: lossy, needs review, or a warning."""
    return decided.lossy or decided.needs_review or any(
        c.severity != Severity.INFO for c in decided.conflicts)

