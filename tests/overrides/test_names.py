"""Names compared as people read them: every look-alike of alice@example.com is Alice."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from encoding_core.overrides.names import person_keys, same_person
from encoding_core.overrides.store import OverrideError, OverrideFileError, OverrideStore

CASES = json.loads((Path(__file__).parents[1] / "cases" / "lookalike_names.json")
                   .read_text(encoding="utf-8"))
SAME = [c for c in CASES if c["expect_same"]]
ALICE = "alice@example.com"
NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
REASON = "The header says iso-8859-1 but the body is UTF-8."


@pytest.mark.parametrize("case", CASES, ids=[c["label"] for c in CASES])
def test_lookalike_is_the_same_person(case):
    """Each spelling folds to Alice, or stays someone else, as the case says."""
    assert same_person(case["name"], ALICE) is case["expect_same"]
    assert same_person(ALICE, case["name"]) is case["expect_same"]


def _yaml_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar, every non-ASCII or control character escaped."""
    return '"' + "".join(ch if " " <= ch <= "~" and ch not in '"\\' else f"\\U{ord(ch):08x}"
                         for ch in text) + '"'


def _proposal(tmp_path: Path) -> tuple[OverrideStore, str]:
    store = OverrideStore(tmp_path / "overrides.yaml", clock=lambda: NOW)
    entry = store.propose(host="shop.example.com", encoding="utf-8", reason=REASON,
                          author=ALICE, review_by=NOW.date() + timedelta(days=30))
    return store, entry.id


@pytest.mark.parametrize("case", SAME, ids=[c["label"] for c in SAME])
def test_store_refuses_lookalike_self_approval(tmp_path, case):
    """Approving Alice's proposal under a look-alike of her name is refused; nothing is written."""
    store, ident = _proposal(tmp_path)
    before = store.path.read_bytes()
    with pytest.raises(OverrideError, match="cannot approve it: the approver is never the author"):
        store.approve(ident, reviewer=case["name"])
    assert store.path.read_bytes() == before


@pytest.mark.parametrize("case", SAME, ids=[c["label"] for c in SAME])
def test_file_validator_refuses_lookalike_self_approval(tmp_path, case):
    """The same approval written by hand in the YAML file makes the file invalid."""
    store, ident = _proposal(tmp_path)
    bob = store.approve(ident, reviewer="bob@example.com")
    text = store.path.read_text(encoding="utf-8")
    hand_written = text.replace("approved_by: bob@example.com",
                                "approved_by: " + _yaml_quoted(case["name"]))
    assert hand_written != text and bob.approved_by == "bob@example.com"
    store.path.write_text(hand_written, encoding="utf-8")
    with pytest.raises(OverrideFileError, match=r"approved_by: the approver is never the author"):
        OverrideStore(store.path).entries()


def test_a_name_of_nothing_but_invisible_characters_is_refused(tmp_path):
    """A reviewer name that folds to nothing (a zero-width space, a NUL) is no name."""
    store, ident = _proposal(tmp_path)
    with pytest.raises(OverrideError, match="has no visible letters"):
        store.approve(ident, reviewer="\u200b\u0000")
    assert person_keys("\u200b\u202e.") == ("", "")
