"""Opening a path a task was given: a local file as it is, a URI through pyarrow's file systems.

A crawl's WARC files and a table's CSV exports are seldom on the executor's disk:
``s3a://commoncrawl/crawl-data/...`` (the Hadoop scheme Spark users write), ``s3://``,
``gs://``, ``hdfs://``, ``file://``. The project's readers take a binary stream, so a task opens
such a path with ``pyarrow.fs`` (credentials as pyarrow finds them: the environment, the
instance profile) and hands the stream over; ``s3a://`` is read as ``s3://``, the same bucket.
A path that cannot be opened raises ``OSError`` with the path named, which the jobs report per
file.
"""

from __future__ import annotations

from typing import BinaryIO, cast

__all__ = ["is_uri", "open_input"]


def is_uri(path: str) -> bool:
    """True for ``scheme://...`` (a URI pyarrow's file systems open); False for a local path.

    >>> is_uri("s3a://commoncrawl/x.warc.gz"), is_uri("crawl/x.warc.gz")
    (True, False)
    """
    head, sep, _ = path.partition("://")
    return bool(sep) and head.isalnum()


def open_input(path: str) -> BinaryIO:
    """A seekable binary stream over the file at URI ``path`` (close it when done)."""
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
    import pyarrow.fs as pafs  # type: ignore[import-untyped, unused-ignore]

    uri = "s3://" + path[len("s3a://"):] if path.startswith("s3a://") else path
    try:
        filesystem, inner = pafs.FileSystem.from_uri(uri)
        return cast(BinaryIO, filesystem.open_input_file(inner))   # a pyarrow NativeFile
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise OSError(f"cannot open {path!r}: {exc}") from exc
