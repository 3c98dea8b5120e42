"""Heavy work (a CSV or Parquet scan, a host report over a WARC file) in a worker process.

A scan is pure Python: run in the Streamlit server it holds the interpreter for seconds, and
every other user's page waits (issue 28: a Compare went from 0.5 s to 2.4 s while four scans
ran), and the allocator keeps its high-water mark after the work. ``run_in_worker`` runs one
``encoding_core`` call in a child process instead:

- one child per job, started from a ``forkserver`` that has ``encoding_core`` imported (a
  fork of it starts in milliseconds); the child exits after its job, so its memory goes back
  to the system;
- at most ``MAX_JOBS`` at once on the server (the cores but one, at least one), so a core is
  left to the server's pages; a job beyond waits its turn, first come first served, and the
  page is told its place in the queue (``waiting``) whenever it changes, and every
  ``WAIT_TICK`` seconds (each call lets Streamlit stop a script whose user left);
- the child lowers its own priority by ``NICE`` (``os.nice``): a user's interactive page
  (Compare runs on the server's thread) takes the CPU first, and a scan uses what is left.
  On a machine shared with other busy work a scan gets slower by as much; that is the
  trade (issue 28: a Compare stays under twice its idle time while others scan);
- progress is sent back over a pipe, throttled, and reported on the caller's thread, where the
  page's progress bar lives; the result or the exception comes back the same way;
- when the caller stops waiting (the user left the page: Streamlit stops the script with an
  exception raised in the progress callback), the child is ended.

This module never imports Streamlit, so the child does not load it.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar, cast

from encoding_core.wording import plural

R = TypeVar("R")
Progress = Callable[[int, "int | None"], None]
#: Told the job's place in the queue (1: the next to start).
Waiting = Callable[[int], object]

#: Jobs running at once on this server: leave a core to the server and its pages.
MAX_JOBS = max(1, (os.cpu_count() or 2) - 1)
#: How much the child lowers its priority (``os.nice``; 19 is the lowest).
NICE = 10
#: Seconds between two progress messages from a child (each one redraws a progress bar in
#: the server and in the user's browser: CPU taken from the other users' pages).
PROGRESS_EVERY = 0.25
#: Seconds between two calls of ``waiting`` while the place in the queue stays the same.
WAIT_TICK = 1.0
#: What the forkserver imports once, so that each child starts with it.
PRELOAD = ["encoding_core.fields.csvscan", "encoding_core.fields.parquetscan",
           "encoding_core.warc.hostreport", "ui.override_lookup", "ui.worker"]

_context: Any = None
_context_lock = threading.Lock()
#: Jobs started since the server started (tests count them).
jobs_started = 0


class WorkerError(RuntimeError):
    """The worker ended without an answer (killed, or out of memory)."""


class JobQueue:
    """``slots`` jobs at once; the others wait first come, first served, and know their place."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._running = 0
        self._line: deque[object] = deque()
        self._changed = threading.Condition()

    @property
    def running(self) -> int:
        return self._running

    @property
    def waiting(self) -> int:
        return len(self._line)

    def acquire(self, waiting: Waiting | None = None) -> None:
        """Take a slot, waiting in line if none is free; ``waiting`` is called outside the
        lock with the place in line (1: next), on each change and every ``WAIT_TICK`` s.
        If it raises (the user left), the job leaves the line."""
        ticket = object()
        told = 0
        with self._changed:
            self._line.append(ticket)
        try:
            while True:
                with self._changed:
                    while True:
                        if self._line[0] is ticket and self._running < self.slots:
                            self._line.popleft()
                            self._running += 1
                            self._changed.notify_all()
                            return
                        place = self._line.index(ticket) + 1
                        if place != told or not self._changed.wait(WAIT_TICK):
                            break
                told = place
                if waiting is not None:
                    waiting(place)
        except BaseException:
            with self._changed:
                if ticket in self._line:
                    self._line.remove(ticket)
                self._changed.notify_all()
            raise

    def release(self) -> None:
        with self._changed:
            self._running -= 1
            self._changed.notify_all()


_queue = JobQueue(MAX_JOBS)


def waiting_place(place: int) -> str:
    """A place in the queue in words, for a waiting page.

    >>> waiting_place(1), waiting_place(3)
    ('next in line', '2 jobs ahead in line')
    """
    return f"{plural(place - 1, 'job')} ahead in line" if place > 1 else "next in line"


def _forkserver() -> Any:
    global _context
    with _context_lock:
        if _context is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            _context = context
        return _context


def run_in_worker(fn: Callable[..., R], /, *args: Any, progress: Progress | None = None,
                  waiting: Waiting | None = None, **kwargs: Any) -> R:
    """``fn(*args, **kwargs)`` in a child process; its result, or its exception raised here.

    ``fn`` and its arguments are pickled (a module-level function, plain data). With
    ``progress``, ``fn`` gets a ``progress`` callback too, whose calls are replayed here.
    ``waiting`` is called with the job's place in the queue while every slot is taken.
    """
    global jobs_started
    _queue.acquire(waiting)
    try:
        here, there = _forkserver().Pipe(duplex=True)
        child = _forkserver().Process(target=_work, args=(there, progress is not None),
                                      daemon=True, name="encoding-triage-worker")
        child.start()
        with _context_lock:
            jobs_started += 1
        there.close()
        try:
            here.send((fn, args, kwargs))
            return cast(R, _answer(here, child, progress))
        finally:
            here.close()
            if child.is_alive():
                child.terminate()
            child.join()
    finally:
        _queue.release()


def _answer(conn: Connection, child: Any, progress: Progress | None) -> Any:
    """Replay the child's progress until its result or exception arrives."""
    while True:
        wait([conn, child.sentinel])
        try:
            kind, payload = conn.recv()
        except EOFError:
            child.join(5)
            raise WorkerError(f"the worker ended without an answer (exit code "
                              f"{child.exitcode})") from None
        if kind == "progress" and progress is not None:
            progress(*payload)
        elif kind == "done":
            return payload
        elif kind == "error":
            raise payload


def _work(conn: Connection, with_progress: bool) -> None:  # pragma: no cover (in the child)
    """The child: lower its priority, receive the job, run it, send progress and the answer."""
    os.nice(NICE)
    fn, args, kwargs = conn.recv()
    last = 0.0

    def report(done: int, total: int | None) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= PROGRESS_EVERY or (total is not None and done >= total):
            last = now
            conn.send(("progress", (done, total)))

    if with_progress:
        kwargs = {**kwargs, "progress": report}
    try:
        answer: tuple[str, Any] = ("done", fn(*args, **kwargs))
    except Exception as exc:   # the caller re-raises it: CsvError, ParquetError, ...
        answer = ("error", exc)
    try:
        conn.send(answer)
    except Exception as exc:   # an unpicklable answer is still an answer
        conn.send(("error", WorkerError(f"{type(answer[1]).__name__}: {answer[1]} "
                                        f"(could not be sent back: {exc})")))
    conn.close()
