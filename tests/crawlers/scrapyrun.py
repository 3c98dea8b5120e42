"""A real Scrapy crawl in a fresh process (Twisted's reactor cannot be restarted in one).

    python tests/crawlers/scrapyrun.py CONFIG.json OUT.json

CONFIG holds ``urls`` (crawled in order of scheduling, each once), ``settings`` (Scrapy
settings, e.g. ``DOWNLOADER_MIDDLEWARES``) and ``record`` (true: every response's class,
encoding, text and meta go to OUT; false: only counted, as a bench wants). OUT gets
``responses``, the crawl's ``stats``, and ``seconds`` from the first request to the last
response (and ``cpu_seconds``, the crawling process's CPU time over the same span: steadier
than wall time on a shared machine). ``run_crawl`` is the test side: it writes CONFIG, runs
this, reads OUT.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

BASE_SETTINGS: dict[str, Any] = {
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
    "COOKIES_ENABLED": False,
    "RETRY_ENABLED": False,
    "DOWNLOAD_TIMEOUT": 30,
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
}


def run_crawl(tmp: Path, urls: list[str], settings: dict[str, Any], *, record: bool = True,
              timeout: float = 300) -> dict[str, Any]:
    """Crawl ``urls`` with ``settings`` in a subprocess; its responses, stats and time."""
    config, out = tmp / "crawl-config.json", tmp / "crawl-out.json"
    config.write_text(json.dumps({"urls": urls, "settings": settings, "record": record}))
    data = tmp / "app-data"   # never the developer's own overrides file or landing zone
    env = {**os.environ, "ENCODING_TRIAGE_DATA": str(data),
           "ENCODING_TRIAGE_OVERRIDES": str(data / "overrides.yaml"),
           "ENCODING_TRIAGE_LANDING": str(data / "landing")}
    done = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", __file__,
                           str(config), str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, check=False, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    result: dict[str, Any] = json.loads(out.read_text("utf-8"))
    result["stderr"] = done.stderr
    errors = {k: v for k, v in result["stats"].items() if k.startswith("spider_exceptions")}
    assert not errors, (errors, done.stderr[-4000:])
    return result


def _main(config_path: str, out_path: str) -> None:
    sys.path.insert(0, str(ROOT))
    import scrapy
    from scrapy.crawler import CrawlerProcess

    config = json.loads(Path(config_path).read_text("utf-8"))
    responses: list[dict[str, Any]] = []
    clock: dict[str, float] = {}
    record = bool(config["record"])

    class Pages(scrapy.Spider):
        name = "pages"

        async def start(self):  # type: ignore[override]
            clock["start"], clock["cpu_start"] = time.perf_counter(), time.process_time()
            for url in config["urls"]:
                yield scrapy.Request(url, dont_filter=True)

        def parse(self, response):
            # what every spider reads (an image has none)
            text = response.text if isinstance(response, scrapy.http.TextResponse) else ""
            clock["end"], clock["cpu_end"] = time.perf_counter(), time.process_time()
            if record:
                responses.append({
                    "url": response.url, "status": response.status,
                    "cls": type(response).__name__,
                    "encoding": getattr(response, "encoding", None),
                    "text": text, "meta": response.meta.get("encoding_triage"),
                    "capture": response.meta.get("encoding_triage_capture"),
                    "title": response.css("title::text").get()
                    if isinstance(response, scrapy.http.HtmlResponse) else None})
            else:
                responses.append({"length": len(text)})

    process = CrawlerProcess({**BASE_SETTINGS, **config["settings"]})
    crawler = process.create_crawler(Pages)
    process.crawl(crawler)
    process.start()
    stats = {key: (value if isinstance(value, int | float | str) else str(value))
             for key, value in (crawler.stats.get_stats() if crawler.stats else {}).items()}
    from prometheus_client import REGISTRY, generate_latest

    Path(out_path).write_text(json.dumps({
        "responses": responses, "stats": stats,
        "metrics": generate_latest(REGISTRY).decode("utf-8") if record else "",
        "seconds": clock.get("end", 0.0) - clock.get("start", 0.0),
        "cpu_seconds": clock.get("cpu_end", 0.0) - clock.get("cpu_start", 0.0)}))


if __name__ == "__main__":
    _main(sys.argv[1], sys.argv[2])
