"""The caps of the decision room, in one place: bounds on the work a hostile page can cause.

Each keeps ``decode``'s time and memory linear and small on a page shaped to defeat it; a page
past one is still decided, and the limit is said where it applies.
"""

from __future__ import annotations

__all__ = ["MAX_MIXED_RUNS"]

#: Runs of non-UTF-8 bytes a segment map is made of (``segments.segment_map``). A page put
#: together from two templates has tens or hundreds; one that switches between UTF-8 and
#: windows-1252 every few bytes (``("é".encode() + b"x\xe9y") * N``) is no two templates, and
#: mapping it cost about 140 bytes of memory per input byte. Past the cap no map is made (the
#: lossy conflict still says the page mixes encodings, with its counts).
MAX_MIXED_RUNS = 20_000
