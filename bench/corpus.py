"""A labelled, deterministic development corpus of HTML pages in every web encoding.

The text is natural-language prose written for this project (``bench/texts/<lang>.txt``:
four paragraphs per language; paragraphs 0 and 2 are the **dev** split, 1 and 3 the **test**
split, so tuning on dev never sees a test sentence). Each language is encoded in each web
encoding that can carry it (``FAMILIES``), wrapped in one of a few HTML page shapes, in
four shapes (short: a title and a sentence or two; medium: a few paragraphs; long: an
ASCII-heavy head of inline CSS/JS plus many paragraphs, up to ~250 KB; sparse: an English
page quoting one or two sentences in the language), each once without
any declaration and once with a ``<meta>`` declaration. UTF-16 pages carry a BOM.

Legacy encodings cannot carry every character of the written text; ``legacy_form`` replaces
what is missing the way legacy pages did (curly quotes to straight ones, Romanian comma-below
letters to cedilla ones, Vietnamese tones as combining marks in windows-1258). The truth text
of a sample is what its bytes decode to under its encoding with ``decode_strict``; a pair whose
encoded bytes do not round-trip is dropped.

Everything is seeded: the same call gives the same bytes. Run as a script to write the pages
to a directory (``--write DIR``) or to export a few clear test cases (``--export-cases FILE``).
"""

from __future__ import annotations

import argparse
import codecs
import hashlib
import json
import random
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from encoding_core.whatwg.decoders import decode_strict  # noqa: E402

TEXTS = ROOT / "texts"

#: Languages (file stems in texts/) and the web encodings each is written in.
FAMILIES: dict[str, tuple[str, ...]] = {
    "en": ("utf-8", "windows-1252", "utf-16le", "utf-16be"),
    "fr": ("utf-8", "windows-1252", "iso-8859-15"),
    "de": ("utf-8", "windows-1252", "iso-8859-15"),
    "es": ("utf-8", "windows-1252", "iso-8859-15"),
    "pt": ("utf-8", "windows-1252"),
    "it": ("utf-8", "windows-1252"),
    "pl": ("utf-8", "windows-1250", "iso-8859-2"),
    "cs": ("utf-8", "windows-1250", "iso-8859-2"),
    "hu": ("utf-8", "windows-1250", "iso-8859-2"),
    "ro": ("utf-8", "windows-1250", "iso-8859-2"),
    "tr": ("utf-8", "windows-1254"),
    "lt": ("utf-8", "windows-1257", "iso-8859-13", "iso-8859-4"),
    "ru": ("utf-8", "windows-1251", "koi8-r", "ibm866", "iso-8859-5", "utf-16le"),
    "uk": ("utf-8", "windows-1251", "koi8-u"),
    "bg": ("utf-8", "windows-1251"),
    "el": ("utf-8", "windows-1253", "iso-8859-7"),
    "he": ("utf-8", "windows-1255", "iso-8859-8"),
    "ar": ("utf-8", "windows-1256", "iso-8859-6"),
    "fa": ("utf-8", "windows-1256"),
    "th": ("utf-8", "windows-874"),
    "vi": ("utf-8", "windows-1258"),
    "zh-hans": ("utf-8", "gbk", "gb18030", "utf-16be"),
    "zh-hant": ("utf-8", "big5"),
    "ja": ("utf-8", "shift_jis", "euc-jp", "iso-2022-jp", "utf-16le"),
    "ko": ("utf-8", "euc-kr"),
}

#: Python codecs used to *encode* the corpus (decoding is always ``decode_strict``).
_ENCODER = {"windows-874": "cp874", "windows-1252": "cp1252", "gbk": "gbk",
            "utf-16le": "utf-16-le", "utf-16be": "utf-16-be", "shift_jis": "shift_jis"}
_BOMS = {"utf-16le": b"\xff\xfe", "utf-16be": b"\xfe\xff"}
#: Labels a page might declare for an encoding (the declared variant picks one).
_LABELS = {"windows-1252": ("windows-1252", "iso-8859-1"), "gbk": ("gb2312", "GBK"),
           "shift_jis": ("Shift_JIS", "sjis"), "euc-kr": ("EUC-KR", "ks_c_5601-1987"),
           "windows-1254": ("windows-1254", "iso-8859-9"), "windows-874": ("tis-620",)}
#: How legacy pages wrote what their encoding lacks (tried only for unencodable characters).
_SUBSTITUTES = {"’": "'", "‘": "'", "ʼ": "'", "“": '"', "”": '"', "„": '"', "«": '"',
                "»": '"', "—": "-", "–": "-", "…": "...", "€": "EUR", "£": "GBP",
                "ș": "ş", "ț": "ţ", "Ș": "Ş", "Ț": "Ţ", "ѝ": "й", "ی": "ي", "ک": "ك",
                "\u200c": " ", "©": "(c)", "¿": "?", "¡": "!"}

#: Combining grave, acute, tilde, hook above, dot below: windows-1258's tone marks.
_TONES = "\u0300\u0301\u0303\u0309\u0323"


@dataclass(frozen=True, slots=True)
class Sample:
    """One labelled page: its bytes, the truth (encoding and decoded text) and its tags."""

    id: str
    lang: str
    encoding: str
    size: str  # "short" | "medium" | "long" | "sparse"
    declared: bool
    split: str  # "dev" | "test"
    body: bytes
    text: str


def load_paragraphs(lang: str) -> list[str]:
    """The paragraphs of texts/<lang>.txt (``#`` lines are comments)."""
    raw = (TEXTS / f"{lang}.txt").read_text(encoding="utf-8")
    lines = [line for line in raw.splitlines() if not line.startswith("#")]
    return [" ".join(p.split()) for p in "\n".join(lines).split("\n\n") if p.strip()]


def sentences(paragraph: str) -> list[str]:
    """Split a paragraph into sentences (Thai has no full stop: split on spaces there)."""
    parts = re.split(r"(?<=[.!?。！？])\s*", paragraph)
    if len(parts) == 1:
        parts = paragraph.split(" ")
    return [p for p in (s.strip() for s in parts) if p]


def _encodable(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def legacy_form(text: str, encoding: str) -> str | None:
    """``text`` as a page in ``encoding`` would carry it, or None when it cannot."""
    codec = _ENCODER.get(encoding, encoding)
    out: list[str] = []
    for char in text:
        if _encodable(char, codec):
            out.append(char)
            continue
        sub = _SUBSTITUTES.get(char)
        if sub is not None and all(_encodable(c, codec) for c in sub):
            out.append(sub)
            continue
        # windows-1258 writes Vietnamese tones as combining marks after a base letter
        # (which may carry its own circumflex, breve or horn: "ệ" is "ê" + U+0323).
        marks = unicodedata.normalize("NFD", char)
        tones = "".join(c for c in marks[1:] if c in _TONES)
        head = unicodedata.normalize("NFC", "".join(c for c in marks if c not in _TONES))
        if tones and all(_encodable(c, codec) for c in head + tones):
            out.append(head + tones)
        else:
            return None
    return "".join(out)


_CSS = ("body{margin:0;font-family:Arial,Helvetica,sans-serif;color:#222;background:#fff}"
        ".nav a{padding:4px 8px;text-decoration:none}.content p{line-height:1.5}"
        "#footer{font-size:12px;color:#777;border-top:1px solid #ddd}\n")
_JS = ("window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}"
       "gtag('js',new Date());var cfg={id:'UA-000000-1',anonymize:true,pages:[1,2,3]};\n"
       "document.addEventListener('DOMContentLoaded',function(){var m=document."
       "querySelectorAll('.menu li');for(var i=0;i<m.length;i++){m[i].className+=' js';}});\n")


def _declaration(encoding: str, rng: random.Random) -> str:
    label = rng.choice(_LABELS.get(encoding, (encoding,)))
    if rng.random() < 0.5:
        return f'<meta charset="{label}">\n'
    return f'<meta http-equiv="Content-Type" content="text/html; charset={label}">\n'


def _page(lang: str, size: str, pool: list[str], decl: str, rng: random.Random,
          filler: list[str]) -> str:
    """An HTML page around sentences drawn from ``pool`` (and English ``filler``)."""
    if size == "sparse":  # an English page quoting a sentence or two in the language
        body = [rng.choice(filler) for _ in range(rng.randint(6, 20))]
        for _ in range(rng.randint(1, 2)):
            body.insert(rng.randint(0, len(body)), rng.choice(pool))
        pool = filler
    elif size == "short":
        body = [rng.choice(pool) for _ in range(rng.randint(1, 2))]
    elif size == "medium":
        body = [rng.choice(pool) for _ in range(rng.randint(4, 12))]
    else:
        body = [rng.choice(pool) for _ in range(rng.randint(60, 400))]
    title = " ".join(rng.choice(pool).split(" ")[:6])
    head = decl
    if size == "long":
        head += f"<style>\n{_CSS * rng.randint(3, 60)}</style>\n"
        head += f"<script>\n{_JS * rng.randint(3, 300)}</script>\n"
    paras = ["<p>" + " ".join(body[i:i + 5]) + "</p>" for i in range(0, len(body), 5)]
    nav = ""
    if size != "short":
        nav = ('<ul class="menu nav">' + "".join(
            f'<li><a href="/p/{i}">{" ".join(rng.choice(pool).split(" ")[:2])}</a></li>'
            for i in range(rng.randint(2, 6))) + "</ul>\n")
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n{head}<title>{title}</title>\n'
            f"</head>\n<body>\n{nav}<h1>{title}</h1>\n<div class=\"content\">\n"
            + "\n".join(paras) + '\n</div>\n<div id="footer">2024</div>\n</body>\n</html>\n')


def _seed(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "big")


#: Documents per (language, encoding, split): sizes and how many of each.
COUNTS = {"short": 4, "medium": 3, "long": 1, "sparse": 2}
QUICK_COUNTS = {"short": 1, "medium": 1, "long": 1, "sparse": 1}


def build_corpus(split: str | None = None, *, quick: bool = False,
                 seed: int = 2024) -> list[Sample]:
    """Every sample of ``split`` ("dev", "test", or both when None), deterministically."""
    samples: list[Sample] = []
    for lang, encodings in FAMILIES.items():
        paragraphs = load_paragraphs(lang)
        for part in ("dev", "test") if split is None else (split,):
            chosen = paragraphs[0::2] if part == "dev" else paragraphs[1::2]
            pool = [s for p in chosen for s in sentences(p)]
            english = load_paragraphs("en")
            english = english[0::2] if part == "dev" else english[1::2]
            filler = [a for a in (legacy_form(s, "ascii") for p in english for s in sentences(p))
                      if a is not None]
            for encoding in encodings:
                samples.extend(_pair(lang, encoding, part, pool, filler, quick, seed))
    return samples


def _pair(lang: str, encoding: str, part: str, pool: list[str], filler: list[str],
          quick: bool, seed: int) -> list[Sample]:
    out: list[Sample] = []
    codec = _ENCODER.get(encoding, encoding)
    legacy = [legacy_form(s, encoding) for s in pool]
    usable = [s for s in legacy if s is not None]
    if len(usable) < len(legacy) // 2:
        return out
    for size, count in (QUICK_COUNTS if quick else COUNTS).items():
        for n in range(count):
            for declared in (False, True):
                rng = random.Random(_seed(seed, lang, encoding, part, size, n))
                decl = _declaration(encoding, rng) if declared and encoding not in _BOMS else ""
                page = _page(lang, size, usable, decl, random.Random(rng.random()), filler)
                body = _BOMS.get(encoding, b"") + codecs.encode(page, codec)
                text = decode_strict(body[len(_BOMS.get(encoding, b"")):], encoding)
                if text != page:
                    continue
                sid = f"{part}/{lang}/{encoding}/{size}{n}{'-decl' if declared else ''}"
                out.append(Sample(sid, lang, encoding, size, declared, part, body, text))
    return out


def export_cases(path: Path) -> int:
    """Write one clear-cut sample per (family, encoding) as test cases (tests/cases format).

    Clear-cut: a short (else medium or sparse) undeclared page of the test split that
    ``default_detector`` gets right with confidence >= 0.9 and no doubt (regression cases,
    not a measurement).
    """
    from encoding_core.decision.detect import default_detector

    cases = []
    seen: set[str] = set()
    pages = build_corpus("test")
    for s in sorted(pages, key=lambda s: ("short", "medium", "sparse", "long").index(s.size)):
        if s.declared or s.size == "long" or s.encoding in seen:
            continue
        found = default_detector(s.body)
        if found is None or found.confidence < 0.9 or found.needs_review:
            continue
        if decode_strict(s.body, found.encoding).removeprefix("\ufeff") != s.text:
            continue
        seen.add(s.encoding)
        label = re.sub(r"[^a-z0-9]+", "-", s.id.split("/", 1)[1].lower())
        cases.append({"label": label, "comment": f"{s.lang} page in {s.encoding}, no declaration",
                      "body_hex": s.body.hex(), "content_type": None,
                      "expect_encoding": s.encoding, "expect": "pass"})
    path.write_text(json.dumps(cases, indent=1, ensure_ascii=False) + "\n")
    return len(cases)


def main(argv: list[str] | None = None) -> int:
    """CLI: summarise the corpus, write it out, or export test cases."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["dev", "test"])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--write", type=Path, help="write pages and labels.json here")
    parser.add_argument("--export-cases", type=Path, help="write clear-cut test cases here")
    args = parser.parse_args(argv)
    if args.export_cases:
        print(f"{export_cases(args.export_cases)} cases written to {args.export_cases}")
        return 0
    samples = build_corpus(args.split, quick=args.quick)
    pairs = {(s.lang, s.encoding) for s in samples}
    print(f"{len(samples)} samples, {len(pairs)} language/encoding pairs, "
          f"{sum(len(s.body) for s in samples) / 1e6:.1f} MB")
    if args.write:
        labels = {}
        for s in samples:
            path = args.write / (s.id.replace("/", "__") + ".html")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(s.body)
            labels[path.name] = {"encoding": s.encoding, "lang": s.lang, "size": s.size,
                                 "declared": s.declared, "split": s.split}
        (args.write / "labels.json").write_text(json.dumps(labels, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
