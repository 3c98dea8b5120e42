"""The app's fetch configuration, read once for every page that fetches.

The ``[fetch]`` section of ``.streamlit/secrets.toml`` (any ``FetchSettings`` field, plus
``landing_dir``, ``retention_days`` and ``warc_dir``), then the ``ENCODING_TRIAGE_*``
environment variables, then the defaults (see ``fetch.configured_settings`` and
``landing.configured_zone``).
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.errors import StreamlitSecretNotFoundError

from encoding_core.fetch.client import FetchSettings, configured_settings
from encoding_core.warc.landing import LandingZone, configured_zone
from ui.components import md_escape


def fetch_config() -> tuple[FetchSettings, LandingZone, dict[str, Any]]:
    """Fetch settings, landing zone and the raw section; an unusable config stops the page."""
    try:
        section = dict(st.secrets.get("fetch", {}))
    except StreamlitSecretNotFoundError:
        section = {}
    try:
        return configured_settings(section), configured_zone(section), section
    except ValueError as exc:
        st.error(f"The fetch settings are not usable: {md_escape(str(exc))}")
        st.stop()
        raise AssertionError("unreachable") from exc  # st.stop() raises
