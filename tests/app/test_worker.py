"""ui/worker.py: heavy work in a child process, with progress, errors and a bound on jobs."""

from __future__ import annotations

import os
import threading
import time

import pytest

import ui.worker
from encoding_core.fields.csvformat import CsvError
from encoding_core.fields.csvscan import scan_csv
from ui.worker import WorkerError, run_in_worker

CSV = ("id,name\n" + "".join(f"{i},JosÃ© GarcÃ­a {i}\n" for i in range(30_000))).encode()


def _nap(seconds: float) -> tuple[float, float]:
    start = time.monotonic()
    time.sleep(seconds)
    return start, time.monotonic()


def test_the_work_runs_in_a_child_that_is_gone_afterwards():
    """Another process does the work, and it has exited (its memory returned) on return."""
    pid = run_in_worker(os.getpid)
    assert pid != os.getpid()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_scan_gives_the_same_report_with_progress_replayed_here():
    calls: list[tuple[int, int | None]] = []
    report = run_in_worker(scan_csv, CSV, ["name"], None, chunk_bytes=64 * 1024,
                           progress=lambda done, total: calls.append((done, total)))
    here = scan_csv(CSV, ["name"], None)
    assert (report.rows, report.flagged) == (here.rows, here.flagged) == (30_000, 30_000)
    assert calls and calls[-1] == (len(CSV), len(CSV))


def test_the_work_s_exception_is_raised_here_with_its_type():
    with pytest.raises(CsvError, match="binary"):
        run_in_worker(scan_csv, b"\x00\x01\x02" * 100, None, None)


def test_a_worker_that_dies_without_an_answer_is_an_error():
    with pytest.raises(WorkerError, match="exit code 3"):
        run_in_worker(os._exit, 3)


def test_jobs_beyond_the_limit_wait_their_turn(monkeypatch):
    """With one slot, three users' jobs run one after the other; two are told they wait."""
    monkeypatch.setattr(ui.worker, "_slots", threading.BoundedSemaphore(1))
    spans: list[tuple[float, float]] = []
    waited: list[int] = []

    def user() -> None:
        spans.append(run_in_worker(_nap, 0.5, waiting=lambda: waited.append(1)))

    threads = [threading.Thread(target=user) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    spans.sort()
    assert len(spans) == 3 and len(waited) == 2
    assert all(spans[i][1] <= spans[i + 1][0] for i in range(2))   # never two at once
