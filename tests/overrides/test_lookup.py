"""Tests for overrides.lookup: the snapshot a Spark job ships applies what the store applies."""

from __future__ import annotations

import pickle
from datetime import UTC, datetime, timedelta

from encoding_core.overrides.lookup import ActiveOverrides
from encoding_core.overrides.store import OverrideStore

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
REASON = "the header says iso-8859-1; the bytes are utf-8 on every sampled page"


def test_the_snapshot_answers_as_the_store_and_survives_pickling(tmp_path):
    store = OverrideStore(tmp_path / "overrides.yaml", clock=lambda: NOW)
    for host, encoding, days in (("shop.example", "utf-8", 90), ("*.shop.example", "gbk", 1)):
        entry = store.propose(host=host, encoding=encoding, reason=REASON, author="ada",
                              review_by=NOW.date() + timedelta(days=days))
        store.approve(entry.id, reviewer="bob")
    store.propose(host="other.example", encoding="shift_jis", reason=REASON, author="ada",
                  review_by=NOW.date() + timedelta(days=9))
    snapshot = pickle.loads(pickle.dumps(ActiveOverrides.of(store)))
    hosts = ["shop.example", "a.shop.example", "other.example", "nowhere.test"]
    assert [snapshot(h) for h in hosts] == [
        e.encoding if (e := store.active_for(h)) else None for h in hosts]
    assert [snapshot(h) for h in hosts] == ["utf-8", "gbk", None, None]
    assert snapshot.approved == 2
    later = ActiveOverrides.of(store, NOW.date() + timedelta(days=5))
    assert later("a.shop.example") is None and later.approved == 1
