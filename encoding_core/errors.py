"""Exceptions raised by encoding_core.

Page content never raises: bad bytes, headers and declarations go into the result.
These are for unusable user input (an override file, a URL) and programmer misuse::

    EncodingCoreError
    ├── UnknownLabelError   a label the Encoding Standard does not define, where one is required
    ├── OverrideError       an override file or entry that cannot be used (names the file and key)
    └── FetchError          a fetch that did not produce a response body (see fetch.py's subclasses)
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
