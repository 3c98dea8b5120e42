"""WARC: captures as WARC records, the landing zone, reading a crawl's files, host reports.

Holds a capture's WARC form (``capture``), the landing zone that keeps raw bytes for a few days
so a mis-decode can be re-run without a re-crawl (``landing``, seed 000), reading the response
records of a WARC file (``warcfile``), the page behind a host-report row (``reportpage``: a
report file's WARC file found by name among a folder's WARC files) and seed 000's per-host
numbers over a WARC file or a URL list (``hostreport``; its JSON read back, ``hostjson``).

May import: ``fetch``, ``decision``, ``whatwg`` and the root's shared basics; not ``fields``,
``overrides``, ``views`` or ``cli``.
"""
