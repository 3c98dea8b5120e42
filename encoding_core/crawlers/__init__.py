"""The decision inside real crawlers: a Scrapy downloader middleware, httpx and requests hooks.

Seed 000: "decoding happens once, at the transport boundary; nothing downstream re-decodes".
This room puts ``decode`` there for the crawlers Python users run, and hands each response's
decision to the crawler as data:

* ``scrapy``: ``EncodingTriageMiddleware`` (``pip install 'encoding-triage[scrapy]'``), its
  settings (``_scrapy_settings``) and the responses whose ``text`` is the decision's
  (``_scrapy_responses``);
* ``responses``: ``decide_response`` for an ``httpx.Response`` or a ``requests.Response``,
  and the hooks (``requests_hook``, ``httpx_hook``, ``httpx_async_hook``,
  ``default_encoding``; ``ResponseTriage`` with overrides and metrics);
* ``media``: seed 000's rules for JSON and XML responses over the core's walk;
* ``siteoverrides``: the overrides file a crawler applies per host, as ``fetch`` does;
* ``codec``: Python codecs that decode as the decision did, for clients that re-decode.

May import: ``warc``, ``overrides``, ``fetch``, ``decision``, ``whatwg`` and the root's shared
basics; ``scrapy`` (and Twisted) only in ``scrapy`` and ``_scrapy_*``; never ``requests``
(a response is read by duck typing). Nothing imports this room: ``import encoding_core``
loads none of it, and ``import encoding_core.crawlers`` loads no crawler library.

Public names: ``ResponseTriage``, ``SiteOverrides``, ``decide_body``, ``decide_response``,
``default_encoding``, ``httpx_async_hook``, ``httpx_hook``, ``requests_hook``.
"""

from __future__ import annotations

from .media import decide_body
from .responses import (
    ResponseTriage,
    decide_response,
    default_encoding,
    httpx_async_hook,
    httpx_hook,
    requests_hook,
)
from .siteoverrides import SiteOverrides

__all__ = ["ResponseTriage", "SiteOverrides", "decide_body", "decide_response",
           "default_encoding", "httpx_async_hook", "httpx_hook", "requests_hook"]
