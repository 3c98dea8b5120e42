"""The decision: which encoding a body is in, by which source, and what contradicts it.

Holds ``decode`` (``decode``; what it reads of a body before any walk, and the recalled
page decided there, in ``front``, compiled by ``_front_c.pyx`` where built), the walk over the
sources and what a browser would use (``resolve``; walks remembered by their opinions in
``tracememo``), one encoding's strict
reading (``attempt``), statistical detection (``detect``, with its voters, quick path and
ensemble in ``_voters``, ``_agreement``, ``_ensemble``, ``_plausibility``, whose byte test
is ``_bytetest``; rare Latin answers weighed against windows-1252 in ``rare_latin``;
a doubt no other reading supports lifted in ``settled``, with ``_alphabets``; a Latin
reading of no one language's letters doubted in ``one_alphabet``), the
evidence against a decision (``conflicts``: the checks of ``checks/`` applied in turn to one
record; what they ask of the text in ``conflicts_text``, ``disputes`` for Western
readings with another language's letters and escapes under UTF-8, ``mixedpage`` for a
single-byte decision over UTF-8 runs), how a
body reads as UTF-8 (``utf8profile``; its byte scans in ``utf8scan``, compiled by
``_utf8scan.pyx`` where built), the sample of a page the text checks read once
(``textsample``, compiled in ``_bytetest_c.pyx``), deciding under a host's site overrides given as a
value or an ``OverrideSource`` (``overridden``: the one call every caller makes; the overrides
room above implements the source) and the result records (``models``: ``Decoded``,
``Evidence``, ``Conflict``; built by ``_records_c.pyx`` where compiled). Each ``_*_c.pyx``
(and ``_utf8scan.pyx``) is an optional Cython extension beside the pure-Python reference it is
tested equal to, loaded through ``encoding_core.speedups``.

May import: ``whatwg`` and the root's shared basics (``errors``, ``wording``, ``speedups``);
never the rooms that use it (fetch, warc, fields, overrides, views, cli).
"""
