"""Tests for rare Latin answers against windows-1252 (encoding_core.decision.rare_latin)."""

from __future__ import annotations

import pytest

from encoding_core.decision.rare_latin import prefer_windows_1252

FRENCH = "Le café est à côté de la gare, très bien. Déjà vu. "
LATVIAN = "Rīga ir Latvijas galvaspilsēta, šī žurnāla pilsēta ar ūdeni. "
PLAIN = "Le café est un côté de la gare. "   # é and ô: the same in iso-8859-10
CZECH = "Příliš žluťoučký kůň úpěl ďábelské ódy. "


@pytest.mark.parametrize(("body", "answer", "western", "differs"), [
    # old mojibake gives iso-8859-10 its edge: set aside, the rest reads the same
    ((PLAIN * 4).encode("cp1252") + "SÃ£o".encode("cp1252"), "iso-8859-10", True, False),
    # French read as iso-8859-13 (ā for ã...): windows-1252 no less plausible, text differs
    ((FRENCH * 4).encode("cp1252"), "iso-8859-13", True, True),
    # windows-1250 is not rare: a Czech page keeps it (ř as ø would read as letters)
    ((CZECH * 4).encode("cp1250"), "windows-1250", False, False),
    # Latvian's š ž read as windows-1252 are ð þ, rare letters: the Baltic reading stands
    ((LATVIAN * 4).encode("iso-8859-13"), "iso-8859-13", False, False),
], ids=["old-mojibake", "french-as-baltic", "czech", "latvian"])
def test_prefer_windows_1252(body: bytes, answer: str, western: bool, differs: bool) -> None:
    """windows-1252 replaces a rare Latin answer only where it reads as well."""
    found = prefer_windows_1252(answer, body)
    assert (found is not None) is western
    if found is not None:
        assert found[1] is differs


def test_chardetng_agreeing_keeps_the_rare_answer() -> None:
    """Rule 2 yields to chardetng, which weighs the web's priors itself."""
    body = (FRENCH * 4).encode("cp1252")
    assert prefer_windows_1252("iso-8859-13", body, chardetng_agrees=True) is None
