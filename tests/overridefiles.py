"""Overrides files for tests: an approved override, proposed and approved by two people."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from encoding_core.overrides.model import SiteOverride
from encoding_core.overrides.store import OverrideStore


def approved_override(path: Path, host: str, encoding: str = "utf-8") -> SiteOverride:
    """Write (or add to) the overrides file at ``path`` an override approved for 30 days."""
    store = OverrideStore(path)
    entry = store.propose(host=host, encoding=encoding, author="alice@example.com",
                          reason="The header says iso-8859-1 but the body has been UTF-8 "
                                 "since the migration.",
                          review_by=date.today() + timedelta(days=30))
    return store.approve(entry.id, reviewer="bob@example.com")
