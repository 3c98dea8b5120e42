"""The WHATWG encoding labels: "get an encoding" and the names used everywhere.

Every encoding name this package returns is a WHATWG canonical name in lower case
(``utf-8``, ``windows-1252``, ``shift_jis``, ``gbk``, ``utf-16le``): encoding_rs's
``name()`` lower-cased. Python codec names never leave ``decoders.py`` and
``_decoders_cjk.py``.

The label table is generated (``scripts/gen_tables.py``) from the Encoding Standard's
``encodings.json``; see ``_tables/labels.py`` for the pinned revision.

Differences from the Encoding Standard:

=========================  ==================================================================
where                      what and why
=========================  ==================================================================
``get_encoding``           returns ``replacement`` for its labels, as the standard does; callers
                           that decode use ``get_encoding_no_replacement`` (encoding_rs's
                           ``for_label_no_replacement``) and report the label instead of
                           decoding a page to a single U+FFFD.
=========================  ==================================================================
"""

from __future__ import annotations

from ._tables.labels import LABELS, NAMES

__all__ = ["ENCODING_NAMES", "get_encoding", "get_encoding_no_replacement"]

#: Canonical names (lower case) in the order of the Encoding Standard's table.
ENCODING_NAMES: tuple[str, ...] = NAMES

# ASCII whitespace as the Encoding Standard strips it: TAB, LF, FF, CR, SPACE.
_ASCII_WHITESPACE = "\t\n\f\r "
_ASCII_UPPER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def get_encoding(label: str) -> str | None:
    """Implements Encoding "get an encoding": https://encoding.spec.whatwg.org/#concept-encoding-get

    Strip leading and trailing ASCII whitespace, ASCII-lowercase, look the label up.
    ``None`` is the standard's failure.

    >>> get_encoding("  Latin1 ")
    'windows-1252'
    >>> get_encoding("ISO-2022-KR")
    'replacement'
    >>> get_encoding("utf-7") is None
    True
    """
    # A label as the table has it (lower case, no space: "utf-8", what most pages send) is
    # its own answer; stripping and lowering it would change nothing.
    found = LABELS.get(label)
    if found is not None:
        return found
    # Only ASCII letters are lowered: "get an encoding" is ASCII case-insensitive, and
    # str.lower() would turn e.g. U+212A KELVIN SIGN into "k" and accept "\u212Aoi8-r".
    return LABELS.get(label.strip(_ASCII_WHITESPACE).translate(_ASCII_UPPER))


def get_encoding_no_replacement(label: str) -> str | None:
    """"Get an encoding", but ``None`` for labels of the replacement encoding.

    encoding_rs's ``Encoding::for_label_no_replacement``: for callers about to decode.

    >>> get_encoding_no_replacement("csiso2022kr") is None
    True
    >>> get_encoding_no_replacement("sjis")
    'shift_jis'
    """
    encoding = get_encoding(label)
    return None if encoding == "replacement" else encoding
