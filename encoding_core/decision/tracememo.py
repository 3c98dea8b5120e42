"""Walks that the first source they tried decided, remembered by the opinions that made them.

When the first encoding a walk tries (an override's, the header's, the declaration's) decodes
the body strictly and whole, every note of that walk follows from the opinions alone: sources
with no opinion, labels passed over, the winner "used: decodes strictly", the later sources
"not needed". The next body with the same opinions that decodes strictly under the same
encoding has the same trace, so ``TraceMemo.recall`` gives the recorded one after one strict
decode, with no walk and no new ``Evidence``; any other body is walked, with that decode
handed to the walk. A test decides random pairs of bodies with shared opinions both ways.
"""

from __future__ import annotations

from .attempt import DecodeAttempt, strict_attempt
from .models import Evidence, Source
from .resolve import Opinions, Walk

__all__ = ["Recalled", "TraceMemo"]

_FIRST_WINNERS = frozenset({Source.OVERRIDE, Source.HTTP_HEADER, Source.META,
                            Source.XML_DECLARATION})
#: Header values longer than this in all are not remembered (as ``content_type`` caches).
_MAX_HEADER = 200

#: (the strict attempt made, if any; (source, evidence) when the remembered trace is this body's)
Recalled = tuple[DecodeAttempt | None, tuple[str, tuple[Evidence, ...]] | None]
_NOTHING: Recalled = (None, None)


class TraceMemo:
    """At most ``size`` remembered traces (see the module); when full it starts again."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._traces: dict[tuple[object, ...], tuple[str, str, tuple[Evidence, ...]]] = {}

    @staticmethod
    def _key(opinions: Opinions, override: str | None) -> tuple[object, ...] | None:
        if opinions.bom is not None or sum(map(len, opinions.header.values)) > _MAX_HEADER:
            return None
        return (opinions.header, opinions.declaration, override)

    def recall(self, body: bytes, opinions: Opinions, override: str | None) -> Recalled:
        """(None, None) when no trace is known for these opinions; else the strict attempt
        under the remembered encoding, with the trace when it is this body's too."""
        key = self._key(opinions, override)
        known = self._traces.get(key) if key is not None else None
        if known is None:
            return _NOTHING
        encoding, source, evidence = known
        attempt = strict_attempt(body, encoding)
        if not attempt.strict_ok or attempt.truncated:
            return attempt, None
        return attempt, (source, evidence)

    def remember(self, walk: Walk, override: str | None) -> None:
        """Record ``walk``'s trace when its first attempt decided it (see the module)."""
        key = self._key(walk.opinions, override)
        if key is None or walk.winner is None or len(walk.tried) != 1:
            return
        attempt, source = walk.winner
        if (source not in _FIRST_WINNERS or not attempt.strict_ok or attempt.truncated
                or walk.needs_review or walk.profile_if_known is not None):
            return
        if len(self._traces) >= self._size:
            self._traces.clear()
        self._traces[key] = (attempt.encoding, source, tuple(walk.evidence))
