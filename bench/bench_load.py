"""Load test: several users uploading and scanning CSV files at once, one user on Compare.

Usage: ``.venv/bin/python bench/bench_load.py [--quick] [--users N] [--mb M] [--rounds R]``
(``make bench BENCH_ARGS="--quick --load"`` runs it from bench/run.py).

A real Streamlit server (``python -m streamlit run app.py`` on 127.0.0.1, a free port, data
folders in a temporary directory) and real Chromium (Debian's, through Playwright):

1. a Compare user switches between two bundled samples ``--compare`` times while the server
   is idle: the seconds from choosing a sample to its decision on screen (the median);
2. ``--users`` users each upload a ``--mb`` MB CSV on the CSV scan page and wait for the
   scan (``--rounds`` times, a new tab each round, closed after it), while the Compare user
   goes on switching: the median again, and its ratio to the idle one (target: under 2);
   the idle switches are measured again after the scans, and the ratio is given to both, with
   the machine's load average, since other work on the machine moves every time;
3. the server's memory (RSS of the server process and its worker processes, from /proc):
   at baseline (the Compare user connected), the peak during the scans, a few seconds after
   the uploaders' tabs closed, and after ``server.disconnectedSessionTTL`` plus a visit
   (Streamlit drops an expired session only at the next disconnect).

Each scan's row count is checked against the file. Bounded: the users, rounds and sizes
above, a timeout on every wait. Linux only (/proc).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from procstats import (
    Sampler,
    cpu_s,
    forkserver_mb,
    lower_tree,
    machine_cpu_s,
    server_mb,
    tree_cpu_s,
)

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ROOT / "bench" / "texts"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Two bundled samples and the decision Compare shows for each.
SAMPLES = (("header_lies_utf8", "windows-1252"), ("gbk_meta", "gbk"))
READY = ('[data-testid="stApp"][data-test-connection-state="CONNECTED"]'
         '[data-test-script-state="notRunning"]')


def build_csv(path: Path, megabytes: float) -> int:
    """A CSV of about ``megabytes`` MB: sentences from bench/texts, a third of the names
    turned to mojibake (UTF-8 read as windows-1252); the number of data rows."""
    sentences = [line.strip() for p in sorted(TEXTS.glob("*.txt"))
                 for line in p.read_text("utf-8").splitlines()
                 if line.strip() and not line.startswith("#")]
    rng = random.Random(28)
    rows, size, lines = 0, 0, ["id,name,note,url"]
    while size < megabytes * 1e6:
        text = rng.choice(sentences)[:120].replace('"', "'")
        name = " ".join(text.split()[:3])
        if rows % 3 == 0:
            name = name.encode("utf-8").decode("windows-1252", "replace")
        line = f'{rows},"{name}","{text}",http://host{rows % 40}.example/{rows}'
        lines.append(line)
        size += len(line.encode()) + 1
        rows += 1
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return rows


def start_server(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, ENCODING_TRIAGE_DATA=str(data),
               ENCODING_TRIAGE_OVERRIDES=str(data / "overrides.yaml"),
               ENCODING_TRIAGE_LANDING=str(data / "landing"))
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
           "--server.address", "127.0.0.1", "--server.port", str(port),
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    log = open(data / "streamlit.log", "wb")  # noqa: SIM115 (open while the server runs)
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(f"{url}/_stcore/health", timeout=1).text == "ok":
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise SystemExit(f"streamlit did not start:\n{(data / 'streamlit.log').read_text()}")


async def compare_switch(page: Any, i: int) -> float:
    """Choose the next sample on Compare; seconds until its decision is on screen."""
    from playwright.async_api import expect

    name, encoding = SAMPLES[i % 2]
    box = page.locator(".st-key-compare_sample input")
    await page.locator(READY).wait_for(timeout=300_000)
    start = time.monotonic()
    await box.click()
    await box.fill(name)
    await page.keyboard.press("Enter")
    await expect(page.get_by_test_id("stMetricValue").first).to_have_text(encoding,
                                                                          timeout=300_000)
    return time.monotonic() - start


async def warm_scan(browser: Any, url: str) -> None:
    """One visit to CSV scan that scans a bundled sample: the modules the page loads once
    (pandas, Altair, the scan) and the workers' forkserver are in the baseline, not counted
    as memory held after the users left."""
    from playwright.async_api import expect

    context = await browser.new_context(base_url=url)
    page = await context.new_page()
    await page.goto("/csv-scan")
    await page.locator(READY).wait_for(timeout=300_000)
    await page.locator(".st-key-csv_sample button").click()
    await expect(page.get_by_test_id("stMetric").filter(has_text="Rows")).to_be_visible(
        timeout=300_000)
    await context.close()


async def uploader(browser: Any, url: str, csv: Path, rows: int, rounds: int,
                   times: list[float]) -> None:
    from playwright.async_api import expect

    for _ in range(rounds):
        context = await browser.new_context(base_url=url, viewport={"width": 1400,
                                                                    "height": 1000})
        page = await context.new_page()
        await page.goto("/csv-scan")
        await page.locator(READY).wait_for(timeout=300_000)
        start = time.monotonic()
        await page.locator(".st-key-csv_upload input[type=file]").set_input_files(str(csv))
        value = page.get_by_test_id("stMetric").filter(has_text="Rows").get_by_test_id(
            "stMetricValue")
        await expect(value).to_have_text(f"{rows:,}", timeout=900_000)
        times.append(time.monotonic() - start)
        await context.close()


def cpu_now(pid: int) -> dict[str, float]:
    """CPU seconds so far: the server's process, its workers, this bench and its browsers,
    the whole machine, and the machine's time at a lowered priority."""
    server, machine = tree_cpu_s(pid), machine_cpu_s()
    own, bench = cpu_s(pid, children=False), cpu_s(os.getpid(), children=False)
    return {"server": own, "workers": server - own, "bench": bench,
            "browsers": tree_cpu_s(os.getpid()) - server - bench,
            "machine": machine[0], "niced": machine[1]}


def pid_telling_chromium(folder: Path) -> tuple[str, Path]:
    """A launcher of Chromium that writes the browser's process id to a file (then
    ``keep_lowered`` holds it at the lowest priority: the uploaders' browsers stand for
    browsers on the users' own machines, not on the server's cores)."""
    launcher, pid_file = folder / "chromium-pid", folder / "chromium.pid"
    launcher.write_text(f'#!/bin/sh\necho $$ > {pid_file}\nexec {CHROMIUM} "$@"\n')
    launcher.chmod(0o755)
    return str(launcher), pid_file


async def keep_lowered(pid_file: Path) -> None:
    """Every half second, every thread of that browser back at nice 19 (until cancelled)."""
    while True:
        lower_tree(int(pid_file.read_text()))
        await asyncio.sleep(0.5)


async def run(args: argparse.Namespace, url: str, pid: int, csv: Path, rows: int,
              ttl: int) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        others, lowering = browser, None
        if not args.same_priority:
            launcher, pid_file = pid_telling_chromium(csv.parent)
            others = await p.chromium.launch(executable_path=launcher, headless=True, args=ARGS)
            lowering = asyncio.create_task(keep_lowered(pid_file))
        context = await browser.new_context(base_url=url, viewport={"width": 1400,
                                                                    "height": 1000})
        page = await context.new_page()
        await page.goto("/compare")
        await page.locator(READY).wait_for(timeout=300_000)
        for i in range(2):                       # warm: both samples cached once
            await compare_switch(page, i)
        await asyncio.sleep(2)
        first = server_mb(pid)
        await warm_scan(browser, url)
        await asyncio.sleep(5)
        baseline = server_mb(pid)
        load_before = os.getloadavg()[0]
        idle = [await compare_switch(page, i) for i in range(args.compare)]
        sampler = Sampler(pid)
        sampler.start()
        cpu_before, wall_before = cpu_now(pid), time.monotonic()
        scans: list[float] = []
        users = [asyncio.create_task(uploader(others, url, csv, rows, args.rounds, scans))
                 for _ in range(args.users)]
        await asyncio.sleep(3)                   # the uploads are in, the scans running
        loaded: list[float] = []
        i = 0
        while not all(u.done() for u in users):
            loaded.append(await compare_switch(page, i))
            i += 1
        for u in users:
            u.result()                           # a failed user fails the run
        sampler.stop.set()
        cpu_after, wall = cpu_now(pid), time.monotonic() - wall_before
        cpu = {k: cpu_after[k] - v for k, v in cpu_before.items()}
        await asyncio.sleep(5)
        after_close = server_mb(pid)
        idle_after = [await compare_switch(page, i) for i in range(args.compare)]
        await asyncio.sleep(ttl)
        probe = await browser.new_context(base_url=url)
        probe_page = await probe.new_page()
        await probe_page.goto("/")
        await probe_page.locator(READY).wait_for(timeout=300_000)
        await probe.close()                      # this disconnect drops the expired sessions
        await asyncio.sleep(5)
        after_ttl = server_mb(pid)
        forkserver = forkserver_mb(pid)
        await context.close()
        await browser.close()
        if lowering is not None:
            lowering.cancel()
            await others.close()
    return {"first_mb": first, "baseline_mb": baseline, "peak_mb": sampler.peak,
            "after_close_mb": after_close,
            "after_ttl_mb": after_ttl, "forkserver_mb": forkserver, "compare_idle_s": idle,
            "compare_loaded_s": loaded, "compare_idle_after_s": idle_after, "scan_s": scans,
            "loadavg": (load_before, os.getloadavg()[0]), "cpu": cpu, "wall": wall}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 users, 4 MB, 1 round")
    parser.add_argument("--users", type=int, default=None)
    parser.add_argument("--mb", type=float, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--compare", type=int, default=None, help="idle Compare switches")
    parser.add_argument("--same-priority", action="store_true",
                        help="the uploaders' browser at the Compare user's priority (by "
                             "default at nice 19: other users' browsers are not on the server)")
    args = parser.parse_args(argv)
    args.users = args.users or (2 if args.quick else 4)
    args.mb = args.mb or (4 if args.quick else 20)
    args.rounds = args.rounds or (1 if args.quick else 3)
    args.compare = args.compare or 8
    if not Path(CHROMIUM).exists():
        print("bench_load: no Chromium at /usr/bin/chromium, skipped")
        return 0
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text("utf-8"))
    ttl = int(config["server"].get("disconnectedSessionTTL", 120))
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        data = Path(tmp)
        csv = data / "load.csv"
        rows = build_csv(csv, args.mb)
        size_mb = csv.stat().st_size / 1e6
        proc, url = start_server(data)
        try:
            result = asyncio.run(run(args, url, proc.pid, csv, rows, ttl))
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    idle = statistics.median(result["compare_idle_s"])
    idle_after = statistics.median(result["compare_idle_after_s"])
    loaded = statistics.median(result["compare_loaded_s"])
    print(f"{args.users} users x {args.rounds} rounds, a {size_mb:.1f} MB CSV "
          f"({rows:,} rows) each; disconnectedSessionTTL {ttl} s")
    print(f"scan, upload to result on screen: median {statistics.median(result['scan_s']):.1f}"
          f" s over {len(result['scan_s'])} scans (max {max(result['scan_s']):.1f} s)")
    print(f"Compare, a sample switch: idle {idle:.2f} s (median of "
          f"{len(result['compare_idle_s'])}), while others scan {loaded:.2f} s (median of "
          f"{len(result['compare_loaded_s'])}): ratio {loaded / idle:.2f} "
          + ("MET (< 2)" if loaded / idle < 2 else "NOT MET (target < 2)"))
    print(f"Compare idle again after the scans: {idle_after:.2f} s (median of "
          f"{len(result['compare_idle_after_s'])}): ratio {loaded / idle_after:.2f}; loaded "
          f"switches {min(result['compare_loaded_s']):.2f}-{max(result['compare_loaded_s']):.2f}"
          f" s; load average {result['loadavg'][0]:.1f} before, {result['loadavg'][1]:.1f} "
          "after (2 cores)")
    cpu = result["cpu"]
    rest = cpu["machine"] - sum(cpu[k] for k in ("server", "workers", "bench", "browsers"))
    print(f"CPU seconds while others scanned ({result['wall']:.0f} s wall, "
          f"{2 * result['wall']:.0f} core-s on 2 cores): server {cpu['server']:.1f}, workers "
          f"{cpu['workers']:.1f}, this bench {cpu['bench']:.1f}, the browsers "
          f"{cpu['browsers']:.1f}, the rest "
          f"of the machine {rest:.1f}"
          f" (niced, all processes: {cpu['niced']:.1f}); uploaders' browser "
          + ("at the same priority" if args.same_priority else "at nice 19"))
    for label, key in (("with Compare open, before any scan", "first_mb"),
                       ("baseline (after one sample scan in a tab since closed)", "baseline_mb"),
                       ("peak during scans", "peak_mb"),
                       ("5 s after the uploaders closed their tabs", "after_close_mb"),
                       (f"after the TTL ({ttl} s) and a visit", "after_ttl_mb")):
        own, total = result[key]
        print(f"server RSS, {label}: {own:,.0f} MB (with workers {total:,.0f} MB)")
    print(f"the workers' forkserver (started with the first scan, encoding_core imported "
          f"once): {result['forkserver_mb']:,.0f} MB")
    base = result["baseline_mb"][1]
    print(f"held after the users left: {result['after_close_mb'][1] - base:+,.0f} MB at once, "
          f"{result['after_ttl_mb'][1] - base:+,.0f} MB after the TTL")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
