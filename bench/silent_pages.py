"""The pages of ``bench_silent.py``: outside text cut, mixed and mislabelled into issue 21's shapes.

Every string comes from ``bench/silent/`` (CPython's CJK test prose, CLDR strings shipped in
Babel, wordfreq's frequent words, Faker's names; ``scripts/make_silent_texts.py`` copied them,
licences in ``bench/silent/LICENSES.md``). This module only arranges them: a seeded generator
puts a language's words and CLDR strings into paragraphs of a plain HTML page, encodes it in
each legacy encoding that carries the language (a string the encoding cannot carry is left
out, never replaced), and serves the page in each shape:

- ``declared``: with its right charset in the Content-Type header (the noise check);
- ``undeclared whole``, ``first 1000 bytes``, ``first 200 bytes``: no declaration; the
  prefixes cut back to a character boundary;
- ``lying header``: EUC-JP, Shift_JIS, ISO-8859-2, Mac Roman (and GBK, Big5, EUC-KR,
  windows-1251, KOI8-R) under ``charset=iso-8859-1``; ISO-2022-JP under ``charset=utf-8``;
- ``mixed``: UTF-8 pages with some paragraphs in windows-1252, from one in seven to six in
  seven (the newcomer's page: the first UTF-8, six windows-1252), undeclared and under
  ``charset=utf-8``;
- ``old mojibake``: Western windows-1252 text (a page, and a CSV of names and cities) where a
  few percent of words were already UTF-8 read as windows-1252 (``SÃ£o``), undeclared;
- ``few words``: an English page (ASCII sentences this module writes, the only text it does)
  holding two to eight of a language's words or one or two of its CLDR strings, in a paragraph
  or in table cells, undeclared, in every encoding that carries the language: the shape a
  newcomer review found wrong readings with no flag in (2026-12-07: a few Russian words read
  as Chinese or Japanese katakana). ``few_words_pages``, apart from ``shapes`` (issue 21's,
  whose findings ``tests/cases/conflicts_snapshot.json`` pins).

A page's truth is the text its parts decode to in their own encodings.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from encoding_core.whatwg.decoders import decode_strict

HERE = Path(__file__).resolve().parent / "silent"

# locale (CLDR), wordfreq language, the legacy encodings that carry it
LANGUAGES: tuple[tuple[str, str | None, tuple[str, ...]], ...] = (
    ("fr", "fr", ("windows-1252", "iso-8859-15", "macintosh")),
    ("de", "de", ("windows-1252", "macintosh")),
    ("es", "es", ("windows-1252",)),
    ("pt", "pt", ("windows-1252",)),
    ("it", "it", ("windows-1252",)),
    ("nl", "nl", ("windows-1252",)),
    ("sv", "sv", ("windows-1252",)),
    ("da", "da", ("windows-1252",)),
    ("fi", "fi", ("windows-1252",)),
    ("ca", "ca", ("windows-1252",)),
    ("is", None, ("windows-1252",)),
    ("pl", "pl", ("windows-1250", "iso-8859-2")),
    ("cs", "cs", ("windows-1250", "iso-8859-2")),
    ("hu", "hu", ("windows-1250", "iso-8859-2")),
    ("sl", "sl", ("windows-1250",)),
    ("hr", None, ("windows-1250",)),
    ("ro", "ro", ("iso-8859-2",)),
    ("ru", "ru", ("windows-1251", "koi8-r", "ibm866")),
    ("uk", "uk", ("windows-1251", "koi8-u")),
    ("bg", "bg", ("windows-1251",)),
    ("el", "el", ("windows-1253", "iso-8859-7")),
    ("tr", "tr", ("windows-1254",)),
    ("he", "he", ("windows-1255",)),
    ("ar", "ar", ("windows-1256",)),
    ("lt", "lt", ("windows-1257", "iso-8859-13")),
    ("lv", "lv", ("windows-1257",)),
    ("th", None, ("windows-874",)),
    ("ja", "ja", ("shift_jis", "euc-jp", "iso-2022-jp")),
    ("zh_Hans", "zh", ("gbk", "gb18030")),
    ("zh_Hant", "zh", ("big5",)),
    ("ko", "ko", ("euc-kr",)),
)
_NO_SPACES = frozenset({"ja", "zh_Hans", "zh_Hant", "th"})
_CJK_PROSE = {"ja": ("euc_jp", "shift_jis"), "zh_Hans": ("gb2312", "gbk"),
              "zh_Hant": ("big5",), "ko": ("euc_kr", "cp949")}
# issue 21's lying headers: (true encoding, the header's label)
LIES = (("euc-jp", "iso-8859-1"), ("shift_jis", "iso-8859-1"), ("iso-8859-2", "iso-8859-1"),
        ("macintosh", "iso-8859-1"), ("iso-2022-jp", "utf-8"), ("gbk", "iso-8859-1"),
        ("big5", "iso-8859-1"), ("euc-kr", "iso-8859-1"), ("windows-1251", "iso-8859-1"),
        ("koi8-r", "iso-8859-1"))
WESTERN = ("fr", "de", "es", "pt", "it", "ca", "sv", "da")
_PY = {"macintosh": "mac_roman", "gbk": "gb18030", "iso-2022-jp": "iso2022_jp",
       "windows-874": "cp874"}


@dataclass(frozen=True, slots=True)
class Page:
    """One page of one shape: its bytes, header, truth and where it came from."""

    shape: str
    label: str
    body: bytes
    content_type: str | None
    truth: str


def _codec(encoding: str) -> str:
    return _PY.get(encoding, encoding.replace("windows-", "cp"))


def _fits(text: str, encoding: str) -> bool:
    try:
        text.encode(_codec(encoding))
    except UnicodeEncodeError:
        return False
    return True


class Material:
    """The copied outside text, loaded once."""

    def __init__(self) -> None:
        self.cldr: dict[str, list[str]] = json.loads((HERE / "cldr.json").read_text())
        self.words: dict[str, list[str]] = json.loads((HERE / "words.json").read_text())
        self.names: dict[str, dict[str, list[str]]] = json.loads(
            (HERE / "names.json").read_text())
        self.prose: dict[str, list[str]] = {}
        for locale, stems in _CJK_PROSE.items():
            lines = []
            for stem in stems:
                text = (HERE / "cjk" / f"{stem}-utf8.txt").read_text("utf-8")
                lines += [line for line in text.splitlines() if line.strip()]
            self.prose[locale] = lines

    def paragraphs(self, rng: random.Random, locale: str, lang: str | None, encoding: str,
                   count: int) -> list[str]:
        """``count`` paragraphs of the locale's outside text that ``encoding`` carries."""
        strings = [s for s in self.cldr[locale] if _fits(s, encoding)]
        words = [w for w in self.words.get(lang or "", []) if _fits(w, encoding)]
        prose = [p for p in self.prose.get(locale, []) if _fits(p, encoding)]
        joiner = "" if locale in _NO_SPACES else " "
        out = []
        for _ in range(count):
            parts = []
            if prose and rng.random() < 0.5:
                parts.append(rng.choice(prose))
            if words:
                sentence = joiner.join(rng.choice(words) for _ in range(rng.randint(8, 16)))
                parts.append(sentence[:1].upper() + sentence[1:] + ("。" if not joiner
                                                                      and _fits("。", encoding)
                                                                      else "."))
            parts.append(", ".join(rng.sample(strings, min(len(strings), rng.randint(3, 8)))))
            out.append(" ".join(parts))
        return out


def html(title: str, paragraphs: list[str], meta: str = "") -> str:
    body = "".join(f"<p>{p}</p>\n" for p in paragraphs)
    return (f"<!DOCTYPE html>\n<html><head>{meta}<title>{title}</title>\n"
            "<style>body{font-family:serif;margin:1em}</style></head>\n"
            f"<body>\n<h1>{title}</h1>\n{body}</body></html>\n")


def char_prefix(body: bytes, encoding: str, size: int) -> bytes:
    """The longest prefix of at most ``size`` bytes that decodes strictly."""
    for end in range(min(size, len(body)), max(0, size - 12), -1):
        if _truth(body[:end], encoding) is None:
            continue
        if encoding == "iso-2022-jp" and body[:end].count(b"\x1b") % 2:
            continue  # cut inside a run of JIS characters: the tail would read as ASCII
        return body[:end]
    return body[:size]


def _truth(body: bytes, encoding: str) -> str | None:
    """The text the WHATWG decoder makes of ``body`` (None: not valid there)."""
    try:
        return decode_strict(body, encoding)
    except UnicodeDecodeError:
        return None


def legacy_pages(material: Material, per_pair: int, seed: int = 21) -> list[tuple[str, Page]]:
    """(encoding, undeclared whole page) for every language and encoding that carries it."""
    rng = random.Random(seed)
    out = []
    for locale, lang, encodings in LANGUAGES:
        for encoding in encodings:
            for n in range(per_pair):
                paragraphs = material.paragraphs(rng, locale, lang, encoding, rng.randint(3, 10))
                strings = [s for s in material.cldr[locale] if _fits(s, encoding)]
                text = html(rng.choice(strings), paragraphs)
                body = text.encode(_codec(encoding))
                truth = _truth(body, encoding)
                if truth is not None:  # (Python's codec and the WHATWG decoder disagree)
                    out.append((encoding, Page("undeclared whole", f"{locale}/{encoding}/{n}",
                                               body, None, truth)))
    return out


def shapes(material: Material, per_pair: int, seed: int = 21) -> list[Page]:
    """Every page of every shape."""
    rng = random.Random(seed + 1)
    pages: list[Page] = []
    whole = legacy_pages(material, per_pair, seed)
    for encoding, page in whole:
        label = "iso-8859-1" if encoding == "windows-1252" else encoding
        pages.append(Page("declared", page.label, page.body, f"text/html; charset={label}",
                          page.truth))
        pages.append(page)
        for size, shape in ((1000, "undeclared 1000 bytes"), (200, "undeclared 200 bytes")):
            cut = char_prefix(page.body, encoding, size)
            pages.append(Page(shape, page.label, cut, None, _truth(cut, encoding) or ""))
    for encoding, label in LIES:
        for true_encoding, page in whole:
            if true_encoding == encoding:
                pages.append(Page("lying header", f"{page.label} as {label}", page.body,
                                  f"text/html; charset={label}", page.truth))
    pages += mixed_pages(material, rng, per_pair)
    pages += old_mojibake_pages(material, rng, per_pair)
    return pages


# ASCII filler for ``few words`` pages (the outside text is the non-ASCII part)
_ENGLISH = ("Welcome to our website.", "Free shipping on orders over $50.",
            "Read our terms of service before using the site.", "All rights reserved.",
            "Click here to subscribe to our newsletter.", "Contact us: help@example.com.",
            "Our company was founded in 1998 and has offices in twelve countries.")


def few_words_pages(material: Material, rng: random.Random, per_pair: int) -> list[Page]:
    """English pages with a few of a language's words, undeclared (the module docstring)."""
    pages = []
    for locale, lang, encodings in LANGUAGES:
        joiner = "" if locale in _NO_SPACES else " "
        for encoding in encodings:
            if encoding == "iso-2022-jp":   # (7-bit: no detector question)
                continue
            words = [w for w in material.words.get(lang or "", []) if _fits(w, encoding)
                     and not w.isascii()]
            strings = [c for c in material.cldr[locale] if _fits(c, encoding)
                       and not c.isascii()]
            for n in range(per_pair):
                if words and rng.random() < 0.6:
                    foreign = rng.sample(words, min(len(words), rng.randint(2, 8)))
                else:
                    foreign = rng.sample(strings, min(len(strings), rng.randint(1, 2)))
                english = [" ".join(rng.sample(_ENGLISH, 3)) for _ in range(rng.randint(1, 4))]
                if rng.random() < 0.5:
                    middle = f"<p>{joiner.join(foreign)}</p>"
                else:
                    middle = "<table><tr>" + "".join(f"<td>{w}</td>" for w in foreign) \
                        + "</tr></table>"
                after = "".join(f"<p>{e}</p>" for e in english[1:])
                text = html("Home", english[:1]).replace("</body>", f"{middle}\n{after}\n</body>")
                body = text.encode(_codec(encoding))
                truth = _truth(body, encoding)
                if truth is not None:
                    pages.append(Page("few words", f"{locale}/{encoding}/{n}", body, None, truth))
    return pages


def mixed_pages(material: Material, rng: random.Random, per_pair: int) -> list[Page]:
    """UTF-8 pages with some paragraphs in windows-1252, in every proportion."""
    pages = []
    for locale in WESTERN:
        for n in range(per_pair):
            for legacy_share in (1, 3, 5, 6):
                paragraphs = material.paragraphs(rng, locale, locale, "windows-1252", 7)
                legacy = set(rng.sample(range(7), legacy_share)) if legacy_share < 6 \
                    else set(range(1, 7))   # the newcomer's: the first UTF-8, six not
                head = html("Résumé", [], "").split("<h1>")[0].encode()
                body, truth = bytearray(head), head.decode()
                for i, p in enumerate(paragraphs):
                    part = f"<p>{p}</p>\n"
                    body += part.encode("cp1252" if i in legacy else "utf-8")
                    truth += part
                body += b"</body></html>\n"
                truth += "</body></html>\n"
                for content_type in (None, "text/html; charset=utf-8"):
                    pages.append(Page("mixed", f"{locale}/{legacy_share}of7/{n}"
                                      + ("/utf-8 header" if content_type else ""),
                                      bytes(body), content_type, truth))
    return pages


def _damage(word: str) -> str:
    """The word as an earlier pipeline left it: UTF-8 read as windows-1252 (when it can)."""
    try:
        return word.encode("utf-8").decode("cp1252")
    except UnicodeDecodeError:
        return word


def old_mojibake_pages(material: Material, rng: random.Random, per_pair: int) -> list[Page]:
    """Western windows-1252 text, a few percent of its accented words already mojibake."""
    pages = []
    locales = {"fr": "fr_FR", "de": "de_DE", "es": "es_ES", "pt": "pt_BR", "it": "it_IT",
               "sv": "sv_SE", "da": "da_DK", "ca": "es_ES"}
    for locale in WESTERN:
        for n in range(per_pair):
            share = rng.choice((0.02, 0.04, 0.08))
            paragraphs = material.paragraphs(rng, locale, locale, "windows-1252", 6)
            words = " ".join(paragraphs).split(" ")
            text = " ".join(_damage(w) if not w.isascii() and rng.random() < share else w
                            for w in words)
            page = html("Archive", [text[i:i + 400] for i in range(0, len(text), 400)])
            body = page.encode("cp1252")
            pages.append(Page("old mojibake", f"{locale}/page/{n}", body, None, page))
            names = material.names[locales[locale]]
            cities = [c for c in material.cldr[locale] if _fits(c, "windows-1252")]
            rows = ["id;name;city"]
            for i in range(1, 120):
                cells = [f"{rng.choice(names['first'])} {rng.choice(names['last'])}",
                         rng.choice(cities)]
                cells = [c if _fits(c, "windows-1252") else "?" for c in cells]
                cells = [_damage(c) if not c.isascii() and rng.random() < share else c
                         for c in cells]
                rows.append(f"{i};" + ";".join(cells))
            csv = "\n".join(rows) + "\n"
            pages.append(Page("old mojibake", f"{locale}/csv/{n}", csv.encode("cp1252"), None,
                              csv))
    return pages
