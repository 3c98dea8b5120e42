"""Checks of user input for site overrides: host pattern, encoding, reason and names.

Each ``check_*`` returns the value normalised as the overrides file stores it, or raises
``OverrideError`` with a message that says what to write instead. The same checks run on a
new proposal (``changes.py``) and on every entry read from the file
(``schema.py``); ``model`` re-exports them. Names are compared with ``names.same_person``
(Unicode folding, look-alikes too), re-exported here.
"""

from __future__ import annotations

import ipaddress
import re

from ..errors import OverrideError
from ..whatwg.labels import get_encoding
from .names import person_keys, same_person

__all__ = [
    "MIN_REASON_WORDS",
    "check_encoding",
    "check_host",
    "check_name",
    "check_reason",
    "same_person",
]

#: A reason must hold at least this many words (of two letters or more).
MIN_REASON_WORDS = 4

_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)\Z")
_WORD = re.compile(r"[^\W\d_]{2,}")


def check_host(value: str) -> str:
    """The host pattern normalised (lower case, no trailing dot), or OverrideError.

    An exact host name, an IP address, or ``*.`` followed by a domain of two labels or
    more (``*.com`` would override a whole top-level domain).

    >>> check_host(" Shop.Example.COM. ")
    'shop.example.com'
    >>> check_host("*.example.com")
    '*.example.com'
    """
    host = value.strip().lower().rstrip(".")
    if not host:
        raise OverrideError("host is empty: give a host name such as shop.example.com")
    if _is_ip(host):
        return host
    if any(ch in host for ch in ":/?#@"):
        raise OverrideError(f"host {value!r} is not a host name: give the host only, "
                            "without scheme, port or path")
    wildcard = host.startswith("*.")
    name = host[2:] if wildcard else host
    try:
        name = name.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise OverrideError(f"host {value!r} is not a valid host name ({exc})") from exc
    labels = name.split(".")
    if len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        raise OverrideError(f"host {value!r} is not a valid host name: use letters, digits "
                            "and hyphens, or *.example.com for every subdomain")
    if wildcard and len(labels) < 2:
        raise OverrideError(f"host {value!r} would match a whole top-level domain: "
                            "a wildcard needs a domain such as *.example.com")
    return f"*.{name}" if wildcard else name


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def check_encoding(label: str) -> str:
    """The WHATWG name for ``label``, refusing unknown labels and ``replacement``.

    >>> check_encoding("latin1")
    'windows-1252'
    """
    encoding = get_encoding(label)
    if encoding is None:
        raise OverrideError(f"encoding {label!r} is not a WHATWG encoding label "
                            "(see https://encoding.spec.whatwg.org/#names-and-labels)")
    if encoding == "replacement":
        raise OverrideError(f"encoding {label!r} is the replacement encoding, which decodes "
                            "every page to a single U+FFFD: it cannot be an override")
    return encoding


def check_reason(reason: str, *, what: str = "reason") -> str:
    """The reason stripped, or OverrideError unless it is a sentence of a few words.

    >>> check_reason("  Header says iso-8859-1 but the body is UTF-8.  ")
    'Header says iso-8859-1 but the body is UTF-8.'
    """
    text = " ".join(reason.split())
    if len(_WORD.findall(text)) < MIN_REASON_WORDS:
        raise OverrideError(f"{what} {reason!r} is too short: write a sentence of at least "
                            f"{MIN_REASON_WORDS} words saying why")
    return text


def check_name(name: str, *, what: str) -> str:
    """A person's name or e-mail address, stripped; OverrideError when empty or multi-line."""
    text = name.strip()
    if not text:
        raise OverrideError(f"{what} is empty: say who you are")
    if len(text) > 200 or any(ch in text for ch in "\r\n\t"):
        raise OverrideError(f"{what} {name!r} is not a name: one line, at most 200 characters")
    if not person_keys(text)[0]:
        raise OverrideError(f"{what} {name!r} has no visible letters: say who you are")
    return text
