"""Walks that the first source they tried decided, remembered by the opinions that made them.

When the first encoding a walk tries (an override's, the header's, the declaration's) decodes
the body strictly and whole, every note of that walk follows from the opinions alone: sources
with no opinion, labels passed over, the winner "used: decodes strictly", the later sources
"not needed". So does the rest of what the checks read of it (``checks.record``): what a
browser would use (no BOM: the header's charset or the declaration), whether the record is
``plain``, and which checks can find anything in it. The next body with the same opinions
that decodes strictly under the same encoding has all of that too, so ``TraceMemo.recall``
gives the ``Remembered`` parts after one strict decode, with no walk and no new ``Evidence``;
any other body is walked, with that failed decode handed to the walk
(``attempt.failed_attempt``).

What is remembered, and why it holds for the next body:

- not for a NUL pattern (``decode`` does not recall then), a truncated or lossy winner, or a
  walk that asked for review or profiled the body (the detector's and fallbacks' guard: body
  facts); a BOM's decision is remembered under its BOM (its encoding and length are in the
  key: its trace and the browser's answer follow from them and the other opinions), and its
  body is decoded after the BOM, as the walk decodes it;
- the winner is a declared source or a BOM, so the record is never a mixed page (``mixedpage`` maps
  only a detector's, site default's or fallback's single-byte reading), never wide (no NUL
  pattern) and never truncated;
- the key is the raw Content-Type value, the override, and the declaration's fields that
  the trace and ``plain`` read: encoding, label, kind, late, skipped labels, and its offset
  only when late (only then does a note quote it), so pages of one site that differ only in
  where their ``<meta>`` stands share one entry;
- a declaration whose labels (its own and the skipped ones) are longer than ``MAX_LABELS``
  in all is not remembered: a ``<meta>`` found late may carry a label of up to a megabyte
  (whitespace around a known label, or unknown ones), and 4,096 such keys held that much
  each (hostile pages, 71 KB a page before: ``test_tracememo.py`` measures it).

A test decides random pairs of bodies with shared opinions both ways (``test_decode.py``).
"""

from __future__ import annotations

from typing import NamedTuple

from ..whatwg.decoders import decode_strict_once
from ..whatwg.prescan import Declaration
from .attempt import DecodeAttempt, failed_attempt
from .checks import Check, CheckInput
from .models import Evidence, Source

__all__ = ["MAX_HEADER", "MAX_LABELS", "MemoKey", "Remembered", "TraceMemo", "memo_key"]

_FIRST_WINNERS = frozenset({Source.BOM, Source.OVERRIDE, Source.HTTP_HEADER, Source.META,
                            Source.XML_DECLARATION})
#: Content-Type values longer than this are not remembered (as ``content_type`` caches).
MAX_HEADER = 200
#: A declaration whose labels are longer than this in all is not remembered (the module).
MAX_LABELS = 200


class Remembered(NamedTuple):
    """The parts of a decision that its opinions decide, when its first source decoded.

    A ``NamedTuple`` rather than a frozen dataclass (a deviation from STYLE, as
    ``TextSample``): made once per remembered decision and read on every recall, where a
    tuple's field reads are the cheapest there are."""

    encoding: str
    source: Source
    evidence: tuple[Evidence, ...]
    browser: str
    plain: bool
    checks: tuple[Check, ...]   # the checks that can find anything here (``decode``)


#: A key: the raw Content-Type, the override, the declaration's fields (see the module).
MemoKey = tuple[object, ...]


def memo_key(content_type: str | None, declaration: Declaration | None,
             override: str | None, bom: tuple[str, int] | None = None) -> MemoKey | None:
    """The key of these opinions (None: not remembered); ``bom``: the BOM sniffed (its
    encoding and length), a part of the key when there is one.

    ``_front_c.FrontReader`` builds the key of a body with no BOM itself, as this does: a
    change here is a change there (it checks one sample key against this when imported, and
    ``tests/decision/test_front.py`` compares the keys of both corpora's pages)."""
    if content_type is not None and len(content_type) > MAX_HEADER:
        return None
    if declaration is None:
        return (content_type, override) if bom is None else (content_type, override, bom)
    if long_labels(declaration):
        return None
    key = (content_type, override, declaration.encoding, declaration.raw_label,
           declaration.source, declaration.offset if declaration.late else -1,
           declaration.skipped)
    return key if bom is None else (*key, bom)


def long_labels(declaration: Declaration) -> bool:
    """Whether ``declaration``'s labels, its own and the skipped ones, are longer than
    ``MAX_LABELS`` in all (a key that would hold them is not made).

    >>> from encoding_core.whatwg.prescan import find_declaration
    >>> long_labels(find_declaration(b'<meta charset="utf-8">'))
    False
    >>> long_labels(find_declaration(b'<meta charset="utf-8' + b' ' * 300 + b'">'))
    True
    """
    size = len(declaration.raw_label or "")
    if declaration.skipped:
        size += sum(len(skipped.raw_label) for skipped in declaration.skipped)
    return size > MAX_LABELS


class TraceMemo:
    """At most ``size`` remembered decisions' parts (see the module); when full it starts
    again."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        #: the remembered parts by key: public, since ``front``'s compiled reader looks a key
        #: up here itself (``recall`` then, for the rest); written only by ``remember``
        self.known: dict[MemoKey, Remembered] = {}

    def recall(self, body: bytes, key: MemoKey | None, skip: int = 0,
               ) -> tuple[Remembered, str] | DecodeAttempt | None:
        """None when nothing is remembered under ``key``; else the remembered parts and the
        body's text when it decodes strictly and whole under their encoding, or the failed
        (or truncated) strict attempt for the walk to take. The one strict decode is not
        remembered by the decoders (``decode_strict_once``): a recalled page asks no more.
        ``skip``: the BOM's length, decoded after (a failure is then walked afresh: the
        walk's BOM attempt is its own, with the body's offsets)."""
        known = self.known.get(key) if key is not None else None
        if known is None:
            return None
        try:
            return known, decode_strict_once(body[skip:] if skip else body, known.encoding)
        except UnicodeDecodeError as exc:
            return None if skip else failed_attempt(body, known.encoding, exc)

    def remember(self, key: MemoKey | None, winner: DecodeAttempt, source: Source,
                 given: CheckInput, checks: tuple[Check, ...], *, first_tried: bool,
                 body_read: bool) -> None:
        """Keep what the checks' record ``given`` holds of the opinions, and ``checks``, when
        the first attempt decided (``first_tried``; a BOM's is its only one), strictly and
        whole, for a declared source or a BOM, and nothing about the body itself was read
        (``body_read``: a profile, a review asked for): see the module."""
        if (key is None or not first_tried or body_read or source not in _FIRST_WINNERS
                or not winner.strict_ok or winner.truncated):
            return
        if len(self.known) >= self._size:
            self.known.clear()
        # every field of ``Remembered``, in order (its NamedTuple ``__new__`` is a Python call)
        self.known[key] = tuple.__new__(Remembered, (
            winner.encoding, source, given.evidence, given.browser, given.plain, checks))
