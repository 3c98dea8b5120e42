"""The app's fetch configuration, read once for every page that fetches.

The ``[fetch]`` section of ``.streamlit/secrets.toml`` (any ``FetchSettings`` field, plus
``landing_dir``, ``retention_days`` and ``warc_dir``), then the ``ENCODING_TRIAGE_*``
environment variables, then the defaults (see ``fetch.configured_settings`` and
``landing.configured_zone``). A setting that cannot be used is reported with ``st.warning``
(which setting, the form expected) and left at its default: the rest of the page works
(``fetch.settings.settings_and_problems``).
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.errors import StreamlitSecretNotFoundError

from encoding_core.fetch.client import FetchSettings
from encoding_core.fetch.settings import settings_and_problems
from encoding_core.warc.landing import LandingZone, configured_zone
from ui.components import md_escape


def fetch_config() -> tuple[FetchSettings, LandingZone, dict[str, Any]]:
    """Fetch settings, landing zone and the raw section; a bad setting is warned about and
    left at its default, never fatal to the page."""
    try:
        section = dict(st.secrets.get("fetch", {}))
    except StreamlitSecretNotFoundError:
        section = {}
    settings, problems = settings_and_problems(section)
    try:
        zone = configured_zone(section)
    except ValueError as exc:
        zone = configured_zone({})
        problems += (f"{exc}; write landing_dir = \"/srv/triage/landing\" and "
                     "retention_days = 7",)
    for problem in problems:
        st.warning("A setting in the [fetch] section of .streamlit/secrets.toml is not used "
                   f"(its default applies): {md_escape(problem)}")
    return settings, zone, section
