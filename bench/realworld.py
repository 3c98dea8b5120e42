"""A real-world-shaped set, beside the generated corpus: pages as sites write them.

The generated corpus (``corpus.py``) is prose from ``texts/``, on which the detector was tuned.
This set is not: its snippets were written separately, in the shapes scraped pages take (a
news page with a navigation bar, inline scripts and a cookie banner; a forum post with quotes
and a signature; a product listing with prices, ® and ™; a mostly-English page with a few
names), and nothing in ``encoding_core`` was tuned on it. Each family's pages are written in
every legacy encoding the family uses on the web and in UTF-8, then served:

- declared: the right charset in the Content-Type header (what a crawl meets most);
- undeclared: no header charset, no ``<meta>`` (the detector decides);
- UTF-16LE without a BOM (an export from a Windows tool);
- mixed: a UTF-8 page whose footer is windows-1252 (two templates).

``fields()`` gives the same snippets as stored fields: clean, and damaged the ways a pipeline
damages them (UTF-8 read as windows-1252 or windows-1251, a byte lost to U+FFFD).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

# family -> (legacy encodings the family uses on the web, snippets: headline, body, product)
FAMILIES: dict[str, tuple[tuple[str, ...], tuple[str, str, str]]] = {
    "western": (("windows-1252", "iso-8859-15"), (
        "Élection municipale : le maire sortant réélu dès le premier tour",
        "« Franchement, je ne m’y attendais pas », a confié Hélène Dupré, 58 ans, devant la "
        "mairie. À Besançon, la participation a atteint 61 % ; l’opposition dénonce une "
        "campagne « déséquilibrée ».",
        "Cafetière à piston Brévia® 1 L – acier inoxydable, 34,90 € au lieu de 49,90 €")),
    "german": (("windows-1252",), (
        "Straßenbahn fällt wegen Bauarbeiten bis Ende März aus",
        "Die Verkehrsbetriebe bitten Fahrgäste, auf die Buslinien 12 und 17 auszuweichen. "
        "„Wir wissen, dass das ärgerlich ist“, sagte Sprecherin Jürgen-Müller-Öztürk.",
        "Kühlschrank KÄLTE-Plus™ 240 l, Energieeffizienz D – nur 399,– €")),
    "iberian": (("windows-1252",), (
        "La selección vence 2–1 y se clasifica para la final del año próximo",
        "O técnico João Gonçalves disse que a equipe “jogou com o coração”. Em São Paulo, "
        "milhares de torcedores comemoraram na avenida até a madrugada.",
        "Zapatillas de montaña Señora, talla 38, envío gratis a España y Portugal")),
    "central": (("windows-1250", "iso-8859-2"), (
        "Rząd przyjął projekt ustawy o ochronie zdrowia psychicznego",
        "Mieszkańcy Łodzi i Gdańska skarżą się na opóźnienia pociągów. Minister obiecał, że "
        "do końca roku sytuacja się poprawi. Příští týden začne oprava mostu v Brně.",
        "Żelazko parowe Fénix 2400 W – 189,99 zł, dostawa w 24 h")),
    "cyrillic": (("windows-1251", "koi8-r", "iso-8859-5", "ibm866"), (
        "В Петербурге открылась выставка современного искусства",
        "Организаторы ожидают более ста тысяч посетителей. «Мы хотели показать, как "
        "меняется город», — рассказала куратор Анна Сергеевна Волкова.",
        "Смартфон «Галактика» 128 ГБ — 24 990 руб., доставка по всей России")),
    "ukrainian": (("windows-1251", "koi8-u"), (
        "У Києві відкрили нову станцію метро на лівому березі",
        "Мешканці Оболоні чекали на це понад десять років. «Їхати до центру тепер лише "
        "двадцять хвилин», — каже пані Ірина з Подолу.",
        "Ґаджет для дому: розумна лампа, 499 грн, безкоштовна доставка")),
    "greek": (("windows-1253", "iso-8859-7"), (
        "Νέα μέτρα για την ακρίβεια ανακοίνωσε η κυβέρνηση",
        "Οι καταναλωτές στην Αθήνα και τη Θεσσαλονίκη θα δουν μειώσεις στις τιμές του "
        "ρεύματος από τον επόμενο μήνα, δήλωσε ο υπουργός.",
        "Ελαιόλαδο εξαιρετικό παρθένο 1 λίτρο – 9,80 €")),
    "hebrew": (("windows-1255", "iso-8859-8"), (
        "עיריית חיפה מתכננת קו רכבת קלה חדש לשכונות הכרמל",
        "לדברי ראש העירייה, העבודות יחלו בשנה הבאה ויימשכו כשלוש שנים. התושבים מתבקשים "
        "להשתתף בכנס הציבורי ביום שלישי.",
        "מכונת קפה ביתית – 649 ש״ח, משלוח חינם")),
    "arabic": (("windows-1256", "iso-8859-6"), (
        "افتتاح معرض الكتاب الدولي بمشاركة واسعة من دور النشر",
        "قال مدير المعرض إن عدد الزوار تجاوز مئة ألف في الأيام الثلاثة الأولى، وإن "
        "البرنامج الثقافي يتضمن ندوات وأمسيات شعرية.",
        "هاتف ذكي بذاكرة ١٢٨ جيجابايت – ٩٩٩ ريالاً، التوصيل مجاني")),
    "turkish": (("windows-1254",), (
        "İstanbul’da toplu taşıma ücretlerine yüzde 20 zam geldi",
        "Yolcular yeni tarifeye tepki gösterdi. Belediye sözcüsü Şükrü Çağlar, artışın "
        "yakıt maliyetlerinden kaynaklandığını söyledi.",
        "Çaydanlık seti, paslanmaz çelik – 549,90 TL, ücretsiz kargo")),
    "baltic": (("windows-1257", "iso-8859-13"), (
        "Vilniuje atidarytas naujas Šiaurės miestelio parkas",
        "Gyventojai džiaugiasi žaliomis erdvėmis. Rīgā šogad plāno atjaunot vēsturisko "
        "tirgu, sacīja pilsētas pārstāve Līga Ozoliņa.",
        "Dviratis „Žaibas“ 26 colių – 289 €, pristatymas per 3 d.")),
    "vietnamese": (("windows-1258",), (
        "Hà Nội khởi công tuyến đường sắt đô thị mới",
        "Người dân phường Cầu Giấy cho biết họ đã chờ đợi dự án này nhiều năm. Công trình "
        "dự kiến hoàn thành vào cuối năm sau.",
        "Nồi cơm điện 1,8 lít – 890.000 đồng, giao hàng miễn phí")),
    "thai": (("windows-874",), (
        "กรุงเทพฯ เปิดเส้นทางรถไฟฟ้าสายใหม่ไปสนามบิน",
        "ผู้โดยสารสามารถเดินทางจากใจกลางเมืองถึงสนามบินได้ภายในสามสิบนาที "
        "ค่าโดยสารเริ่มต้นที่สี่สิบบาท",
        "หม้อหุงข้าวไฟฟ้า 1.8 ลิตร ราคา 1,290 บาท ส่งฟรี")),
    "chinese": (("gbk", "gb18030"), (
        "上海新开通一条地铁线路连接浦东机场",
        "市民表示，这条线路大大缩短了上班时间。交通部门负责人介绍，今年还将开通两条新线路。",
        "电饭煲 1.8升 — 售价 299 元，全国包邮")),
    "taiwanese": (("big5",), (
        "台北捷運新路線明年通車 民眾期待",
        "市府官員表示，新路線將連接內湖與南港，預計每日載客量達十萬人次。",
        "電熱水壺 1.7公升 — 特價 890 元，免運費")),
    "japanese": (("shift_jis", "euc-jp", "iso-2022-jp"), (
        "東京駅の新しい商業施設が今週オープン",
        "開業初日には多くの買い物客が訪れ、人気の洋菓子店には長い行列ができた。担当者は「予想以上の反響です」と話した。",
        "電気ケトル 1.0リットル ― 税込 3,980円、送料無料")),
    "korean": (("euc-kr",), (
        "서울시, 대중교통 요금 인상 계획 발표",
        "시민들은 물가 상승으로 부담이 커진다며 우려를 나타냈다. "
        "시 관계자는 서비스 개선을 약속했다.",
        "전기밥솥 6인용 — 89,000원, 무료 배송")),
    "english": (("windows-1252",), (
        "City council approves new bike lanes downtown",
        "Residents spoke for and against the plan at Tuesday’s meeting. “It’s about safety,” "
        "said council member Zoë O’Connor; shop owner José Müller disagreed.",
        "Stainless steel kettle 1.7 L – $34.99, free shipping")),
}


@dataclass(frozen=True, slots=True)
class Page:
    """One page of the set: its bytes, how it is served, and the text it holds."""

    family: str
    shape: str           # news, forum, product, english
    encoding: str        # what the bytes are in (mixed: "utf-8+windows-1252")
    served: str          # declared, undeclared, utf16-no-bom, mixed
    content_type: str
    body: bytes
    text: str            # the page as meant


def _news(headline: str, body: str) -> str:
    script = ("<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push("
              "arguments)}gtag('js',new Date());gtag('config','G-XXXX');" + "var x=1;" * 200
              + "</script>")
    nav = "".join(f'<li><a href="/section/{i}">Section {i}</a></li>' for i in range(25))
    return (f"<!DOCTYPE html><html><head><title>{headline}</title>{script}"
            "<style>body{font-family:sans-serif}.nav li{display:inline}</style></head>"
            f'<body><ul class="nav">{nav}</ul><article><h1>{headline}</h1><p>{body}</p>'
            f"<p>{body}</p></article><div id=\"cookies\">We use cookies. OK</div></body></html>")


def _forum(headline: str, body: str) -> str:
    return (f"<html><head><title>Forum - {headline}</title></head><body>"
            f'<div class="post"><blockquote>{headline}</blockquote><p>{body}</p>'
            "<p>-- <br>posted from my phone</p></div>"
            f'<div class="post"><p>+1 {body[:80]}</p></div></body></html>')


def _product(product: str) -> str:
    items = "".join(f'<li class="item"><span>{product}</span> <b>#{n}</b></li>' for n in range(8))
    return (f"<html><head><title>{product[:30]}</title></head><body><ul>{items}</ul>"
            "<footer>Terms | Privacy | Contact</footer></body></html>")


def _english(names: str) -> str:
    return ("<html><head><title>Team</title></head><body><h1>Our team</h1>"
            + "<p>We are a small company based in Springfield. " * 6
            + f"Meet {names}.</p></body></html>")


def _writable(text: str, encoding: str) -> bool:
    try:
        text.encode(_codec(encoding))
    except UnicodeEncodeError:
        return False
    return True


def _codec(encoding: str) -> str:
    return {"windows-874": "cp874", "ibm866": "cp866", "koi8-u": "koi8_u",
            "iso-2022-jp": "iso2022_jp", "gbk": "gbk", "x-mac-cyrillic": "mac_cyrillic"}.get(
        encoding, encoding)


def pages() -> list[Page]:
    """Every page of the set (deterministic: the same list on every call)."""
    found: list[Page] = []
    for family, (legacy, (headline, body, product)) in FAMILIES.items():
        shapes = {"news": _news(headline, body), "forum": _forum(headline, body),
                  "product": _product(product)}
        if family in ("english", "western", "german", "iberian"):
            shapes["english"] = _english("Zoë O’Connor, José Müller and Ana Lúcia Brandão")
        for shape, text in shapes.items():
            for encoding in ("utf-8", *legacy):
                if not _writable(text, encoding):
                    continue
                raw = text.encode(_codec(encoding))
                found.append(Page(family, shape, encoding, "declared",
                                  f"text/html; charset={encoding}", raw, text))
                if encoding != "utf-8":
                    found.append(Page(family, shape, encoding, "undeclared", "text/html", raw,
                                      text))
            if shape == "forum":
                found.append(Page(family, shape, "utf-16le", "utf16-no-bom", "text/html",
                                  text.encode("utf-16-le"), text))
    footer = "<footer>© 2009 – Old CMS, it’s “legacy” here</footer></body></html>"
    for family in ("english", "western", "german", "cyrillic", "greek"):
        _, (headline, body, _) = FAMILIES[family]
        head = f"<html><body><h1>{headline}</h1><p>{body}</p>\n"
        found.append(Page(family, "news", "utf-8+windows-1252", "mixed",
                          "text/html; charset=utf-8",
                          head.encode() + footer.encode("cp1252"), head + footer))
    return found


def fields() -> tuple[list[str], list[tuple[str, str, str]]]:
    """Stored fields: (clean values, [(damaged value, how, the true value)])."""
    clean: list[str] = []
    damaged: list[tuple[str, str, str]] = []
    for _, (_, snippets) in FAMILIES.items():
        for snippet in snippets:
            clean.append(snippet)
            raw = snippet.encode("utf-8")
            for how, codec in (("utf-8 read as windows-1252", "cp1252"),
                               ("utf-8 read as windows-1251", "cp1251")):
                with contextlib.suppress(UnicodeDecodeError):
                    damaged.append((raw.decode(codec), how, snippet))
            misread = raw.decode("cp1252", "replace")
            if "\ufffd" in misread:
                damaged.append((misread, "utf-8 read as windows-1252, a byte lost", snippet))
    return clean, damaged
