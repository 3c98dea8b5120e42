"""A short sample's doubt lifted only when every other reading is worse (``decision.settled``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.decision._alphabets import ALPHABETS
from encoding_core.decision._plausibility import MAX_CACHED_WORD
from encoding_core.decision.detect import Detection
from encoding_core.decision.settled import (
    _cached_word_letters,
    _letters_of_word,
    _word_letters,
    letters,
    one_language,
    one_language_reference,
    settle,
    settled_reason,
)
from encoding_core.whatwg.decoders import decode_strict
from tests.repomodules import repo_module


def _strict(body: bytes):
    def strict(encoding: str) -> bool:
        try:
            decode_strict(body, encoding)
        except (UnicodeDecodeError, LookupError):
            return False
        return True
    return strict


# (text, Python codec of its bytes, the encoding judged, settled?)
READINGS = [
    ("Das Königreich würden wir dafür loben.", "cp1252", "windows-1252", True),
    ("In België zegt men één keer Juárez.", "cp1252", "windows-1252", True),
    ("Le cœur a ses raisons que la raison ne connaît point.", "mac_roman", "macintosh", True),
    # the Czech reading (lunedě č puň) is one language's letters: a rival that could be right
    ("Il lunedì è tardi, ma può andare.", "cp1252", "windows-1252", False),
    # the wrong reading (c\u00cfur) has implausible characters of its own
    ("Le cœur a ses raisons que la raison ne connaît point.", "mac_roman", "windows-1252", False),
    # both readings are a language's letters: Croatian č, or French/Italian è
    ("Jezik čerokijski, mjesec veljače, grad Čile.", "cp1250", "windows-1250", False),
    ("Jezik čerokijski, mjesec veljače, grad Čile.", "cp1250", "windows-1252", False),
]


@pytest.mark.parametrize(("text", "codec", "encoding", "settled"), READINGS,
                         ids=[f"{r[2]}-{r[0][:12]}" for r in READINGS])
def test_settled_reason(text: str, codec: str, encoding: str, settled: bool) -> None:
    """Settled only when each other reading that decodes the bytes reads worse."""
    body = text.encode(codec)
    assert (settled_reason(body, encoding, _strict(body)) is not None) is settled


def test_letters_compose_marks_and_keep_strays():
    """NFC composes a letter with its mark; a mark that composes with nothing stays with it."""
    assert letters("Grüße KÖLN") == {"ü", "ß", "ö"}
    assert letters("pu\u0323") == {"ụ"}          # windows-1258 writes tones as marks
    assert letters("d\u0301") == {"d\u0301"}     # no language's letter
    assert not one_language(letters("d\u0301"))


def _letters_word_by_word(text: str) -> frozenset[str]:
    """``letters`` as it reads: each word of ``text`` with a non-ASCII character, its letters."""
    found: set[str] = set()
    for word in text.split():
        if not word.isascii():
            found |= letters(word)
    return frozenset(found)


_WORDISH = st.lists(st.sampled_from([*"aZ é\u0301ßÖ\u00a0\u2003\t\nяω中½", "d\u0301"]),
                    max_size=60).map("".join)


@settings(max_examples=300, deadline=None)
@given(_WORDISH)
def test_letters_are_each_words_letters(text: str) -> None:
    """``letters`` reads each distinct non-ASCII word once (in C-level passes), with the same
    answer as reading every word in turn (Unicode spaces split words as ``str.split`` does)."""
    assert letters(text) == _letters_word_by_word(text)


def test_one_language():
    """Dutch letters are one language's; Dutch with Lithuanian ė and į is none's."""
    assert one_language("éëá") and one_language("ąčęėįšųūž")
    assert not one_language("ėįé")
    assert one_language(())


_ALL_LETTERS = sorted({letter for _name, alphabet in ALPHABETS for letter in alphabet}
                      | {"d\u0301", "ß", "ẞ", "ǆ", "я", "ω", "ا", "中"})


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_ALL_LETTERS), max_size=12))
def test_one_language_is_its_reference(found: list[str]) -> None:
    """A letter at a time (``one_language``) is some alphabet holding them all."""
    assert one_language(found) is one_language_reference(found)
    assert one_language(frozenset(found)) is one_language_reference(found)


def test_alphabets_are_lower_case_non_ascii_letters():
    """The generated table: lower-case, non-ASCII letters below U+0590, per language."""
    names = [name for name, _ in ALPHABETS]
    assert len(names) == len(set(names)) > 100
    for _name, alphabet in ALPHABETS:
        assert all(not c.isascii() and c < "\u0590" and c == c.lower() for c in alphabet)
    assert "ë" in dict(ALPHABETS)["nl"] and "ė" in dict(ALPHABETS)["lt"]


def test_settle_keeps_a_sure_answer_and_lifts_a_settled_doubt():
    """A sure answer is returned as is; a settled doubt loses needs_review and says why."""
    body = "Das Königreich würden wir dafür loben.".encode("cp1252")
    sure = Detection("windows-1252", 0.95, False, "agree")
    assert settle(sure, body, _strict(body)) is sure
    lifted = settle(Detection("windows-1252", 0.95, True, "agree"), body, _strict(body))
    assert not lifted.needs_review and "settled" in lifted.reason
    unsure = Detection("windows-1252", 0.95, True, "agree")
    italian = "Il lunedì è tardi, ma può andare.".encode("cp1252")
    assert settle(unsure, italian, _strict(italian)) is unsure


def test_alphabets_are_generated_from_the_copied_cldr_data():
    """``_alphabets`` is what scripts/gen_cldr_alphabets.py makes of conformance/cldr-characters."""
    script = repo_module("gen_cldr_alphabets", "scripts")
    assert {name: frozenset(letters)
            for name, letters in script.alphabets(script.SOURCE).items()} == dict(ALPHABETS)


@given(st.text(alphabet="abЖжéÉ\u0301ı", min_size=1, max_size=MAX_CACHED_WORD * 2))
def test_a_words_letters_are_the_same_remembered_or_not(word):
    assert _word_letters(word) == _letters_of_word(word) == _word_letters(word)


def test_a_long_words_letters_are_not_remembered():
    """As the plausibility scores: a hostile run of letters is not held by the cache."""
    _cached_word_letters.cache_clear()
    assert letters("Grüße " + "жé" * MAX_CACHED_WORD) == frozenset("üßжé")
    assert _cached_word_letters.cache_info().currsize == 1   # (Grüße's)
