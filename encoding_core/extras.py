"""Optional features and the extra that installs each (a shared basic).

The core (``decode``, ``fetch_page``, the overrides, the CLI's ``inspect``) needs only the
package's own dependencies. The heavier features live behind extras:

=========  ===================================  ===========================================
extra      installs                             for
=========  ===================================  ===========================================
fields     pandas, pyarrow, numpy               the field scan (``fields``: CSV, Parquet)
warc       fastwarc                             WARC captures, host reports (``warc``)
metrics    prometheus_client                    ``record_decode``'s counters
spark      pyspark (and fields, warc)           ``encoding_core.spark``
app        streamlit, altair (and all the above) the app
=========  ===================================  ===========================================

A module that needs an extra imports it inside ``needs_extra``: when it is missing, the
import raises ``MissingExtraError`` naming the extra to install.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from .errors import EncodingCoreError

__all__ = ["MissingExtraError", "needs_extra"]

PACKAGE = "encoding-triage"


class MissingExtraError(EncodingCoreError, ImportError):
    """A feature whose optional dependencies are not installed; the message names the extra."""


@contextmanager
def needs_extra(extra: str, feature: str) -> Iterator[None]:
    """Turn a missing module imported in the block into ``MissingExtraError`` naming ``extra``.

    >>> with needs_extra("fields", "the field scan"):
    ...     import no_such_module_here
    Traceback (most recent call last):
    ...
    encoding_core.extras.MissingExtraError: the field scan needs no_such_module_here, ...
    """
    try:
        yield
    except ModuleNotFoundError as exc:
        raise MissingExtraError(
            f"{feature} needs {exc.name}, which is not installed: "
            f"pip install '{PACKAGE}[{extra}]'", name=exc.name) from exc
