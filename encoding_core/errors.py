"""Exceptions raised by encoding_core.

Page content never raises: bad bytes, headers and declarations go into the result.
These are for unusable user input (an override file, a URL) and programmer misuse::

    EncodingCoreError
    ├── UnknownLabelError   a label the Encoding Standard does not define, where one is required
    ├── OverrideError       an override file or entry that cannot be used (names the file and key)
    └── FetchError          a fetch that did not produce a response body
        ├── InvalidURLError          not a URL, or no host
        ├── UnsupportedSchemeError   not http or https (also a redirect to one)
        ├── NameNotFoundError        DNS has no answer (addressguard)
        ├── BlockedAddressError      loopback, private, metadata... (addressguard)
        ├── ConnectFailedError       refused, reset, unreachable
        ├── FetchTimeoutError        connect, read or total time limit
        ├── TLSError                 certificate or handshake failure
        ├── TooManyRedirectsError    more hops than max_redirects (loops included)
        ├── BodyTooLargeError        over max_bytes, received or decompressed (codings)
        ├── ProtocolError            malformed response, body shorter than its Content-Length
        ├── ContentDecodingError     a Content-Encoding whose bytes do not decode (codings)
        └── TooManyCodingsError      more content codings than are undone (codings)

Every ``FetchError`` subclass is importable from ``encoding_core.fetch.client``, and its
message says what happened and what to try.
"""

from __future__ import annotations


class EncodingCoreError(Exception):
    """Base class of every error raised on purpose by encoding_core."""


class UnknownLabelError(EncodingCoreError, ValueError):
    """A label that "get an encoding" does not recognise, where an encoding is required."""

    def __init__(self, label: str) -> None:
        super().__init__(f"unknown encoding label: {label!r} (not in the WHATWG label table)")
        self.label = label


class OverrideError(EncodingCoreError):
    """An override file or entry that cannot be used."""


class FetchError(EncodingCoreError):
    """A fetch that did not produce a response body; the message says what to do."""


class InvalidURLError(FetchError):
    """The text is not a URL that can be fetched."""


class UnsupportedSchemeError(FetchError):
    """The URL (or a redirect target) is not http or https."""


class ConnectFailedError(FetchError):
    """The connection was refused, reset or could not be made."""


class FetchTimeoutError(FetchError):
    """A connect, read or total time limit passed."""


class TLSError(FetchError):
    """The TLS handshake failed (certificate, protocol)."""


class TooManyRedirectsError(FetchError):
    """More redirect hops than allowed."""


class ProtocolError(FetchError):
    """The server broke HTTP: malformed response, or a body shorter than announced."""
