"""encoding_core: decide which encoding web bytes are in, observably.

Re-exports only; see the modules for the algorithms and their spec links.
"""

from __future__ import annotations

from .errors import EncodingCoreError, FetchError, OverrideError, UnknownLabelError
from .labels import ENCODING_NAMES, get_encoding, get_encoding_no_replacement
from .models import Conflict, Decoded, Evidence, Severity, Source

__all__ = [
    "ENCODING_NAMES",
    "Conflict",
    "Decoded",
    "EncodingCoreError",
    "Evidence",
    "FetchError",
    "OverrideError",
    "Severity",
    "Source",
    "UnknownLabelError",
    "get_encoding",
    "get_encoding_no_replacement",
]
