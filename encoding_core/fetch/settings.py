"""Settings of a fetch: the limits and policy in ``FetchSettings``, and where they come from.

``configured_settings`` reads them from the app's config (the ``[fetch]`` section of
``.streamlit/secrets.toml``), then ``$ENCODING_TRIAGE_ALLOWED_NETWORKS``, then the defaults.
``fetch.py`` applies them. ``settings_and_problems`` is the forgiving reading for a page: a
bad setting is left at its default and described with the form expected, so one mistake in
the secrets file does not take a whole page down.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..limits import MAX_BODY_BYTES
from .addressguard import parse_networks

__all__ = ["ENV_ALLOWED_NETWORKS", "USER_AGENT", "FetchSettings", "configured_settings",
           "settings_and_problems"]

#: What each setting looks like in ``.streamlit/secrets.toml``, for messages about a bad one.
EXPECTED = {
    "allowed_networks": 'allowed_networks = ["127.0.0.1/32", "10.1.0.0/16"] (a list of '
                        "networks; one network may be written as a string)",
    "max_bytes": "max_bytes = 10485760 (a whole number of bytes, above 0)",
    "max_redirects": "max_redirects = 10 (a whole number, 0 or more)",
    "connect_timeout": "connect_timeout = 10.0 (seconds)",
    "read_timeout": "read_timeout = 20.0 (seconds)",
    "total_timeout": "total_timeout = 60.0 (seconds)",
    "user_agent": 'user_agent = "encoding-triage/0.1"',
    "ca_file": 'ca_file = "/etc/ssl/intranet-ca.pem"',
}

ENV_ALLOWED_NETWORKS = "ENCODING_TRIAGE_ALLOWED_NETWORKS"
USER_AGENT = "encoding-triage/0.1 (encoding diagnosis; one page on request; python-httpx)"


@dataclass(frozen=True, slots=True)
class FetchSettings:
    """Limits and policy of one fetch. ``allowed_networks`` opens blocked ranges on purpose."""

    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    total_timeout: float = 60.0
    max_bytes: int = MAX_BODY_BYTES
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
      with any ``FetchSettings`` field (``allowed_networks`` as a list; a string is read as
      comma-separated networks, like the environment variable: a network has no comma);
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
    networks = values["allowed_networks"]
    if isinstance(networks, str):  # "127.0.0.1/32": one network, not the characters of one
        networks = [n.strip() for n in networks.split(",") if n.strip()]
    if not isinstance(networks, list | tuple) or not all(isinstance(n, str) for n in networks):
        raise ValueError(f"allowed_networks: {networks!r} is not a list of networks; write "
                         + EXPECTED["allowed_networks"])
    values["allowed_networks"] = tuple(networks)
    try:
        return FetchSettings(**values)
    except TypeError as exc:
        raise ValueError(f"bad fetch settings: {exc}") from exc


def settings_and_problems(config: Mapping[str, Any] | None = None,
                          environ: Mapping[str, str] | None = None
                          ) -> tuple[FetchSettings, tuple[str, ...]]:
    """The settings ``configured_settings`` reads, each bad one left at its default.

    Returns the settings and one sentence per setting that could not be used, naming it and
    the form expected. An unknown key is reported and ignored.

    >>> settings, problems = settings_and_problems({"allowed_networks": 5, "max_bytes": 7})
    >>> settings.max_bytes, settings.allowed_networks
    (7, ())
    >>> problems[0][:50]
    'allowed_networks: 5 is not a list of networks; wri'
    """
    values = dict(config or {})
    problems: list[str] = []
    good: dict[str, Any] = {}
    for key, value in values.items():
        try:
            configured_settings({**good, key: value}, environ)
        except (ValueError, TypeError) as exc:
            hint = EXPECTED.get(key)
            text = str(exc)
            problems.append(text if hint is None or hint in text else f"{text}; write {hint}")
        else:
            good[key] = value
    try:
        return configured_settings(good, environ), tuple(problems)
    except ValueError as exc:  # a pair of settings wrong together (none today)
        return configured_settings({}, environ), (*problems, str(exc))
