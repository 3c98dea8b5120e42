"""The ``chain`` of a mojibake finding: ftfy's repair plan told as misreadings, in WHATWG names.

``plan_layers`` replays ftfy's plan (as ``ftfy.apply_plan`` does) and names each misreading it
undoes; ``chain_of`` tells them in the order they happened. Differences from the Encoding
Standard (in the ``chain`` text):

=======================  ==========================================================================
ftfy says                the chain says, and why
=======================  ==========================================================================
``latin-1``              ``windows-1252`` when the text holds no C1 control that WHATWG's
                         windows-1252 would not also produce (81 8D 8F 90 9D); otherwise
                         ``iso-8859-1``, which is not a WHATWG encoding (its labels mean
                         windows-1252) but is what a database or a non-browser decoder used.
``sloppy-windows-125x``  ``windows-125x``: ftfy's "sloppy" codecs are exactly WHATWG's.
``macroman``             ``macintosh``.
``cp437``                ``ibm437``: not a WHATWG encoding; its IANA name, lower case.
``utf-8-variants``       ``utf-8``: CESU-8 / Java's modified UTF-8, which WHATWG does not name.
=======================  ==========================================================================
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import ftfy
from ftfy.badness import is_bad
from ftfy.chardata import CHARMAP_ENCODINGS, UTF8_DETECTOR_RE

__all__ = ["UTF8_READ_AS", "Layer", "chain_of", "plan_layers", "read_as_name"]

_WHATWG_NAME = {enc: enc.removeprefix("sloppy-") for enc in CHARMAP_ENCODINGS}
_WHATWG_NAME.update({"latin-1": "iso-8859-1", "macroman": "macintosh", "cp437": "ibm437",
                     "utf-8-variants": "utf-8"})
# C1 controls WHATWG's windows-1252 does not produce (it maps 81 8D 8F 90 9D to U+0081 ...)
_C1_NOT_1252 = re.compile("[\x80\x82-\x8c\x8e\x91-\x9c\x9e\x9f]")
_C1_CHAIN = "windows-1252 read as iso-8859-1"
_COUNT = {2: "twice", 3: "three times"}


@dataclass(frozen=True, slots=True)
class Layer:
    """One misreading undone: its words in the chain, and whether it was C1 controls or lossy."""

    text: str          # one misreading, e.g. "utf-8 read as windows-1252"
    c1: bool = False
    lossy: bool = False


def read_as_name(ftfy_encoding: str, text_read: str) -> str:
    """The WHATWG name for the encoding ftfy says ``text_read`` was read as (see the table).

    >>> read_as_name("latin-1", "Ã©"), read_as_name("latin-1", "â\\x80\\x99")
    ('windows-1252', 'iso-8859-1')
    """
    if ftfy_encoding == "latin-1" and not _C1_NOT_1252.search(text_read):
        return "windows-1252"   # deviation: see the module docstring
    return _WHATWG_NAME.get(ftfy_encoding, ftfy_encoding)


def plan_layers(text: str, steps: Iterable[tuple[str, str]]) -> list[Layer]:
    """Replay ftfy's plan (as ``ftfy.apply_plan`` does) and name each misreading it undoes."""
    layers: list[Layer] = []
    current, raw, encoded_as = text, b"", ""
    notes: list[str] = []
    for action, parameter in steps:
        if action == "encode":
            raw, encoded_as, notes = current.encode(parameter), parameter, []
        elif action == "transcode" and encoded_as:
            raw = ftfy.FIXERS[parameter](raw)
            notes.append(parameter)
        elif action == "decode":
            decoded = raw.decode(parameter)
            if encoded_as == "latin-1" and parameter == "windows-1252":
                layers.append(Layer(_C1_CHAIN, c1=True))
            else:
                words = f"{_WHATWG_NAME.get(parameter, parameter)} read as " \
                        f"{read_as_name(encoded_as, current)}"
                if "restore_byte_a0" in notes:
                    words += ", no-break spaces turned into spaces"
                lost = "replace_lossy_sequences" in notes
                layers.append(Layer(words + (", some bytes lost" if lost else ""), lossy=lost))
            current, encoded_as = decoded, ""
        elif parameter == "fix_c1_controls":
            current = ftfy.FIXERS[parameter](current)
            layers.append(Layer(_C1_CHAIN, c1=True))
        else:   # "apply", "decode_inconsistent_utf8": mojibake in parts of the text
            layers.append(Layer(_in_parts(current)))
            current = ftfy.FIXERS[parameter](current)
    return layers


def _in_parts(text: str) -> str:
    for match in UTF8_DETECTOR_RE.finditer(text):
        part = match.group(0)
        if len(part) < len(text) and is_bad(part):
            inner = plan_layers(part, ftfy.fix_encoding_and_explain(part).explanation or [])
            if inner:
                return f"{chain_of(inner)}, in parts of the text"
    return "utf-8 read as a single-byte encoding, in parts of the text"


def chain_of(layers: list[Layer]) -> str:
    """The misreadings in the order they happened (ftfy undoes the last one first)."""
    groups: list[list[Any]] = []
    for layer in reversed(layers):
        if groups and groups[-1][0] == layer.text:
            groups[-1][1] += 1
        else:
            groups.append([layer.text, 1])
    return "; then ".join(text if n == 1 else f"{text}, {_COUNT.get(n, f'{n} times')}"
                          for text, n in groups)


#: The layer "utf-8 read as <name>" for every name ``read_as_name`` can give, built once.
UTF8_READ_AS = {name: Layer(f"utf-8 read as {name}") for name in {*_WHATWG_NAME.values(),
                                                                  "windows-1252"}}
