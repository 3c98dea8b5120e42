"""Write the clean-text set (bench/cleantexts/*.txt). Run once; commit the output.

    pip install -r scripts/requirements-cleantexts.txt
    .venv/bin/python scripts/make_clean_texts.py

Clean text the project did not write, for measuring the field scan's false alarms beside ftfy's
``is_bad`` (``bench/bench_mojibake.py``, ``tests/fields/test_cleantexts.py``). Every text is
correct as it stands. The files are read as data; nothing that runs reads the packages.

Sources (their licences are copied beside the files, in ``LICENSES/``):

* names: the most common first names (per gender) and last names of each of the 105 countries of
  ``names-dataset`` (MIT);
* CLDR: month and day names, and the names of some languages and territories, in every base
  locale ``babel`` (BSD-3-Clause; CLDR data under the Unicode licence) ships;
* words: the most frequent words of every language ``wordfreq`` has (code Apache-2.0, data
  CC-BY-SA 4.0);
* emoji: every emoji sequence of the ``emoji`` package (BSD-3-Clause; Unicode's data);
* kaomoji: every non-ASCII kaomoji of ``kaomoji-dataset`` (CC-BY-4.0, with its NOTICE);
* box drawing: table borders and tree lines from the Unicode box-drawing block, with CLDR
  territory names in the cells, and the kaomoji that use box-drawing or block characters;
* product symbols: CLDR unit and currency formats (°C, °, µs, µm, no-break spaces) in every base
  locale, and names and words (as they stand, upper-cased, title-cased) with ``™ ® © ° ± µ``,
  a no-break space or a dash after them, as product lists write them;
* quoted mojibake: prose that quotes mojibake on purpose (an article about ``Ã©``): a few
  sentence frames (the only words this script writes) around wordfreq words and the way they
  look when their UTF-8 is read as windows-1252, iso-8859-1, windows-1251 or macintosh.

Only texts with a non-ASCII character are kept (ASCII text without ``?`` is never flagged),
without control characters or line breaks, each once per file, in a stable order.
"""

from __future__ import annotations

import random
import shutil
import unicodedata
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "bench" / "cleantexts"

LANGUAGES = ["en", "fr", "de", "es", "pt", "it", "nl", "sv", "nb", "da", "fi", "is", "et", "lv",
             "lt", "pl", "cs", "sk", "sl", "hr", "hu", "ro", "tr", "el", "ru", "uk", "bg", "sr",
             "ar", "he", "fa", "hi", "zh", "ja", "ko", "vi", "th", "ga", "cy", "mt", "sq", "az"]
TERRITORIES = ["NO", "SE", "DK", "FI", "IS", "EE", "LV", "LT", "PL", "CZ", "RO", "TR", "GR", "RU",
               "UA", "VN", "DE", "FR", "ES", "PT", "BR", "CN", "JP", "KR", "US", "GB", "IN", "EG",
               "IL", "CI", "RE", "AX", "FO", "CW", "ST", "SZ", "AT", "CH", "HU", "IE", "MD", "BA"]
PRODUCT_SYMBOLS = ["™", "®", "©", "°", "±", "µ", "\u00a0", " — ", "—", " – ", "²", "³", "º", "ª"]


def _keep(text: str) -> bool:
    return (not text.isascii() and text == text.strip() and bool(text)
            and not any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in text))


def _unique(texts: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(t for t in texts if _keep(t)))


def names() -> list[str]:
    from names_dataset import NameDataset

    dataset = NameDataset()
    out: list[str] = []
    for _country, by_gender in sorted(dataset.get_top_names(n=150).items()):
        for gender in sorted(by_gender):
            out += by_gender[gender]
    for _country, last in sorted(dataset.get_top_names(n=250, use_first_names=False).items()):
        out += last
    return _unique(out)


def cldr() -> list[str]:
    from babel import Locale, localedata

    out: list[str] = []
    for identifier in sorted(i for i in localedata.locale_identifiers() if "_" not in i):
        try:
            locale = Locale.parse(identifier)
        except (ValueError, LookupError):
            continue
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                out += locale.months.get(context, {}).get(width, {}).values()
                out += locale.days.get(context, {}).get(width, {}).values()
        out += [locale.languages[c] for c in LANGUAGES if c in locale.languages]
        out += [locale.territories[c] for c in TERRITORIES if c in locale.territories]
    return _unique(out)


def words() -> list[str]:
    import wordfreq

    out: list[str] = []
    for language in sorted(wordfreq.available_languages()):
        out += wordfreq.top_n_list(language, 3000)
    return _unique(out)


def emoji_sequences() -> list[str]:
    import emoji

    return _unique(sorted(emoji.EMOJI_DATA))


def kaomoji() -> list[str]:
    import kaomoji_dataset

    return _unique(k["text"] for k in kaomoji_dataset.all())


_BOX = [  # (horizontal, vertical, corners ┌ ┐ └ ┘, tees ├ ┤ ┬ ┴, cross)
    ("─", "│", "┌┐└┘", "├┤┬┴", "┼"), ("━", "┃", "┏┓┗┛", "┣┫┳┻", "╋"),
    ("═", "║", "╔╗╚╝", "╠╣╦╩", "╬"), ("─", "│", "╭╮╰╯", "├┤┬┴", "┼"),
    ("═", "│", "╒╕╘╛", "╞╡╤╧", "╪"), ("─", "║", "╓╖╙╜", "╟╢╥╨", "╫"),
]


def box_lines(cells: list[str], rng: random.Random) -> list[str]:
    """Table borders, rows and tree lines drawn as the box-drawing block allows."""
    out: list[str] = []
    for h, v, corners, tees, cross in _BOX:
        for widths in ([1, 1], [2, 3], [5], [8, 4, 12], [1, 1, 1, 1], [3, 3]):
            segments = [h * w for w in widths]
            out += [corners[0] + tees[2].join(segments) + corners[1],
                    tees[0] + cross.join(segments) + tees[1],
                    corners[2] + tees[3].join(segments) + corners[3]]
        out += [corners[2] + h + tees[2] + h + corners[3], h * 3 + tees[2] + h * 3,
                v + " " + corners[0] + h + corners[1] + " " + v]
        for _ in range(120):
            row = rng.sample(cells, 3)
            out.append(f"{v} " + f" {v} ".join(row) + f" {v}")
            out.append(f"{v} {row[0]} {v} {rng.randint(1, 9999)} {v}")
    for _ in range(600):
        name = rng.choice(cells)
        out += [f"├── {name}", f"│   └── {name}", f"└─┬─ {name}", f"  ├─ {name}",
                f"{name} ▏▎▍▌▋▊▉█ {rng.randint(1, 100)}%", f"{name} ░░▒▒▓▓██",
                f"{name}: " + "█" * rng.randint(1, 12) + "▌", f"╰─➤ {name}"]
    return _unique(out)


def product_lines(bases: list[str], rng: random.Random) -> list[str]:
    """CLDR unit and currency formats, and names with product symbols after them."""
    from babel import localedata
    from babel.numbers import format_currency
    from babel.units import format_unit

    out: list[str] = []
    for identifier in sorted(i for i in localedata.locale_identifiers() if "_" not in i):
        for unit in ("temperature-celsius", "temperature-fahrenheit", "angle-degree",
                     "duration-microsecond", "length-micrometer", "mass-microgram"):
            for width in ("short", "narrow"):
                try:
                    out.append(format_unit(rng.choice([-3, 0.5, 12, 37.5, 451]), unit,
                                           length=width, locale=identifier))
                except (ValueError, LookupError, KeyError, AttributeError, TypeError):
                    continue
        try:
            out.append(format_currency(rng.choice([1.5, 12, 1234.5]), "EUR", locale=identifier))
        except (ValueError, LookupError, KeyError, AttributeError, TypeError):
            continue
    for _ in range(30_000):
        base = rng.choice(bases)
        form = rng.choice((str.upper, str.title, str))
        word, symbol = form(base), rng.choice(PRODUCT_SYMBOLS)
        number = rng.choice(["", f" {rng.randint(1, 999)}",
                             f" {rng.randint(1, 99)}.{rng.randint(0, 9)}"])
        out.append(rng.choice([f"{word}{symbol}{number}",
                               f"{word}{symbol} {form(rng.choice(bases))}",
                               f"{word}{number} {symbol.strip() or '°'}",
                               f"{word} ±{rng.randint(1, 9)} µm",
                               f"{word} {rng.randint(0, 99)} °C"]))
    return _unique(out)


_FRAMES = [  # the only words this script writes
    'If you see "{m}" instead of "{w}", the file was read as {e}.',
    "The sequence `{m}` is how {w} looks when UTF-8 is decoded as {e}.",
    "Mojibake: «{m}» for «{w}».",
    "Why does {w} show up as {m}?",
    "Search the export for `{s}` to find broken rows.",
    "„{s}“ ist ein typisches Zeichen für falsch dekodiertes UTF-8.",
    "« {s} » au lieu de « {c} » : le fichier a été lu en {e}.",
    "{w} → {m}",
    "'{m}' should read '{w}'",
]
_MISREAD = [("windows-1252", "cp1252"), ("iso-8859-1", "latin-1"), ("windows-1251", "cp1251"),
            ("macintosh", "mac_roman")]


def quoted_mojibake(latin_words: list[str], rng: random.Random) -> list[str]:
    out: list[str] = []
    for word in latin_words:
        for name, codec in _MISREAD:
            try:
                misread = word.encode("utf-8").decode(codec)
            except UnicodeDecodeError:
                continue
            char = next(c for c in word if not c.isascii())
            seq = char.encode("utf-8").decode(codec, "replace")
            frame = rng.choice(_FRAMES)
            out.append(frame.format(m=misread, w=word, e=name, s=seq, c=char))
    return _unique(out)


def _write(name: str, texts: list[str]) -> None:
    (OUT / f"{name}.txt").write_text("".join(f"{t}\n" for t in texts), "utf-8")
    print(f"{name}.txt: {len(texts):,} texts")


def _licences() -> None:
    folder = OUT / "LICENSES"
    folder.mkdir(parents=True, exist_ok=True)
    for package in ("names-dataset", "babel", "wordfreq", "emoji", "kaomoji-dataset"):
        dist = metadata.distribution(package)
        for file in dist.files or []:
            if file.name.upper().startswith(("LICENSE", "NOTICE")) and "dist-info" in str(file):
                target = folder / f"{package}-{dist.version}-{file.name}"
                shutil.copyfile(str(file.locate()), target)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(23)
    base = {"names": names(), "cldr": cldr(), "words": words()}
    as_is = _unique(t for texts in base.values() for t in texts)
    _write("as_is", as_is)
    _write("all_caps", _unique(t.upper() for t in as_is))
    _write("title_case", _unique(t.title() for t in as_is))
    _write("emoticons", _unique([*emoji_sequences(), *kaomoji()]))
    boxy = [k for k in kaomoji() if any("\u2500" <= c <= "\u259f" for c in k)]
    _write("box_drawing", _unique([*box_lines(base["cldr"], rng), *boxy]))
    _write("product_symbols", product_lines(as_is, rng))
    latin = [w for w in base["words"] if w.isalpha() and max(w) < "\u0250"]
    latin = rng.sample(latin, min(len(latin), 2_000))
    _write("quoted_mojibake", quoted_mojibake(latin, rng))
    _licences()
    versions = {p: metadata.version(p) for p in ("names-dataset", "babel", "wordfreq", "emoji",
                                                  "kaomoji-dataset")}
    print("from", ", ".join(f"{p} {v}" for p, v in versions.items()))


if __name__ == "__main__":
    main()
