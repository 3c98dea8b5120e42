"""The optional Spark layer (``pip install encoding-triage[spark]``): the core's functions over a
crawl's WARC files and a warehouse's tables on Apache Spark, with results identical to the
single-machine ones.

Thin, as cc-pyspark is. ``hostjob.host_report(spark, paths)``: the engine distributes WARC
paths (``manifest.expand_paths`` reads Common Crawl's ``warc.paths`` files) and merges per-host
tallies (``warc.hosttally``); each record is decided by the same ``outcome`` the single-machine
host report uses, under the overrides the driver read (``overrides.lookup``).
``scanjob.scan_table(df)`` runs the field scan's counting in ``mapInArrow`` and merges the
partitions' reports (``ScanReport.merge``); ``scanjob.scan_csv_files`` scans one CSV per task.

May import: every room below it (``warc``, ``fields``, ``overrides``, ``decision`` ...) and the
root's shared basics, and ``pyspark`` only inside the functions that need it, so importing the
room never needs Java.
"""
