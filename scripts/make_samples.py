"""Write the bundled samples (samples/*.bin and samples/samples.json). Run once; commit the output.

Each sample is a body plus the Content-Type header it was served with, covering the seeds'
examples: the cases an engineer meets most.
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "samples"

GBK = ('<html><head><meta charset="gbk"><title>中文网页</title></head>'
       "<body><article><h1>你好世界</h1><p>这是一段中文内容。天气预报：明天多云，气温二十度。</p>"
       "</article></body></html>")
SJIS = ("<html><head><title>日本語ページ</title></head><body><article><h1>こんにちは</h1>"
        "<p>東京の天気は晴れです。明日は雨が降るでしょう。傘を持って出かけてください。</p>"
        "</article></body></html>")
QUOTES = ("<html><head><title>Menu</title></head><body><p>\u201cThe chef\u2019s special\u201d "
          "\u2013 caf\u00e9 cr\u00e8me br\u00fbl\u00e9e, 12\u20ac \u2026 served daily.</p></body></html>")
LIAR = ("<html><head><title>Kontakt</title></head><body><p>Jos\u00e9 M\u00fcller, "
        "Stra\u00dfe 5, K\u00f6ln \u2013 \u201cBitte klingeln\u201d.</p><p>S\u00e3o Paulo, "
        "A\u00e7a\u00ed, Cura\u00e7ao.</p></body></html>")
UTF16 = "\ufeff<html><head><title>Ελληνικά</title></head><body><p>Καλημέρα κόσμε! Привет, мир!</p></body></html>"
LATE = ("<html><head><title>Новости</title>\n<style>\n" + "/* layout */ .c { margin: 0 auto; }\n" * 40
        + "</style>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">\n"
        "</head><body><p>Привет, мир! Сегодня в Москве солнечно.</p></body></html>")
MIXED_UTF8 = ("<html><head><meta charset=\"utf-8\"><title>Reviews</title></head><body>"
              "<p>Caf\u00e9 \u2013 na\u00efve cr\u00e8me br\u00fbl\u00e9e, r\u00e9sum\u00e9.</p>")
MIXED_LEGACY = "<p>Footer from the old CMS: it\u2019s \u00a9 2009 \u2013 all rights.</p></body></html>"

SAMPLES = [
    ("gbk_meta", "GBK page declared by <meta>", "text/html", GBK.encode("gbk")),
    ("shift_jis_no_meta", "Shift_JIS page with no declaration anywhere", "text/html",
     SJIS.encode("shift_jis")),
    ("windows1252_smart_quotes", "windows-1252 smart quotes under an iso-8859-1 header",
     "text/html; charset=iso-8859-1", QUOTES.encode("cp1252")),
    ("header_lies_utf8", "A header that lies: iso-8859-1 over UTF-8 bytes",
     "text/html; charset=iso-8859-1", LIAR.encode("utf-8")),
    ("utf16_bom", "UTF-16LE page with a byte-order mark", "text/html", UTF16.encode("utf-16-le")),
    ("late_meta", "windows-1251 page whose <meta> comes after the first 1024 bytes", "text/html",
     LATE.encode("cp1251")),
    ("mixed_utf8_cp1252", "UTF-8 page with a windows-1252 footer pasted in", "text/html; charset=utf-8",
     MIXED_UTF8.encode("utf-8") + MIXED_LEGACY.encode("cp1252")),
]


def main() -> None:
    index = []
    for name, description, content_type, body in SAMPLES:
        (OUT / f"{name}.bin").write_bytes(body)
        index.append({"name": name, "file": f"{name}.bin", "description": description,
                      "content_type": content_type})
    (OUT / "samples.json").write_text(json.dumps(index, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {len(index)} samples to {OUT}")


if __name__ == "__main__":
    main()
