"""``pandas_warning_ignored()``: PySpark 4.3's one warning about pandas >= 3, and only it, off.

PySpark 4.3 warns "does not yet fully support pandas >= 3.0.0" when it is imported and when
``mapInArrow`` runs, whatever the job does with pandas. This layer hands Spark Arrow batches,
not pandas frames, and the Spark tests check its results with the pinned pandas 3, so that
message is noise to a user of ``encoding-triage spark``. Everything else PySpark says stays.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator

__all__ = ["PANDAS_WARNING", "pandas_warning_ignored"]

#: The start of the message, as a regular expression (what ``warnings.filterwarnings`` takes).
PANDAS_WARNING = r"PySpark does not yet fully support pandas >= 3\.0\.0"


@contextlib.contextmanager
def pandas_warning_ignored() -> Iterator[None]:
    """Inside: that one FutureWarning is ignored; the filters are restored after."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", PANDAS_WARNING, FutureWarning)
        yield
