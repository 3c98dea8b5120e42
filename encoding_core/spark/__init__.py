"""The optional Spark layer (``pip install encoding-triage[spark]``): the core's functions over a
crawl's WARC files on Apache Spark, with results identical to the single-machine report.

Thin, as cc-pyspark is: the engine distributes WARC paths and merges per-host tallies
(``warc.hosttally``); each record is decided by the same ``outcome`` the single-machine host
report uses. ``host_report(spark, paths)`` is in ``hostjob``.

May import: every room below it (``warc``, ``decision`` ...) and the root's shared basics, and
``pyspark`` only inside the functions that need it, so importing the room never needs Java.
"""
