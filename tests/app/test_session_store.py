"""ui/session_store.py: kept uploads under one server-wide budget, released per session."""

from __future__ import annotations

import platform
import threading
from pathlib import Path

import pytest

from ui.session_store import UploadBudget, return_freed_memory


def test_the_oldest_uploads_go_first_and_the_total_stays_in_budget():
    """Keeping a third 40-byte upload in a 100-byte budget drops the first one only."""
    budget = UploadBudget(limit=100)
    for owner in ("a", "b", "c"):
        assert budget.keep(owner, "csv", owner.encode() * 40)
    assert budget.get("a", "csv") is None
    assert budget.get("b", "csv") == b"b" * 40 and budget.get("c", "csv") == b"c" * 40
    assert budget.total == 80


def test_an_upload_over_the_whole_budget_is_not_kept_and_drops_nothing():
    budget = UploadBudget(limit=100)
    budget.keep("a", "csv", b"a" * 60)
    assert not budget.keep("b", "csv", b"b" * 101)
    assert budget.get("a", "csv") == b"a" * 60 and budget.total == 60


def test_a_new_file_in_a_slot_replaces_the_old_one():
    budget = UploadBudget(limit=100)
    budget.keep("a", "csv", b"1" * 60)
    budget.keep("a", "csv", b"2" * 60)
    assert budget.get("a", "csv") == b"2" * 60 and budget.total == 60


def test_a_released_session_leaves_nothing_behind():
    """release(owner) (its tab disconnected) drops all its uploads, and only its."""
    budget = UploadBudget(limit=1_000)
    budget.keep("a", "csv", b"a" * 100)
    budget.keep("a", "warc", b"w" * 100)
    budget.keep("b", "csv", b"b" * 100)
    budget.release("a")
    assert budget.get("a", "csv") is None and budget.get("a", "warc") is None
    assert budget.get("b", "csv") == b"b" * 100 and budget.total == 100
    budget.forget("b", "csv")
    assert budget.total == 0


def test_concurrent_sessions_keep_the_total_exact():
    """Eight threads (sessions) keeping and releasing at once: the total is what is kept."""
    budget = UploadBudget(limit=5_000)

    def user(n: int) -> None:
        for i in range(200):
            budget.keep(f"s{n}", f"slot{i % 3}", b"x" * (10 + i % 50))
            if i % 7 == 0:
                budget.release(f"s{n}")

    threads = [threading.Thread(target=user, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    kept = sum(len(budget.get(f"s{n}", f"slot{i}") or b"") for n in range(8) for i in range(3))
    assert budget.total == kept <= 5_000


def _rss_mib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_memory_freed_by_a_finished_script_thread_goes_back_to_the_system():
    """A thread (as a script run) leaves 40 MB freed behind one block it still holds: the
    allocator keeps it (RSS stays) until ``return_freed_memory`` hands it back."""
    kept: list[bytearray] = []

    def script_run() -> None:
        blocks = [bytearray(100_000) for _ in range(400)]
        kept.append(blocks[-1])     # the last block pins the heap's top

    thread = threading.Thread(target=script_run)
    thread.start()
    thread.join()
    held = _rss_mib()
    assert return_freed_memory()
    assert _rss_mib() <= held - 25
