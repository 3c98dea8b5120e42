"""Declarations whose text reads as letters but the wrong ones, and escapes under UTF-8.

``conflicts_text.implausible_reading`` catches a wrong single-byte declaration when its text
holds characters that do not belong (``zosta³a``). Two lies pass it, because their text is
all plausible characters:

- **a Latin reading with another language's letters**: Hungarian ISO-8859-2 under
  ``charset=iso-8859-1`` reads ``hõsök`` for ``hősök`` (ő is õ, ű is û), Romanian ``mãrturie``
  for ``mărturie``, Turkish windows-1254 ``kýz`` for ``kız``. Each is a letter of some Western
  language, but no Western language writes them together: ``TELLS`` lists the combinations
  (û or õ beside ö or ü with no ä; ã beside î; ý, ð or þ beside ç or ü). Beside them, the
  letters of the window's high bytes (``one_alphabet``): Czech in windows-1250 reads as
  ``Pøíliš drahý úøad``, every letter some Western language's, together no one language's,
  while windows-1250 reads the same bytes as Czech; that too is a tell (``NO_ONE_LANGUAGE``),
  but only a Latin answer that reads them as one language's (all of them, or those it reads
  differently: ``one_alphabet.one_language_instead``) is a conflict then (an English page's
  names, ``São Paulo, Zoë, Müller``, are no one language's in any encoding: no tell).
  A tell is only a reason to ask: the detector is asked about a sample, and only its answer
  for an encoding that reads the sample differently is a conflict (an unsure answer too: the
  tell and the answer agree, and the conflict says it is unsure). Correct Western pages
  rarely hold a tell of ``TELLS`` (Portuguese has õ but neither ö nor ü); letters of no one
  language are commoner (``Ørsted`` beside ``Molière``, ``Tomáš`` in Portuguese), and each
  such page pays for one detector call;
- **a euro written in ISO-8859-15 under a Latin-1 label**: ``10 €`` reads ``10 ¤``, and no
  detector answers ISO-8859-15; the currency sign beside a number is the tell, and the
  conflict (``CURRENCY_SIGN``), with no detector asked;
- **ISO-2022-JP under a UTF-8 (or any ASCII-compatible) label**: its text is 7-bit, so it
  decodes strictly, with the escape sequences in the text. An ``ESC $ B`` or ``ESC $ @`` in a
  body that decodes strictly as ISO-2022-JP is the tell (one byte search on other pages).

Which way they err: towards silence. A tell without a detector answer for another encoding
says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..whatwg.decoders import ESC, decode_replace, decode_strict
from .detect import sample_text, sample_window
from .models import Conflict, Severity
from .one_alphabet import (
    ALTERNATIVES,
    one_language_bytes,
    one_language_elsewhere,
    one_language_instead,
)
from .resolve import Detector

__all__ = ["CURRENCY_SIGN", "NOT_TELLS", "NO_ONE_LANGUAGE", "TELLS", "TELLS_WINDOW",
           "TELL_ENCODINGS", "escapes_under_ascii_label", "letters_of_another_language", "tell",
           "tell_language"]

#: How much of the sample's window (``detect.sample_window``) is looked at for tells, and the
#: size of the sample the detector is asked about.
TELLS_WINDOW = 4096
_SAMPLE = TELLS_WINDOW


#: (language, bytes of which one must be present, bytes of which one must be present too,
#: bytes of which none may be present): read as windows-1252, a combination no Western
#: language writes.
TELLS: tuple[tuple[str, bytes, bytes, bytes], ...] = (
    # ő ű Ő Ű (ISO-8859-2, windows-1250) are õ û Õ Û; Estonian has õ but also ä
    ("Hungarian", b"\xf5\xfb\xd5\xdb", b"\xf6\xfc\xd6\xdc", b"\xe4\xc4"),
    # ă (ISO-8859-2) is ã, beside î, ş (º) or ţ (þ); Portuguese has ã but none of those
    ("Romanian", b"\xe3\xc3", b"\xee\xba\xfe", b""),
    # ı ğ ş (windows-1254) are ý ð þ, beside ç or ü; Icelandic has ý ð þ but neither
    ("Turkish", b"\xfd\xf0\xfe\xdd\xd0\xde", b"\xe7\xfc\xc7\xdc", b""),
)
# ``TELLS`` as sets of byte values (a window's distinct high bytes are intersected with them)
_TELL_SETS = tuple((name, frozenset(first), frozenset(second), frozenset(never))
                   for name, first, second, never in TELLS)
#: The readings ``TELLS`` are written for (their bytes read as windows-1252).
TELL_ENCODINGS = frozenset({"windows-1252", "iso-8859-15"})
#: Every byte a tell is not made of (``bytes.translate`` deletes them, leaving the tells): the
#: ASCII bytes. ``TELLS`` looks for a few high bytes, and ``one_alphabet`` reads the letters of
#: every high byte present (``tell``), so the window's distinct high bytes are its tells.
NOT_TELLS = bytes(range(0x80))
#: ``tell``'s name for letters that are no one language's (``one_alphabet``), where no
#: combination of ``TELLS`` is present.
NO_ONE_LANGUAGE = "letters of no one language"
#: ``tell``'s name for windows-1252's currency sign ``¤`` (0xA4), which ISO-8859-15 (the
#: Latin-1 of the euro) reads as ``€``: beside a number it is a price (``_PRICE``).
CURRENCY_SIGN = "the currency sign"
_CURRENCY = 0xA4
_PRICE = re.compile(rb"[0-9][ \xa0]?\xa4|\xa4[ \xa0]?[0-9]")


def letters_of_another_language(body: bytes, encoding: str, said: Callable[[], str],
                                detector: Detector | None, *,
                                tells: bytes | None = None) -> Conflict | None:
    """A ``declaration-disputed`` conflict when a Western reading holds a tell (``tell``: a
    combination of ``TELLS``, or letters of no one language) and the detector reads a sample
    of the body as another encoding, differently, sure or not (for letters of no one
    language, only a Latin answer whose letters are one language's); or, with no detector
    asked, windows-1252's ``¤`` beside a number (``CURRENCY_SIGN``: ISO-8859-15's euro).

    ``tells`` are the tell bytes present in the first ``TELLS_WINDOW`` bytes of the sample's
    window when the caller has them (``textsample``'s ``TextSample.tells``); else they are
    looked for here.
    """
    if detector is None or encoding not in TELL_ENCODINGS:
        return None
    # one C pass: the tell bytes present in the window the detectors' sample starts with
    present = (sample_window(body, _SAMPLE).translate(None, NOT_TELLS) if tells is None
               else tells)
    language = tell(present, encoding)
    if language is None:
        return None
    if language == CURRENCY_SIGN:
        return _currency_sign(body, encoding, said)
    part = sample_text(body, _SAMPLE)
    try:
        found = detector(part)
    except Exception:  # a third-party detector must not break the decision
        return None
    # the tell is evidence of its own: an unsure answer is enough to name the other reading
    if found is None or found.encoding == encoding:
        return None
    if language == NO_ONE_LANGUAGE and (
            found.encoding not in ALTERNATIVES
            or not one_language_instead(present, encoding, found.encoding)):
        # letters of no one language are a weaker tell (a page quoting a foreign name has
        # them too): only a Latin answer that reads them as one language's names the other
        # reading (sure or not, as for a tell of ``TELLS``)
        return None
    try:
        other = decode_strict(part, found.encoding)
    except (UnicodeDecodeError, LookupError):
        return None
    mine = decode_replace(part, encoding)[0]
    if other == mine:
        return None
    shown = next((w for w, v in zip(mine.split(), other.split(), strict=False) if w != v), "")
    return Conflict(
        "declaration-disputed", Severity.ERROR,
        f"{said()}; the text decodes strictly and reads as letters, but "
        + (f"letters no one language writes together (read as {encoding}: {shown!r})"
           if language == NO_ONE_LANGUAGE else
           f"letters no Western language writes together ({language}, read as {encoding}: "
           f"{shown!r})")
        + f". The detector reads the page as {found.encoding}"
        + (" (unsure: " if found.needs_review else " (") + f"{found.reason}).",
        f"An override to {found.encoding} would read them so; check the two side by side in "
        "Compare.", suggested_encoding=found.encoding)


def tell(present: bytes, encoding: str) -> str | None:
    """Why a reading in ``encoding`` (one of ``TELL_ENCODINGS``) with the high bytes
    ``present`` should be asked about: the language of ``TELLS`` whose combination they hold,
    ``NO_ONE_LANGUAGE`` when their letters are no one language's and another Latin
    encoding's are (``one_alphabet``), or None.

    >>> tell("hősök".encode("iso-8859-2"), "windows-1252")
    'Hungarian'
    >>> tell("Počakaj že".encode("cp1250"), "windows-1252"), tell("Grüße".encode("cp1252"),
    ...                                                            "windows-1252")
    ('letters of no one language', None)
    """
    language = tell_language(present)
    if (language is None and not one_language_bytes(present, encoding)
            and one_language_elsewhere(present, encoding) is not None):
        return NO_ONE_LANGUAGE
    if language is None and encoding == "windows-1252" and _CURRENCY in present:
        return CURRENCY_SIGN
    return language


def _currency_sign(body: bytes, encoding: str, said: Callable[[], str]) -> Conflict | None:
    """A ``declaration-disputed`` conflict when windows-1252's ``¤`` stands beside a number:
    a price in euros written in ISO-8859-15 (``10 €`` read as ``10 ¤``), whatever the
    detector says (chardetng never answers ISO-8859-15: the two read text the same but for
    eight bytes)."""
    found = _PRICE.search(body)
    if found is None:
        return None
    start = max(found.start() - 24, 0)
    shown = decode_replace(body[start:found.end() + 24], encoding)[0].strip()
    return Conflict(
        "declaration-disputed", Severity.ERROR,
        f"{said()}; the text holds the currency sign ¤ beside a number ({shown!r}), where "
        "text writes a currency's own sign: ISO-8859-15, the Latin-1 of the euro, reads that "
        "byte as €.",
        "An override to iso-8859-15 would read it so (and Š š Ž ž Œ œ Ÿ for ¦ ¨ ´ ¸ ¼ ½ ¾); "
        "check the two side by side in Compare.", suggested_encoding="iso-8859-15")


def tell_language(present: bytes) -> str | None:
    """The language of the first of ``TELLS`` whose combination the bytes ``present`` hold
    (the tell bytes of a window, read as windows-1252), or None.

    >>> tell_language("hősök".encode("iso-8859-2")), tell_language(b"")
    ('Hungarian', None)
    """
    if not present:
        return None
    have = set(present)
    return next((name for name, first, second, never in _TELL_SETS
                 if have & first and have & second and not have & never), None)


def escapes_under_ascii_label(body: bytes, encoding: str,
                              said: Callable[[], str]) -> Conflict | None:
    """An ``implausible-reading`` conflict when ISO-2022-JP text stands under another label
    (7-bit, it decodes strictly as UTF-8 or windows-1252 with its escapes in the text)."""
    if encoding == "iso-2022-jp" or ESC not in body:
        return None
    if b"\x1b$B" not in body and b"\x1b$@" not in body:
        return None
    try:
        decode_strict(body, "iso-2022-jp")
    except UnicodeDecodeError:
        return None
    count = body.count(b"\x1b")
    return Conflict(
        "implausible-reading", Severity.ERROR,
        f"{said()}, and the bytes decode strictly, but the text holds {count} escape "
        "characters (ESC) that text never holds: ISO-2022-JP escape sequences. The body "
        "decodes strictly as iso-2022-jp.",
        "An override to iso-2022-jp would read it so; check the two side by side in Compare.",
        suggested_encoding="iso-2022-jp")
