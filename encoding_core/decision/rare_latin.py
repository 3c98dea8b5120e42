"""Rare Latin encodings do not beat windows-1252 on Western text without strong evidence.

Browsers' detectors weigh how common an encoding is on the web: chardetng gives each
encoding a prior and a language model, and windows-1252 the largest share, so that a few odd
bytes do not turn a French page into ISO-8859-10. Our voters (chardet, uchardet,
charset-normalizer) have no such prior, and two kinds of Western page mislead them:

- a windows-1252 page holding **UTF-8 bytes** (old mojibake ``SÃ£o``, or a UTF-8 paragraph):
  ISO-8859-10, -13 or windows-1250 read ``Ã£`` as two letters where windows-1252 reads a
  letter and a symbol, so their reading looks *more* plausible;
- **a few accented letters**: ISO-8859-13 reads ``ã`` as ``ā``, a letter too.

``prefer_windows_1252`` (applied to every answer of ``default_detector``):

1. ``RARE_LATIN`` and the Central European windows-1250 / ISO-8859-2: when the body,
   with its valid UTF-8 multi-byte sequences set aside, reads the same in windows-1252, it
   is windows-1252 (the difference came from the UTF-8 bytes alone; the mixed page or the old
   mojibake is reported apart, by ``conflicts``);
2. ``RARE_LATIN`` only, and only when chardetng (which has the web's priors) did not name
   it too: when windows-1252 reads that body with no more implausible
   characters (``_plausibility``) than the answer, it is windows-1252, and since the text
   differs the answer needs review. A Baltic or Nordic text keeps its encoding: read as
   windows-1252 its own letters (š, ž) become rare ones (ð, þ) or symbols.

Which way it errs: towards windows-1252 on Western-looking text, with ``needs_review`` set
whenever the text changes. windows-1250 and ISO-8859-2 are not rare (Central Europe):
Czech read as windows-1252 is all plausible letters (ř as ø), so rule 2 would break it.
"""

from __future__ import annotations

import re

from ..whatwg.decoders import decode_replace, decode_strict
from ._plausibility import implausibility
from .utf8profile import may_hold_utf8_sequence

__all__ = ["CENTRAL", "RARE_LATIN", "prefer_windows_1252", "without_utf8"]

#: Latin encodings far rarer on the web than windows-1252 (chardetng's priors).
#: (ISO-8859-15 has its own rule in ``detect._WEB_PRIOR``: the same text, or windows-1252.)
RARE_LATIN = frozenset({"iso-8859-3", "iso-8859-4", "iso-8859-10", "iso-8859-13", "iso-8859-14",
                        "iso-8859-16"})
# windows-1257 is the Baltic states' common encoding: rule 1 only (Latvian read as windows-1252
# is all plausible letters, â for ā, so rule 2 would break a short Latvian text)
# ISO-8859-15 too: its own rule (detect._WEB_PRIOR) compares the whole text, and ``Ã€`` for
# ``Ã¤`` inside old mojibake is a difference of UTF-8 bytes alone
_BALTIC = frozenset({"windows-1257", "iso-8859-15"})
#: Common, but not over windows-1252 when the difference is only UTF-8 bytes (rule 1).
CENTRAL = frozenset({"windows-1250", "iso-8859-2"})
# One valid UTF-8 multi-byte sequence (Encoding Standard "UTF-8 decoder" byte ranges).
_UTF8 = re.compile(rb"(?:[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]"
                   rb"|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
                   rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
                   rb"|\xf4[\x80-\x8f][\x80-\xbf]{2})+")


def without_utf8(part: bytes) -> bytes:
    """``part`` with each run of valid UTF-8 multi-byte sequences replaced by a space.

    >>> without_utf8("São".encode() + b" caf\\xe9")
    b'S o caf\\xe9'
    """
    return _UTF8.sub(b" ", part)


def prefer_windows_1252(encoding: str, data: bytes, *,
                        chardetng_agrees: bool = False) -> tuple[str, bool] | None:
    """(how windows-1252 reads ``data``, whether its text differs) when windows-1252 should
    replace the detector's ``encoding`` (see the module docstring); None to keep it.

    The whole body is read, not a sample: a letter that differs may come late.
    ``chardetng_agrees``: Firefox's detector, which weighs the web's priors itself, named
    ``encoding`` too: strong evidence, so rule 2 does not apply."""
    if encoding not in RARE_LATIN and encoding not in CENTRAL and encoding not in _BALTIC:
        return None
    try:
        decode_strict(data, "windows-1252")
    except UnicodeDecodeError:
        return None
    utf8 = may_hold_utf8_sequence(data)   # (no valid UTF-8 sequence: nothing to set aside)
    rest = without_utf8(data) if utf8 else data
    western, theirs = (decode_replace(rest, e)[0] for e in ("windows-1252", encoding))
    if western == theirs:
        return (f"reads it as {encoding} does once its valid UTF-8 sequences are set aside",
                False)
    if encoding not in RARE_LATIN or chardetng_agrees:
        return None
    if implausibility(western)[0] <= implausibility(theirs)[0]:
        differs = not utf8 or (decode_replace(data, "windows-1252")[0]
                               != decode_replace(data, encoding)[0])
        return (f"reads it with no more implausible characters than {encoding}", differs)
    return None
