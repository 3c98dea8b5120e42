"""The decision for httpx and requests responses, and the hooks their users expect.

``decide_response(response)`` takes an ``httpx.Response`` or a ``requests.Response``: the
body as received (content codings removed by the client), the ``Content-Type`` headers as
received (repeated ones joined with ", ", as Fetch's "get" does and as both clients already
join them), and the final URL for the host whose site override applies. It returns the
``Decoded`` (``media.decide_body``: the core's walk, seed 000's JSON and XML rules).

The hooks put the decision on the response, where the library's users look for it:

- ``requests``: ``Session.hooks["response"].append(requests_hook)`` (or ``hooks=`` per call);
  the hook sets ``r.encoding`` and keeps the ``Decoded`` as ``r.encoding_triage``;
- ``httpx``: ``httpx.Client(event_hooks={"response": [httpx_hook]})``, or
  ``httpx_async_hook`` for an ``AsyncClient``; the hook reads the body, sets
  ``response.encoding`` and keeps the ``Decoded`` as ``response.encoding_triage``;
- ``httpx.Client(default_encoding=default_encoding)``: httpx calls it only when the header
  names no charset it knows, with the body alone; it decides from the bytes (BOM, ``<meta>``,
  detection, fallbacks) and keeps nothing. The event hook is the one that overrules a lying
  header and keeps the decision.

``r.encoding`` is set to ``codec.codec_name(...)``, a registered Python codec that decodes as
the decision did, so ``r.text`` (which the clients decode again with Python's codecs) is the
decision's text exactly, U+FFFD included; ``r.encoding_triage.encoding`` is the WHATWG name.
Reading the body is what a decision needs: on a streamed response the hooks read it whole.
``ResponseTriage`` configures the same hooks with a site overrides file and seed 000's
instrumentation (``record_decode``'s Prometheus counters, the quarantine log).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import httpx

from ..decision.decode import decode
from ..decision.models import Decoded
from ..hosts import host_of
from .codec import codec_name
from .media import decide_body
from .siteoverrides import SiteOverrides

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

__all__ = ["ATTRIBUTE", "RequestsLike", "ResponseTriage", "decide_response", "default_encoding",
           "httpx_async_hook", "httpx_hook", "requests_hook"]

#: The attribute the hooks set on a response: its ``Decoded``.
ATTRIBUTE = "encoding_triage"


class _Headers(Protocol):
    def get(self, key: str, default: Any = None) -> Any: ...


class RequestsLike(Protocol):
    """What is read from a ``requests.Response`` (so this module never imports requests)."""

    url: str
    content: bytes
    headers: _Headers
    encoding: str | None


def _parts(response: httpx.Response | RequestsLike) -> tuple[bytes, str | None, str]:
    """Body, Content-Type as received (repeats joined), final URL."""
    if isinstance(response, httpx.Response):
        response.read()        # a no-op once read; a streamed response is read whole
        values: Sequence[str] = response.headers.get_list("content-type")
        return response.content, ", ".join(values) if values else None, str(response.url)
    # requests (urllib3) joins repeated headers with ", " already
    value = response.headers.get("content-type")
    return response.content or b"", value if value is None else str(value), str(response.url)


class ResponseTriage:
    """Decides client responses with a site overrides file and seed 000's instrumentation.

    - ``overrides``: ``SiteOverrides`` (e.g. ``SiteOverrides.configured("overrides.yaml")``);
    - ``prometheus``: count every decision with ``record_decode`` in ``registry`` (the
      global one by default);
    - ``quarantine``: the quarantine log (JSON lines) for pages past 20 replacements;
      counting needs no ``prometheus``, the counters then go to a registry of their own.
    """

    def __init__(self, *, overrides: SiteOverrides | None = None, prometheus: bool = False,
                 registry: CollectorRegistry | None = None,
                 quarantine: str | Path | None = None, site_default: str | None = None
                 ) -> None:
        self.overrides = overrides
        self.prometheus = prometheus
        self.registry = registry
        self.quarantine = quarantine
        self.site_default = site_default
        self._own_registry: CollectorRegistry | None = None

    def decide(self, response: httpx.Response | RequestsLike) -> Decoded:
        """The decision for ``response`` (recorded when configured), never an error on content."""
        body, content_type, url = _parts(response)
        host = host_of(url)
        statuses = self.overrides.statuses(host) if self.overrides is not None else ()
        decided = decide_body(body, content_type, statuses, site_default=self.site_default)
        if self.prometheus or self.quarantine is not None:
            self._record(decided, host, url)
        return decided

    def _record(self, decided: Decoded, host: str | None, url: str) -> None:
        from prometheus_client import CollectorRegistry

        from ..warc.instrument import record_decode

        registry = self.registry
        if not self.prometheus:
            self._own_registry = self._own_registry or CollectorRegistry()
            registry = self._own_registry
        record_decode(decided, host or "(no host)", registry=registry,
                      quarantine=self.quarantine, url=url)

    def requests_hook(self, response: RequestsLike, *args: Any, **kwargs: Any) -> None:
        """A requests response hook: ``r.encoding`` and ``r.encoding_triage`` set."""
        decided = self.decide(response)
        response.encoding = codec_name(decided.encoding)
        setattr(response, ATTRIBUTE, decided)

    def httpx_hook(self, response: httpx.Response) -> None:
        """An httpx (sync) response event hook: reads the body, sets ``encoding``."""
        decided = self.decide(response)
        response.encoding = codec_name(decided.encoding)
        setattr(response, ATTRIBUTE, decided)

    async def httpx_async_hook(self, response: httpx.Response) -> None:
        """The same for an ``httpx.AsyncClient`` (the body is read asynchronously)."""
        await response.aread()
        self.httpx_hook(response)


_PLAIN = ResponseTriage()


def decide_response(response: httpx.Response | RequestsLike, *,
                    overrides: SiteOverrides | None = None) -> Decoded:
    """The decision for an httpx or requests response (``overrides`` applied per host).

    - a byte-order mark;
    - the approved override for the URL's host, when ``overrides`` has one;
    - the Content-Type charset, the ``<meta>`` or XML declaration, detection, fallbacks,
      as ``decode`` walks them; seed 000's rules for JSON and XML (``media``).
    """
    triage = _PLAIN if overrides is None else ResponseTriage(overrides=overrides)
    return triage.decide(response)


def requests_hook(response: RequestsLike, *args: Any, **kwargs: Any) -> None:
    """A requests response hook, without overrides or metrics (``ResponseTriage`` has them)."""
    _PLAIN.requests_hook(response, *args, **kwargs)


def httpx_hook(response: httpx.Response) -> None:
    """An httpx response event hook, without overrides or metrics."""
    _PLAIN.httpx_hook(response)


async def httpx_async_hook(response: httpx.Response) -> None:
    """An httpx ``AsyncClient`` response event hook, without overrides or metrics."""
    await _PLAIN.httpx_async_hook(response)


def default_encoding(content: bytes) -> str:
    """For ``httpx.Client(default_encoding=...)``: the decision from the bytes alone.

    >>> httpx.Response(200, content=b'<meta charset="gbk">\\xd6\\xd0',
    ...                default_encoding=default_encoding).text[-1]
    '中'
    """
    return codec_name(decode(content).encoding)
