"""What ``decode`` reads of a body before any walk, and the recalled page decided there.

Every page starts the same way: its BOM (``whatwg.bom``), the prescan's declaration
(``whatwg.prescan``), whether its head holds a NUL byte (then the NUL pattern of UTF-16 or
UTF-32 without a BOM, ``nulpattern``), the trace memo's key for those opinions and what the
memo recalls under it (``tracememo``). That is a ``Front``. When the memo recalls a decision
whose record is plain and the clearance (``checks.clearance``) finds nothing any check could
start from, the page is decided here, from the remembered parts and its text alone: most
pages of a crawl, since most share their host's opinions and are right.

``decided_or_front`` is that step, the pure-Python reference; ``DECIDED_OR_FRONT`` is what
``decode`` calls: the compiled ``_front_c.FrontReader`` where it is built (about 0.5 us less
a real-world page: the Python calls between these steps), else the reference. The two are
held equal by ``tests/decision/test_front.py``, on both corpora and on random bodies and
headers. The memo is a ``TraceMemo``: the compiled reader reads its ``known`` dict itself
(a memo that only answers ``recall``, or a subclass that changes it, is not one).

Nothing of a recalled body is remembered: the memo's one strict decode goes past the
decoders' per-thread memo (``decode_strict_once``), and a body with a NUL byte in its head,
whose NUL pattern is read through that memo (``nulpattern``), is never recalled but walked
(``decode`` lets it go after).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..speedups import compiled
from ..whatwg.bom import BOM_FIRST_BYTES, bom_sniff
from ..whatwg.prescan import Declaration, find_declaration_in_bytes
from .attempt import DecodeAttempt
from .checks.clearance import body_clears
from .models import Decoded, new_decoded
from .nulpattern import NulPattern, nul_pattern
from .tracememo import MemoKey, Remembered, TraceMemo, memo_key
from .utf8scan import NUL_WINDOW

__all__ = ["DECIDED_OR_FRONT", "Front", "decided_or_front", "read_front"]


class Front(NamedTuple):
    """What ``read_front`` reads of a body before any walk. A ``NamedTuple`` built with
    ``tuple.__new__`` (as ``CheckInput``): made for every page, read by field."""

    bom: tuple[str, int] | None          # the BOM sniffed: its encoding and length
    declaration: Declaration | None      # the prescan's, a late one included
    pattern: NulPattern | None           # UTF-16/32 laid out without a BOM
    key: MemoKey | None                  # the trace memo's key (None: not remembered)
    # what the memo recalls: a remembered decision's parts with this body's text, a failed
    # strict attempt for the walk to take, or nothing
    known: tuple[Remembered, str] | DecodeAttempt | None


def read_front(body: bytes, content_type: str | None, override: str | None,
               memo: TraceMemo) -> Front:
    """What is read of ``body`` before any walk (see ``Front``), ``memo`` asked to recall."""
    bom = bom_sniff(body) if body[:1] in BOM_FIRST_BYTES else None   # (most pages: no call)
    declaration = find_declaration_in_bytes(body)
    # NUL bytes are rare in text: look for UTF-16/32 laid out without a BOM only when one is
    # in the head (a search, not a slice: no copy of the head)
    nul_head = bom is None and body.find(b"\x00", 0, NUL_WINDOW) >= 0
    pattern = nul_pattern(body) if nul_head else None
    key = memo_key(content_type, declaration, override, bom) if not nul_head else None
    return tuple.__new__(Front, (bom, declaration, pattern, key, (
        memo.recall(body, key, 0 if bom is None else bom[1]) if key is not None else None)))


def decided_or_front(body: bytes, content_type: str | None, override: str | None,
                     memo: TraceMemo) -> Decoded | Front:
    """The decision of a recalled plain page the clearance passes; else its ``Front``, for
    the walk (the pure-Python reference of ``_front_c.FrontReader``)."""
    front = read_front(body, content_type, override, memo)
    known = front.known
    if type(known) is tuple:
        parts, text = known
        if parts.plain and body_clears(body, parts.encoding):
            # positional, in the field order of ``Decoded``: text, encoding, source,
            # replacements, evidence, conflicts, browser_encoding, bom_length, error_offsets,
            # needs_review, body_length, lossy
            return new_decoded(text, parts.encoding, parts.source, 0, parts.evidence, (),
                               parts.browser, 0 if front.bom is None else front.bom[1], (),
                               False, len(body), False)
    return front


_C = compiled("encoding_core.decision._front_c")

#: ``decided_or_front``, compiled where built (see the module).
DECIDED_OR_FRONT: Callable[[bytes, str | None, str | None, TraceMemo], Decoded | Front] = (
    decided_or_front if _C is None else _C.FrontReader(Front, NUL_WINDOW))
