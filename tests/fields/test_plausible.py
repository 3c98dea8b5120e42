"""Tests for encoding_core.fields.plausible: whether a repair is clearly better than the text."""

from __future__ import annotations

import pytest

from encoding_core.fields.plausible import (
    _bad_new_chars,
    capitals_reread,
    implausible_repair,
    mixes_scripts,
    quoted_on_purpose,
)


@pytest.mark.parametrize(("text", "repaired"), [
    ("PROVÉ° 3", "PROVɰ 3"),                 # IPA: no CLDR locale writes it
    ("DĹŽKY", "DŎKY"),                        # Ŏ: no CLDR locale writes it
    ("VÝŠE", "V\u074aE"),                     # a Syriac mark on a Latin letter
    ("MŮŽEME", "M\u064eEME"),                 # an Arabic mark on a Latin letter
    ("NASPÄŤ", "NASPč"),                      # a lower-case letter inside capitals
    ("zvlášť", "zvl\u169d"),                  # an Ogham mark inside a word
    ("TÍMABILIÐ— 5", "TÍMABILIЗ 5"),          # a Cyrillic letter inside a Latin word
    ("ab\u00ee\u0080", "ab\ue000"),           # private use
    ("ab", "a\u0378"),                        # unassigned
], ids=["ipa", "rare-letter", "syriac-mark", "arabic-mark", "lower-in-capitals", "ogham",
        "cyrillic-in-latin", "private-use", "unassigned"])
def test_implausible_repairs(text: str, repaired: str) -> None:
    """A repair into what real text hardly holds is not clearly better."""
    assert implausible_repair(text, repaired)


@pytest.mark.parametrize(("text", "repaired"), [
    ("JosÃ© GarcÃ\u00ada", "José García"),
    ("Ð£Ð»Ð¸Ñ†Ð°", "Улица"),
    ("Nguyá»…n", "Nguyễn"),
    ("STRAÃŸE", "STRAßE"),                     # ß has no capital
    ("VOCÃŠ", "VOCÊ"),
    ("itâ€™s", "it’s"),
    ("ÐŸÑ€Ð¸Ð²ÐµÑ‚ 👍", "Привет 👍"),
], ids=["spanish", "cyrillic", "vietnamese", "sharp-s", "capitals", "quote", "emoji"])
def test_plausible_repairs(text: str, repaired: str) -> None:
    """Repairs into letters some locale writes and common symbols stand."""
    assert not implausible_repair(text, repaired)


def test_capitals_reread() -> None:
    """A word of capitals changed by a re-read is asked about; mixed case and symbols are not."""
    assert capitals_reread("DĹŽKA", "DŮKA") and capitals_reread("a PÄŤ b", "a Pč b")
    assert not capitals_reread("JosÃ©", "José")
    assert not capitals_reread("О‘ОёО®ОЅО±", "Αθήνα")   # the token holds symbols


def test_mixes_scripts() -> None:
    """A word's letters from two scripts mix; Japanese kana and kanji do not."""
    assert mixes_scripts("TÍMABILIЗ") and not mixes_scripts("東京タワー")
    assert not mixes_scripts("Straße")


@pytest.mark.parametrize(("text", "repaired", "spans", "expected"), [
    ("medicină → medicinÄƒ", "medicină → medicină", ((15, 17),), True),
    ("Look for `Ã©`.", "Look for `é`.", ((10, 12),), True),
    ("„Ã©“ ist typisch", "„é“ ist typisch", ((1, 3),), True),
    ("« Ã© » ou « é »", "« é » ou « é »", ((2, 4),), True),
    ("JosÃ© said", "José said", ((3, 5),), False),
    ("José and JosÃ©", "José and José", ((12, 14),), False),   # no quote nor arrow
    ('"JosÃ©" said', '"José" said', ((4, 6),), False),          # damage inside a quoted word
], ids=["arrow", "backticks", "german-quotes", "guillemets", "damaged", "joined", "quoted-word"])
def test_quoted_on_purpose(text: str, repaired: str, spans: tuple[tuple[int, int], ...],
                           expected: bool) -> None:
    """Prose that shows mojibake beside its repair, or quotes a bare sequence, is not damage."""
    assert quoted_on_purpose(text, repaired, spans) is expected


def test_script_punctuation_and_marks_are_judged_in_one_pass() -> None:
    """Many scripts' punctuation and marks in one long repair (each used to rescan the whole
    text: a few hundred of them in 160,000 characters took 7 s): a script's punctuation
    stands where a letter of that script is anywhere in the text, a mark where it sits on a
    letter of its own script, and the first one that does not is named."""
    hebrew, arabic, armenian = "\u05be", "\u060c", "\u0589"   # ־ ، ։
    filler = "一" * 50_000
    ok = f"{hebrew} {arabic} {armenian} {filler} שלום سلام բարև"
    assert _bad_new_chars({hebrew, arabic, armenian}, ok) is None
    assert not implausible_repair("x", ok, words_checked=True)
    lacking = f"{hebrew} {arabic} {armenian} {filler} שלום سلام"   # no Armenian letter
    assert _bad_new_chars({hebrew, arabic, armenian}, lacking) == armenian
    shadda = "\u0651"   # an Arabic mark: on an Arabic letter, then on a Latin one
    assert _bad_new_chars({shadda}, f"{filler} س{shadda}") is None
    assert _bad_new_chars({shadda}, f"{filler} س{shadda} a{shadda}") == shadda
    assert implausible_repair("x", f"{filler} a{shadda}")
