"""The app's and the CLI's data folder: where the overrides file and the landing zone live.

One of the root's shared basics: both ``overrides`` and ``warc`` ask it, so the two cannot
disagree about where "the data folder" is.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["DATA_ENV_VAR", "DEFAULT_DATA_FOLDER", "data_folder"]

#: Environment variable naming the data folder.
DATA_ENV_VAR = "ENCODING_TRIAGE_DATA"
#: The data folder when the variable is not set, relative to the working directory (``make
#: run`` and the CLI run in the project folder, so it is ``<project>/data``).
DEFAULT_DATA_FOLDER = Path("data")


def data_folder(environ: Mapping[str, str] | None = None) -> Path:
    """``$ENCODING_TRIAGE_DATA`` (``~`` expanded) when set, else ``data`` in the working directory.

    >>> data_folder({"ENCODING_TRIAGE_DATA": "/srv/triage"})
    PosixPath('/srv/triage')
    >>> data_folder({})
    PosixPath('data')
    """
    env = os.environ if environ is None else environ
    configured = env.get(DATA_ENV_VAR, "").strip()
    return Path(configured).expanduser() if configured else DEFAULT_DATA_FOLDER
