"""Stored fields: finding and repairing mojibake in text, and scanning CSV files and frames.

Holds ``find_mojibake`` (``mojibake``, deciding in ``finder``, with its ``prefilter``, the
whole-text re-read ``reread`` and the repair ``chain`` in WHATWG names), reading a CSV in the
encoding the core decides (``csvformat``, ``csvread``, with mixed-encoding lines in ``csvmixed``
and ``csvutf8lines``, and what the read met in ``csvnotes``), and the scan and its report
(``csvscan``, ``scanreport``).

pandas and pyarrow are imported only by ``csvscan``, ``scanreport`` and ``csvnotes``, so a caller
that only decodes never loads them (``encoding_core`` imports ``scan_csv`` lazily).

May import: ``decision``, ``whatwg`` and the root's shared basics; not ``fetch``, ``warc``,
``overrides``, ``views`` or ``cli``.
"""
