"""The pages served to real Chromium and real Firefox, to check ``browser_answers``.

Three groups, each a dict of name -> (body, Content-Type):

- ``DECLARED``: BOMs, header charsets, ``<meta>`` and XML declarations early, late (past byte
  1024), inside ``<script>``, with the spellings browsers disagree on; served under ``.ru``,
  where both browsers' undeclared answers differ from the koi8-r most of them declare (ASCII
  text, so that only the declaration can say koi8-r).
- ``UNDECLARED``: the same short texts in every legacy encoding family, valid UTF-8, ASCII and
  UTF-16 without a BOM, no declaration: served under every host of ``HOSTS``, since both
  browsers' fallbacks and Firefox's detector take the top-level domain as a hint.

- ``FALLBACK_PAGES`` (ASCII, UTF-8, ISO-2022-JP escapes) under ``FALLBACK_HOSTS``: the pages
  whose answer is a top-level domain's default.

The texts are short everyday sentences written for this test.
"""

from __future__ import annotations

import itertools
import unicodedata

HOSTS = ("shop.example.ru", "shop.example.jp", "shop.example.kr", "shop.example.gr",
         "shop.example.il", "shop.example.cn", "shop.example.tw", "shop.example.th",
         "shop.example.com", "127.0.0.1")
DECLARED_HOSTS = ("shop.example.ru",)
# More top-level domains, for the pages whose answer is a TLD's default (ASCII, valid UTF-8).
FALLBACK_HOSTS = ("shop.example.de", "shop.example.fr", "shop.example.pl", "shop.example.cz",
                  "shop.example.tr", "shop.example.ua", "shop.example.vn", "shop.example.lt",
                  "shop.example.hu", "shop.example.org", "shop.example.net", "shop.example.hk",
                  "shop.example.ir", "shop.example.lv", "shop.example.by",
                  "shop.example.kz", "shop.example.sa", "shop.example.eg", "shop.example.mo",
                  "shop.example.sg", "shop.example.bg", "shop.example.rs", "shop.example.ro")
FALLBACK_PAGES = ("ascii", "utf8-fr", "legacy-iso-2022-jp")

TEXTS = {
    "fr": "Le café est très bon à Paris, où l’été dernier nous avons mangé des crêpes près de "
          "la rivière. Les élèves ont réussi leurs épreuves grâce à leur travail régulier.",
    "de": "Die Straßenbahn fährt über die Brücke zum Bahnhof. Müller schläft früh, weil er "
          "morgen um fünf Uhr aufstehen muss. Die Größe der Wohnung ist schön.",
    "pl": "Zażółć gęślą jaźń. Wczoraj byłem w sklepie i kupiłem świeży chleb, masło oraz "
          "ogórki. Pogoda była piękna, więc poszliśmy na długi spacer nad rzeką.",
    "cs": "Příliš žluťoučký kůň úpěl ďábelské ódy. Včera jsme byli v divadle a představení "
          "se nám velmi líbilo. Zítra pojedeme vlakem do Brna na návštěvu k babičce.",
    "ru": "Последние новости дня: погода в Москве. Правительство России объявило новые меры "
          "поддержки. Президент встретился с губернаторами регионов и обсудил бюджет.",
    "uk": "Сьогодні в Києві тепла погода. Уряд України оголосив нові програми підтримки "
          "для підприємців, а діти пішли до школи з новими підручниками.",
    "el": "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας. Σήμερα ο καιρός είναι ζεστός και "
          "ηλιόλουστος. Τα παιδιά πήγαν στο σχολείο και οι γονείς στη δουλειά τους.",
    "he": "ירושלים היא עיר עתיקה וחשובה. היום מזג האוויר נעים והילדים הלכו לבית הספר. "
          "הממשלה הודיעה על תוכנית חדשה לעזרה למשפחות צעירות.",
    "ar": "القاهرة هي عاصمة مصر وأكبر مدنها. اليوم الطقس جميل والأطفال ذهبوا إلى المدرسة. "
          "أعلنت الحكومة عن خطة جديدة لمساعدة الأسر الشابة في المدن.",
    "tr": "İstanbul Türkiye'nin en büyük şehridir. Bugün hava çok güzel ve çocuklar okula "
          "gittiler. Hükümet genç aileler için yeni bir destek programı açıkladı.",
    "lt": "Vilnius yra Lietuvos sostinė. Šiandien oras šiltas ir saulėtas, vaikai ėjo į "
          "mokyklą. Vyriausybė paskelbė naują paramos programą jaunoms šeimoms.",
    "vi": "Hà Nội là thủ đô của Việt Nam. Hôm nay trời đẹp và các em học sinh đi học. "
          "Chính phủ đã công bố chương trình hỗ trợ mới cho các gia đình trẻ.",
    "th": "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย วันนี้อากาศดีมาก เด็กๆ ไปโรงเรียน "
          "รัฐบาลประกาศโครงการใหม่เพื่อช่วยเหลือครอบครัวรุ่นใหม่",
    "ja": "東京の天気は晴れです。日本語のページ、ソフトウェアのダウンロード。今日は学校で"
          "新しい教科書をもらいました。明日は友達と映画を見に行きます。",
    "ko": "서울의 날씨는 맑습니다. 오늘 아이들은 학교에 갔습니다. 정부는 젊은 가족을 위한 "
          "새로운 지원 프로그램을 발표했습니다. 내일은 친구와 영화를 봅니다.",
    "zh-hans": "北京今天天气很好，孩子们去学校上课了。政府宣布了一项帮助年轻家庭的新计划。"
               "明天我们和朋友一起去看电影，然后去公园散步。",
    "zh-hant": "台北今天天氣很好，孩子們去學校上課了。政府宣布了一項幫助年輕家庭的新計畫。"
               "明天我們和朋友一起去看電影，然後去公園散步。",
}

# (text, Python codec) for each legacy encoding a browser can detect or fall back to.
LEGACY = {
    "windows-1252": ("fr", "cp1252"), "windows-1252-de": ("de", "cp1252"),
    "windows-1250": ("pl", "cp1250"), "iso-8859-2": ("cs", "iso8859_2"),
    "windows-1251": ("ru", "cp1251"), "koi8-r": ("ru", "koi8_r"), "koi8-u": ("uk", "koi8_u"),
    "ibm866": ("ru", "cp866"), "iso-8859-5": ("ru", "iso8859_5"),
    "iso-8859-7": ("el", "iso8859_7"), "windows-1253": ("el", "cp1253"),
    "windows-1255": ("he", "cp1255"), "iso-8859-8": ("he", "iso8859_8"),
    "windows-1256": ("ar", "cp1256"), "windows-1254": ("tr", "cp1254"),
    "windows-1257": ("lt", "cp1257"), "windows-1258": ("vi", "cp1258"),
    "windows-874": ("th", "cp874"),
    "shift_jis": ("ja", "cp932"), "euc-jp": ("ja", "euc_jp"), "iso-2022-jp": ("ja", "iso2022_jp"),
    "euc-kr": ("ko", "cp949"), "gbk": ("zh-hans", "gbk"), "big5": ("zh-hant", "big5"),
}


def _encode(text: str, codec: str) -> bytes:
    """``text`` in ``codec``; for windows-1258, a letter it lacks as one code is written as a
    letter it has plus combining tone marks (as Vietnamese text in windows-1258 is)."""
    if codec != "cp1258":
        return text.encode(codec)
    out = bytearray()
    for char in text:
        try:
            out += char.encode(codec)
            continue
        except UnicodeEncodeError:
            pass
        base, *marks = unicodedata.normalize("NFD", char)
        for order in itertools.permutations(marks):
            for cut in range(len(order), -1, -1):
                try:
                    out += (unicodedata.normalize("NFC", base + "".join(order[:cut]))
                            + "".join(order[cut:])).encode(codec)
                    break
                except UnicodeEncodeError:
                    continue
            else:
                continue
            break
    return bytes(out)


def _page(text: str) -> str:
    return f"<html><head><title>t</title></head><body><p>{text}</p></body></html>"


PAD = "<!-- " + "x" * 1100 + " -->"
RU = TEXTS["ru"]
FR = TEXTS["fr"]
JA = TEXTS["ja"]

PLAIN = "<p>plain text, nothing else</p>"


def _ascii(head: str, body: str = PLAIN, *, pad: bool = False) -> bytes:
    """An ASCII page: a declaration here decides alone (no detector would say the same)."""
    return (f"<html><head>{PAD if pad else ''}{head}</head><body>{body}</body></html>"
            .encode())


UNDECLARED: dict[str, tuple[bytes, str]] = {
    **{f"legacy-{name}": (_encode(_page(TEXTS[lang]), codec), "text/html")
       for name, (lang, codec) in LEGACY.items()},
    "ascii": (_page("plain text, nothing else").encode(), "text/html"),
    "utf8-fr": (_page(FR).encode(), "text/html"),
    "utf8-ru": (_page(RU).encode(), "text/html"),
    "utf8-ja": (_page(JA).encode(), "text/html"),
    "utf16le-no-bom": (_page(FR).encode("utf-16-le"), "text/html"),
    "utf16be-no-bom": (_page(FR).encode("utf-16-be"), "text/html"),
    "header-bogus-ru": (_page(RU).encode("cp1251"), "text/html; charset=bogus"),
}


def _late(tag: str, text: str = RU, codec: str = "cp1251", where: str = "head") -> bytes:
    """A page whose declaration comes after the 1024-byte prescan window."""
    if where == "head":
        page = f"<html><head>{PAD}{tag}</head><body><p>{text}</p></body></html>"
    else:
        page = f"<html><head></head><body>{PAD}<p>{text}</p>{tag}</body></html>"
    return page.encode(codec)


DECLARED: dict[str, tuple[bytes, str]] = {
    # which <meta> each browser reads (ASCII text: only the declaration can say koi8-r)
    "a-meta-in-script": (_ascii('<script>document.write(\'<meta charset="koi8-r">\');</script>'),
                         "text/html"),
    "a-meta-in-noscript": (_ascii('<noscript><meta charset="koi8-r"></noscript>'), "text/html"),
    "a-meta-in-title": (_ascii('<title><meta charset="koi8-r"></title>'), "text/html"),
    "a-meta-in-style": (_ascii('<style>/*<meta charset="koi8-r">*/</style>'), "text/html"),
    "a-meta-in-textarea": (_ascii("", '<textarea><meta charset="koi8-r"></textarea>'),
                           "text/html"),
    "a-meta-in-body": (_ascii("", '<p>x</p><meta charset="koi8-r">'), "text/html"),
    "a-meta-unclosed-script": (b'<html><head><script>var a = 1;<meta charset="koi8-r">',
                               "text/html"),
    "a-late-head": (_ascii('<meta charset="koi8-r">', pad=True), "text/html"),
    "a-late-head-after-link": (_ascii('<link rel="x" href="y"><base href="/"><meta '
                                      'charset="koi8-r">', pad=True), "text/html"),
    "a-late-after-p-in-head": (_ascii('<p>x</p><meta charset="koi8-r">', pad=True), "text/html"),
    "a-late-after-head-end": (f'<html><head>{PAD}</head><meta charset="koi8-r"><body>{PLAIN}'
                              "</body></html>".encode(), "text/html"),
    "a-late-no-head": (f'{PAD}<meta charset="koi8-r">{PLAIN}'.encode(), "text/html"),
    "a-late-body": (_ascii("", f'{PAD}<p>x</p><meta charset="koi8-r">'), "text/html"),
    "a-late-script": (_ascii('<script>var a = "<meta charset=koi8-r>";</script>', pad=True),
                      "text/html"),
    "a-late-after-script": (_ascii('<script>var a = 1;</script><meta charset="koi8-r">',
                                   pad=True), "text/html"),
    "a-late-title": (_ascii('<title><meta charset="koi8-r"></title>', pad=True), "text/html"),
    "a-late-comment": (_ascii('<!-- <meta charset="koi8-r"> -->', pad=True), "text/html"),
    "a-late-http-equiv": (_ascii('<meta http-equiv="Content-Type" content="text/html; '
                                 'charset=koi8-r">', pad=True), "text/html"),
    "a-meta-across-1024": (("<html><head><!-- " + "x" * 990 + ' --><meta charset="koi8-r">'
                            f"</head><body>{PLAIN}</body></html>").encode(), "text/html"),
    "a-late-non-ascii-before": (f'<html><head><title>caf\u00e9</title>{PAD}<meta charset='
                                f'"koi8-r"></head><body>{PLAIN}</body></html>'.encode("cp1252"),
                                "text/html"),
    "a-late-fr-1250": (f'<html><head>{PAD}<meta charset="windows-1250"></head><body><p>{FR}'
                       "</p></body></html>".encode("cp1252"), "text/html"),
    # the attributes of one <meta>, as each browser reads them
    "a-charsetcharset": (_ascii('<meta http-equiv="content-type" content="text/html;'
                                'charsetcharset=koi8-r">'), "text/html"),
    "a-charset-space-charset": (_ascii('<meta http-equiv="content-type" content="text/html; '
                                       'charset charset=koi8-r">'), "text/html"),
    "a-ccharset": (_ascii('<meta http-equiv="content-type" content="text/html; '
                          'ccharset=koi8-r">'), "text/html"),
    "a-content-unclosed-quote": (_ascii('<meta http-equiv="content-type" content="text/html; '
                                        "charset='koi8-r\">"), "text/html"),
    "a-http-equiv-duplicated": (_ascii('<meta http-equiv="refresh" http-equiv="content-type" '
                                       'content="text/html; charset=koi8-r">'), "text/html"),
    "a-http-equiv-refresh": (_ascii('<meta http-equiv="refresh" content="text/html; '
                                    'charset=koi8-r">'), "text/html"),
    "a-content-alone": (_ascii('<meta content="text/html; charset=koi8-r">'), "text/html"),
    "a-charset-duplicated": (_ascii('<meta charset="koi8-r" charset="windows-1250">'),
                             "text/html"),
    "a-content-duplicated": (_ascii('<meta http-equiv="content-type" content="text/html; '
                                    'charset=koi8-r" content="text/html; charset=windows-1250">'),
                             "text/html"),
    "a-charset-and-content": (_ascii('<meta content="text/html; charset=windows-1250" '
                                     'http-equiv="content-type" charset="koi8-r">'), "text/html"),
    "a-unknown-then-known": (_ascii('<meta charset="bogus"><meta charset="koi8-r">'),
                             "text/html"),
    # XML declarations
    "a-xml-first": (b'<?xml version="1.0" encoding="koi8-r"?>' + _ascii(""), "text/html"),
    "a-xml-encoding-past-1024": (b'<?xml version="1.0"' + b" " * 1100 + b'encoding="koi8-r"?>'
                                 + _ascii(""), "text/html"),
    "a-xml-then-late-meta": (b'<?xml version="1.0"?>' + _ascii('<meta charset="koi8-r">',
                                                               pad=True), "text/html"),
    "a-xml-then-meta-across-1024": (('<?xml version="1.0"?><html><head><!-- ' + "x" * 970
                                     + ' --><meta charset="koi8-r"></head><body>'
                                     f"{PLAIN}</body></html>").encode(), "text/html"),
    "a-xml-late": (b" " * 1100 + b'<?xml version="1.0" encoding="koi8-r"?>' + _ascii(""),
                   "text/html"),
    "a-xml-after-space": (b' <?xml version="1.0" encoding="koi8-r"?>' + _ascii(""),
                          "text/html"),
    "a-xml-vs-meta": (b'<?xml version="1.0" encoding="koi8-r"?>'
                      + _ascii('<meta charset="windows-1250">'), "text/html"),
    "a-xml-unknown-label": (b'<?xml version="1.0" encoding="bogus"?>'
                            + _ascii('<meta charset="koi8-r">'), "text/html"),
    "a-xml-utf16-sig-only-6": (b"<\x00?\x00x\x00", "text/html"),
    "a-xml-utf16-sig-only-7": (b"<\x00?\x00x\x00m", "text/html"),
    "a-xml-utf16-sig-only-8": (b"<\x00?\x00x\x00m\x00", "text/html"),
    "a-xml-utf16be-sig-only-6": (b"\x00<\x00?\x00x", "text/html"),
    "a-xml-utf16be-sig-only-7": (b"\x00<\x00?\x00xa", "text/html"),

    # byte-order marks, over anything else
    "bom-utf8": (b"\xef\xbb\xbf" + _page(FR).encode(), "text/html"),
    "bom-utf8-header-latin1": (b"\xef\xbb\xbf" + _page(FR).encode(),
                               "text/html; charset=iso-8859-1"),
    "bom-utf16le": (b"\xff\xfe" + _page(FR).encode("utf-16-le"), "text/html"),
    "bom-utf16be": (b"\xfe\xff" + _page(FR).encode("utf-16-be"), "text/html"),
    # header charsets
    "header-utf8": (_page(FR).encode(), "text/html; charset=utf-8"),
    "header-quoted": (_page(FR).encode(), 'text/html; charset="utf-8"'),
    "header-latin1": (_page(FR).encode("cp1252"), "text/html; charset=iso-8859-1"),
    "header-koi8r": (_page(RU).encode("koi8_r"), "text/html; charset=koi8-r"),
    "header-sjis": (_page(JA).encode("cp932"), "text/html; charset=Shift_JIS"),
    "header-x-user-defined": (_page(FR).encode("cp1252"), "text/html; charset=x-user-defined"),
    "header-replacement": (_page(FR).encode(), "text/html; charset=iso-2022-kr"),
    "header-over-meta": (b'<meta charset="koi8-r">' + _page(RU).encode("cp1251"),
                         "text/html; charset=windows-1251"),
    # <meta> in the first 1024 bytes
    "meta-charset": (f'<html><head><meta charset="windows-1251"></head><body><p>{RU}</p>'
                     "</body></html>".encode("cp1251"), "text/html"),
    "meta-http-equiv": ('<html><head><meta http-equiv="Content-Type" content="text/html; '
                        f'charset=shift_jis"></head><body><p>{JA}</p></body></html>'
                        .encode("cp932"), "text/html"),
    "meta-utf16-label": (f'<meta charset="utf-16">{_page(FR)}'.encode(), "text/html"),
    "meta-x-user-defined": (f'<meta charset="x-user-defined">{_page(FR)}'.encode("cp1252"),
                            "text/html"),
    "meta-unknown-then-known": (f'<meta charset="bogus"><meta charset="koi8-r">{_page(RU)}'
                                .encode("koi8_r"), "text/html"),
    "meta-in-comment": (f'<!-- <meta charset="koi8-r"> -->{_page(FR)}'.encode(), "text/html"),
    "charsetcharset": ('<meta http-equiv="content-type" content="text/html;charsetcharset='
                       f'koi8-r">{_page(RU)}'.encode("koi8_r"), "text/html"),
    "http-equiv-duplicated": ('<meta http-equiv="content-type" http-equiv="refresh" '
                              f'content="text/html; charset=koi8-r">{_page(RU)}'
                              .encode("koi8_r"), "text/html"),
    "http-equiv-duplicated-2": ('<meta http-equiv="refresh" http-equiv="content-type" '
                                f'content="text/html; charset=koi8-r">{_page(RU)}'
                                .encode("koi8_r"), "text/html"),
    "charset-duplicated": (f'<meta charset="koi8-r" charset="windows-1251">{_page(RU)}'
                           .encode("koi8_r"), "text/html"),
    # late <meta>: past byte 1024
    "late-meta-head": (_late('<meta charset="windows-1251">'), "text/html"),
    # XML declarations
    "xml-encoding-past-1024": (('<?xml version="1.0"' + " " * 1100
                                + 'encoding="windows-1251"?>' + _page(RU)).encode("cp1251"),
                               "text/html"),
    "xml-utf16-sig-6": (b"<\x00?\x00x\x00" + b"y\x00z\x00" + _page(FR).encode("utf-16-le"),
                        "text/html"),
    "xml-utf16-sig-7": (b"<\x00?\x00x\x00m" + _page("plain").encode(), "text/html"),
    "xml-utf16-sig-8": (b"<\x00?\x00x\x00m\x00l\x00" + _page(FR).encode("utf-16-le"),
                        "text/html"),
    "xml-utf16be-sig-6": (b"\x00<\x00?\x00x" + b"\x00y" + _page(FR).encode("utf-16-be"),
                          "text/html"),
    "xml-utf16be-sig-8": (b"\x00<\x00?\x00x\x00m\x00l" + _page(FR).encode("utf-16-be"),
                          "text/html"),
    "xml-utf16-declared": ('<?xml version="1.0" encoding="utf-16"?>'.encode("utf-16-le")
                           + _page(FR).encode("utf-16-le"), "text/html"),
}
