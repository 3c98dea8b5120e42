"""Results of a fetch: ``Exchange`` (one hop's request and response head) and ``Capture``.

Frozen records, so they pickle for ``st.cache_data``. Headers are kept raw, as received: order,
case and repeats (two Content-Type headers stay two), decoded as latin-1. ``fetch.py`` makes
them; the landing zone and WARC files store and rebuild them.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any

from .http_message import Headers

__all__ = ["Capture", "Exchange"]



@dataclass(frozen=True, slots=True)
class Exchange:
    """One request and the response head it got: a redirect hop, or the final response."""

    url: str
    status: int
    reason: str
    http_version: str
    headers: Headers                 # raw, as received: order, case, repeats (latin-1 decoded)
    request_headers: Headers = ()
    address: str | None = None       # the IP address connected to
    elapsed: float = 0.0             # seconds until the response head arrived

    def header_values(self, name: str) -> tuple[str, ...]:
        """Every value of header ``name`` (case-insensitive), in order received."""
        wanted = name.lower()
        return tuple(value for key, value in self.headers if key.lower() == wanted)


@dataclass(frozen=True, slots=True)
class Capture:
    """A fetched page: every hop, and the final body with its content codings removed."""

    requested_url: str
    exchanges: tuple[Exchange, ...]  # in order; the last is the response the body belongs to
    body: bytes
    fetched_at: str                  # ISO 8601, UTC
    elapsed: float = 0.0
    raw_length: int = 0              # body bytes as received, before content decoding
    content_codings: tuple[str, ...] = ()  # codings removed, as the server applied them
    notes: tuple[str, ...] = ()
    capture_id: str | None = None    # landing-zone id, once kept
    _final: Exchange = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.exchanges:
            raise ValueError("a capture needs at least one exchange")
        object.__setattr__(self, "_final", self.exchanges[-1])

    @property
    def final(self) -> Exchange:
        """The response the body belongs to."""
        return self._final

    @property
    def redirects(self) -> tuple[Exchange, ...]:
        """The hops before the final response."""
        return self.exchanges[:-1]

    @property
    def url(self) -> str:
        """The final URL, after redirects."""
        return self._final.url

    @property
    def status(self) -> int:
        """The final status code."""
        return self._final.status

    @property
    def headers(self) -> Headers:
        """The final response's raw headers."""
        return self._final.headers

    @property
    def content_type(self) -> str | None:
        """The Content-Type to decode with: repeated headers combined with ", " (Fetch "get").

        >>> Capture("u", (Exchange("u", 200, "OK", "HTTP/1.1", (("Content-Type", "a"),
        ...     ("content-type", "b"))),), b"", "t").content_type
        'a, b'
        """
        values = self._final.header_values("content-type")
        return ", ".join(values) if values else None

    def to_dict(self, *, include_body: bool = False) -> dict[str, Any]:
        """A plain dict for JSON: the body as its length and SHA-1 (base64 when asked)."""
        data: dict[str, Any] = {
            "capture_id": self.capture_id, "requested_url": self.requested_url,
            "url": self.url, "status": self.status, "content_type": self.content_type,
            "fetched_at": self.fetched_at, "elapsed": self.elapsed,
            "body_length": len(self.body), "body_sha1": hashlib.sha1(self.body).hexdigest(),
            "raw_length": self.raw_length, "content_codings": list(self.content_codings),
            "notes": list(self.notes), "exchanges": [asdict(e) for e in self.exchanges]}
        if include_body:
            data["body_base64"] = base64.b64encode(self.body).decode("ascii")
        return data
