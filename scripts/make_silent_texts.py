"""Copy the outside text that bench/bench_silent.py and the silent-wrong tests are built from.

Nothing here is written by this project: every string comes from a package or from CPython.

- ``bench/silent/cjk/``: CPython's ``Lib/test/cjkencodings`` files (real CJK prose in each
  encoding beside its UTF-8 twin; PSF licence), the ones with a WHATWG encoding;
- ``bench/silent/cldr.json``: per locale, CLDR strings shipped in Babel (month and day names,
  territory, language and exemplar city names; Unicode licence);
- ``bench/silent/words.json``: per language, wordfreq's most frequent words (CC-BY-SA 4.0);
- ``bench/silent/names.json``: per locale, first and last names from Faker's lists (MIT).

Then the newcomer's three files of issue 21 as test fixtures (``tests/fixtures/silent/``), built
from the names and cities above with a fixed seed.

Usage: ``.venv/bin/python scripts/make_silent_texts.py`` (needs babel, wordfreq and faker,
pinned in requirements-dev.txt). Never edit the outputs by hand.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "silent"
FIXTURES = ROOT / "tests" / "fixtures" / "silent"

# CPython file stem -> its WHATWG encoding (files whose encoding the web has)
CJK_FILES = {"big5": "big5", "cp949": "euc-kr", "euc_jp": "euc-jp", "euc_kr": "euc-kr",
             "gb18030": "gb18030", "gb2312": "gbk", "gbk": "gbk", "shift_jis": "shift_jis",
             "iso2022_jp": "iso-2022-jp"}
LOCALES = ("fr", "de", "es", "pt", "it", "nl", "sv", "da", "nb", "fi", "is", "ca", "pl", "cs",
           "sk", "hu", "sl", "hr", "ro", "ru", "uk", "bg", "sr", "el", "tr", "he", "ar", "fa",
           "lt", "lv", "et", "th", "ja", "zh_Hans", "zh_Hant", "ko")
WORD_LANGS = ("fr", "de", "es", "pt", "it", "nl", "sv", "da", "nb", "fi", "ca", "pl", "cs",
              "hu", "sl", "ro", "ru", "uk", "bg", "el", "tr", "he", "ar", "fa", "lt", "lv",
              "ja", "zh", "ko")  # (wordfreq has no Thai list; its Serbo-Croatian is Latin)
NAME_LOCALES = ("fr_FR", "de_DE", "es_ES", "pt_BR", "pt_PT", "it_IT", "sv_SE", "da_DK",
                "pl_PL", "cs_CZ", "hu_HU", "ro_RO", "tr_TR", "ru_RU")


def cjk() -> None:
    import test

    source = Path(os.path.dirname(test.__file__)) / "cjkencodings"
    target = OUT / "cjk"
    target.mkdir(parents=True, exist_ok=True)
    for stem in CJK_FILES:
        for name in (f"{stem}.txt", f"{stem}-utf8.txt"):
            shutil.copyfile(source / name, target / name)
    (target / "encodings.json").write_text(json.dumps(CJK_FILES, indent=1) + "\n")


def cldr() -> None:
    from babel import Locale

    found: dict[str, list[str]] = {}
    for code in LOCALES:
        locale = Locale.parse(code)
        strings: list[str] = []
        strings += list(locale.months["format"]["wide"].values())
        strings += list(locale.days["format"]["wide"].values())
        strings += [v for k, v in sorted(locale.territories.items()) if k.isalpha()][:120]
        strings += [v for _k, v in sorted(locale.languages.items())][:120]
        cities = [z.get("city") for _k, z in sorted(locale.time_zones.items())]
        strings += [c for c in cities if c][:80]
        found[code] = list(dict.fromkeys(s for s in strings if s))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "cldr.json").write_text(json.dumps(found, ensure_ascii=False, indent=0) + "\n")


def words() -> None:
    from wordfreq import top_n_list

    found = {lang: top_n_list(lang, 400) for lang in WORD_LANGS}
    (OUT / "words.json").write_text(json.dumps(found, ensure_ascii=False, indent=0) + "\n")


def names() -> None:
    from faker import Faker

    found: dict[str, dict[str, list[str]]] = {}
    for code in NAME_LOCALES:
        fake = Faker(code)
        provider = fake.provider("faker.providers.person")
        assert provider is not None
        first = list(dict.fromkeys(getattr(provider, "first_names", ())))
        last = list(dict.fromkeys(getattr(provider, "last_names", ())))
        found[code] = {"first": [str(n) for n in first][:300], "last": [str(n) for n in last][:300]}
    (OUT / "names.json").write_text(json.dumps(found, ensure_ascii=False, indent=0) + "\n")


def _cities(cldr_data: dict[str, list[str]]) -> list[str]:
    from babel import Locale

    out: list[str] = []
    for code in ("pt", "fr", "de", "es"):
        zones = Locale.parse(code).time_zones
        out += [z["city"] for _k, z in sorted(zones.items()) if z.get("city")]
    return [c for c in dict.fromkeys(out) if _latin1(c)]


def _latin1(text: str) -> bool:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def fixtures() -> None:
    """The newcomer's three files (issue 21), from the names and cities copied above."""
    rng = random.Random(21)
    names_data = json.loads((OUT / "names.json").read_text())
    cldr_data = json.loads((OUT / "cldr.json").read_text())
    first = [n for code in ("fr_FR", "pt_BR", "de_DE", "es_ES") for n in names_data[code]["first"]
             if _latin1(n)]
    last = [n for code in ("fr_FR", "pt_BR", "de_DE", "es_ES") for n in names_data[code]["last"]
            if _latin1(n)]
    accented_last = [n for n in last if not n.isascii()]
    cities = _cities(cldr_data)
    accented_cities = [c for c in cities if not c.isascii()]
    FIXTURES.mkdir(parents=True, exist_ok=True)

    # 1. a 200-row ISO-8859-1 CSV of names and cities, a few percent of cells already damaged
    rows = ["id,first_name,last_name,city,note"]
    damaged = 0
    for i in range(1, 201):
        cells = [rng.choice(first), rng.choice(accented_last if i % 2 else last),
                 rng.choice(accented_cities if i % 3 else cities),
                 rng.choice(["Très bien", "Déjà vu", "À revoir", "ok", "Señal débil"])]
        if rng.random() < 0.04:  # an earlier pipeline read UTF-8 as Latin-1 and wrote it back
            at = rng.randrange(len(cells))
            if not cells[at].isascii():
                cells[at] = cells[at].encode("utf-8").decode("latin-1")
                damaged += 1
        rows.append(f"{i}," + ",".join(cells))
    (FIXTURES / "latin1_old_mojibake.csv").write_bytes(("\n".join(rows) + "\n").encode("latin-1"))

    # 2. two exports appended: 150 UTF-8 lines, then 50 windows-1252 lines
    def line(i: int) -> str:
        return f"{i},{rng.choice(first)} {rng.choice(accented_last)},{rng.choice(accented_cities)}"

    head = "id,name,city\n" + "".join(line(i) + "\n" for i in range(1, 151))
    tail = "".join(line(i) + "\n" for i in range(151, 201))
    (FIXTURES / "two_exports.csv").write_bytes(head.encode("utf-8") + tail.encode("cp1252"))

    # 3. the mixed page: one UTF-8 paragraph, then six windows-1252 ones
    utf8_part = "<html><body>\n<p>Grüße aus Köln — “schön”</p>\n"
    legacy = "".join(f"<p>Résumé {rng.choice(accented_last)}, {rng.choice(accented_cities)}</p>\n"
                     for _ in range(6))
    (FIXTURES / "mixed_page.html").write_bytes(
        utf8_part.encode("utf-8") + legacy.encode("cp1252") + b"</body></html>\n")
    (FIXTURES / "README.md").write_text(
        "# The newcomer's three files (issue 21)\n\n"
        "Built by `scripts/make_silent_texts.py` (seed 21) from names in Faker's lists (MIT)\n"
        "and CLDR exemplar city names shipped in Babel (Unicode licence); see\n"
        "`bench/silent/LICENSES.md`.\n\n"
        f"- `latin1_old_mojibake.csv`: 200 rows in ISO-8859-1; {damaged} cells were already\n"
        "  damaged (`SÃ£o Paulo`: UTF-8 read as Latin-1 and written back) before the export;\n"
        "- `two_exports.csv`: a header and 150 lines in UTF-8, then 50 lines in windows-1252;\n"
        "- `mixed_page.html`: one UTF-8 paragraph (`Grüße aus Köln — “schön”`), then six\n"
        "  windows-1252 paragraphs (`Résumé ...`).\n")


def main() -> None:
    cjk()
    cldr()
    words()
    names()
    fixtures()


if __name__ == "__main__":
    main()
