"""Settings of a fetch: the limits and policy in ``FetchSettings``, and where they come from.

``configured_settings`` reads them from the app's config (the ``[fetch]`` section of
``.streamlit/secrets.toml``), then ``$ENCODING_TRIAGE_ALLOWED_NETWORKS``, then the defaults.
``fetch.py`` applies them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .addressguard import parse_networks

__all__ = ["ENV_ALLOWED_NETWORKS", "USER_AGENT", "FetchSettings", "configured_settings"]

ENV_ALLOWED_NETWORKS = "ENCODING_TRIAGE_ALLOWED_NETWORKS"
USER_AGENT = "encoding-triage/0.1 (encoding diagnosis; one page on request; python-httpx)"


@dataclass(frozen=True, slots=True)
class FetchSettings:
    """Limits and policy of one fetch. ``allowed_networks`` opens blocked ranges on purpose."""

    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    total_timeout: float = 60.0
    max_bytes: int = 10 * 1024 * 1024
    max_redirects: int = 10
    allowed_networks: tuple[str, ...] = ()
    user_agent: str = USER_AGENT
    ca_file: str | None = None  # extra trust, for an intranet host with its own CA

    def __post_init__(self) -> None:
        parse_networks(self.allowed_networks)  # raises ValueError naming a bad entry
        if self.max_bytes <= 0 or self.max_redirects < 0:
            raise ValueError("max_bytes must be positive and max_redirects not negative")


def configured_settings(config: Mapping[str, Any] | None = None,
                        environ: Mapping[str, str] | None = None) -> FetchSettings:
    """FetchSettings from the app's config, then the environment, then the defaults.

    - ``config`` is a mapping such as the ``[fetch]`` section of ``.streamlit/secrets.toml``,
      with any ``FetchSettings`` field (``allowed_networks`` as a list);
    - ``$ENCODING_TRIAGE_ALLOWED_NETWORKS`` (comma-separated) when the config has no
      ``allowed_networks``.

    Raises ValueError naming an unknown key or a bad value.

    >>> configured_settings({"max_bytes": 5}, {ENV_ALLOWED_NETWORKS: "10.0.0.0/8, ::1"})
    ... # doctest: +ELLIPSIS
    FetchSettings(..., max_bytes=5, ..., allowed_networks=('10.0.0.0/8', '::1'), ...)
    """
    values = dict(config or {})
    fields = set(FetchSettings.__dataclass_fields__)
    unknown = sorted(set(values) - fields - {"landing_dir", "retention_days", "warc_dir",
                                             "landing_max_bytes"})
    if unknown:
        raise ValueError(f"unknown fetch setting(s): {', '.join(unknown)}")
    values = {k: v for k, v in values.items() if k in fields}
    if "allowed_networks" not in values:
        env = (environ if environ is not None else os.environ).get(ENV_ALLOWED_NETWORKS, "")
        values["allowed_networks"] = [n.strip() for n in env.split(",") if n.strip()]
    values["allowed_networks"] = tuple(values["allowed_networks"])
    try:
        return FetchSettings(**values)
    except TypeError as exc:
        raise ValueError(f"bad fetch settings: {exc}") from exc
