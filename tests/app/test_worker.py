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


def _released_by(path: str) -> int:
    """Wait (bounded) until ``path`` exists: a job the test lets finish when it chooses."""
    deadline = time.monotonic() + 120
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.02)
    return os.getpid()


def _until(condition, what: str) -> None:
    """Wait for a state (not for a time): fail with ``what`` after a generous bound."""
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)


def test_the_worker_runs_at_a_lower_priority_than_the_server():
    """The child is ``nice``d, so the server's pages (Compare) take the CPU first."""
    assert run_in_worker(os.nice, 0) == min(19, os.nice(0) + ui.worker.NICE)
    assert ui.worker.NICE > 0


def test_at_most_the_cores_but_one_run_at_once():
    assert max(1, (os.cpu_count() or 2) - 1) == ui.worker.MAX_JOBS
    assert ui.worker._queue.slots == ui.worker.MAX_JOBS


def test_jobs_beyond_the_limit_wait_in_line_and_are_told_their_place(monkeypatch, tmp_path):
    """With one slot, three users' jobs run one at a time, in order of arrival; the waiting
    ones are told their place (1: next) and again when it changes."""
    queue = ui.worker.JobQueue(1)
    monkeypatch.setattr(ui.worker, "_queue", queue)
    gates = {name: str(tmp_path / name) for name in "abc"}
    pids: dict[str, int] = {}
    places: dict[str, list[int]] = {"a": [], "b": [], "c": []}

    def user(name: str) -> None:
        pids[name] = run_in_worker(_released_by, gates[name], waiting=places[name].append)

    def seen(name: str) -> list[int]:   # the places told, each change once (ticks repeat it)
        return [p for i, p in enumerate(places[name]) if not i or places[name][i - 1] != p]

    started = ui.worker.jobs_started
    threads = {name: threading.Thread(target=user, args=(name,)) for name in "abc"}
    threads["a"].start()
    _until(lambda: ui.worker.jobs_started == started + 1, "a runs")
    threads["b"].start()
    _until(lambda: seen("b") == [1], "b is next in line")
    threads["c"].start()
    _until(lambda: seen("c") == [2], "c is second in line")
    assert (queue.running, queue.waiting, ui.worker.jobs_started) == (1, 2, started + 1)
    open(gates["a"], "w").close()
    _until(lambda: seen("c") == [2, 1], "c moves up when a is done")
    _until(lambda: ui.worker.jobs_started == started + 2, "b starts")
    assert (queue.running, queue.waiting) == (1, 1) and "b" not in pids and seen("b") == [1]
    open(gates["b"], "w").close()
    open(gates["c"], "w").close()
    for t in threads.values():
        t.join(120)
    assert not places["a"] and len(set(pids.values()) - {os.getpid()}) == 3
    assert (queue.running, queue.waiting, ui.worker.jobs_started) == (0, 0, started + 3)


def test_a_job_whose_user_leaves_while_waiting_leaves_the_line(monkeypatch, tmp_path):
    """Streamlit stops a script with an exception raised in a page callback: the job is not run."""
    queue = ui.worker.JobQueue(1)
    monkeypatch.setattr(ui.worker, "_queue", queue)
    gate = str(tmp_path / "gate")
    started = ui.worker.jobs_started
    first = threading.Thread(target=run_in_worker, args=(_released_by, gate))
    first.start()
    _until(lambda: ui.worker.jobs_started == started + 1, "the first job runs")

    def left(place: int) -> None:
        raise KeyboardInterrupt("the user left")

    with pytest.raises(KeyboardInterrupt):
        run_in_worker(os.getpid, waiting=left)
    assert (queue.running, queue.waiting) == (1, 0)
    open(gate, "w").close()
    first.join(120)
    assert run_in_worker(os.getpid) != os.getpid()
    assert ui.worker.jobs_started == started + 2 and queue.running == 0
