"""A plain record cleared at once: when none of the body checks can find anything.

Most pages are right. On a ``plain`` record (``record.plain``: the decision's encoding
decoded the body strictly and whole, the browser agrees, no label was passed over, no
declaration disagrees, no BOM contradicts one) only the four checks of
``conflicts.PLAIN_CHECKS`` can find anything, and each starts from a fact of the bytes:

- ``utf8_under_legacy``: a legacy reading of a non-ASCII body that is valid UTF-8;
- ``implausible_text``: a single-byte reading whose sample the byte test doubts
  (``textsample``), whose tell bytes name another language or no one language
  (``disputes.tell``), or that holds an ESC;
- ``ascii_label_escapes``: an ESC in the body;
- ``binary_body``: more than one control byte in a hundred in the first ``BINARY_HEAD``.

``clears`` answers those facts from the compiled passes the checks use (the UTF-8 scan, the
sample's facts, the control-byte count), with no check called: about 0.5 us where the four
checks, each through its helpers, take 1.5-5 us a page. It errs towards running the checks:
False for anything it does not answer exactly (no compiled pass, a body that is not
``bytes``), and then the checks decide as before. ``tests/decision/checks/
test_clearance.py`` holds that every record it clears gets no conflict from the checks
(Hypothesis, both corpora), and that it clears most right pages.
"""

from __future__ import annotations

from functools import lru_cache

from ...whatwg.decoders import ESC, SINGLE_BYTE_ENCODINGS
from .. import disputes
from .._agreement import QUICK_SAMPLE
from ..textsample import BINARY_HEAD, CONTROL_FLAGS, TELL_FLAGS, sample_arguments
from ..utf8scan import BYTETEST_C as _C
from ..utf8scan import compiled_module
from . import readings
from .record import UNICODE, CheckInput

__all__ = ["ANSWERS_FOR", "COMPILED", "body_clears", "clear_arguments", "clears", "no_language"]

_SCAN = compiled_module("_utf8scan")
#: The compiled passes ``body_clears`` answers from are built (else it answers False).
COMPILED = _C is not None and _SCAN is not None

#: The checks whose facts ``clears`` answers, in ``conflicts.PLAIN_CHECKS``' order: a test
#: holds the two equal, so a check added there is added here, with its fact, or fails.
ANSWERS_FOR = (readings.utf8_under_legacy, readings.implausible_text,
               readings.ascii_label_escapes, readings.binary_body)


def clears(given: CheckInput) -> bool:
    """True when no check of ``conflicts.PLAIN_CHECKS`` can find anything in plain record
    ``given`` (see the module); False says only that they must be asked.

    >>> from encoding_core.decision.decode import what_checks_read
    >>> clears(what_checks_read(b"<p>caf\\xe9</p>", "text/html; charset=windows-1252"))
    True
    >>> clears(what_checks_read("café".encode(), "text/html; charset=windows-1252"))
    False
    """
    return given.plain and body_clears(given.body, given.encoding)


def body_clears(body: bytes, encoding: str) -> bool:
    """``clears`` for a plain record of ``body`` read as ``encoding``, from the two alone
    (the caller knows the record is plain: ``decode``'s recalled page, whose record is not
    built when this clears it).

    >>> body_clears("café".encode(), "utf-8"), body_clears("café".encode(), "windows-1252")
    (True, False)
    """
    if _C is None or _SCAN is None or type(body) is not bytes:   # (not COMPILED)
        return False
    # (``_front_c.FrontReader`` answers the UTF-8 and single-byte branches itself, as these
    # do: a change here is a change there, and ``tests/decision/test_front.py`` compares them)
    if encoding == "utf-8":   # (the commonest: only the ESC and the control bytes could tell)
        return ESC not in body and _C.count_flagged(body, BINARY_HEAD, CONTROL_FLAGS) <= min(
            len(body), BINARY_HEAD) // 100
    if encoding in SINGLE_BYTE_ENCODINGS:
        # valid UTF-8 under the label, the ESC, the control bytes and the sample, in one
        # compiled call (None: not clear)
        tells = _C.single_byte_clear(body, *clear_arguments(encoding))
        return tells is not None and (not tells or no_language(tells, encoding))
    if ESC in body:
        return False
    if encoding in UNICODE and encoding != "utf-8":
        return True   # (UTF-16 and UTF-32 text is full of control bytes: never a binary body)
    if _C.count_flagged(body, BINARY_HEAD, CONTROL_FLAGS) > min(len(body), BINARY_HEAD) // 100:
        return False
    # a legacy multi-byte reading: only utf8_under_legacy can find anything
    return body.isascii() or bool(_SCAN.valid_multibyte(body) < 0)


@lru_cache(maxsize=64)
def clear_arguments(encoding: str) -> tuple[object, ...]:
    """Every argument ``single_byte_clear`` takes after the body, for single-byte
    ``encoding`` (``textsample.sample_arguments`` and the tables), looked up once."""
    return (QUICK_SAMPLE, *sample_arguments(encoding), TELL_FLAGS, CONTROL_FLAGS, BINARY_HEAD)


@lru_cache(maxsize=1024)
def no_language(tells: bytes, encoding: str) -> bool:
    """No tell (``disputes.tell``) in these high bytes read in ``encoding``: no language of
    ``disputes.TELLS``, and letters of one language or of no one language in any common
    Latin encoding (an English page's names). A site's pages share their sets: cached."""
    return disputes.tell(tells, encoding) is None
