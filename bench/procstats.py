"""What the load test reads from /proc: memory (RSS) and CPU time of a process tree.

Linux only. The server's tree is the Streamlit process, the workers' forkserver (a fixed
cost once started) and the jobs' worker processes (each gone after its job: its CPU time is
then in the forkserver's ``cutime``).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _is_forkserver(pid: int) -> bool:
    """The forkserver, or multiprocessing's resource tracker beside it: fixed costs."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"forkserver" in cmdline or b"resource_tracker" in cmdline


def server_mb(pid: int) -> tuple[float, float]:
    """RSS in MB of the server process alone, and with its worker processes (the jobs'
    children; not the forkserver, a fixed cost once started: ``forkserver_mb``)."""
    own = _rss_kib(pid)
    jobs = [p for p in _descendants(pid) if not _is_forkserver(p)]
    return own / 1024, (own + sum(_rss_kib(p) for p in jobs)) / 1024


def forkserver_mb(pid: int) -> float:
    return sum(_rss_kib(p) for p in _descendants(pid) if _is_forkserver(p)) / 1024


class Sampler(threading.Thread):
    """The peak of ``server_mb`` while it runs, sampled every 0.2 s."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop = pid, (0.0, 0.0), threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.2):
            own, total = server_mb(self.pid)
            self.peak = (max(self.peak[0], own), max(self.peak[1], total))


def _stat(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def cpu_s(pid: int, children: bool = True) -> float:
    """CPU seconds used by ``pid`` (user and system), with its reaped children's if asked."""
    fields = _stat(pid)
    if not fields:
        return 0.0
    used = fields[11:15] if children else fields[11:13]   # utime stime cutime cstime
    return sum(int(f) for f in used) / TICK


def tree_cpu_s(pid: int) -> float:
    """CPU seconds of ``pid`` and every process below it (live ones, and the reaped ones
    through their parents' ``cutime``)."""
    return sum(cpu_s(p) for p in [pid, *_descendants(pid)])


def machine_cpu_s() -> tuple[float, float]:
    """CPU seconds the whole machine used since boot (every core), and of these the time at
    a lowered priority (``nice``: the jobs' workers, and anything else niced)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / TICK, nice / TICK


def lower_tree(pid: int, nice: int = 19) -> None:
    """Every thread of ``pid`` and of the processes below it at ``nice``. (Chromium sets its
    own processes' and threads' priorities, so a ``nice`` at launch does not hold; the load
    test calls this again and again.)"""
    for process in [pid, *_descendants(pid)]:
        try:
            tasks = [int(t.name) for t in Path(f"/proc/{process}/task").iterdir()]
        except OSError:
            continue
        for task in tasks:
            try:
                if os.getpriority(os.PRIO_PROCESS, task) != nice:
                    os.setpriority(os.PRIO_PROCESS, task, nice)
            except OSError:
                pass
